import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;

interface FilterOptions {
  name?: string;
  type?: string;
  projectId?: string;
  client?: "demo" | "limited";
}

async function createFilter(sim: TestSim, options: FilterOptions = {}) {
  const res = await sim.call("POST", "/fabric/v4/routeFilters", {
    client: options.client ?? "demo",
    body: {
      type: options.type ?? "BGP_IPv4_PREFIX_FILTER",
      name: options.name ?? "rf-one",
      description: "test filter",
      project: { projectId: options.projectId ?? PRODUCTION },
    },
  });
  expect(res.status).toBe(202);
  return res.body;
}

async function provisionedFilter(sim: TestSim, options: FilterOptions = {}) {
  const created = await createFilter(sim, options);
  return sim.waitFor(`/fabric/v4/routeFilters/${created.uuid}`, "/state", "PROVISIONED", options.client ?? "demo");
}

const search = (body: unknown, client: "demo" | "limited" = "demo") => t.call("POST", "/fabric/v4/routeFilters/search", { body, client });
const byName = (name: string) => ({ filter: { and: [{ property: "/name", operator: "=", values: [name] }] } });

describe("route filter create and get", () => {
  it("accepts a filter (202, PROVISIONING, creation change) and provisions it on the clock", async () => {
    const created = await createFilter(t, { name: "edge-in" });
    expect(created).toMatchObject({
      type: "BGP_IPv4_PREFIX_FILTER",
      name: "edge-in",
      description: "test filter",
      state: "PROVISIONING",
      notMatchedRuleAction: "DENY",
      connectionsCount: 0,
      project: { projectId: PRODUCTION },
      change: { type: "BGP_IPv4_PREFIX_FILTER_CREATION" },
      changeLog: { createdBy: "demo-user", createdByEmail: "demo.user@example.com" },
    });
    expect(created.href).toBe(`/fabric/v4/routeFilters/${created.uuid}`);
    expect(created.change.href).toBe(`/fabric/v4/routeFilters/${created.uuid}/changes/${created.change.uuid}`);
    const provisioned = await t.waitFor(`/fabric/v4/routeFilters/${created.uuid}`, "/state", "PROVISIONED");
    expect(provisioned.uuid).toBe(created.uuid);
  });

  it("creates IPv6 filters and filters without a name (the name is optional)", async () => {
    const v6 = await createFilter(t, { type: "BGP_IPv6_PREFIX_FILTER" });
    expect(v6.change.type).toBe("BGP_IPv6_PREFIX_FILTER_CREATION");
    const unnamed = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER", project: { projectId: PRODUCTION } } });
    expect(unnamed.status).toBe(202);
    expect(unnamed.body.name).toBeUndefined();
  });

  it("requires type and project.projectId", async () => {
    const noType = await t.call("POST", "/fabric/v4/routeFilters", { body: { name: "x", project: { projectId: PRODUCTION } } });
    expect(noType.status).toBe(400);
    expect(noType.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "type" }] });
    const noProject = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER" } });
    expect(noProject.status).toBe(400);
    expect(noProject.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/project/projectId" }] });
    const noProjectId = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER", project: {} } });
    expect(noProjectId.body[0].additionalInfo[0].property).toBe("/project/projectId");
  });

  it("refuses a type outside the allowed list and fields of the wrong type", async () => {
    const badType = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_PREFIX", project: { projectId: PRODUCTION } } });
    expect(badType.status).toBe(400);
    expect(badType.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "type" }] });
    const numericName = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER", name: 5, project: { projectId: PRODUCTION } } });
    expect(numericName.status).toBe(400);
    expect(numericName.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "name" }] });
    const projectString = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER", project: "p" } });
    expect(projectString.body[0].additionalInfo[0].property).toBe("/project");
  });

  it("refuses malformed bodies, other content types and unknown query parameters", async () => {
    const malformed = await t.call("POST", "/fabric/v4/routeFilters", { raw: "{oops", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body[0].errorCode).toBe("EQ-3046116");
    const array = await t.call("POST", "/fabric/v4/routeFilters", { body: [] });
    expect(array.status).toBe(400);
    const text = await t.call("POST", "/fabric/v4/routeFilters", { raw: "type=x", contentType: "text/plain" });
    expect(text.status).toBe(415);
    const query = await t.call("GET", `/fabric/v4/routeFilters/${(await createFilter(t)).uuid}?verbose=true`);
    expect(query.status).toBe(400);
    expect(query.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "verbose" }] });
  });

  it("keeps projects apart: 403 for a project the caller lacks, 404 for filters of other projects", async () => {
    const forbidden = await t.call("POST", "/fabric/v4/routeFilters", { client: "limited", body: { type: "BGP_IPv4_PREFIX_FILTER", project: { projectId: PRODUCTION } } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body[0].additionalInfo[0].property).toBe("/project/projectId");
    const production = await createFilter(t);
    const hidden = await t.call("GET", `/fabric/v4/routeFilters/${production.uuid}`, { client: "limited" });
    expect(hidden.status).toBe(404);
    const sandbox = await createFilter(t, { client: "limited", projectId: SANDBOX });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${sandbox.uuid}`, { client: "limited" })).status).toBe(200);
  });

  it("answers 404 for an unknown filter and 401 without a token", async () => {
    const missing = await t.call("GET", "/fabric/v4/routeFilters/00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-3073004", additionalInfo: [{ property: "routeFilterId" }] });
    expect((await t.call("GET", "/fabric/v4/routeFilters/x", { client: "none" })).status).toBe(401);
  });

  it("ends in NOT_PROVISIONED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routeFilters", count: 1 } } });
    const created = await createFilter(t);
    await t.waitFor(`/fabric/v4/routeFilters/${created.uuid}`, "/state", "NOT_PROVISIONED");
    const change = await t.call("GET", `/fabric/v4/routeFilters/${created.uuid}/changes/${created.change.uuid}`);
    expect(change.body.status).toBe("FAILED");
  });
});

describe("route filter search", () => {
  it("filters with = and like, pages with next/previous, and sorts", async () => {
    for (const name of ["alpha-1", "alpha-2", "alpha-3", "beta-1"]) await createFilter(t, { name });
    const like = await search({
      filter: { and: [{ property: "/name", operator: "like", values: ["alpha%"] }] },
      pagination: { offset: 1, limit: 1 },
      sort: [{ property: "/name", direction: "ASC" }],
    });
    expect(like.status).toBe(200);
    expect(like.body.pagination).toMatchObject({ offset: 1, limit: 1, total: 3 });
    expect(like.body.pagination.next).toMatch(/offset=2&limit=1/);
    expect(like.body.pagination.previous).toMatch(/offset=0&limit=1/);
    expect(like.body.data.map((f: { name: string }) => f.name)).toEqual(["alpha-2"]);
    const exact = await search({
      filter: { and: [{ property: "/type", operator: "=", values: ["BGP_IPv4_PREFIX_FILTER"] }, { property: "/name", operator: "=", values: ["beta-1"] }] },
    });
    expect(exact.body.data).toHaveLength(1);
    expect(exact.body.pagination).toEqual({ offset: 0, limit: 20, total: 1 });
    const desc = await search({ filter: { and: [{ property: "/name", operator: "like", values: ["%-1"] }] }, sort: [{ property: "/name", direction: "DESC" }] });
    expect(desc.body.data.map((f: { name: string }) => f.name)).toEqual(["beta-1", "alpha-1"]);
  });

  it("searches by uuid, project and state, only among the caller's projects", async () => {
    const mine = await createFilter(t, { client: "limited", projectId: SANDBOX, name: "sandboxed" });
    await createFilter(t, { name: "production-only" });
    const limited = await search({ filter: { and: [{ property: "/name", operator: "like", values: ["%"] }] } }, "limited");
    expect(limited.body.data.map((f: { uuid: string }) => f.uuid)).toEqual([mine.uuid]);
    const byUuid = await search({ filter: { and: [{ property: "/uuid", operator: "=", values: [mine.uuid] }] } });
    expect(byUuid.body.data).toHaveLength(1);
    const byProject = await search({ filter: { and: [{ property: "/project/projectId", operator: "=", values: [PRODUCTION] }] } });
    expect(byProject.body.data.map((f: { name: string }) => f.name)).toEqual(["production-only"]);
    await t.waitFor(`/fabric/v4/routeFilters/${mine.uuid}`, "/state", "PROVISIONED");
    const byState = await search({ filter: { and: [{ property: "/state", operator: "=", values: ["PROVISIONED"] }] } });
    expect(byState.body.data.map((f: { uuid: string }) => f.uuid)).toContain(mine.uuid);
  });

  it("leaves deleted filters out unless the search asks about /state", async () => {
    const filter = await provisionedFilter(t, { name: "short-lived" });
    await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`);
    await t.waitFor(`/fabric/v4/routeFilters/${filter.uuid}`, "/state", "DEPROVISIONED");
    expect((await search(byName("short-lived"))).body.data).toEqual([]);
    const deleted = await search({ filter: { and: [{ property: "/state", operator: "=", values: ["DEPROVISIONED"] }] } });
    expect(deleted.body.data.map((f: { uuid: string }) => f.uuid)).toEqual([filter.uuid]);
  });

  it("enforces the page limits: limit 1 to 100, offset 0 or more", async () => {
    const filter = byName("x").filter;
    for (const pagination of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: "ten" }]) {
      const res = await search({ filter, pagination });
      expect(res.status).toBe(400);
      expect(res.body[0].additionalInfo[0].property).toMatch(/^\/pagination\/(limit|offset)$/);
    }
    expect((await search({ filter, pagination: { limit: 100 } })).status).toBe(200);
  });

  it("refuses a missing filter, unsupported properties, operators and sorts", async () => {
    const noFilter = await search({});
    expect(noFilter.status).toBe(400);
    expect(noFilter.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/filter" }] });
    const property = await search({ filter: { and: [{ property: "/description", operator: "=", values: ["x"] }] } });
    expect(property.body[0]).toMatchObject({ errorCode: "EQ-3040055", additionalInfo: [{ property: "/filter/and/0/property" }] });
    const operator = await search({ filter: { and: [{ property: "/name", operator: ">", values: ["x"] }] } });
    expect(operator.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/filter/and/0/operator" }] });
    const values = await search({ filter: { and: [{ property: "/name", operator: "=" }] } });
    expect(values.body[0].additionalInfo[0].property).toBe("/filter/and/0/values");
    const sort = await search({ filter: byName("x").filter, sort: [{ property: "/description", direction: "ASC" }] });
    expect(sort.body[0].additionalInfo[0].property).toBe("/sort/0/property");
    const direction = await search({ filter: byName("x").filter, sort: [{ property: "/name", direction: "UP" }] });
    expect(direction.body[0]).toMatchObject({ errorCode: "EQ-3040054", additionalInfo: [{ property: "/sort/0/direction" }] });
  });
});

describe("route filter patch", () => {
  it("renames a filter: 202 REPROVISIONING with an update change, then PROVISIONED", async () => {
    const filter = await provisionedFilter(t);
    const res = await t.call("PATCH", `/fabric/v4/routeFilters/${filter.uuid}`, { body: [{ op: "replace", path: "/name", value: "renamed" }] });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "renamed", state: "REPROVISIONING", change: { type: "BGP_IPv4_PREFIX_FILTER_UPDATE" }, changeLog: { updatedBy: "demo-user" } });
    await t.waitFor(`/fabric/v4/routeFilters/${filter.uuid}`, "/state", "PROVISIONED");
    const changes = await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 2 });
    expect(changes.body.data.map((ch: { type: string }) => ch.type)).toEqual(["BGP_IPv4_PREFIX_FILTER_CREATION", "BGP_IPv4_PREFIX_FILTER_UPDATE"]);
    expect(changes.body.data[1]).toMatchObject({ status: "COMPLETED", createdBy: "demo-user", data: { op: "replace", path: "/name", value: { name: "renamed" } } });
  });

  it("changes the description in place, together with the name or alone", async () => {
    const filter = await provisionedFilter(t);
    const path = `/fabric/v4/routeFilters/${filter.uuid}`;
    const both = await t.call("PATCH", path, {
      body: [
        { op: "replace", path: "/name", value: "renamed" },
        { op: "replace", path: "/description", value: "new words" },
      ],
    });
    expect(both.status).toBe(202);
    expect(both.body).toMatchObject({ name: "renamed", description: "new words", state: "REPROVISIONING" });
    await t.waitFor(path, "/state", "PROVISIONED");
    const cleared = await t.call("PATCH", path, { body: [{ op: "replace", path: "/description", value: "" }] });
    expect(cleared.status).toBe(202);
    expect((await t.waitFor(path, "/state", "PROVISIONED")).description).toBe("");
  });

  it("accepts only replace of /name and /description, with string values", async () => {
    const filter = await provisionedFilter(t);
    const path = `/fabric/v4/routeFilters/${filter.uuid}`;
    const op = await t.call("PATCH", path, { body: [{ op: "add", path: "/name", value: "x" }] });
    expect(op.status).toBe(400);
    expect(op.body[0]).toMatchObject({ errorCode: "EQ-3044011", additionalInfo: [{ property: "/0/op" }] });
    const field = await t.call("PATCH", path, { body: [{ op: "replace", path: "/type", value: "BGP_IPv6_PREFIX_FILTER" }] });
    expect(field.body[0]).toMatchObject({ errorCode: "EQ-3044011", additionalInfo: [{ property: "/0/path" }] });
    const value = await t.call("PATCH", path, { body: [{ op: "replace", path: "/name", value: 7 }] });
    expect(value.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/0/value" }] });
    const missing = await t.call("PATCH", path, { body: [{ op: "replace", path: "/name" }] });
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/0/value" }] });
    const empty = await t.call("PATCH", path, { body: [] });
    expect(empty.body[0].additionalInfo[0].property).toBe("body");
    const object = await t.call("PATCH", path, { body: { op: "replace" } });
    expect(object.status).toBe(400);
    expect((await t.call("GET", path)).body.name).toBe("rf-one");
  });

  it("refuses a change while the filter is in a transient state, and 404 for unknown filters", async () => {
    const filter = await provisionedFilter(t);
    // An out-of-band change holds the filter in a transient state, independent of the fast clock.
    await t.call("PATCH", `/__sim/objects/${filter.uuid}`, { body: { state: "REPROVISIONING" } });
    const res = await t.call("PATCH", `/fabric/v4/routeFilters/${filter.uuid}`, { body: [{ op: "replace", path: "/name", value: "x" }] });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "routeFilterId" }] });
    expect((await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`)).status).toBe(400);
    const missing = await t.call("PATCH", "/fabric/v4/routeFilters/nope", { body: [{ op: "replace", path: "/name", value: "x" }] });
    expect(missing.status).toBe(404);
  });
});

describe("route filter delete", () => {
  it("deletes: 202 DEPROVISIONING with a deletion change, then DEPROVISIONED and still readable", async () => {
    const filter = await provisionedFilter(t);
    const res = await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "DEPROVISIONING", change: { type: "BGP_IPv4_PREFIX_FILTER_DELETION" }, changeLog: { deletedBy: "demo-user" } });
    const gone = await t.waitFor(`/fabric/v4/routeFilters/${filter.uuid}`, "/state", "DEPROVISIONED");
    expect(gone.uuid).toBe(filter.uuid);
    const again = await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`);
    expect(again.status).toBe(400);
    expect(again.body[0].additionalInfo[0].property).toBe("routeFilterId");
    const rename = await t.call("PATCH", `/fabric/v4/routeFilters/${filter.uuid}`, { body: [{ op: "replace", path: "/name", value: "x" }] });
    expect(rename.status).toBe(400);
  });

  it("refuses to delete a filter still attached to a connection (EQ-3044007)", async () => {
    const filter = await provisionedFilter(t);
    const connection = seedConnection(t);
    await t.call("PUT", `/fabric/v4/connections/${connection}/routeFilters/${filter.uuid}`, { body: { direction: "INBOUND" } });
    const res = await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`);
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-3044007", errorMessage: "Cannot delete route filter still attached to a connection", additionalInfo: [{ property: "routeFilterId" }] });
  });

  it("answers 404 for filters of another project", async () => {
    const filter = await provisionedFilter(t);
    expect((await t.call("DELETE", `/fabric/v4/routeFilters/${filter.uuid}`, { client: "limited" })).status).toBe(404);
  });
});

describe("route filter changes and connections", () => {
  it("serves one change, pages the change list, and 404s unknown changes", async () => {
    const filter = await provisionedFilter(t);
    const one = await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/changes/${filter.change.uuid}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      uuid: filter.change.uuid,
      type: "BGP_IPv4_PREFIX_FILTER_CREATION",
      status: "COMPLETED",
      updatedBy: "_system",
      data: { op: "add", path: "/", value: { type: "BGP_IPv4_PREFIX_FILTER", name: "rf-one", project: { projectId: PRODUCTION } } },
    });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/changes/nope`)).status).toBe(404);
    const page = await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/changes?offset=0&limit=1`);
    expect(page.body.pagination).toEqual({ offset: 0, limit: 1, total: 1 });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/changes?limit=0`)).status).toBe(400);
  });

  it("lists the connections a filter is attached to and counts them", async () => {
    const filter = await provisionedFilter(t);
    const connection = seedConnection(t, { name: "conn-a" });
    await t.call("PUT", `/fabric/v4/connections/${connection}/routeFilters/${filter.uuid}`, { body: { direction: "OUTBOUND" } });
    const list = await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}/connections`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ href: `/fabric/v4/connections/${connection}`, uuid: connection, type: "EVPL_VC", name: "conn-a" }]);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter.uuid}`)).body.connectionsCount).toBe(1);
  });
});
