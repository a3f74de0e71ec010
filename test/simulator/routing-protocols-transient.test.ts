import { describe, expect, it } from "vitest";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

// A slow clock: these tests act while an instance is between states, which lasts about a second here.
const t = useSimulator({ speed: 20 });

const base = (connection: string) => `/fabric/v4/connections/${connection}/routingProtocols`;

const DIRECT = { type: "DIRECT", directIpv4: { equinixIfaceIp: "10.0.0.1/30" } };
const BGP = { type: "BGP", bgpIpv4: { customerPeerIp: "10.0.0.2" }, customerAsn: 65001 };

async function provisioned(sim: TestSim, connection: string, body: object): Promise<string> {
  const res = await sim.call("POST", base(connection), { body });
  expect(res.status).toBe(202);
  await sim.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid;
}

describe("routing protocols in transitional states", () => {
  it("refuses BGP while the DIRECT instance is still provisioning", async () => {
    const connection = seedConnection(t);
    const direct = await t.call("POST", base(connection), { body: DIRECT });
    const early = await t.call("POST", base(connection), { body: BGP });
    expect(early.status).toBe(400);
    expect(early.body[0]).toMatchObject({
      errorCode: "EQ-3041012",
      errorMessage: "The system is unable to process your request.",
      additionalInfo: [{ property: "routingProtocolId", value: direct.body.uuid }],
    });
    const bulk = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [BGP] } });
    expect(bulk.body[0].errorCode).toBe("EQ-3041012");
  });

  it("refuses to patch, replace or delete an instance that is reprovisioning", async () => {
    const connection = seedConnection(t);
    await provisioned(t, connection, DIRECT);
    const bgp = await provisioned(t, connection, BGP);
    const path = `${base(connection)}/${bgp}`;
    expect((await t.call("PATCH", path, { body: [{ op: "replace", path: "/bgpIpv4/enabled", value: false }] })).status).toBe(202);
    const patch = await t.call("PATCH", path, { body: [{ op: "replace", path: "/bgpIpv4/enabled", value: true }] });
    expect(patch.body[0].errorCode).toBe("EQ-3041012");
    expect((await t.call("PUT", path, { body: BGP })).body[0].errorCode).toBe("EQ-3041012");
    expect((await t.call("DELETE", path)).body[0].errorCode).toBe("EQ-3041012");
  });

  it("refuses to delete DIRECT while the BGP instance is deprovisioning", async () => {
    const connection = seedConnection(t);
    const direct = await provisioned(t, connection, DIRECT);
    const bgp = await provisioned(t, connection, BGP);
    expect((await t.call("DELETE", `${base(connection)}/${bgp}`)).status).toBe(202);
    expect((await t.call("DELETE", `${base(connection)}/${direct}`)).body[0].errorCode).toBe("EQ-3041012");
  });

  it("shows a change as REQUESTED until its operation is done, then COMPLETED", async () => {
    const connection = seedConnection(t);
    const direct = await t.call("POST", base(connection), { body: DIRECT });
    const path = `${base(connection)}/${direct.body.uuid}/changes/${direct.body.change.uuid}`;
    const pending = await t.call("GET", path);
    expect(pending.body).toMatchObject({ type: "ROUTING_PROTOCOL_CREATION", status: "REQUESTED" });
    expect(pending.body.updatedDateTime).toBe(pending.body.createdDateTime);
    const done = await t.waitFor(path, "/status", "COMPLETED");
    expect(done.updatedDateTime > done.createdDateTime).toBe(true);
  });
});
