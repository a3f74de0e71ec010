import { describe, expect, it } from "vitest";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const t = useSimulator();

const base = (connection: string) => `/fabric/v4/connections/${connection}/routingProtocols`;

const DIRECT = { type: "DIRECT", directIpv4: { equinixIfaceIp: "10.0.0.1/30" }, directIpv6: { equinixIfaceIp: "2001:db8::1/126" } };
const BGP = { type: "BGP", name: "bgp-1", bgpIpv4: { customerPeerIp: "10.0.0.2" }, bgpIpv6: { customerPeerIp: "2001:db8::2" }, customerAsn: 65001 };

interface Pair {
  connection: string;
  direct: string;
  bgp: string;
}

async function provisioned(sim: TestSim, connection: string, body: object): Promise<string> {
  const res = await sim.call("POST", base(connection), { body });
  expect(res.status).toBe(202);
  await sim.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid;
}

/** A connection with a provisioned DIRECT and a provisioned BGP instance. */
async function pair(sim: TestSim): Promise<Pair> {
  const connection = seedConnection(sim);
  const direct = await provisioned(sim, connection, DIRECT);
  const bgp = await provisioned(sim, connection, BGP);
  return { connection, direct, bgp };
}

const properties = (body: Array<{ additionalInfo?: Array<{ property: string }> }>) => body.flatMap((e) => (e.additionalInfo ?? []).map((i) => i.property));

describe("GET routingProtocols", () => {
  it("lists a connection's instances with pagination", async () => {
    const { connection, direct, bgp } = await pair(t);
    seedConnection(t);
    const all = await t.call("GET", base(connection));
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ offset: 0, limit: 20, total: 2 });
    expect(all.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([direct, bgp]);
    const first = await t.call("GET", `${base(connection)}?limit=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.pagination).toEqual({ offset: 0, limit: 1, total: 2, next: `${base(connection)}?limit=1&offset=1` });
    const second = await t.call("GET", `${base(connection)}?offset=1&limit=1`);
    expect(second.body.data[0].uuid).toBe(bgp);
    expect(second.body.pagination.previous).toBe(`${base(connection)}?offset=0&limit=1`);
    expect(second.body.pagination.next).toBeUndefined();
  });

  it("refuses out-of-range pages and unknown query parameters", async () => {
    const connection = seedConnection(t);
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=ten"]) {
      const res = await t.call("GET", `${base(connection)}?${query}`);
      expect(res.status, query).toBe(400);
    }
    const unknown = await t.call("GET", `${base(connection)}?state=PROVISIONED`);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "state" }] });
  });

  it("reads one instance, and answers 404 for unknown ones and those of another connection", async () => {
    const { connection, bgp } = await pair(t);
    const one = await t.call("GET", `${base(connection)}/${bgp}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ uuid: bgp, type: "BGP", state: "PROVISIONED", changelog: { createdBy: "demo-user" } });
    const unknown = await t.call("GET", `${base(connection)}/6f1d3c1e-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-3073004", additionalInfo: [{ property: "routingProtocolId" }] });
    const other = seedConnection(t);
    expect((await t.call("GET", `${base(other)}/${bgp}`)).status).toBe(404);
    expect((await t.call("GET", `${base(connection)}/${bgp}`, { client: "limited" })).status).toBe(404);
  });

  it("disappears with its connection", async () => {
    const { connection, bgp } = await pair(t);
    expect((await t.call("DELETE", `/__sim/objects/${connection}`)).status).toBe(204);
    const res = await t.call("GET", `${base(connection)}/${bgp}`);
    expect(res.status).toBe(404);
    expect(res.body[0].errorCode).toBe("EQ-3041120");
  });
});

describe("PATCH routingProtocols/{id}", () => {
  it("disables a BGP session: REPROVISIONING with an update change, then PROVISIONED with the session down", async () => {
    const { connection, bgp } = await pair(t);
    const path = `${base(connection)}/${bgp}`;
    const res = await t.call("PATCH", path, { body: [{ op: "replace", path: "/bgpIpv4/enabled", value: false }] });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "REPROVISIONING", change: { type: "ROUTING_PROTOCOL_UPDATE" }, bgpIpv4: { enabled: false }, bgpIpv6: { enabled: true } });
    const done = await t.waitFor(path, "/state", "PROVISIONED");
    expect(done.bgpIpv4.operation.operationalStatus).toBe("DOWN");
    expect(done.bgpIpv6.operation.operationalStatus).toBe("UP");
    expect(done.changelog.updatedBy).toBe("demo-user");
  });

  it("takes application/json-patch+json and several operations", async () => {
    const { connection, bgp } = await pair(t);
    const res = await t.call("PATCH", `${base(connection)}/${bgp}`, {
      body: [
        { op: "replace", path: "/bgpIpv4/enabled", value: false },
        { op: "replace", path: "/bgpIpv6/enabled", value: false },
      ],
      contentType: "application/json-patch+json",
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ bgpIpv4: { enabled: false }, bgpIpv6: { enabled: false } });
  });

  it.each([
    ["EQ-2012025", "/0/op", [{ op: "add", path: "/bgpIpv4/enabled", value: true }]],
    ["EQ-2012025", "/0/path", [{ op: "replace", path: "/name", value: "x" }]],
    ["EQ-2010010", "/0/value", [{ op: "replace", path: "/bgpIpv4/enabled", value: "false" }]],
    ["EQ-2012011", "/0/value", [{ op: "replace", path: "/bgpIpv4/enabled" }]],
    ["EQ-2012011", "body", []],
    ["EQ-2010010", "/0", ["replace"]],
  ])("answers %s naming %s", async (code, property, body) => {
    const { connection, bgp } = await pair(t);
    const res = await t.call("PATCH", `${base(connection)}/${bgp}`, { body });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe(code);
    expect(properties(res.body)).toContain(property);
  });

  it("refuses a body that is not an array, DIRECT instances and absent sessions", async () => {
    const connection = seedConnection(t);
    const direct = await provisioned(t, connection, DIRECT);
    const v4only = await provisioned(t, connection, { ...BGP, bgpIpv6: undefined });
    const object = await t.call("PATCH", `${base(connection)}/${v4only}`, { body: { op: "replace", path: "/bgpIpv4/enabled", value: true } });
    expect(object.status).toBe(400);
    const onDirect = await t.call("PATCH", `${base(connection)}/${direct}`, { body: [{ op: "replace", path: "/bgpIpv4/enabled", value: true }] });
    expect(onDirect.body[0].additionalInfo[0]).toMatchObject({ property: "/0/path", reason: expect.stringMatching(/BGP/) });
    const absent = await t.call("PATCH", `${base(connection)}/${v4only}`, { body: [{ op: "replace", path: "/bgpIpv6/enabled", value: true }] });
    expect(absent.body[0].additionalInfo[0]).toMatchObject({ property: "/0/path", reason: expect.stringMatching(/no IPv6 session/) });
  });

  it("answers 404 for unknown instances and 400 when the connection is not provisioned", async () => {
    const { connection, bgp } = await pair(t);
    const op = [{ op: "replace", path: "/bgpIpv4/enabled", value: false }];
    expect((await t.call("PATCH", `${base(connection)}/6f1d3c1e-0000-4000-8000-000000000000`, { body: op })).status).toBe(404);
    await t.call("PATCH", `/__sim/objects/${connection}`, { body: { state: "DEPROVISIONING" } });
    const res = await t.call("PATCH", `${base(connection)}/${bgp}`, { body: op });
    expect(res.body[0].errorCode).toBe("EQ-3142510");
  });
});

describe("PUT routingProtocols/{id}", () => {
  it("replaces a BGP instance as a whole: REPROVISIONING, then PROVISIONED", async () => {
    const { connection, bgp } = await pair(t);
    const path = `${base(connection)}/${bgp}`;
    const res = await t.call("PUT", path, { body: { type: "BGP", bgpIpv4: { customerPeerIp: "10.0.0.2", inboundMED: 500 }, customerAsn: 65100, asOverrideEnabled: true } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "REPROVISIONING", change: { type: "ROUTING_PROTOCOL_UPDATE" }, name: "bgp-1", customerAsn: 65100, asOverrideEnabled: true, bgpIpv4: { inboundMED: 500, equinixPeerIp: "10.0.0.1" } });
    expect(res.body.bgpIpv6).toBeUndefined();
    const done = await t.waitFor(path, "/state", "PROVISIONED");
    expect(done.bgpIpv4.operation.operationalStatus).toBe("UP");
  });

  it("refuses a change of type and the same rules as create", async () => {
    const { connection, bgp } = await pair(t);
    const path = `${base(connection)}/${bgp}`;
    const type = await t.call("PUT", path, { body: DIRECT });
    expect(type.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/type" }] });
    const asn = await t.call("PUT", path, { body: { ...BGP, customerAsn: 64600 } });
    expect(properties(asn.body)).toEqual(["/customerAsn"]);
    const peer = await t.call("PUT", path, { body: { ...BGP, bgpIpv4: { customerPeerIp: "10.0.1.2" } } });
    expect(properties(peer.body)).toEqual(["/bgpIpv4/customerPeerIp"]);
  });

  it("replaces a DIRECT instance and points the BGP sessions at the new provider address", async () => {
    const { connection, direct, bgp } = await pair(t);
    const res = await t.call("PUT", `${base(connection)}/${direct}`, { body: { ...DIRECT, name: "renamed", directIpv4: { equinixIfaceIp: "10.0.0.1/29" } } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "renamed", state: "REPROVISIONING", directIpv4: { equinixIfaceIp: "10.0.0.1/29" } });
    await t.waitFor(`${base(connection)}/${direct}`, "/state", "PROVISIONED");
    const follow = await t.call("PUT", `${base(connection)}/${direct}`, { body: { ...DIRECT, directIpv4: { equinixIfaceIp: "10.0.0.3/29" } } });
    expect(follow.status).toBe(202);
    expect((await t.call("GET", `${base(connection)}/${bgp}`)).body.bgpIpv4.equinixPeerIp).toBe("10.0.0.3");
  });

  it("keeps the subnets the BGP sessions run over", async () => {
    const { connection, direct } = await pair(t);
    const path = `${base(connection)}/${direct}`;
    const dropped = await t.call("PUT", path, { body: { type: "DIRECT", directIpv4: DIRECT.directIpv4 } });
    expect(dropped.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/directIpv6" }] });
    const moved = await t.call("PUT", path, { body: { ...DIRECT, directIpv4: { equinixIfaceIp: "10.0.1.1/30" } } });
    expect(properties(moved.body)).toEqual(["/directIpv4/equinixIfaceIp"]);
  });

  it("answers 404 for unknown instances and 415 for other media types", async () => {
    const { connection, bgp } = await pair(t);
    expect((await t.call("PUT", `${base(connection)}/6f1d3c1e-0000-4000-8000-000000000000`, { body: BGP })).status).toBe(404);
    expect((await t.call("PUT", `${base(connection)}/${bgp}`, { raw: "BGP", contentType: "text/plain" })).status).toBe(415);
  });
});

describe("DELETE routingProtocols/{id}", () => {
  it("refuses to delete DIRECT while the BGP instance exists", async () => {
    const { connection, direct } = await pair(t);
    const res = await t.call("DELETE", `${base(connection)}/${direct}`);
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({
      errorCode: "EQ-3041016",
      additionalInfo: [{ property: "routingProtocolId", reason: "The BGP routing protocol should be deleted before deleting the DIRECT routing protocol for the same Connection." }],
    });
  });

  it("deprovisions BGP, then DIRECT, each disappearing after DEPROVISIONED", async () => {
    const { connection, direct, bgp } = await pair(t);
    const res = await t.call("DELETE", `${base(connection)}/${bgp}`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "DEPROVISIONING", change: { type: "ROUTING_PROTOCOL_DELETION" }, changelog: { deletedBy: "demo-user", deletedDateTime: expect.any(String) } });
    await t.waitFor(`${base(connection)}/${bgp}`, "/state", "DEPROVISIONED");
    const again = await t.call("DELETE", `${base(connection)}/${bgp}`);
    expect(again.status).toBe(404);
    const deleteDirect = await t.call("DELETE", `${base(connection)}/${direct}`);
    expect(deleteDirect.status).toBe(202);
    await t.eventually(async () => ((await t.call("GET", `${base(connection)}/${bgp}`)).status === 404 ? true : undefined), "BGP gone");
    await t.eventually(async () => ((await t.call("GET", `${base(connection)}/${direct}`)).status === 404 ? true : undefined), "DIRECT gone");
    expect((await t.call("GET", base(connection))).body.pagination.total).toBe(0);
  });

  it("lets a new DIRECT instance be created once the old one is deprovisioned", async () => {
    const connection = seedConnection(t);
    const direct = await provisioned(t, connection, DIRECT);
    await t.call("DELETE", `${base(connection)}/${direct}`);
    await t.waitFor(`${base(connection)}/${direct}`, "/state", "DEPROVISIONED");
    expect((await t.call("POST", base(connection), { body: DIRECT })).status).toBe(202);
  });

  it("answers 404 for unknown instances and 400 when the connection is not provisioned", async () => {
    const { connection, bgp } = await pair(t);
    expect((await t.call("DELETE", `${base(connection)}/6f1d3c1e-0000-4000-8000-000000000000`)).status).toBe(404);
    await t.call("PATCH", `/__sim/objects/${connection}`, { body: { state: "PENDING_AUTO_APPROVAL" } });
    expect((await t.call("DELETE", `${base(connection)}/${bgp}`)).body[0].errorCode).toBe("EQ-3142510");
  });
});

describe("change requests", () => {
  it("records each operation, newest first, with its data", async () => {
    const { connection, bgp } = await pair(t);
    const path = `${base(connection)}/${bgp}`;
    const patched = await t.call("PATCH", path, { body: [{ op: "replace", path: "/bgpIpv4/enabled", value: false }] });
    await t.waitFor(path, "/state", "PROVISIONED");
    const changes = await t.call("GET", `${path}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body.pagination).toEqual({ offset: 0, limit: 20, total: 2 });
    expect(changes.body.data[0]).toMatchObject({
      uuid: patched.body.change.uuid,
      href: `${path}/changes/${patched.body.change.uuid}`,
      type: "ROUTING_PROTOCOL_UPDATE",
      status: "COMPLETED",
      createdBy: "demo-user",
      data: { op: "replace", path: "/", value: { type: "BGP", name: "bgp-1", customerAsn: 65001, equinixAsn: 64600, bgpIpv4: { enabled: false } } },
    });
    expect(changes.body.data[1]).toMatchObject({ type: "ROUTING_PROTOCOL_CREATION", status: "COMPLETED", data: { op: "add", path: "/" } });
    const one = await t.call("GET", `${path}/changes/${patched.body.change.uuid}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(changes.body.data[0]);
  });

  it("paginates changes and answers 404 for unknown changes", async () => {
    const { connection, bgp } = await pair(t);
    const path = `${base(connection)}/${bgp}`;
    const page = await t.call("GET", `${path}/changes?limit=1&offset=0`);
    expect(page.body.pagination).toEqual({ offset: 0, limit: 1, total: 1 });
    expect((await t.call("GET", `${path}/changes?limit=500`)).status).toBe(400);
    expect((await t.call("GET", `${path}/changes?sort=asc`)).status).toBe(400);
    const unknown = await t.call("GET", `${path}/changes/6f1d3c1e-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body[0].additionalInfo[0].property).toBe("changeId");
    expect((await t.call("GET", `${base(connection)}/6f1d3c1e-0000-4000-8000-000000000000/changes`)).status).toBe(404);
  });
});

describe("faults and events", () => {
  it("ends a creation in FAILED with its errors when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routingProtocols", count: 1 } } });
    const connection = seedConnection(t);
    const res = await t.call("POST", base(connection), { body: DIRECT });
    const failed = await t.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "FAILED");
    expect(failed.operation.errors[0]).toMatchObject({ errorCode: expect.stringMatching(/^EQ-\d{7}$/), errorMessage: expect.any(String) });
    const changes = await t.call("GET", `${base(connection)}/${res.body.uuid}/changes`);
    expect(changes.body.data[0].status).toBe("FAILED");
    const bgp = await t.call("POST", base(connection), { body: BGP });
    expect(bgp.body[0].additionalInfo[0].reason).toMatch(/FAILED/);
    const retry = await t.call("PUT", `${base(connection)}/${res.body.uuid}`, { body: DIRECT });
    expect(retry.status).toBe(202);
    expect(retry.body.operation).toBeUndefined();
    await t.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
    const after = await t.call("GET", `${base(connection)}/${res.body.uuid}/changes`);
    expect(after.body.data.map((c: { status: string }) => c.status)).toEqual(["COMPLETED", "FAILED"]);
  });

  it("emits a cloud event for every state change, with the instance's path as subject", async () => {
    const connection = seedConnection(t);
    const direct = await provisioned(t, connection, DIRECT);
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { assetUuid: string }) => e.assetUuid === direct);
    expect(events.map((e: { state: string }) => e.state)).toEqual(["PROVISIONING", "PROVISIONED"]);
    expect(events[0]).toMatchObject({ type: "equinix.fabric.connection.routing_protocol.state", subject: `${base(connection)}/${direct}`, actor: "demo-user" });
  });

  it("stamps out-of-band changes on the changelog", async () => {
    const connection = seedConnection(t);
    const direct = await provisioned(t, connection, DIRECT);
    await t.call("PATCH", `/__sim/objects/${direct}`, { body: { name: "portal-name" } });
    const res = await t.call("GET", `${base(connection)}/${direct}`);
    expect(res.body).toMatchObject({ name: "portal-name", changelog: { updatedBy: "portal-user" } });
  });
});
