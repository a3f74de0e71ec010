import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const t = useSimulator();

const base = (connection: string) => `/fabric/v4/connections/${connection}/routingProtocols`;

const DIRECT = {
  type: "DIRECT",
  name: "direct-1",
  directIpv4: { equinixIfaceIp: "192.168.100.1/30" },
  directIpv6: { equinixIfaceIp: "2001:db8:c59b::1/126" },
};

const BGP = {
  type: "BGP",
  name: "bgp-1",
  bgpIpv4: { customerPeerIp: "192.168.100.2", enabled: true, outboundASPrependCount: 3, inboundMED: 1000, outboundMED: 2000, routesMax: 40 },
  bgpIpv6: { customerPeerIp: "2001:db8:c59b::2" },
  customerAsn: 65001,
  bgpAuthKey: "s3cret",
  bfd: { enabled: true, interval: 100 },
};

/** A connection whose DIRECT instance is provisioned, ready for BGP. */
async function connectionWithDirect(sim: TestSim, direct: object = DIRECT): Promise<string> {
  const connection = seedConnection(sim);
  const res = await sim.call("POST", base(connection), { body: direct });
  expect(res.status).toBe(202);
  await sim.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
  return connection;
}

function problemProperties(body: Array<{ additionalInfo?: Array<{ property: string }> }>): string[] {
  return body.flatMap((e) => (e.additionalInfo ?? []).map((i) => i.property));
}

describe("POST routingProtocols: DIRECT", () => {
  it("accepts a DIRECT instance in PROVISIONING with a creation change, then provisions it", async () => {
    const connection = seedConnection(t);
    const res = await t.call("POST", base(connection), { body: DIRECT });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      type: "DIRECT",
      name: "direct-1",
      state: "PROVISIONING",
      href: `${base(connection)}/${res.body.uuid}`,
      directIpv4: { equinixIfaceIp: "192.168.100.1/30" },
      directIpv6: { equinixIfaceIp: "2001:db8:c59b::1/126" },
      change: { type: "ROUTING_PROTOCOL_CREATION", href: expect.stringContaining(`/routingProtocols/${res.body.uuid}/changes/`) },
      changelog: { createdBy: "demo-user", createdByEmail: "demo.user@example.com" },
      project: { projectId: PROJECTS.production.projectId },
      connection: { uuid: connection },
    });
    expect(res.body.changeLog).toBeUndefined();
    const done = await t.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
    expect(done.change.uuid).toBe(res.body.change.uuid);
  });

  it("accepts a DIRECT instance with only one address family and generates a name", async () => {
    const connection = seedConnection(t);
    const v6 = await t.call("POST", base(connection), { body: { type: "DIRECT", directIpv6: { equinixIfaceIp: "2001:db8::1/64" } } });
    expect(v6.status).toBe(202);
    expect(v6.body.name).toMatch(/^direct-route-/);
    expect(v6.body.directIpv4).toBeUndefined();
  });

  it("needs at least one address family", async () => {
    const res = await t.call("POST", base(seedConnection(t)), { body: { type: "DIRECT" } });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe("EQ-2012011");
    expect(problemProperties(res.body)).toEqual(["/directIpv4"]);
  });

  it.each([
    ["/directIpv4/equinixIfaceIp", { directIpv4: { equinixIfaceIp: "192.168.100.1" } }],
    ["/directIpv4/equinixIfaceIp", { directIpv4: { equinixIfaceIp: "192.168.100.1/33" } }],
    ["/directIpv4/equinixIfaceIp", { directIpv4: { equinixIfaceIp: "2001:db8::1/64" } }],
    ["/directIpv4/equinixIfaceIp", { directIpv4: { equinixIfaceIp: 42 } }],
    ["/directIpv6/equinixIfaceIp", { directIpv6: { equinixIfaceIp: "10.0.0.1/30" } }],
    ["/directIpv6/equinixIfaceIp", { directIpv6: { equinixIfaceIp: "2001:db8::1/129" } }],
    ["/directIpv6", { directIpv6: "2001:db8::1/64" }],
    ["/bgpIpv4", { directIpv4: { equinixIfaceIp: "10.0.0.1/30" }, bgpIpv4: { customerPeerIp: "10.0.0.2" } }],
    ["/name", { name: "", directIpv4: { equinixIfaceIp: "10.0.0.1/30" } }],
  ])("refuses a bad DIRECT body naming %s", async (property, fields) => {
    const res = await t.call("POST", base(seedConnection(t)), { body: { type: "DIRECT", ...fields } });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe("EQ-2010010");
    expect(problemProperties(res.body)).toContain(property);
  });

  it("needs equinixIfaceIp inside an address family", async () => {
    const res = await t.call("POST", base(seedConnection(t)), { body: { type: "DIRECT", directIpv4: {} } });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe("EQ-2012011");
    expect(problemProperties(res.body)).toEqual(["/directIpv4/equinixIfaceIp"]);
  });

  it("takes one DIRECT instance per connection", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: DIRECT });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/type", reason: expect.stringMatching(/already has a DIRECT/) }] });
  });
});

describe("routingProtocols: answers", () => {
  it("show the instance as the create, the change or the delete left it, however far the clock moves meanwhile", async () => {
    const provisioned = async () => {
      const connection = seedConnection(t);
      const made = await t.call("POST", base(connection), { body: DIRECT });
      const direct = `${base(connection)}/${made.body.uuid}`;
      await t.waitFor(direct, "/state", "PROVISIONED");
      return direct;
    };
    // Each instance is made on the real clock first (see racing).
    const [changing, deleting] = [await provisioned(), await provisioned()];
    const fresh = seedConnection(t);

    const created = await t.racing(() => t.call("POST", base(fresh), { body: DIRECT }));
    expect(created.status).toBe(202);
    expect(created.body.state).toBe("PROVISIONING");
    const changed = await t.racing(() => t.call("PUT", changing, { body: { ...DIRECT, name: "renamed" } }));
    expect(changed.status).toBe(202);
    expect(changed.body).toMatchObject({ name: "renamed", state: "REPROVISIONING" });
    const deleted = await t.racing(() => t.call("DELETE", deleting));
    expect(deleted.status).toBe(202);
    expect(deleted.body.state).toBe("DEPROVISIONING");
  });
});

describe("POST routingProtocols: type and body", () => {
  it("needs a type from DIRECT, BGP", async () => {
    const connection = seedConnection(t);
    const missing = await t.call("POST", base(connection), { body: { name: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/type" }] });
    const wrong = await t.call("POST", base(connection), { body: { type: "OSPF" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/type", value: "OSPF" }] });
  });

  it("refuses properties the type does not have", async () => {
    const res = await t.call("POST", base(seedConnection(t)), { body: { ...DIRECT, customerAsn: 65001 } });
    expect(res.status).toBe(400);
    expect(problemProperties(res.body)).toEqual(["/customerAsn"]);
  });

  it("takes null as an absent optional field and a missing required one", async () => {
    const connection = seedConnection(t);
    const res = await t.call("POST", base(connection), { body: { ...DIRECT, name: null, directIpv6: null } });
    expect(res.status).toBe(202);
    expect(res.body.directIpv6).toBeUndefined();
    const peer = await t.call("POST", base(seedConnection(t)), { body: { type: "DIRECT", directIpv4: { equinixIfaceIp: null } } });
    expect(peer.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/directIpv4/equinixIfaceIp" }] });
  });

  it("refuses query parameters the endpoint does not define", async () => {
    const res = await t.call("POST", `${base(seedConnection(t))}?dryRun=true`, { body: DIRECT });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "dryRun" }] });
  });

  it("answers malformed JSON, non-objects and other media types in problem style A", async () => {
    const connection = seedConnection(t);
    const malformed = await t.call("POST", base(connection), { raw: "{type:", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body[0].errorCode).toBe("EQ-3046116");
    const array = await t.call("POST", base(connection), { body: [DIRECT] });
    expect(array.status).toBe(400);
    expect(array.body[0].errorCode).toBe("EQ-2010010");
    const text = await t.call("POST", base(connection), { raw: "DIRECT", contentType: "text/plain" });
    expect(text.status).toBe(415);
  });
});

describe("POST routingProtocols: the connection", () => {
  it("answers 404 for an unknown connection and for one of a project the caller cannot see", async () => {
    const unknown = await t.call("POST", base("6f1d3c1e-0000-4000-8000-000000000000"), { body: DIRECT });
    expect(unknown.status).toBe(404);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-3041120", errorMessage: "The connection ID was not found or was already deleted." });
    const production = seedConnection(t);
    const hidden = await t.call("POST", base(production), { body: DIRECT, client: "limited" });
    expect(hidden.status).toBe(404);
    expect((await t.call("GET", base(production), { client: "limited" })).status).toBe(404);
  });

  it("lets the limited client work on a sandbox connection, in the sandbox project", async () => {
    const sandbox = seedConnection(t, { projectId: PROJECTS.sandbox.projectId });
    const res = await t.call("POST", base(sandbox), { body: DIRECT, client: "limited" });
    expect(res.status).toBe(202);
    expect(res.body.project).toEqual({ projectId: PROJECTS.sandbox.projectId });
    expect(res.body.changelog.createdBy).toBe("limited-user");
  });

  it.each(["PENDING_AUTO_APPROVAL", "PROVISIONING", "DEPROVISIONING", "DEPROVISIONED"])("refuses a connection in state %s", async (state) => {
    const res = await t.call("POST", base(seedConnection(t, { state })), { body: DIRECT });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-3142510", errorMessage: "Connection is in transient state", additionalInfo: [{ property: "connectionId" }] });
  });
});

describe("POST routingProtocols: BGP", () => {
  it("accepts a BGP instance over the DIRECT subnets, fills the provider's side, then brings the sessions up", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: BGP });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      type: "BGP",
      state: "PROVISIONING",
      change: { type: "ROUTING_PROTOCOL_CREATION" },
      bgpIpv4: { customerPeerIp: "192.168.100.2", equinixPeerIp: "192.168.100.1", enabled: true, outboundASPrependCount: 3, inboundMED: 1000, outboundMED: 2000, routesMax: 40, operation: { operationalStatus: "UNKNOWN" } },
      bgpIpv6: { customerPeerIp: "2001:db8:c59b::2", equinixPeerIp: "2001:db8:c59b::1", enabled: true },
      customerAsn: 65001,
      equinixAsn: 64600,
      asOverrideEnabled: false,
      bgpAuthKey: "s3cret",
      bfd: { enabled: true, interval: "100" },
    });
    const done = await t.waitFor(`${base(connection)}/${res.body.uuid}`, "/state", "PROVISIONED");
    expect(done.bgpIpv4.operation).toEqual({ operationalStatus: "UP", opStatusChangedAt: expect.any(String) });
    expect(done.bgpIpv6.operation.operationalStatus).toBe("UP");
  });

  it("applies the defaults of enabled, asOverrideEnabled and bfd", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: { type: "BGP", bgpIpv4: { customerPeerIp: "192.168.100.2" }, customerAsn: 65001, bfd: { interval: "250" } } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ asOverrideEnabled: false, bfd: { enabled: false, interval: "250" }, bgpIpv4: { enabled: true } });
    expect(res.body.bgpIpv6).toBeUndefined();
    expect(res.body.bgpAuthKey).toBeUndefined();
  });

  it("needs the connection's DIRECT instance first", async () => {
    const none = await t.call("POST", base(seedConnection(t)), { body: BGP });
    expect(none.status).toBe(400);
    expect(none.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/type", reason: expect.stringMatching(/DIRECT routing protocol first/) }] });
  });

  it("takes one BGP instance per connection", async () => {
    const connection = await connectionWithDirect(t);
    const first = await t.call("POST", base(connection), { body: BGP });
    await t.waitFor(`${base(connection)}/${first.body.uuid}`, "/state", "PROVISIONED");
    const second = await t.call("POST", base(connection), { body: BGP });
    expect(second.status).toBe(400);
    expect(second.body[0].additionalInfo[0]).toMatchObject({ property: "/type", reason: expect.stringMatching(/already has a BGP/) });
  });

  it("needs a DIRECT address of each family it peers over", async () => {
    const connection = await connectionWithDirect(t, { type: "DIRECT", directIpv4: { equinixIfaceIp: "192.168.100.1/30" } });
    const res = await t.call("POST", base(connection), { body: BGP });
    expect(res.status).toBe(400);
    expect(problemProperties(res.body)).toEqual(["/bgpIpv6"]);
  });

  it.each([
    ["outside the subnet", "192.168.100.6"],
    ["the provider's address", "192.168.100.1"],
    ["the network address", "192.168.100.0"],
    ["the broadcast address", "192.168.100.3"],
  ])("refuses a customer peer address that is %s", async (_why, peer) => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: { ...BGP, bgpIpv4: { customerPeerIp: peer } } });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe("EQ-2010010");
    expect(problemProperties(res.body)).toEqual(["/bgpIpv4/customerPeerIp"]);
  });

  it("refuses an IPv6 peer outside the IPv6 subnet and addresses of the wrong family", async () => {
    const connection = await connectionWithDirect(t);
    const outside = await t.call("POST", base(connection), { body: { ...BGP, bgpIpv6: { customerPeerIp: "2001:db8:c59c::2" } } });
    expect(problemProperties(outside.body)).toEqual(["/bgpIpv6/customerPeerIp"]);
    const family = await t.call("POST", base(connection), { body: { ...BGP, bgpIpv4: { customerPeerIp: "2001:db8:c59b::2" }, bgpIpv6: { customerPeerIp: "192.168.100.2" } } });
    expect(family.status).toBe(400);
    expect(problemProperties(family.body)).toEqual(["/bgpIpv4/customerPeerIp", "/bgpIpv6/customerPeerIp"]);
  });

  it("needs a session and a customer peer address", async () => {
    const connection = await connectionWithDirect(t);
    const noSession = await t.call("POST", base(connection), { body: { type: "BGP", customerAsn: 65001 } });
    expect(noSession.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/bgpIpv4" }] });
    const noPeer = await t.call("POST", base(connection), { body: { type: "BGP", customerAsn: 65001, bgpIpv4: { enabled: true } } });
    expect(noPeer.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/bgpIpv4/customerPeerIp" }] });
  });
});

describe("POST routingProtocols: BGP limits (section 8)", () => {
  const bgpWith = (fields: object, session: object = {}) => ({ ...BGP, bgpIpv6: undefined, bgpIpv4: { customerPeerIp: "192.168.100.2", ...session }, ...fields });

  it.each([0, 112, 23456, 64000, 64495, 64496, 64511, 64600, 65535, 65536, 65551, 4200000000, 4200000001, 4200000002, 4294967295, 4294967296, -5])(
    "refuses customerAsn %d",
    async (asn) => {
      const connection = await connectionWithDirect(t);
      const res = await t.call("POST", base(connection), { body: bgpWith({ customerAsn: asn }) });
      expect(res.status).toBe(400);
      expect(res.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/customerAsn", value: String(asn) }] });
    },
  );

  it.each([1, 111, 113, 63999, 64512, 64599, 64601, 65534, 65552, 4199999999, 4200000003, 4294967294])("accepts customerAsn %d", async (asn) => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: bgpWith({ customerAsn: asn }) });
    expect(res.status).toBe(202);
    expect(res.body.customerAsn).toBe(asn);
  });

  it("needs customerAsn as an integer", async () => {
    const connection = await connectionWithDirect(t);
    const missing = await t.call("POST", base(connection), { body: bgpWith({ customerAsn: undefined }) });
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/customerAsn" }] });
    const text = await t.call("POST", base(connection), { body: bgpWith({ customerAsn: "65001" }) });
    expect(text.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/customerAsn" }] });
  });

  it.each([0, 1, 3, 5])("accepts outboundASPrependCount %d", async (count) => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: bgpWith({}, { outboundASPrependCount: count }) });
    expect(res.status).toBe(202);
    expect(res.body.bgpIpv4.outboundASPrependCount).toBe(count);
  });

  it.each([2, 4, 6, -1])("refuses outboundASPrependCount %d as not in the allowed list", async (count) => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: bgpWith({}, { outboundASPrependCount: count }) });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/bgpIpv4/outboundASPrependCount" }] });
  });

  it.each([
    ["/bgpIpv4/inboundMED", {}, { inboundMED: 0 }],
    ["/bgpIpv4/inboundMED", {}, { inboundMED: 4294967296 }],
    ["/bgpIpv4/outboundMED", {}, { outboundMED: 1.5 }],
    ["/bgpIpv4/routesMax", {}, { routesMax: 0 }],
    ["/bgpIpv4/enabled", {}, { enabled: "yes" }],
    ["/bgpIpv4/outboundASPrependCount", {}, { outboundASPrependCount: "3" }],
    ["/bgpAuthKey", { bgpAuthKey: "k".repeat(81) }, {}],
    ["/bgpAuthKey", { bgpAuthKey: 12 }, {}],
    ["/bfd/interval", { bfd: { enabled: true, interval: 99 } }, {}],
    ["/bfd/interval", { bfd: { enabled: true, interval: "1001" } }, {}],
    ["/bfd/interval", { bfd: { enabled: true, interval: "fast" } }, {}],
    ["/bfd/enabled", { bfd: { enabled: "on" } }, {}],
    ["/bfd", { bfd: true }, {}],
    ["/asOverrideEnabled", { asOverrideEnabled: 1 }, {}],
  ])("refuses %s out of its limits", async (property, fields, session) => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: bgpWith(fields, session) });
    expect(res.status).toBe(400);
    expect(res.body[0].errorCode).toBe("EQ-2010010");
    expect(problemProperties(res.body)).toEqual([property]);
  });

  it("accepts the limits' edges", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), {
      body: bgpWith({ bgpAuthKey: "k".repeat(80), bfd: { enabled: true, interval: 1000 }, asOverrideEnabled: true }, { inboundMED: 1, outboundMED: 4294967295 }),
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ bfd: { interval: "1000" }, asOverrideEnabled: true, bgpIpv4: { inboundMED: 1, outboundMED: 4294967295 } });
  });

  it("reports every problem of a request at once", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", base(connection), { body: bgpWith({ customerAsn: 23456, bgpAuthKey: "k".repeat(81) }, { inboundMED: 0 }) });
    expect(res.status).toBe(400);
    expect(problemProperties(res.body).sort()).toEqual(["/bgpAuthKey", "/bgpIpv4/inboundMED", "/customerAsn"]);
  });
});

describe("POST routingProtocols/bulk", () => {
  it("creates DIRECT and BGP together, whatever their order, and answers the list shape", async () => {
    const connection = seedConnection(t);
    const res = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [BGP, DIRECT] } });
    expect(res.status).toBe(202);
    expect(res.body.pagination).toEqual({ offset: 0, limit: 2, total: 2 });
    expect(res.body.data.map((p: { type: string }) => p.type)).toEqual(["BGP", "DIRECT"]);
    expect(res.body.data[0]).toMatchObject({ state: "PROVISIONING", bgpIpv4: { equinixPeerIp: "192.168.100.1" } });
    for (const p of res.body.data) await t.waitFor(`${base(connection)}/${p.uuid}`, "/state", "PROVISIONED");
  });

  it("validates every item before creating any, naming items by index", async () => {
    const connection = seedConnection(t);
    const res = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [DIRECT, { ...BGP, customerAsn: 0, bgpIpv4: { customerPeerIp: "10.9.9.9" } }] } });
    expect(res.status).toBe(400);
    expect(problemProperties(res.body)).toEqual(["/data/1/customerAsn"]);
    const context = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [DIRECT, { ...BGP, bgpIpv4: { customerPeerIp: "10.9.9.9" } }] } });
    expect(problemProperties(context.body)).toEqual(["/data/1/bgpIpv4/customerPeerIp"]);
    const list = await t.call("GET", base(connection));
    expect(list.body.pagination.total).toBe(0);
  });

  it("refuses two instances of one type, BGP without DIRECT, and an empty or missing list", async () => {
    const connection = seedConnection(t);
    const twice = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [DIRECT, DIRECT] } });
    expect(problemProperties(twice.body)).toEqual(["/data/1/type"]);
    const alone = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [BGP] } });
    expect(problemProperties(alone.body)).toEqual(["/data/0/type"]);
    const empty = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [] } });
    expect(empty.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/data" }] });
    const missing = await t.call("POST", `${base(connection)}/bulk`, { body: {} });
    expect(missing.status).toBe(400);
    const notObject = await t.call("POST", `${base(connection)}/bulk`, { body: { data: ["DIRECT"] } });
    expect(problemProperties(notObject.body)).toEqual(["/data/0"]);
  });

  it("adds BGP to a connection that already has its DIRECT instance", async () => {
    const connection = await connectionWithDirect(t);
    const res = await t.call("POST", `${base(connection)}/bulk`, { body: { data: [BGP] } });
    expect(res.status).toBe(202);
    expect(res.body.data[0].bgpIpv6.equinixPeerIp).toBe("2001:db8:c59b::1");
  });

  it("answers 404 and the transient-state error for the connection", async () => {
    expect((await t.call("POST", `${base("6f1d3c1e-0000-4000-8000-000000000000")}/bulk`, { body: { data: [DIRECT] } })).status).toBe(404);
    const pending = await t.call("POST", `${base(seedConnection(t, { state: "PROVISIONING" }))}/bulk`, { body: { data: [DIRECT] } });
    expect(pending.body[0].errorCode).toBe("EQ-3142510");
  });
});
