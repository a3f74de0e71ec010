import { describe, expect, it } from "vitest";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { seedDevice, seedNetwork, seedRouter, seedServiceToken } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import {
  DIRECT_PROFILE,
  PRODUCTION,
  SANDBOX,
  STORAGE_PROFILE,
  coloSide,
  connectionBody,
  deviceSide,
  problem,
  profileSide,
  provisioned,
  qinqSide,
  seededPort,
} from "./connections-fixtures.js";

const t = useSimulator();
const CONNECTIONS = "/fabric/v4/connections";

async function expectProblem(body: Record<string, unknown>, code: string, property: string, client: "demo" | "limited" = "demo") {
  const res = await t.call("POST", CONNECTIONS, { body, client });
  expect(res.status, res.text).toBe(400);
  expect(problem(res.body).errorCode).toBe(code);
  expect(problem(res.body).additionalInfo?.[0]?.property).toBe(property);
  return problem(res.body).additionalInfo![0]!.reason;
}

describe("POST /fabric/v4/connections: a port to a service profile", () => {
  it("answers 201 with the connection PENDING_AUTO_APPROVAL, then provisions it on the clock", async () => {
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody() });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      href: `/fabric/v4/connections/${c.uuid}`,
      type: "EVPL_VC",
      name: "dc-to-direct",
      state: "PENDING_AUTO_APPROVAL",
      operation: { equinixStatus: "PROVISIONING", providerStatus: "NOT_AVAILABLE" },
      order: { purchaseOrderNumber: "PO-1", billingTier: "Up to 200 MB" },
      bandwidth: 100,
      redundancy: { group: "g-1", priority: "PRIMARY" },
      direction: "OUTGOING",
      isRemote: true,
      account: { accountNumber: 270848, orgId: 216504 },
      changeLog: { createdBy: "demo-user", createdByEmail: "demo.user@example.com" },
      change: { type: "CONNECTION_CREATION", status: "REQUESTED" },
      project: { projectId: PRODUCTION },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
    });
    expect(c.aSide.accessPoint).toMatchObject({
      type: "COLO",
      port: { uuid: seededPort("DC", "PRIMARY"), type: "XF_PORT", href: `/fabric/v4/ports/${seededPort("DC", "PRIMARY")}`, redundancy: { priority: "PRIMARY" } },
      linkProtocol: { type: "DOT1Q", vlanTag: 100 },
      location: { metroCode: "DC", metroName: "Washington, D.C.", region: "AMER" },
    });
    expect(c.aSide.accessPoint.port.name).toMatch(/DC1/);
    expect(c.zSide.accessPoint).toMatchObject({ type: "SP", profile: { uuid: DIRECT_PROFILE, type: "L2_PROFILE", name: "CloudExchange Direct" }, location: { metroCode: "DC" } });
    const done = await t.waitFor(`${CONNECTIONS}/${c.uuid}`, "/state", "PROVISIONED");
    expect(done.operation).toEqual({ equinixStatus: "PROVISIONED", providerStatus: "AVAILABLE" });
    expect(done.change.status).toBe("COMPLETED");
  });

  it("records a cloud event for each state of the connection", async () => {
    const uuid = await provisioned(t);
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { assetUuid: string }) => e.assetUuid === uuid);
    expect(events.map((e: { state: string }) => e.state)).toEqual(["PENDING_AUTO_APPROVAL", "PROVISIONING", "PROVISIONED"]);
    expect(events[0]).toMatchObject({ type: "equinix.fabric.connection.state", subject: `/fabric/v4/connections/${uuid}`, actor: "demo-user" });
  });

  it("ends FAILED under a transition fault", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 1 } } });
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody() });
    const failed = await t.waitFor(`${CONNECTIONS}/${res.body.uuid}`, "/state", "FAILED");
    expect(failed.operation).toEqual({ equinixStatus: "NOT_PROVISIONED", providerStatus: "FAILED" });
    expect(failed.change).toMatchObject({ type: "CONNECTION_CREATION", status: "FAILED" });
  });

  it("refuses a service profile that does not exist, is not offered in the metro, or lacks the bandwidth", async () => {
    await expectProblem(connectionBody({ zSide: profileSide("0b0b0b0b-0000-4000-8000-000000000000", "DC") }), "EQ-2012010", "/zSide/accessPoint/profile/uuid");
    const reason = await expectProblem(connectionBody({ zSide: profileSide(STORAGE_PROFILE, "SV") }), "EQ-2010010", "/zSide/accessPoint/location/metroCode");
    expect(reason).toMatch(/not offered in SV/);
    await expectProblem(connectionBody({ bandwidth: 150 }), "EQ-2012025", "/bandwidth");
    await expectProblem(connectionBody({ zSide: { accessPoint: { type: "SP", profile: { uuid: DIRECT_PROFILE } } } }), "EQ-2012011", "/zSide/accessPoint/location");
    await expectProblem(connectionBody({ zSide: { accessPoint: { type: "SP", profile: { type: "L3_PROFILE", uuid: DIRECT_PROFILE }, location: { metroCode: "DC" } } } }), "EQ-2012025", "/zSide/accessPoint/profile/type");
  });
});

describe("POST /fabric/v4/connections: colocation ports", () => {
  it("connects two DOT1Q ports in one metro", async () => {
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ zSide: coloSide(seededPort("DC", "SECONDARY"), 200), bandwidth: 1000 }) });
    expect(res.status).toBe(201);
    expect(res.body.zSide.accessPoint).toMatchObject({ type: "COLO", port: { uuid: seededPort("DC", "SECONDARY"), redundancy: { priority: "SECONDARY" } }, linkProtocol: { vlanTag: 200 } });
  });

  it("connects a QINQ port of the sandbox for the limited client, who cannot see production ports", async () => {
    const body = connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300, 40), project: { projectId: SANDBOX } });
    const res = await t.call("POST", CONNECTIONS, { body, client: "limited" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.aSide.accessPoint.linkProtocol).toEqual({ type: "QINQ", vlanSTag: 300, vlanCTag: 40 });
    expect(res.body.account.accountNumber).toBe(270849);
    await expectProblem(connectionBody({ project: { projectId: SANDBOX } }), "EQ-2012010", "/aSide/accessPoint/port/uuid", "limited");
  });

  it("refuses a project the caller cannot use with 403", async () => {
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300) }), client: "limited" });
    expect(res.status).toBe(403);
    expect(problem(res.body).additionalInfo?.[0]?.property).toBe("/project/projectId");
  });

  it("requires the link protocol of the port's encapsulation, with tags from 2 to 4094", async () => {
    await expectProblem(connectionBody({ aSide: qinqSide(seededPort("DC", "PRIMARY"), 300) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/type");
    await expectProblem(connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 1) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/vlanTag");
    await expectProblem(connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 4095) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/vlanTag");
    await expectProblem(connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 2.5) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/vlanTag");
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "COLO", port: { uuid: seededPort("DC", "PRIMARY") }, linkProtocol: { type: "DOT1Q" } } } }), "EQ-2012011", "/aSide/accessPoint/linkProtocol/vlanTag");
    await expectProblem(connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300, 4095), project: { projectId: SANDBOX } }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/vlanCTag");
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "COLO", port: { uuid: seededPort("DC", "PRIMARY") } } } }), "EQ-2012011", "/aSide/accessPoint/linkProtocol");
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "COLO" } } }), "EQ-2012011", "/aSide/accessPoint/port");
    await expectProblem(connectionBody({ aSide: coloSide("nope", 100) }), "EQ-2012010", "/aSide/accessPoint/port/uuid");
  });

  it("keeps a VLAN tag unique per port among live connections, and frees it on deletion", async () => {
    const first = await provisioned(t);
    const reason = await expectProblem(connectionBody(), "EQ-2010010", "/aSide/accessPoint/linkProtocol");
    expect(reason).toContain(first);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: coloSide(seededPort("DC", "SECONDARY"), 100) }) })).status).toBe(201);
    await t.call("DELETE", `${CONNECTIONS}/${first}`);
    await t.waitFor(`${CONNECTIONS}/${first}`, "/state", "DEPROVISIONED");
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody() })).status).toBe(201);
  });

  it("keeps QINQ tag pairs unique: a pair, or an outer tag taken whole", async () => {
    const sandbox = { project: { projectId: SANDBOX } };
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300, 40), ...sandbox }) })).status).toBe(201);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300, 41), ...sandbox }) })).status).toBe(201);
    await expectProblem(connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300, 40), ...sandbox }), "EQ-2010010", "/aSide/accessPoint/linkProtocol");
    await expectProblem(connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300), ...sandbox }), "EQ-2010010", "/aSide/accessPoint/linkProtocol");
  });

  it("refuses the same VLAN on the same port on both sides", async () => {
    await expectProblem(connectionBody({ zSide: coloSide(seededPort("DC", "PRIMARY"), 100) }), "EQ-2010010", "/zSide/accessPoint/linkProtocol");
  });

  it("keeps connections within the port's available bandwidth", async () => {
    await provisioned(t, { zSide: coloSide(seededPort("DC", "SECONDARY"), 10), bandwidth: 6000 });
    const reason = await expectProblem(connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 11), zSide: coloSide(seededPort("SV", "PRIMARY"), 10), bandwidth: 5000 }), "EQ-2010010", "/bandwidth");
    expect(reason).toMatch(/4000 Mbps available on port/);
  });

  it("gives a port's bandwidth back when a connection shrinks, is deleted or fails to provision, for the next to use", async () => {
    const [dcPrimary, dcSecondary] = [seededPort("DC", "PRIMARY"), seededPort("DC", "SECONDARY")];
    const onPorts = (vlanTag: number, bandwidth: number) => connectionBody({ aSide: coloSide(dcPrimary, vlanTag), zSide: coloSide(dcSecondary, vlanTag), bandwidth });
    const wide = await provisioned(t, { aSide: coloSide(dcPrimary, 20), zSide: coloSide(dcSecondary, 20), bandwidth: 6000 });
    expect(await expectProblem(onPorts(21, 5000), "EQ-2010010", "/bandwidth")).toMatch(`4000 Mbps available on port ${dcPrimary}`);

    expect((await t.call("PATCH", `${CONNECTIONS}/${wide}`, { body: [{ op: "replace", path: "/bandwidth", value: 2000 }] })).status).toBe(202);
    const middle = await t.call("POST", CONNECTIONS, { body: onPorts(21, 5000) });
    expect(middle.status, middle.text).toBe(201);
    expect(await expectProblem(onPorts(22, 4000), "EQ-2010010", "/bandwidth")).toMatch("3000 Mbps available");

    await t.waitFor(`${CONNECTIONS}/${middle.body.uuid}`, "/state", "PROVISIONED");
    expect((await t.call("DELETE", `${CONNECTIONS}/${middle.body.uuid}`)).status).toBe(200);
    await t.waitFor(`${CONNECTIONS}/${middle.body.uuid}`, "/state", "DEPROVISIONED");
    expect((await t.call("POST", CONNECTIONS, { body: onPorts(22, 4000) })).status).toBe(201);

    // 4000 Mbps left: a connection that takes them and fails to provision leaves them to the next one.
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 1 } } });
    const failing = await t.call("POST", CONNECTIONS, { body: onPorts(23, 4000) });
    expect(failing.status, failing.text).toBe(201);
    expect(await expectProblem(onPorts(24, 1), "EQ-2010010", "/bandwidth")).toMatch("0 Mbps available");
    await t.waitFor(`${CONNECTIONS}/${failing.body.uuid}`, "/state", "FAILED");
    expect((await t.call("POST", CONNECTIONS, { body: onPorts(24, 4000) })).status).toBe(201);
  });
});

describe("POST /fabric/v4/connections: virtual devices, networks, cloud routers and service tokens", () => {
  it("connects a virtual device interface to a service profile", async () => {
    const device = seedDevice(t);
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: deviceSide(device) }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.aSide.accessPoint).toMatchObject({
      type: "VD",
      virtualDevice: { uuid: device, type: "EDGE", href: `/ne/v1/devices/${device}` },
      interface: { type: "NETWORK", id: 5 },
      location: { metroCode: "DC" },
    });
  });

  it("takes tag ranges in place of single tags at a virtual device, and requires one or the other", async () => {
    const device = seedDevice(t);
    const ranged = deviceSide(device, { linkProtocol: { type: "QINQ", vlanSTag: 10, vlanCTagMin: 20, vlanCTagMax: 30 } });
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: ranged }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.aSide.accessPoint.linkProtocol).toEqual({ type: "QINQ", vlanSTag: 10, vlanCTagMin: 20, vlanCTagMax: 30 });
    await expectProblem(connectionBody({ aSide: deviceSide(device, { linkProtocol: { type: "DOT1Q" } }) }), "EQ-2012011", "/aSide/accessPoint/linkProtocol/vlanTagMin");
    await expectProblem(connectionBody({ aSide: deviceSide(device, { linkProtocol: { type: "DOT1Q", vlanTagMin: 20 } }) }), "EQ-2012011", "/aSide/accessPoint/linkProtocol/vlanTagMax");
    await expectProblem(connectionBody({ aSide: deviceSide(device, { linkProtocol: { type: "QINQ", vlanSTag: 10 } }) }), "EQ-2012011", "/aSide/accessPoint/linkProtocol/vlanCTagMin");
    await expectProblem(connectionBody({ aSide: deviceSide(device, { linkProtocol: { type: "DOT1Q", vlanTagMin: 30, vlanTagMax: 20 } }) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol/vlanTagMin");
  });

  it("refuses unknown, foreign or unprovisioned devices and a malformed interface", async () => {
    await expectProblem(connectionBody({ aSide: deviceSide("0d0d0d0d-0000-4000-8000-000000000000") }), "EQ-2012010", "/aSide/accessPoint/virtualDevice/uuid");
    await expectProblem(connectionBody({ aSide: deviceSide(seedDevice(t)), project: { projectId: SANDBOX } }), "EQ-2012010", "/aSide/accessPoint/virtualDevice/uuid", "limited");
    await expectProblem(connectionBody({ aSide: deviceSide(seedDevice(t, { status: "PROVISIONING" })) }), "EQ-2010010", "/aSide/accessPoint/virtualDevice/uuid");
    const device = seedDevice(t);
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid: device }, interface: { type: "NETWORK", id: "five" } } } }), "EQ-2010010", "/aSide/accessPoint/interface/id");
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "VD", virtualDevice: { type: "CORE", uuid: device } } } }), "EQ-2012025", "/aSide/accessPoint/virtualDevice/type");
  });

  it("allows less bandwidth between distant metros, and at most the local maximum within one", async () => {
    const device = seedDevice(t);
    const far = await expectProblem(connectionBody({ aSide: deviceSide(device), zSide: profileSide(DIRECT_PROFILE, "SG"), bandwidth: 10000 }), "EQ-2010010", "/bandwidth");
    expect(far).toMatch(/5000 Mbps allowed for a connection between DC and SG/);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: deviceSide(device), zSide: profileSide(DIRECT_PROFILE, "SG"), bandwidth: 5000 }) })).status).toBe(201);
    const routerSide = { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: seedRouter(t) } } };
    const local = await expectProblem(connectionBody({ type: "IP_VC", aSide: routerSide, zSide: deviceSide(device), bandwidth: 60000 }), "EQ-2010010", "/bandwidth");
    expect(local).toMatch(/50000 Mbps allowed for a local connection in DC/);
    await expectProblem(connectionBody({ bandwidth: 100001 }), "EQ-2010010", "/bandwidth");
  });

  it("refers to networks, cloud routers and service tokens that exist", async () => {
    const network = seedNetwork(t);
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "EVPLAN_VC", zSide: { accessPoint: { type: "NETWORK", network: { uuid: network } } } }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.zSide.accessPoint.network).toMatchObject({ uuid: network, type: "EVPLAN", scope: "GLOBAL" });
    expect(res.body.isRemote).toBe(false);
    const token = seedServiceToken(t);
    const viaToken = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 101), zSide: { serviceToken: { uuid: token } } }) });
    expect(viaToken.status, viaToken.text).toBe(201);
    expect(viaToken.body.zSide.serviceToken).toMatchObject({ uuid: token, type: "VC_TOKEN" });
    const unknown = "0e0e0e0e-0000-4000-8000-000000000000";
    await expectProblem(connectionBody({ zSide: { accessPoint: { type: "NETWORK", network: { uuid: unknown } } } }), "EQ-2012010", "/zSide/accessPoint/network/uuid");
    await expectProblem(connectionBody({ aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: unknown } } } }), "EQ-2012010", "/aSide/accessPoint/router/uuid");
    await expectProblem(connectionBody({ zSide: { serviceToken: { uuid: unknown } } }), "EQ-2012010", "/zSide/serviceToken/uuid");
    await expectProblem(connectionBody({ zSide: { accessPoint: { type: "CHAINGROUP" } } }), "EQ-2012025", "/zSide/accessPoint/type");
  });
});

describe("POST /fabric/v4/connections: the request's own fields", () => {
  it("requires type, name, order, bandwidth, both sides and notifications", async () => {
    for (const field of ["type", "name", "order", "bandwidth", "aSide", "zSide", "notifications"]) {
      await expectProblem(connectionBody({ [field]: undefined }), "EQ-2012011", `/${field}`);
    }
  });

  it("checks types and enumerations", async () => {
    await expectProblem(connectionBody({ type: "XX_VC" }), "EQ-2012025", "/type");
    await expectProblem(connectionBody({ name: 7 }), "EQ-2010010", "/name");
    await expectProblem(connectionBody({ name: "" }), "EQ-2010010", "/name");
    await expectProblem(connectionBody({ bandwidth: "100" }), "EQ-2010010", "/bandwidth");
    await expectProblem(connectionBody({ bandwidth: 0 }), "EQ-2010010", "/bandwidth");
    await expectProblem(connectionBody({ order: "PO-1" }), "EQ-2010010", "/order");
    await expectProblem(connectionBody({ order: { purchaseOrderNumber: 12 } }), "EQ-2010010", "/order/purchaseOrderNumber");
    await expectProblem(connectionBody({ redundancy: { group: "g" } }), "EQ-2012011", "/redundancy/priority");
    await expectProblem(connectionBody({ redundancy: { group: "g", priority: "TERTIARY" } }), "EQ-2012025", "/redundancy/priority");
    await expectProblem(connectionBody({ aSide: "port" }), "EQ-2010010", "/aSide");
  });

  it("makes a connection without redundancy the primary of its own group", async () => {
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ redundancy: undefined }) });
    expect(res.body.redundancy.priority).toBe("PRIMARY");
    expect(res.body.redundancy.group).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("takes 1 to 12 notification addresses of a known type", async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `n${i}@example.com`);
    const ok = await t.call("POST", CONNECTIONS, { body: connectionBody({ notifications: [{ type: "ALL", emails: twelve.slice(0, 6) }, { type: "BANDWIDTH_ALERT", emails: twelve.slice(6) }] }) });
    expect(ok.status).toBe(201);
    const reason = await expectProblem(connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 101), notifications: [{ type: "ALL", emails: [...twelve, "x@example.com"] }] }), "EQ-2010010", "/notifications");
    expect(reason).toMatch(/at most 12/);
    await expectProblem(connectionBody({ notifications: [] }), "EQ-2010010", "/notifications");
    await expectProblem(connectionBody({ notifications: [{ type: "ALL", emails: [] }] }), "EQ-2010010", "/notifications/0/emails");
    await expectProblem(connectionBody({ notifications: [{ type: "ALL" }] }), "EQ-2012011", "/notifications/0/emails");
    await expectProblem(connectionBody({ notifications: [{ emails: ["a@example.com"] }] }), "EQ-2012011", "/notifications/0/type");
    await expectProblem(connectionBody({ notifications: [{ type: "SOMETIMES", emails: ["a@example.com"] }] }), "EQ-2012025", "/notifications/0/type");
    await expectProblem(connectionBody({ notifications: [{ type: "ALL", emails: ["not-an-address"] }] }), "EQ-2010010", "/notifications/0/emails/0");
  });

  it("validates without creating on dryRun=true, and refuses other dryRun values and unknown parameters", async () => {
    const dry = await t.call("POST", `${CONNECTIONS}?dryRun=true`, { body: connectionBody() });
    expect(dry.status).toBe(200);
    expect(dry.body.name).toBe("dc-to-direct");
    expect((await t.call("GET", `${CONNECTIONS}/${dry.body.uuid}`)).status).toBe(404);
    expect((await t.call("POST", `${CONNECTIONS}?dryRun=true`, { body: connectionBody({ bandwidth: 150 }) })).status).toBe(400);
    const bad = await t.call("POST", `${CONNECTIONS}?dryRun=perhaps`, { body: connectionBody() });
    expect(problem(bad.body).additionalInfo?.[0]?.property).toBe("dryRun");
    const unknown = await t.call("POST", `${CONNECTIONS}?verbose=1`, { body: connectionBody() });
    expect(unknown.status).toBe(400);
    expect(problem(unknown.body).additionalInfo?.[0]?.property).toBe("verbose");
  });

  it("answers malformed bodies with 400 and other content types with 415", async () => {
    expect((await t.call("POST", CONNECTIONS, { raw: "{nope", contentType: "application/json" })).status).toBe(400);
    expect((await t.call("POST", CONNECTIONS, { body: [connectionBody()] })).status).toBe(400);
    expect((await t.call("POST", CONNECTIONS, { raw: "x", contentType: "text/plain" })).status).toBe(415);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody(), client: "none" })).status).toBe(401);
  });
});

describe("GET /fabric/v4/connections/{uuid}", () => {
  it("reads a connection, from the requester's direction when asked", async () => {
    const uuid = await provisioned(t);
    const res = await t.call("GET", `${CONNECTIONS}/${uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid, state: "PROVISIONED", direction: "OUTGOING" });
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}?direction=INCOMING`)).body.direction).toBe("INCOMING");
    const bad = await t.call("GET", `${CONNECTIONS}/${uuid}?direction=SIDEWAYS`);
    expect(bad.status).toBe(400);
    expect(problem(bad.body).additionalInfo?.[0]?.property).toBe("direction");
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}?expand=all`)).status).toBe(400);
  });

  it("answers 404 for unknown connections and those of projects the caller cannot see", async () => {
    expect((await t.call("GET", `${CONNECTIONS}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const uuid = await provisioned(t);
    const foreign = await t.call("GET", `${CONNECTIONS}/${uuid}`, { client: "limited" });
    expect(foreign.status).toBe(404);
    expect(problem(foreign.body).errorCode).toBe("EQ-3073004");
  });
});

describe("POST /fabric/v4/connections: shapes the official description allows", () => {
  it("takes a QINQ port connection with only the outer tag, which then holds every inner tag under it", async () => {
    const sandbox = { project: { projectId: SANDBOX } };
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 1001), ...sandbox }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.aSide.accessPoint.linkProtocol).toEqual({ type: "QINQ", vlanSTag: 1001 });
    await expectProblem(connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 1001, 7), ...sandbox }), "EQ-2010010", "/aSide/accessPoint/linkProtocol");
  });

  it("takes the port's own metro as the location of a COLO access point, and refuses another", async () => {
    const port = seededPort("DC", "PRIMARY");
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: { accessPoint: { ...coloSide(port, 100).accessPoint, location: { metroCode: "DC" } } } }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.aSide.accessPoint.location).toMatchObject({ metroCode: "DC", metroName: "Washington, D.C." });
    const reason = await expectProblem(connectionBody({ aSide: { accessPoint: { ...coloSide(port, 101).accessPoint, location: { metroCode: "SV" } } } }), "EQ-2010010", "/aSide/accessPoint/location/metroCode");
    expect(reason).toMatch(/is in DC, not SV/);
  });

  it("takes a virtual device without an interface, or with only its id or only its type", async () => {
    const device = seedDevice(t);
    const bare = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: { accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid: device } } } }) });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body.aSide.accessPoint.interface).toBeUndefined();
    const idOnly = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: deviceSide(device, { interface: { id: 7 } }) }) });
    expect(idOnly.status, idOnly.text).toBe(201);
    expect(idOnly.body.aSide.accessPoint.interface).toEqual({ type: "NETWORK", id: 7 });
    const typeOnly = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: deviceSide(device, { interface: { type: "CLOUD" } }) }) });
    expect(typeOnly.status, typeOnly.text).toBe(201);
    expect(typeOnly.body.aSide.accessPoint.interface).toEqual({ type: "CLOUD" });
    await expectProblem(connectionBody({ aSide: deviceSide(device, { interface: { type: "WAN", id: 3 } }) }), "EQ-2012025", "/aSide/accessPoint/interface/type");
  });
});

describe("POST /fabric/v4/connections: redundant pairs", () => {
  it("names the group of a primary that gives none, and lets a secondary join it", async () => {
    const primary = await t.call("POST", CONNECTIONS, { body: connectionBody({ redundancy: { priority: "PRIMARY" } }) });
    expect(primary.status, primary.text).toBe(201);
    const group = primary.body.redundancy.group as string;
    expect(group).toMatch(/^[0-9a-f-]{36}$/);
    const secondary = await t.call("POST", CONNECTIONS, {
      body: connectionBody({ aSide: coloSide(seededPort("DC", "SECONDARY"), 100), redundancy: { group, priority: "SECONDARY" } }),
    });
    expect(secondary.status, secondary.text).toBe(201);
    expect(secondary.body.redundancy).toEqual({ group, priority: "SECONDARY" });
  });

  it("refuses a secondary without a group, or naming a group no live primary has", async () => {
    const secondarySide = { aSide: coloSide(seededPort("DC", "SECONDARY"), 100) };
    await expectProblem(connectionBody({ ...secondarySide, redundancy: { priority: "SECONDARY" } }), "EQ-2012011", "/redundancy/group");
    const reason = await expectProblem(connectionBody({ ...secondarySide, redundancy: { group: "g-unknown", priority: "SECONDARY" } }), "EQ-2010010", "/redundancy/group");
    expect(reason).toMatch(/no live primary connection has redundancy group g-unknown/);
  });
});

describe("POST /fabric/v4/connections: connection types and their endpoints", () => {
  /** An untagged (dedicated) port in DC: one connection takes it whole. */
  function untaggedPort(): string {
    const uuid = t.sim.world.uuid();
    t.sim.world.create("ports", { uuid, name: "dc-dedicated", type: "XF_PORT", state: "ACTIVE", bandwidth: 10_000, location: { metroCode: "DC" }, encapsulation: { type: "UNTAGGED" } }, { uuid, projectId: PRODUCTION });
    return uuid;
  }
  const bare = (port: string) => ({ accessPoint: { type: "COLO", port: { uuid: port } } });

  it("takes port-based types without a link protocol on untagged ports, one connection per port", async () => {
    const [a, z] = [untaggedPort(), untaggedPort()];
    const epl = await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "EPL_VC", aSide: bare(a), zSide: bare(z) }) });
    expect(epl.status, epl.text).toBe(201);
    expect(epl.body.aSide.accessPoint.linkProtocol).toBeUndefined();
    const reason = await expectProblem(connectionBody({ type: "EPL_VC", aSide: bare(a), zSide: bare(untaggedPort()) }), "EQ-2010010", "/aSide/accessPoint/linkProtocol");
    expect(reason).toMatch(/is untagged and already carries connection/);
    const accessEpl = await t.call("POST", CONNECTIONS, {
      body: connectionBody({ type: "ACCESS_EPL_VC", aSide: qinqSide(seededPort("DC", "QINQ"), 1234), zSide: bare(untaggedPort()), project: { projectId: SANDBOX } }),
    });
    expect(accessEpl.status, accessEpl.text).toBe(201);
    const network = { accessPoint: { type: "NETWORK", network: { uuid: seedNetwork(t, { type: "EPLAN" }) } } };
    const eplan = await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "EPLAN_VC", aSide: bare(untaggedPort()), zSide: network }) });
    expect(eplan.status, eplan.text).toBe(201);
  });

  it("still needs the link protocol on a tagged port, and for a type that is not port-based", async () => {
    await expectProblem(connectionBody({ type: "EPL_VC", aSide: bare(seededPort("DC", "PRIMARY")), zSide: bare(untaggedPort()) }), "EQ-2012011", "/aSide/accessPoint/linkProtocol");
    await expectProblem(connectionBody({ aSide: bare(untaggedPort()) }), "EQ-2012011", "/aSide/accessPoint/linkProtocol");
    const untagged = await t.call("POST", CONNECTIONS, { body: connectionBody({ aSide: { accessPoint: { ...bare(untaggedPort()).accessPoint, linkProtocol: { type: "UNTAGGED" } } } }) });
    expect(untagged.status, untagged.text).toBe(201);
    expect(untagged.body.aSide.accessPoint.linkProtocol).toEqual({ type: "UNTAGGED" });
  });

  it("takes the endpoints the official description gives IPWAN_VC, IP_VC and EVPLAN_VC, and refuses others", async () => {
    const router = { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: SEEDED_ENDPOINTS.router.uuid } } };
    const network = { accessPoint: { type: "NETWORK", network: { uuid: SEEDED_ENDPOINTS.network.uuid } } };
    const ipwan = { accessPoint: { type: "NETWORK", network: { uuid: seedNetwork(t, { type: "IPWAN" }) } } };
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "IPWAN_VC", aSide: router, zSide: ipwan }) })).status).toBe(201);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "IP_VC", aSide: router }) })).status).toBe(201);
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody({ type: "EVPLAN_VC", zSide: network }) })).status).toBe(201);
    const reason = await expectProblem(connectionBody({ type: "IPWAN_VC", aSide: router }), "EQ-2010010", "/zSide/accessPoint/type");
    expect(reason).toBe("IPWAN_VC needs a NETWORK access point as its zSide, not SP");
    await expectProblem(connectionBody({ type: "IP_VC" }), "EQ-2010010", "/aSide/accessPoint/type");
    await expectProblem(connectionBody({ type: "EVPLAN_VC" }), "EQ-2010010", "/zSide/accessPoint/type");
  });
});

describe("POST /fabric/v4/connections: additionalInfo", () => {
  it("takes the provider's keys for automatic acceptance, and never returns them", async () => {
    const additionalInfo = [{ key: "accessKey", value: "AKIA-EXAMPLE" }, { key: "secretKey", value: "s3cr3t" }];
    const res = await t.call("POST", CONNECTIONS, { body: connectionBody({ additionalInfo }) });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("s3cr3t");
    expect((await t.call("GET", `${CONNECTIONS}/${res.body.uuid}`)).text).not.toContain("s3cr3t");
  });

  it("refuses entries without a key or a value", async () => {
    await expectProblem(connectionBody({ additionalInfo: { accessKey: "a" } }), "EQ-2010010", "/additionalInfo");
    await expectProblem(connectionBody({ additionalInfo: [{ value: "a" }] }), "EQ-2012011", "/additionalInfo/0/key");
    await expectProblem(connectionBody({ additionalInfo: [{ key: "secretKey" }] }), "EQ-2012011", "/additionalInfo/0/value");
  });
});
