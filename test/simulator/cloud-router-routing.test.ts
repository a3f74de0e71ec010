// A cloud router's routing, as its official operations serve it: the route table and each connection's
// received and advertised routes (what the router learns through INBOUND filters, lets out through OUTBOUND
// ones, summarises by an aggregation), the actions that read them, the validation of a DIRECT subnet (which
// the routing protocol's create applies too), the searches of the filters and aggregations attached to its
// connections, and the BGP actions of a routing protocol.

import { describe, expect, it, vi } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedRouter } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { coloSide, connectionBody, problem, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;

async function ok<T = unknown>(method: string, path: string, body: unknown, status: number): Promise<T> {
  const res = await t.call(method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body as T;
}

/** A provisioned IP_VC from the router to a DC port, with a DIRECT subnet `net`.1/30 and a BGP session to `net`.2. */
async function routed(router: string, vlanTag: number, net: string, bgp: Record<string, unknown> = {}): Promise<string> {
  const body = connectionBody({ type: "IP_VC", name: `fcr-${vlanTag}`, bandwidth: 10, redundancy: undefined, aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router } } }, zSide: coloSide(seededPort("DC", "PRIMARY"), vlanTag) });
  const connection = (await ok<{ uuid: string }>("POST", "/fabric/v4/connections", body, 201)).uuid;
  await t.waitFor(`/fabric/v4/connections/${connection}`, "/state", "PROVISIONED");
  const protocols = `/fabric/v4/connections/${connection}/routingProtocols`;
  const direct = await ok<{ uuid: string }>("POST", protocols, { type: "DIRECT", directIpv4: { equinixIfaceIp: `${net}.1/30` } }, 202);
  await t.waitFor(`${protocols}/${direct.uuid}`, "/state", "PROVISIONED");
  const session = await ok<{ uuid: string }>("POST", protocols, { type: "BGP", customerAsn: 65000 + vlanTag, bgpIpv4: { customerPeerIp: `${net}.2`, ...bgp } }, 202);
  await t.waitFor(`${protocols}/${session.uuid}`, "/state", "PROVISIONED");
  return connection;
}

/** A provisioned filter (or aggregation) with one rule per prefix, all provisioned. */
async function policy(kind: "routeFilters" | "routeAggregations", type: string, rules: Array<Record<string, string>>): Promise<string> {
  const uuid = (await ok<{ uuid: string }>("POST", `/fabric/v4/${kind}`, { type, name: `${kind}-${rules.length}`, project: { projectId: PRODUCTION } }, 202)).uuid;
  await t.waitFor(`/fabric/v4/${kind}/${uuid}`, "/state", "PROVISIONED");
  const segment = kind === "routeFilters" ? "routeFilterRules" : "routeAggregationRules";
  await ok("POST", `/fabric/v4/${kind}/${uuid}/${segment}/bulk`, { data: rules }, 202);
  await t.eventually(async () => ((await t.call("GET", `/fabric/v4/${kind}/${uuid}/${segment}`)).body.data.every((r: { state: string }) => r.state === "PROVISIONED") ? true : undefined));
  return uuid;
}

async function attached(connection: string, kind: "routeFilters" | "routeAggregations", uuid: string, direction?: string): Promise<void> {
  const path = `/fabric/v4/connections/${connection}/${kind}/${uuid}`;
  await ok("PUT", path, direction === undefined ? undefined : { direction }, 202);
  await t.waitFor(path, "/attachmentStatus", "ATTACHED");
}

/**
 * A router with two connections: `a` (10.1.1.0/30, AS 65101) learns 192.168.10.0/24 and 192.168.11.0/24
 * through an INBOUND filter, `b` (10.2.2.0/30, AS 65102, outbound MED 70) learns 172.16.0.0/16.
 */
async function twoConnections() {
  const router = seedRouter(t);
  const a = await routed(router, 101, "10.1.1");
  const b = await routed(router, 102, "10.2.2", { outboundMED: 70 });
  const fromA = await policy("routeFilters", "BGP_IPv4_PREFIX_FILTER", [{ prefix: "192.168.10.0/24" }, { prefix: "192.168.11.0/24" }]);
  const fromB = await policy("routeFilters", "BGP_IPv4_PREFIX_FILTER", [{ prefix: "172.16.0.0/16" }]);
  await attached(a, "routeFilters", fromA, "INBOUND");
  await attached(b, "routeFilters", fromB, "INBOUND");
  return { router, a, b, fromA, fromB };
}

const searchBody = (and: object[] = [], sort: object[] = [{ property: "/prefix", direction: "ASC" }]) => ({ ...(and.length > 0 ? { filter: { and } } : {}), sort, pagination: { offset: 0, limit: 20 } });
const prefixes = (body: { data: Array<Record<string, unknown>> }) => body.data.map((r) => r.prefix);

describe("a cloud router's routes", () => {
  it("holds its connections' DIRECT subnets and the BGP routes it learns, searched by the route table's properties", async () => {
    const { router, a } = await twoConnections();
    const table = await ok<{ data: Array<Record<string, unknown>>; pagination: { total: number } }>("POST", `/fabric/v4/routers/${router}/routes/search`, searchBody(), 200);
    expect(prefixes(table)).toEqual(["10.1.1.0/30", "10.2.2.0/30", "172.16.0.0/16", "192.168.10.0/24", "192.168.11.0/24"]);
    expect(table.data.find((r) => r.prefix === "192.168.10.0/24")).toMatchObject({
      type: "IPv4_BGP_ROUTE",
      protocolType: "BGP",
      state: "ACTIVE",
      nextHop: "10.1.1.2",
      asPath: ["65101"],
      connection: { uuid: a, href: `/fabric/v4/connections/${a}`, name: "fcr-101" },
      changeLog: { createdDateTime: expect.any(String) },
    });
    expect(table.data.find((r) => r.prefix === "10.1.1.0/30")).toMatchObject({ type: "IPv4_DIRECT_ROUTE", protocolType: "DIRECT", connection: { uuid: a } });

    const bgp = await ok<{ data: unknown[] }>("POST", `/fabric/v4/routers/${router}/routes/search`, searchBody([{ property: "/type", operator: "=", values: ["IPv4_BGP_ROUTE"] }]), 200);
    expect(bgp.data).toHaveLength(3);
    const like = await ok<{ data: Array<{ prefix: string }> }>("POST", `/fabric/v4/routers/${router}/routes/search`, searchBody([{ property: "/*", operator: "~*", values: ["172.16%"] }]), 200);
    expect(prefixes(like)).toEqual(["172.16.0.0/16"]);
    const refused = await t.call("POST", `/fabric/v4/routers/${router}/routes/search`, { body: searchBody([{ property: "/asPath", operator: "=", values: ["1"] }]) });
    expect(problem(refused.body).errorCode).toBe("EQ-3040055");
    expect((await t.call("POST", "/fabric/v4/routers/0c5d0c8b-0000-4000-8000-000000000000/routes/search", { body: searchBody() })).status).toBe(404);
  });

  it("gives a connection's received routes, and advertises to it the others' routes through its OUTBOUND filter and aggregation", async () => {
    const { a, b } = await twoConnections();
    const received = await ok<{ data: Array<{ prefix: string }> }>("POST", `/fabric/v4/connections/${a}/receivedRoutes/search`, searchBody(), 200);
    expect(prefixes(received)).toEqual(["192.168.10.0/24", "192.168.11.0/24"]);

    const advertised = await ok<{ data: Array<Record<string, unknown>> }>("POST", `/fabric/v4/connections/${b}/advertisedRoutes/search`, searchBody(), 200);
    expect(prefixes(advertised)).toEqual(["10.1.1.0/30", "192.168.10.0/24", "192.168.11.0/24"]);
    expect(advertised.data[1]).toMatchObject({ type: "IPv4_BGP_ROUTE", nextHop: "10.2.2.1", MED: 70, asPath: ["30000", "65101"], connection: { uuid: b } });

    // An OUTBOUND filter lets out what its rules match, and nothing else of its family.
    const out = await policy("routeFilters", "BGP_IPv4_PREFIX_FILTER", [{ prefix: "192.168.0.0/16", prefixMatch: "orlonger" }]);
    await attached(b, "routeFilters", out, "OUTBOUND");
    const filtered = await ok<{ data: Array<{ prefix: string }> }>("POST", `/fabric/v4/connections/${b}/advertisedRoutes/search`, searchBody(), 200);
    expect(prefixes(filtered)).toEqual(["192.168.10.0/24", "192.168.11.0/24"]);

    // An aggregation advertises one route in place of those it covers.
    const summary = await policy("routeAggregations", "BGP_IPv4_PREFIX_AGGREGATION", [{ prefix: "192.168.0.0/16" }]);
    await attached(b, "routeAggregations", summary);
    const aggregated = await ok<{ data: Array<Record<string, unknown>> }>("POST", `/fabric/v4/connections/${b}/advertisedRoutes/search`, searchBody(), 200);
    expect(aggregated.data).toEqual([expect.objectContaining({ prefix: "192.168.0.0/16", asPath: ["30000"], nextHop: "10.2.2.1" })]);

    const medSorted = await t.call("POST", `/fabric/v4/connections/${b}/advertisedRoutes/search`, { body: searchBody([], [{ property: "/med", direction: "DESC" }]) });
    expect(medSorted.status).toBe(200);
    const notRouted = (await ok<{ uuid: string }>("POST", "/fabric/v4/connections", connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 300), redundancy: undefined }), 201)).uuid;
    expect(problem((await t.call("POST", `/fabric/v4/connections/${notRouted}/receivedRoutes/search`, { body: searchBody() })).body).additionalInfo?.[0]?.property).toBe("connectionId");
  });
});

describe("a cloud router's actions", () => {
  it("reads its route table and a connection's routes on the clock, with the counts of the moment they were asked for", async () => {
    const { router, a } = await twoConnections();
    const actions = `/fabric/v4/routers/${router}/actions`;
    const table = await ok<Record<string, unknown>>("POST", actions, { type: "ROUTE_TABLE_ENTRY_UPDATE" }, 202);
    expect(table).toMatchObject({ type: "ROUTE_TABLE_ENTRY_UPDATE", state: "PENDING", router: { uuid: router, type: "XF_ROUTER" } });
    expect(table).not.toHaveProperty("router.operation");

    const done = await t.waitFor(`${actions}/${table.uuid as string}`, "/state", "SUCCEEDED");
    expect(done.router.operation).toEqual({ bgpIpv4RoutesCount: 3, bgpIpv6RoutesCount: 0, distinctIpv4PrefixesCount: 5, distinctIpv6PrefixesCount: 0 });
    expect(done.changeLog).toMatchObject({ createdBy: "demo-user", updatedDateTime: expect.any(String) });

    const received = await ok<{ uuid: string }>("POST", actions, { type: "RECEIVED_ROUTE_ENTRY_UPDATE", connection: { uuid: a } }, 202);
    const receivedDone = await t.waitFor(`${actions}/${received.uuid}`, "/state", "SUCCEEDED");
    expect(receivedDone.connection).toMatchObject({ uuid: a, type: "IP_VC", operation: { bgpIpv4RoutesCount: 2, distinctIpv4PrefixesCount: 2 } });

    const listed = await ok<{ data: Array<{ uuid: string }>; pagination: { total: number } }>("GET", `${actions}?state=SUCCEEDED`, undefined, 200);
    expect(listed.data.map((x) => x.uuid)).toEqual([received.uuid, table.uuid]);
    const searched = await ok<{ data: Array<{ uuid: string }> }>("POST", `${actions}/search`, { filter: { and: [{ property: "/type", operator: "=", values: ["RECEIVED_ROUTE_ENTRY_UPDATE"] }] } }, 200);
    expect(searched.data.map((x) => x.uuid)).toEqual([received.uuid]);
    expect((await t.call("GET", `${actions}/${received.uuid}?state=PENDING`)).status).toBe(404);
  });

  it("refuses an action without the connection it reads, with one not the router's, of an unknown type, and on a router not provisioned", async () => {
    const { router } = await twoConnections();
    const actions = `/fabric/v4/routers/${router}/actions`;
    expect(problem((await t.call("POST", actions, { body: { type: "ADVERTISED_ROUTE_ENTRY_UPDATE" } })).body).additionalInfo?.[0]?.property).toBe("/connection/uuid");
    expect(problem((await t.call("POST", actions, { body: { type: "RECEIVED_ROUTE_ENTRY_UPDATE", connection: { uuid: "0c5d0c8b-0000-4000-8000-000000000000" } } })).body).additionalInfo?.[0]?.reason).toMatch(/not a live connection of cloud router/);
    expect(problem((await t.call("POST", actions, { body: { type: "REBOOT" } })).body).errorCode).toBe("EQ-2012025");
    expect((await t.call("GET", `${actions}?state=DONE`)).status).toBe(400);
    const provisioning = seedRouter(t, { state: "PROVISIONING" });
    expect(problem((await t.call("POST", `/fabric/v4/routers/${provisioning}/actions`, { body: { type: "BGP_SESSION_STATUS_UPDATE" } })).body).additionalInfo?.[0]?.property).toBe("routerId");
  });
});

describe("POST /fabric/v4/routers/{routerId}/validate", () => {
  const validate = (router: string, subnet: string, connection?: string, family = "Ipv4") =>
    t.call("POST", `/fabric/v4/routers/${router}/validate`, {
      body: { filter: { and: [{ property: `/direct${family}/equinixIfaceIp`, operator: "=", values: [subnet] }, ...(connection ? [{ property: "/connection/uuid", operator: "=", values: [connection] }] : [])] } },
    });

  it("finds a subnet that overlaps another connection's of the router invalid, as the DIRECT create does", async () => {
    const { router, a, b } = await twoConnections();
    expect((await validate(router, "10.3.3.1/30", b)).body).toEqual({ additionalInfo: [{ key: "message", value: "The provided subnet is valid." }] });
    expect((await validate(router, "10.1.1.1/30", a)).status).toBe(200);
    const overlapping = await validate(router, "10.1.1.5/29", b);
    expect(problem(overlapping.body)).toMatchObject({ errorCode: "EQ-2041022", errorMessage: "The provided subnet is not valid.", additionalInfo: [{ property: "/filter/and/0/values/0" }] });
    expect(problem(overlapping.body).additionalInfo?.[0]?.reason).toBe(`the subnet overlaps 10.1.1.1/30 of connection ${a} on the same Fabric Cloud Router`);

    const third = (await ok<{ uuid: string }>("POST", "/fabric/v4/connections", connectionBody({ type: "IP_VC", name: "fcr-103", bandwidth: 10, redundancy: undefined, aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router } } }, zSide: coloSide(seededPort("DC", "PRIMARY"), 103) }), 201)).uuid;
    await t.waitFor(`/fabric/v4/connections/${third}`, "/state", "PROVISIONED");
    const direct = await t.call("POST", `/fabric/v4/connections/${third}/routingProtocols`, { body: { type: "DIRECT", directIpv4: { equinixIfaceIp: "10.1.1.5/29" } } });
    expect(problem(direct.body)).toMatchObject({ errorCode: "EQ-2041022", additionalInfo: [{ property: "/directIpv4/equinixIfaceIp", reason: `the subnet overlaps 10.1.1.1/30 of connection ${a} on the same Fabric Cloud Router` }] });
  });

  it("refuses a subnet that is not one, a connection not the router's, an unknown router, and other properties, with 400", async () => {
    const router = seedRouter(t);
    expect(problem((await validate(router, "1202:ABCD::20:1::11/30", undefined, "Ipv6")).body)).toMatchObject({ errorCode: "EQ-2041022", errorMessage: "Invalid argument value passed." });
    expect(problem((await validate(router, "10.0.0.1/30", "0c5d0c8b-0000-4000-8000-000000000000")).body).additionalInfo?.[0]?.property).toBe("/connection/uuid");
    expect((await validate("0c5d0c8b-0000-4000-8000-000000000000", "10.0.0.1/30")).status).toBe(400);
    const other = await t.call("POST", `/fabric/v4/routers/${router}/validate`, { body: { filter: { and: [{ property: "/bgpIpv4/customerPeerIp", operator: "=", values: ["10.0.0.2"] }] } } });
    expect(problem(other.body).errorCode).toBe("EQ-3040055");
  });
});

describe("a cloud router's attached filters and aggregations", () => {
  it("searches the route filters and route aggregations attached to its connections", async () => {
    const { router, b, fromA, fromB } = await twoConnections();
    const summary = await policy("routeAggregations", "BGP_IPv4_PREFIX_AGGREGATION", [{ prefix: "192.168.0.0/16" }]);
    await attached(b, "routeAggregations", summary);
    const filters = await ok<{ data: Array<Record<string, unknown>> }>("POST", `/fabric/v4/routers/${router}/routeFilters/search`, {
      filter: { and: [{ property: "/direction", operator: "=", values: ["INBOUND"] }, { property: "/attachmentStatus", operator: "=", values: ["ATTACHED"] }] },
      sort: [{ property: "/uuid", direction: "ASC" }],
    }, 200);
    expect(filters.data.map((f) => f.uuid)).toEqual([fromA, fromB].sort());
    expect(filters.data[0]).toMatchObject({ type: "BGP_IPv4_PREFIX_FILTER", direction: "INBOUND", attachmentStatus: "ATTACHED", href: expect.stringMatching(/^\/fabric\/v4\/connections\/.+\/routeFilters\//) });
    const aggregations = await ok<{ data: Array<Record<string, unknown>> }>("POST", `/fabric/v4/routers/${router}/routeAggregations/search`, { filter: { and: [{ property: "/type", operator: "=", values: ["BGP_IPv4_PREFIX_AGGREGATION"] }] } }, 200);
    expect(aggregations.data).toEqual([expect.objectContaining({ uuid: summary, attachmentStatus: "ATTACHED", href: `/fabric/v4/connections/${b}/routeAggregations/${summary}` })]);
    expect(problem((await t.call("POST", `/fabric/v4/routers/${router}/routeAggregations/search`, { body: { filter: { and: [{ property: "/direction", operator: "=", values: ["INBOUND"] }] } } })).body).errorCode).toBe("EQ-3040055");
  });
});

describe("BGP actions of a routing protocol", () => {
  async function bgpOf(connection: string): Promise<{ base: string; bgp: string; direct: string }> {
    const base = `/fabric/v4/connections/${connection}/routingProtocols`;
    const listed = (await t.call("GET", base)).body.data as Array<{ uuid: string; type: string }>;
    return { base, bgp: listed.find((p) => p.type === "BGP")!.uuid, direct: listed.find((p) => p.type === "DIRECT")!.uuid };
  }

  it("clears a session's routes, and resets it: down at once, up when the action has succeeded", async () => {
    const router = seedRouter(t);
    const { base, bgp } = await bgpOf(await routed(router, 101, "10.1.1"));
    const clear = await ok<Record<string, unknown>>("POST", `${base}/${bgp}/actions`, { type: "CLEAR_BGPIPV4_INBOUND" }, 202);
    expect(clear).toMatchObject({ type: "CLEAR_BGPIPV4_INBOUND", state: "PENDING", href: `${base}/${bgp}/actions/${clear.uuid as string}`, changelog: { createdBy: "demo-user" } });
    expect((await t.waitFor(`${base}/${bgp}/actions/${clear.uuid as string}`, "/state", "SUCCEEDED")).changelog.updatedDateTime).toEqual(expect.any(String));

    // The simulator's clock stands still while the reset is looked at, then moves past its end.
    vi.useFakeTimers({ toFake: ["Date"] });
    let reset: { uuid: string };
    try {
      reset = await ok<{ uuid: string }>("POST", `${base}/${bgp}/actions`, { type: "RESET_BGPIPV4" }, 202);
      expect((await t.call("GET", `${base}/${bgp}`)).body.bgpIpv4.operation.operationalStatus).toBe("DOWN");
      expect((await t.call("GET", `${base}/${bgp}/actions/${reset.uuid}`)).body.state).toBe("PENDING");
      vi.setSystemTime(Date.now() + 60_000);
      expect((await t.call("GET", `${base}/${bgp}/actions/${reset.uuid}`)).body.state).toBe("SUCCEEDED");
      expect((await t.call("GET", `${base}/${bgp}`)).body.bgpIpv4.operation.operationalStatus).toBe("UP");
    } finally {
      vi.useRealTimers();
    }

    const listed = await ok<{ data: Array<{ uuid: string }>; pagination: { total: number } }>("GET", `${base}/${bgp}/actions`, undefined, 200);
    expect(listed.data.map((x) => x.uuid)).toEqual([reset.uuid, clear.uuid]);
    expect(listed.pagination.total).toBe(2);
  });

  it("refuses an action on a session the instance lacks, on a DIRECT instance, of an unknown type, and an unknown action", async () => {
    const router = seedRouter(t);
    const { base, bgp, direct } = await bgpOf(await routed(router, 101, "10.1.1"));
    expect(problem((await t.call("POST", `${base}/${bgp}/actions`, { body: { type: "CLEAR_BGPIPV6" } })).body).additionalInfo?.[0]?.reason).toBe("this BGP routing protocol has no IPv6 session");
    expect(problem((await t.call("POST", `${base}/${direct}/actions`, { body: { type: "CLEAR_BGPIPV4" } })).body).additionalInfo?.[0]?.property).toBe("routingProtocolId");
    expect(problem((await t.call("POST", `${base}/${bgp}/actions`, { body: { type: "SHUTDOWN" } })).body).errorCode).toBe("EQ-2012025");
    expect((await t.call("GET", `${base}/${bgp}/actions/0c5d0c8b-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});
