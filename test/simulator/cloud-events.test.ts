import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { ORG_ID } from "../../src/simulator/core/auth.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;

/** A route filter that went through PROVISIONING and PROVISIONED: two state events. */
async function provisionedFilter(projectId: string = PRODUCTION, client: "demo" | "limited" = "demo", name = "events-rf"): Promise<string> {
  const res = await t.call("POST", "/fabric/v4/routeFilters", { client, body: { type: "BGP_IPv4_PREFIX_FILTER", name, project: { projectId } } });
  expect(res.status).toBe(202);
  await t.waitFor(`/fabric/v4/routeFilters/${res.body.uuid}`, "/state", "PROVISIONED", client);
  return res.body.uuid;
}

const search = (body: unknown, client: "demo" | "limited" = "demo") => t.call("POST", "/fabric/v4/cloudevents/search", { body, client });
const subjectFilter = (uuid: string) => ({ property: "/subject", operator: "IN", values: [`/fabric/v4/routeFilters/${uuid}*`] });

describe("cloud event search", () => {
  it("finds a filter's state events by type wildcard and subject, in the official shape", async () => {
    const uuid = await provisionedFilter();
    const res = await search({ filter: { and: [{ property: "/type", operator: "IN", values: ["equinix.fabric.route_filter.*"] }, subjectFilter(uuid)] } });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ offset: 0, limit: 20, total: 2 });
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(["equinix.fabric.route_filter.state.provisioning", "equinix.fabric.route_filter.state.provisioned"]);
    expect(res.body.data[1]).toMatchObject({
      specversion: "1.0",
      subject: `/fabric/v4/routeFilters/${uuid}`,
      datacontenttype: "application/json",
      severitytext: "INFO",
      equinixproject: PRODUCTION,
      equinixorganization: ORG_ID,
      authtype: "user",
      authid: "demo-user",
      data: {
        message: expect.stringContaining("PROVISIONED"),
        resource: { href: `/fabric/v4/routeFilters/${uuid}`, uuid, type: "BGP_IPv4_PREFIX_FILTER", name: "events-rf", state: "PROVISIONED" },
        auth: { authtype: "user", name: "Demo User", email: "demo.user@example.com" },
      },
    });
    expect(Date.parse(res.body.data[1].time)).toBeGreaterThanOrEqual(Date.parse(res.body.data[0].time));
  });

  it("narrows by /time BETWEEN and by exact type, and pages", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const uuid = await provisionedFilter();
    const after = new Date(Date.now() + 1000).toISOString();
    const inside = await search({ filter: { and: [subjectFilter(uuid), { property: "/time", operator: "BETWEEN", values: [before, after] }] } });
    expect(inside.body.pagination.total).toBe(2);
    const outside = await search({ filter: { and: [subjectFilter(uuid), { property: "/time", operator: "BETWEEN", values: ["2020-01-01T00:00:00Z", "2020-01-02T00:00:00Z"] }] } });
    expect(outside.body.data).toEqual([]);
    const exact = await search({ filter: { and: [{ property: "/type", operator: "=", values: ["equinix.fabric.route_filter.state.provisioned"] }] } });
    expect(exact.body.data).toHaveLength(1);
    const page = await search({ filter: { and: [subjectFilter(uuid)] }, pagination: { offset: 1, limit: 1 } });
    expect(page.body.pagination).toEqual({ offset: 1, limit: 1, total: 2 });
    expect(page.body.data[0].data.resource.state).toBe("PROVISIONED");
  });

  it("shows a caller only the events of its own projects", async () => {
    const production = await provisionedFilter();
    const sandbox = await provisionedFilter(SANDBOX, "limited");
    const filter = { and: [{ property: "/type", operator: "IN", values: ["equinix.fabric.route_filter.*"] }] };
    const limited = await search({ filter }, "limited");
    expect(limited.body.data.map((e: { data: { resource: { uuid: string } } }) => e.data.resource.uuid)).toEqual([sandbox, sandbox]);
    const demo = await search({ filter });
    expect(new Set(demo.body.data.map((e: { data: { resource: { uuid: string } } }) => e.data.resource.uuid))).toEqual(new Set([production, sandbox]));
  });

  it("requires the subject to carry a first-level resource uuid", async () => {
    const res = await search({ filter: { and: [{ property: "/subject", operator: "IN", values: ["/fabric/v4/routeFilters/*"] }] } });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/filter/and/0/values/0" }] });
  });

  it("refuses a missing filter, unsupported properties and operators, bad times and pages", async () => {
    const noFilter = await search({ pagination: { limit: 5 } });
    expect(noFilter.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/filter" }] });
    const notAnd = await search({ filter: { or: [] } });
    expect(notAnd.body[0].additionalInfo[0].property).toBe("/filter/and");
    const property = await search({ filter: { and: [{ property: "/color", operator: "=", values: ["red"] }] } });
    expect(property.body[0]).toMatchObject({ errorCode: "EQ-3040055", additionalInfo: [{ property: "/filter/and/0/property" }] });
    const operator = await search({ filter: { and: [{ property: "/type", operator: "BETWEEN", values: ["a", "b"] }] } });
    expect(operator.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/filter/and/0/operator" }] });
    const timeOperator = await search({ filter: { and: [{ property: "/time", operator: "IN", values: ["2020-01-01T00:00:00Z"] }] } });
    expect(timeOperator.body[0].errorCode).toBe("EQ-2012025");
    const badTime = await search({ filter: { and: [{ property: "/time", operator: ">", values: ["yesterday"] }] } });
    expect(badTime.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/filter/and/0/values/0" }] });
    const oneBound = await search({ filter: { and: [{ property: "/time", operator: "BETWEEN", values: ["2020-01-01T00:00:00Z"] }] } });
    expect(oneBound.body[0].additionalInfo[0].property).toBe("/filter/and/0/values");
    const noValues = await search({ filter: { and: [{ property: "/type", operator: "IN", values: [] }] } });
    expect(noValues.body[0].additionalInfo[0].property).toBe("/filter/and/0/values");
    const objectValue = await search({ filter: { and: [{ property: "/type", operator: "IN", values: [{}] }] } });
    expect(objectValue.body[0].additionalInfo[0].property).toBe("/filter/and/0/values/0");
    const expression = await search({ filter: { and: ["type"] } });
    expect(expression.body[0].additionalInfo[0].property).toBe("/filter/and/0");
    const limit = await search({ filter: { and: [{ property: "/type", operator: "IN", values: ["x"] }] }, pagination: { limit: 101 } });
    expect(limit.body[0].additionalInfo[0].property).toBe("/pagination/limit");
    expect((await search({ filter: { and: [] } })).status).toBe(400);
    expect((await t.call("POST", "/fabric/v4/cloudevents/search", { raw: "[", contentType: "application/json" })).status).toBe(400);
  });
});

describe("one cloud event", () => {
  it("reads an event by id, and 404s unknown events and events of other projects", async () => {
    const uuid = await provisionedFilter();
    const found = await search({ filter: { and: [subjectFilter(uuid)] } });
    const id = found.body.data[0].id;
    const one = await t.call("GET", `/fabric/v4/cloudevents/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(found.body.data[0]);
    const unknown = await t.call("GET", "/fabric/v4/cloudevents/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body[0].additionalInfo[0].property).toBe("cloudEventId");
    expect((await t.call("GET", `/fabric/v4/cloudevents/${id}`, { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", `/fabric/v4/cloudevents/${id}?x=1`)).status).toBe(400);
  });
});

describe("cloud events of an asset", () => {
  it("lists a project's events and narrows them to a period", async () => {
    const uuid = await provisionedFilter();
    const sandbox = await provisionedFilter(SANDBOX, "limited");
    const all = await t.call("GET", `/fabric/v4/projects/${PRODUCTION}/cloudevents`);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toMatchObject({ offset: 0, limit: 100 });
    expect(all.body.data.every((e: { equinixproject: string }) => e.equinixproject === PRODUCTION)).toBe(true);
    const resources = all.body.data.map((e: { data: { resource: { uuid: string } } }) => e.data.resource.uuid);
    expect(resources.filter((r: string) => r === uuid)).toHaveLength(2);
    expect(resources).not.toContain(sandbox);
    const future = new Date(Date.now() + 60_000).toISOString();
    const later = await t.call("GET", `/fabric/v4/projects/${PRODUCTION}/cloudevents?fromDateTime=${future}`);
    expect(later.body.data).toEqual([]);
    const earlier = await t.call("GET", `/fabric/v4/projects/${PRODUCTION}/cloudevents?toDateTime=${future}&offset=1&limit=1`);
    expect(earlier.body.pagination).toMatchObject({ offset: 1, limit: 1, previous: expect.stringContaining("offset=0") });
    expect(earlier.body.data).toHaveLength(1);
  });

  it("lists the organization's events the caller may see", async () => {
    const production = await provisionedFilter();
    const sandbox = await provisionedFilter(SANDBOX, "limited");
    const filterEvents = async (client: "demo" | "limited") => {
      const res = await t.call("GET", `/fabric/v4/organizations/${ORG_ID}/cloudevents`, { client });
      expect(res.status).toBe(200);
      return res.body.data
        .filter((e: { type: string }) => e.type.startsWith("equinix.fabric.route_filter."))
        .map((e: { data: { resource: { uuid: string } } }) => e.data.resource.uuid);
    };
    expect((await filterEvents("demo")).sort()).toEqual([production, production, sandbox, sandbox].sort());
    expect(await filterEvents("limited")).toEqual([sandbox, sandbox]);
    expect((await t.call("GET", "/fabric/v4/organizations/999999/cloudevents")).status).toBe(404);
  });

  it("refuses assets the caller cannot read (403), unknown assets (404) and other asset kinds (400)", async () => {
    const forbidden = await t.call("GET", `/fabric/v4/projects/${PRODUCTION}/cloudevents`, { client: "limited" });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body[0].additionalInfo[0].property).toBe("assetId");
    expect((await t.call("GET", "/fabric/v4/projects/00000000-0000-4000-8000-000000000000/cloudevents")).status).toBe(404);
    expect((await t.call("GET", "/fabric/v4/serviceTokens/00000000-0000-4000-8000-000000000000/cloudevents")).status).toBe(404);
    expect((await t.call("GET", "/fabric/v4/companyProfiles/00000000-0000-4000-8000-000000000000/cloudevents")).status).toBe(404);
    const kind = await t.call("GET", `/fabric/v4/widgets/${PRODUCTION}/cloudevents`);
    expect(kind.status).toBe(400);
    expect(kind.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "asset" }] });
    expect((await t.call("GET", `/fabric/v4/projects/${PRODUCTION}/cloudevents`, { client: "none" })).status).toBe(401);
  });

  it("refuses bad timestamps, an inverted period, bad pages and unknown parameters", async () => {
    const base = `/fabric/v4/projects/${PRODUCTION}/cloudevents`;
    const bad = await t.call("GET", `${base}?fromDateTime=soon`);
    expect(bad.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "fromDateTime" }] });
    expect((await t.call("GET", `${base}?toDateTime=later`)).body[0].additionalInfo[0].property).toBe("toDateTime");
    const inverted = await t.call("GET", `${base}?fromDateTime=2025-01-02T00:00:00Z&toDateTime=2025-01-01T00:00:00Z`);
    expect(inverted.status).toBe(400);
    expect((await t.call("GET", `${base}?limit=0`)).body[0].additionalInfo[0].property).toBe("limit");
    expect((await t.call("GET", `${base}?offset=-1`)).status).toBe(400);
    expect((await t.call("GET", `${base}?from=2025-01-01`)).body[0].additionalInfo[0].property).toBe("from");
  });
});
