// A port's physical ports added to its link aggregation group (addToLag), and the VLANs in use on it
// (getVlans): those a live connection's side takes and those an unused service token reserves, the same
// claims a connection create and validateConnections check.

import { describe, expect, it } from "vitest";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { useSimulator } from "../support/sim.js";
import { DIRECT_PROFILE, coloSide, problem, profileSide, provisioned, qinqSide, seededPort } from "./connections-fixtures.js";

const t = useSimulator();

/** The description's COLO example of addToLag, in the port's metro and the seeded account. */
function physicalPort(ibx: string, portA: number) {
  return {
    type: "XF_PHYSICAL_PORT",
    demarcationPoint: { ibx, cabinetUniqueSpaceId: `${ibx}:02:032575:0105`, cageUniqueSpaceId: `${ibx}:02:032575`, patchPanel: "PP:0105:1260379", patchPanelPortA: portA, patchPanelPortB: portA + 1, connectorType: "LC" },
    account: { accountNumber: 270848 },
    order: {
      purchaseOrder: { number: 156576, amount: 10, startDate: "2018-06-11T22:25:52.206Z", endDate: "2018-07-11T22:25:52.206Z", type: "NEW" },
      signature: { signatory: "DELEGATE", delegate: { firstName: "John", lastName: "Doe", email: "john.doe@company.com" } },
    },
    notifications: [{ registeredUsers: ["jaguarsuser-port-order"], type: "NOTIFICATION" }],
  };
}

const addToLag = (port: string, data: unknown[]) => t.call("POST", `/fabric/v4/ports/${port}/physicalPorts/bulk`, { body: { data } });

describe("POST /fabric/v4/ports/{portId}/physicalPorts/bulk (addToLag)", () => {
  it("orders physical ports for a link aggregation group, whose bandwidth grows once they are in service", async () => {
    const port = seededPort("AM", "PRIMARY");
    expect(problem((await addToLag(port, [physicalPort("AM1", 14)])).body)).toMatchObject({ errorCode: "EQ-3143135", additionalInfo: [{ property: "portId" }] });
    expect((await t.call("PATCH", `/fabric/v4/ports/${port}`, { body: [{ op: "replace", path: "/lagEnabled", value: true }] })).status).toBe(202);

    const res = await addToLag(port, [physicalPort("AM1", 14), { loas: [{ uuid: "64de7e5-7fe7-41e6-b984-80d5aa159a0e" }] }, physicalPort("AM1", 16)]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({
      type: "XF_PHYSICAL_PORT",
      state: "PROVISIONING",
      demarcationPoint: { ibx: "AM1", patchPanelPortA: "14", patchPanelPortB: "15" },
      order: { orderNumber: expect.stringMatching(/^1-\d{12}$/), purchaseOrder: { number: "156576" } },
      loas: [{ uuid: "64de7e5-7fe7-41e6-b984-80d5aa159a0e" }],
    });
    const ordered = (await t.call("GET", `/fabric/v4/ports/${port}`)).body;
    expect(ordered).toMatchObject({ physicalPortsCount: 3, bandwidth: 10_000 });
    const inService = await t.waitFor(`/fabric/v4/ports/${port}`, "/physicalPorts/1/state", "ACTIVE");
    expect(inService).toMatchObject({ physicalPortsCount: 3, bandwidth: 30_000, availableBandwidth: 30_000 });
  });

  it("refuses a demarcation point in another metro, another's account, an unknown port, and more than 8 physical ports", async () => {
    const port = seededPort("FR", "PRIMARY");
    await t.call("PATCH", `/fabric/v4/ports/${port}`, { body: [{ op: "replace", path: "/lagEnabled", value: true }] });
    expect(problem((await addToLag(port, [physicalPort("AM1", 14)])).body).additionalInfo?.[0]?.property).toBe("/data/0/demarcationPoint/ibx");
    expect(problem((await addToLag(port, [{ ...physicalPort("FR1", 14), account: { accountNumber: 1 } }])).body)).toMatchObject({ errorCode: "EQ-3143124" });
    expect(problem((await addToLag(port, [{ ...physicalPort("FR1", 14), state: "ACTIVE" }])).body).additionalInfo?.[0]?.property).toBe("/data/0/state");
    expect(problem((await addToLag(port, [])).body).additionalInfo?.[0]?.property).toBe("/data");
    expect((await addToLag(port, Array.from({ length: 8 }, (_, i) => physicalPort("FR1", 2 * i)))).status).toBe(400);
    expect((await addToLag("0c5d0c8b-0000-4000-8000-000000000000", [physicalPort("FR1", 14)])).status).toBe(404);
  });
});

describe("GET /fabric/v4/ports/{portUuid}/linkProtocols (getVlans)", () => {
  it("lists the VLANs live connections take and unused service tokens reserve, and no longer those of a deleted connection", async () => {
    const { port, vlanTag, uuid: token } = SEEDED_ENDPOINTS.serviceToken;
    const taken = await provisioned(t, { aSide: coloSide(port, 1200), zSide: profileSide(DIRECT_PROFILE, "DC"), bandwidth: 200 });
    const res = await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 2 });
    expect(res.body.data).toEqual([
      expect.objectContaining({ type: "DOT1Q", vlanTag: 1200, state: "RESERVED", asset: { href: `/fabric/v4/connections/${taken}`, uuid: taken, type: "EVPL_VC", bandwidth: 200 } }),
      expect.objectContaining({ type: "DOT1Q", vlanTag, state: "RESERVED", serviceToken: expect.objectContaining({ uuid: token, type: "VC_TOKEN" }) }),
    ]);
    // Each holds its own identifier, the same on every read.
    expect(res.body.data[0].uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols`)).body.data[0].uuid).toBe(res.body.data[0].uuid);

    await t.call("DELETE", `/fabric/v4/connections/${taken}`);
    await t.waitFor(`/fabric/v4/connections/${taken}`, "/state", "DEPROVISIONED");
    expect((await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols`)).body.data.map((v: { vlanTag: number }) => v.vlanTag)).toEqual([vlanTag]);
  });

  it("lists QINQ pairs in order of their tags, and pages them", async () => {
    const port = seededPort("SV", "QINQ");
    await provisioned(t, { aSide: qinqSide(port, 500, 20), zSide: profileSide(DIRECT_PROFILE, "SV") });
    await provisioned(t, { aSide: qinqSide(port, 400), zSide: profileSide(DIRECT_PROFILE, "SV"), redundancy: undefined });
    const res = await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols?limit=1`);
    expect(res.body.data).toEqual([expect.objectContaining({ type: "QINQ", vlanSTag: 400 })]);
    expect(res.body.pagination).toMatchObject({ total: 2, next: `/fabric/v4/ports/${port}/linkProtocols?limit=1&offset=1` });
    expect((await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols?offset=1`)).body.data).toEqual([expect.objectContaining({ vlanSTag: 500, vlanCTag: 20 })]);
  });

  it("refuses a port the caller cannot see, and an id that is not a uuid, with 400", async () => {
    const port = seededPort("DC", "PRIMARY");
    expect(problem((await t.call("GET", `/fabric/v4/ports/${port}/linkProtocols`, { client: "limited" })).body)).toMatchObject({ errorCode: "EQ-2012010", additionalInfo: [{ property: "portUuid" }] });
    expect((await t.call("GET", "/fabric/v4/ports/nope/linkProtocols")).status).toBe(400);
  });
});
