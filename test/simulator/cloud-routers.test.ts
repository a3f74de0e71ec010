import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { seedRouter } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { coloSide, connectionBody, problem, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;
const ROUTERS = "/fabric/v4/routers";

const routerBody = (overrides: Record<string, unknown> = {}) => ({
  type: "XF_ROUTER",
  name: "fcr-sv",
  location: { metroCode: "SV" },
  package: { code: "STANDARD" },
  project: { projectId: PRODUCTION },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function provisionedRouter(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call("POST", ROUTERS, { body: routerBody(overrides) });
  expect(res.status, res.text).toBe(200);
  await t.waitFor(`${ROUTERS}/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid as string;
}

async function expectProblem(res: { status: number; body: unknown }, code: string, property: string): Promise<string> {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(problem(res.body)).toMatchObject({ errorCode: code, additionalInfo: [{ property }] });
  return problem(res.body).additionalInfo![0]!.reason;
}

/** An IP_VC from the router to a DC port on its own VLAN. */
const fromRouter = (router: string, vlanTag: number, bandwidth = 10) =>
  connectionBody({ type: "IP_VC", name: `fcr-${vlanTag}`, bandwidth, aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router } } }, zSide: coloSide(seededPort("DC", "PRIMARY"), vlanTag) });

/** A provisioned IP_VC from the router, ready to take route filters. */
async function routedConnection(router: string, vlanTag: number): Promise<string> {
  const res = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, vlanTag) });
  expect(res.status, res.text).toBe(201);
  await t.waitFor(`/fabric/v4/connections/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid as string;
}

const ipv4Prefixes = (from: number, count: number) => Array.from({ length: count }, (_, i) => `10.${from + i}.0.0/16`);

/** A provisioned route filter with one provisioned rule per prefix. */
async function filterWithRules(type: string, prefixes: string[]): Promise<string> {
  const filter = await t.call("POST", "/fabric/v4/routeFilters", { body: { type, name: `filter-${prefixes.length}`, project: { projectId: PRODUCTION } } });
  expect(filter.status, filter.text).toBe(202);
  await t.waitFor(`/fabric/v4/routeFilters/${filter.body.uuid}`, "/state", "PROVISIONED");
  const rules = await t.call("POST", `/fabric/v4/routeFilters/${filter.body.uuid}/routeFilterRules/bulk`, { body: { data: prefixes.map((prefix) => ({ prefix })) } });
  expect(rules.status, rules.text).toBe(202);
  return filter.body.uuid as string;
}

const attach = (connection: string, filter: string, direction = "INBOUND") => t.call("PUT", `/fabric/v4/connections/${connection}/routeFilters/${filter}`, { body: { direction } });

const searchProject = (more: unknown[] = [], extra: Record<string, unknown> = {}) =>
  t.call("POST", `${ROUTERS}/search`, { body: { filter: { and: [{ property: "/project/projectId", operator: "=", values: [PRODUCTION] }, ...more] }, ...extra } });

describe("POST /fabric/v4/routers", () => {
  it("accepts a router (200, PROVISIONING) and provisions it on the clock", async () => {
    const res = await t.call("POST", ROUTERS, { body: routerBody({ order: { purchaseOrderNumber: "PO-77", termLength: 12 } }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "XF_ROUTER",
      name: "fcr-sv",
      state: "PROVISIONING",
      location: { metroCode: "SV", metroName: "Silicon Valley", region: "AMER" },
      package: { code: "STANDARD", type: "ROUTER_PACKAGE", href: "/fabric/v4/routerPackages/STANDARD" },
      order: { purchaseOrderNumber: "PO-77", termLength: 12 },
      project: { projectId: PRODUCTION },
      account: { accountNumber: 270848 },
      equinixAsn: 30000,
      connectionsCount: 0,
      changeLog: { createdBy: "demo-user" },
    });
    expect(res.body.href).toBe(`${ROUTERS}/${res.body.uuid}`);
    const provisioned = await t.waitFor(`${ROUTERS}/${res.body.uuid}`, "/state", "PROVISIONED");
    expect(provisioned.uuid).toBe(res.body.uuid);
  });

  it("checks a dry run without keeping anything", async () => {
    const res = await t.call("POST", `${ROUTERS}?dryRun=true`, { body: routerBody({ name: "dry-one" }) });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("dry-one");
    expect((await searchProject([{ property: "/name", operator: "=", values: ["dry-one"] }])).body.data).toEqual([]);
  });

  it("refuses names outside 3-24 characters, unknown packages, metros and accounts, with the official codes", async () => {
    expect(await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ name: "ab" }) }), "EQ-3040022", "/name")).toContain("3 to 24");
    await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ name: "x".repeat(25) }) }), "EQ-3040022", "/name");
    expect(await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ package: { code: "PREMIUM" } }) }), "EQ-3040028", "/package/code")).toContain("LAB, STANDARD");
    await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ location: { metroCode: "QQ" } }) }), "EQ-2010010", "/location/metroCode");
    await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ location: undefined }) }), "EQ-2012011", "/location");
    await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ account: { accountNumber: 999999 } }) }), "EQ-3040032", "/account/accountNumber");
    await expectProblem(await t.call("POST", ROUTERS, { body: routerBody({ type: "IC_ROUTER" }) }), "EQ-2012025", "/type");
    const forbidden = await t.call("POST", ROUTERS, { client: "limited", body: routerBody() });
    expect(forbidden.status).toBe(403);
  });

  it("takes another of the caller's accounts", async () => {
    const res = await t.call("POST", ROUTERS, { body: routerBody({ account: { accountNumber: 270849 } }) });
    expect(res.body.account).toMatchObject({ accountNumber: 270849, accountName: "Example Networks Lab" });
  });

  it("allows three LAB routers per organisation (EQ-3040060), counting those of every project", async () => {
    for (let i = 0; i < 2; i++) await provisionedRouter({ name: `lab-${i}`, package: { code: "LAB" } });
    await provisionedRouter({ name: "lab-sandbox", package: { code: "LAB" }, project: { projectId: SANDBOX } });
    const refused = await t.call("POST", ROUTERS, { body: routerBody({ name: "lab-4", package: { code: "LAB" } }) });
    expect(await expectProblem(refused, "EQ-3040060", "/package/code")).toContain("Only 3 LAB Fabric Cloud Routers");
    expect((await t.call("POST", ROUTERS, { body: routerBody({ name: "standard" }) })).status).toBe(200);
  });

  it("ends in NOT_PROVISIONED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routers", count: 1 } } });
    const res = await t.call("POST", ROUTERS, { body: routerBody() });
    await t.waitFor(`${ROUTERS}/${res.body.uuid}`, "/state", "NOT_PROVISIONED");
  });
});

describe("the seeded router", () => {
  it("is a provisioned STANDARD router in DC", async () => {
    const res = await t.call("GET", `${ROUTERS}/${SEEDED_ENDPOINTS.router.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "fcr-dc", state: "PROVISIONED", package: { code: "STANDARD" }, location: { metroCode: "DC" }, connectionsCount: 0 });
  });
});

describe("GET and PATCH /fabric/v4/routers/{id}", () => {
  it("answers 404 for an unknown router and for another project's", async () => {
    expect((await t.call("GET", `${ROUTERS}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const router = await provisionedRouter();
    expect((await t.call("GET", `${ROUTERS}/${router}`, { client: "limited" })).status).toBe(404);
  });

  it("renames and changes notifications at once, recording a completed ROUTER_UPDATE", async () => {
    const router = await provisionedRouter();
    const res = await t.call("PATCH", `${ROUTERS}/${router}`, {
      contentType: "application/json-patch+json",
      body: [
        { op: "replace", path: "/name", value: "fcr-sv-2" },
        { op: "replace", path: "/notifications", value: [{ type: "ALL", emails: ["ops@example.com"] }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: "PROVISIONED",
      name: "fcr-sv-2",
      notifications: [{ type: "ALL", emails: ["ops@example.com"] }],
      change: { type: "ROUTER_UPDATE", status: "COMPLETED", data: [{ op: "replace", path: "/name", value: "fcr-sv-2" }, { op: "replace", path: "/notifications" }] },
      changeLog: { updatedBy: "demo-user" },
    });
  });

  it("changes the package by reprovisioning the router, and the term length in place", async () => {
    const router = await provisionedRouter();
    const res = await t.call("PATCH", `${ROUTERS}/${router}`, { body: [{ op: "replace", path: "/package/code", value: "LAB" }, { op: "replace", path: "/order/termLength", value: 12 }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "REPROVISIONING", package: { code: "LAB", href: "/fabric/v4/routerPackages/LAB" }, order: { termLength: 12 }, change: { status: "REQUESTED" } });
    const done = await t.waitFor(`${ROUTERS}/${router}`, "/state", "PROVISIONED");
    expect(done.change.status).toBe("COMPLETED");
    const busy = seedRouter(t, { state: "REPROVISIONING" });
    expect(await expectProblem(await t.call("PATCH", `${ROUTERS}/${busy}`, { body: [{ op: "replace", path: "/name", value: "later" }] }), "EQ-2010010", "routerId")).toContain("REPROVISIONING");
  });

  it("refuses other operations and paths (EQ-3044011) and bad values", async () => {
    const router = await provisionedRouter();
    const patch = (body: unknown) => t.call("PATCH", `${ROUTERS}/${router}`, { body });
    expect(await expectProblem(await patch([{ op: "replace", path: "/location/metroCode", value: "DC" }]), "EQ-3044011", "/0/path")).toContain("/name, /package/code");
    await expectProblem(await patch([{ op: "add", path: "/name", value: "x" }]), "EQ-3044011", "/0/op");
    await expectProblem(await patch([{ op: "replace", path: "/name", value: "no" }]), "EQ-3040022", "/0/value");
    await expectProblem(await patch([{ op: "replace", path: "/package/code", value: "BASIC" }]), "EQ-3040028", "/0/value");
    await expectProblem(await patch([{ op: "replace", path: "/order/termLength", value: 6 }]), "EQ-2010010", "/0/value");
    await expectProblem(await patch([]), "EQ-2012011", "body");
  });
});

describe("package limits (section 8)", () => {
  it("gives a LAB router at most 10 connections of at most 10 Mbps, and counts them", async () => {
    const router = await provisionedRouter({ package: { code: "LAB" } });
    const wide = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, 3000, 50) });
    expect(await expectProblem(wide, "EQ-2010010", "/bandwidth")).toContain("10 Mbps per connection");
    const made: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, 3000 + i) });
      expect(res.status, res.text).toBe(201);
      made.push(res.body.uuid);
    }
    expect((await t.call("GET", `${ROUTERS}/${router}`)).body.connectionsCount).toBe(10);
    const eleventh = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, 3010) });
    expect(await expectProblem(eleventh, "EQ-2010010", "/aSide/accessPoint/router/uuid")).toContain("10 connections, the most its LAB package allows");
    await t.waitFor(`/fabric/v4/connections/${made[0]}`, "/state", "PROVISIONED");
    const widened = await t.call("PATCH", `/fabric/v4/connections/${made[0]}`, { body: [{ op: "replace", path: "/bandwidth", value: 50 }] });
    await expectProblem(widened, "EQ-2010010", "/bandwidth");
  });

  it("refuses a change to LAB that the router's connections exceed", async () => {
    const router = await provisionedRouter();
    const res = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, 3100, 100) });
    expect(res.status, res.text).toBe(201);
    const downgrade = await t.call("PATCH", `${ROUTERS}/${router}`, { body: [{ op: "replace", path: "/package/code", value: "LAB" }] });
    expect(await expectProblem(downgrade, "EQ-2010010", "/0/value")).toContain(`connection ${res.body.uuid} has 100 Mbps`);
  });

  it("counts a router's routes as the rules of the filters attached INBOUND to its connections, within its package", async () => {
    const router = await provisionedRouter({ package: { code: "LAB" } });
    const first = await routedConnection(router, 3200);
    const second = await routedConnection(router, 3201);
    const fifty = await filterWithRules("BGP_IPv4_PREFIX_FILTER", ipv4Prefixes(0, 50));
    expect((await attach(first, fifty)).status).toBe(202);

    // 50 IPv4 routes, the most LAB allows: one more rule on the filter, or another filter's, is refused.
    const more = await t.call("POST", `/fabric/v4/routeFilters/${fifty}/routeFilterRules/bulk`, { body: { data: [{ prefix: "10.200.0.0/24" }] } });
    expect(await expectProblem(more, "EQ-2010010", "/data")).toContain(`cloud router ${router} would hold 51 IPv4 routes; the LAB package allows 50`);
    const one = await filterWithRules("BGP_IPv4_PREFIX_FILTER", ipv4Prefixes(100, 1));
    expect(await expectProblem(await attach(second, one), "EQ-2010010", "routeFilterId")).toContain("would hold 51 IPv4 routes");
    // IPv6 routes count apart, and OUTBOUND filters are not routes the router learns.
    const v6 = await filterWithRules("BGP_IPv6_PREFIX_FILTER", ["2001:db8:1::/48"]);
    expect((await attach(second, v6)).status).toBe(202);
    expect((await attach(second, one, "OUTBOUND")).status).toBe(202);
  });

  it("refuses a STANDARD router more than 100 IPv6 routes, and a change to LAB that its routes exceed", async () => {
    const router = await provisionedRouter();
    const connection = await routedConnection(router, 3300);
    const v6 = await filterWithRules("BGP_IPv6_PREFIX_FILTER", Array.from({ length: 101 }, (_, i) => `2001:db8:${i.toString(16)}::/48`));
    expect(await expectProblem(await attach(connection, v6), "EQ-2010010", "routeFilterId")).toContain("would hold 101 IPv6 routes; the STANDARD package allows 100");
    const v4 = await filterWithRules("BGP_IPv4_PREFIX_FILTER", ipv4Prefixes(0, 60));
    expect((await attach(connection, v4)).status).toBe(202);
    const downgrade = await t.call("PATCH", `${ROUTERS}/${router}`, { body: [{ op: "replace", path: "/package/code", value: "LAB" }] });
    expect(await expectProblem(downgrade, "EQ-2010010", "/0/value")).toContain("would hold 60 IPv4 routes; the LAB package allows 50");
  });

  it("lists the packages and their limits", async () => {
    const list = await t.call("GET", "/fabric/v4/routerPackages");
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { code: string }) => p.code)).toEqual(["LAB", "STANDARD"]);
    const lab = await t.call("GET", "/fabric/v4/routerPackages/LAB");
    expect(lab.body).toMatchObject({ code: "LAB", totalIPv4RoutesMax: 50, totalIPv6RoutesMax: 50, vcCountMax: 10, vcBandwidthMax: 10, crCountMax: 3 });
    expect((await t.call("GET", "/fabric/v4/routerPackages/STANDARD")).body).toMatchObject({ totalIPv4RoutesMax: 1000, totalIPv6RoutesMax: 100 });
    await expectProblem(await t.call("GET", "/fabric/v4/routerPackages/PREMIUM"), "EQ-3040028", "routerPackageCode");
  });
});

describe("connections to a cloud router", () => {
  it("start at a provisioned router, as IP_VC", async () => {
    const pending = seedRouter(t, { state: "PROVISIONING" });
    await expectProblem(await t.call("POST", "/fabric/v4/connections", { body: fromRouter(pending, 3200) }), "EQ-2010010", "/aSide/accessPoint/router/uuid");
    const router = await provisionedRouter({ name: "fcr-two" });
    await expectProblem(await t.call("POST", "/fabric/v4/connections", { body: { ...fromRouter(router, 3201), type: "EVPL_VC" } }), "EQ-2010010", "/type");
    const zSide = connectionBody({ type: "IP_VC", aSide: coloSide(seededPort("DC", "PRIMARY"), 3202), zSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router } } } });
    expect(await expectProblem(await t.call("POST", "/fabric/v4/connections", { body: zSide }), "EQ-2010010", "/zSide/accessPoint/type")).toContain("a-side");
  });
});

describe("DELETE /fabric/v4/routers/{id}", () => {
  it("deletes a router after its connections, leaving it readable as DEPROVISIONED", async () => {
    const router = await provisionedRouter();
    const connection = await t.call("POST", "/fabric/v4/connections", { body: fromRouter(router, 3300) });
    const refused = await t.call("DELETE", `${ROUTERS}/${router}`);
    expect(await expectProblem(refused, "EQ-2010010", "routerId")).toContain(connection.body.uuid);
    await t.waitFor(`/fabric/v4/connections/${connection.body.uuid}`, "/state", "PROVISIONED");
    expect((await t.call("DELETE", `/fabric/v4/connections/${connection.body.uuid}`)).status).toBe(200);
    await t.waitFor(`/fabric/v4/connections/${connection.body.uuid}`, "/state", "DEPROVISIONED");

    const deleted = await t.call("DELETE", `${ROUTERS}/${router}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const gone = await t.waitFor(`${ROUTERS}/${router}`, "/state", "DEPROVISIONED");
    expect(gone.changeLog).toMatchObject({ deletedBy: "demo-user" });
    await expectProblem(await t.call("DELETE", `${ROUTERS}/${router}`), "EQ-2010010", "routerId");
    expect((await searchProject([{ property: "/uuid", operator: "=", values: [router] }])).body.data).toEqual([]);
    expect((await searchProject([{ property: "/uuid", operator: "=", values: [router] }, { property: "/state", operator: "=", values: ["DEPROVISIONED"] }])).body.data).toHaveLength(1);
  });

  it("refuses to delete a router still provisioning (EQ-3040030)", async () => {
    await expectProblem(await t.call("DELETE", `${ROUTERS}/${seedRouter(t, { state: "PROVISIONING" })}`), "EQ-3040030", "routerId");
  });
});

describe("POST /fabric/v4/routers/search", () => {
  it("finds by name, package and or-groups, sorted and paged, within the caller's projects", async () => {
    const a = await provisionedRouter({ name: "edge-a", package: { code: "LAB" } });
    const b = await provisionedRouter({ name: "edge-b" });
    await provisionedRouter({ name: "core-c" });
    const like = await searchProject([{ property: "/name", operator: "LIKE", values: ["edge-%"] }], { sort: [{ property: "/name", direction: "ASC" }] });
    expect(like.status).toBe(200);
    expect(like.body.data.map((r: { uuid: string }) => r.uuid)).toEqual([a, b]);
    const or = await searchProject([{ or: [{ property: "/package/code", operator: "=", values: ["LAB"] }, { property: "/name", operator: "=", values: ["core-c"] }] }]);
    expect(or.body.data.map((r: { name: string }) => r.name).sort()).toEqual(["core-c", "edge-a"]);
    const notIn = await searchProject([{ property: "/name", operator: "NOT IN", values: ["edge-a", "edge-b", "fcr-dc"] }]);
    expect(notIn.body.data.map((r: { name: string }) => r.name)).toEqual(["core-c"]);
    const paged = await searchProject([], { pagination: { offset: 1, limit: 2 } });
    expect(paged.body.pagination).toMatchObject({ offset: 1, limit: 2, total: 4 });
    expect(paged.body.data).toHaveLength(2);
    const limited = await t.call("POST", `${ROUTERS}/search`, { client: "limited", body: { filter: { and: [{ property: "/project/projectId", operator: "=", values: [PRODUCTION] }] } } });
    expect(limited.body.data).toEqual([]);
  });

  it("requires the project, and refuses unknown properties, operators and filters too long", async () => {
    const search = (filter: unknown) => t.call("POST", `${ROUTERS}/search`, { body: { filter } });
    await expectProblem(await search({ and: [{ property: "/name", operator: "=", values: ["x"] }] }), "EQ-2012011", "/filter/and");
    await expectProblem(await search({ and: [{ property: "/project/projectId", operator: "=", values: [PRODUCTION] }, { property: "/colour", operator: "=", values: ["x"] }] }), "EQ-3040055", "/filter/and/1/property");
    await expectProblem(await search({ and: [{ property: "/project/projectId", operator: "~", values: [PRODUCTION] }] }), "EQ-2012025", "/filter/and/0/operator");
    const nine = Array.from({ length: 9 }, () => ({ property: "/project/projectId", operator: "=", values: [PRODUCTION] }));
    await expectProblem(await search({ and: nine }), "EQ-2010010", "/filter/and");
    const four = Array.from({ length: 4 }, () => ({ property: "/name", operator: "=", values: ["x"] }));
    await expectProblem(await search({ and: [{ property: "/project/projectId", operator: "=", values: [PRODUCTION] }, { or: four }] }), "EQ-2010010", "/filter/and/1/or");
  });
});

describe("cloud router events", () => {
  it("records the router's lifecycle under its subject", async () => {
    const router = await provisionedRouter();
    const events = await t.call("POST", "/fabric/v4/cloudevents/search", { body: { filter: { and: [{ property: "/subject", operator: "IN", values: [`${ROUTERS}/${router}*`] }] } } });
    expect(events.status).toBe(200);
    expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(["equinix.fabric.router.state.provisioning", "equinix.fabric.router.state.provisioned"]);
  });
});
