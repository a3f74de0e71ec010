// Route aggregations (official: /fabric/v4/routeAggregations), their rules and their attachment to
// connections: create, get, search, patch, delete, change records, connections, and the choices the README
// notes where the description is silent (IPv4 rules and attachments only, one aggregation per connection,
// rules deleted with their aggregation).

import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;
const BASE = "/fabric/v4/routeAggregations";

async function createAggregation(options: { name?: string; type?: string; client?: "demo" | "limited"; projectId?: string } = {}) {
  const res = await t.call("POST", BASE, {
    client: options.client ?? "demo",
    body: { type: options.type ?? "BGP_IPv4_PREFIX_AGGREGATION", name: options.name ?? "ra-one", description: "Test aggregation", project: { projectId: options.projectId ?? PRODUCTION } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

async function provisionedAggregation(options: Parameters<typeof createAggregation>[0] = {}): Promise<string> {
  const created = await createAggregation(options);
  await t.waitFor(`${BASE}/${created.uuid}`, "/state", "PROVISIONED", options.client ?? "demo");
  return created.uuid;
}

const rulesOf = (aggregation: string) => `${BASE}/${aggregation}/routeAggregationRules`;
const attachment = (connection: string, aggregation: string) => `/fabric/v4/connections/${connection}/routeAggregations/${aggregation}`;

async function attached(connection: string, aggregation: string) {
  const res = await t.call("PUT", attachment(connection, aggregation));
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return t.waitFor(attachment(connection, aggregation), "/attachmentStatus", "ATTACHED");
}

describe("route aggregation create, get and search", () => {
  it("accepts an aggregation (202, PROVISIONING, creation change with counts) and provisions it", async () => {
    const created = await createAggregation({ name: "My-route-aggregation-v4" });
    expect(created).toMatchObject({
      type: "BGP_IPv4_PREFIX_AGGREGATION",
      name: "My-route-aggregation-v4",
      description: "Test aggregation",
      state: "PROVISIONING",
      rulesCount: 0,
      connectionsCount: 0,
      project: { projectId: PRODUCTION },
      change: { type: "BGP_IPv4_PREFIX_AGGREGATION_CREATION" },
      changeLog: { createdBy: "demo-user" },
    });
    expect(created.href).toBe(`${BASE}/${created.uuid}`);
    await t.waitFor(`${BASE}/${created.uuid}`, "/state", "PROVISIONED");
    const changes = await t.call("GET", `${BASE}/${created.uuid}/changes`);
    expect(changes.body.data).toEqual([expect.objectContaining({ type: "BGP_IPv4_PREFIX_AGGREGATION_CREATION", status: "COMPLETED", data: { op: "add", path: "/", value: expect.objectContaining({ name: "My-route-aggregation-v4" }) } })]);
    const one = await t.call("GET", `${BASE}/${created.uuid}/changes/${created.change.uuid}`);
    expect(one.body.uuid).toBe(created.change.uuid);
  });

  it("requires type, name and project, and refuses a type outside the list", async () => {
    const noName = await t.call("POST", BASE, { body: { type: "BGP_IPv4_PREFIX_AGGREGATION", project: { projectId: PRODUCTION } } });
    expect(noName.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "name" }] });
    const noType = await t.call("POST", BASE, { body: { name: "x", project: { projectId: PRODUCTION } } });
    expect(noType.body[0].additionalInfo[0].property).toBe("type");
    const badType = await t.call("POST", BASE, { body: { type: "BGP_IPv4_PREFIX_FILTER", name: "x", project: { projectId: PRODUCTION } } });
    expect(badType.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "type" }] });
    const noProject = await t.call("POST", BASE, { body: { type: "BGP_IPv4_PREFIX_AGGREGATION", name: "x" } });
    expect(noProject.body[0].additionalInfo[0].property).toBe("/project/projectId");
  });

  it("keeps projects apart and answers 404 for an unknown aggregation", async () => {
    const forbidden = await t.call("POST", BASE, { client: "limited", body: { type: "BGP_IPv4_PREFIX_AGGREGATION", name: "x", project: { projectId: PRODUCTION } } });
    expect(forbidden.status).toBe(403);
    const production = await createAggregation();
    expect((await t.call("GET", `${BASE}/${production.uuid}`, { client: "limited" })).status).toBe(404);
    const sandbox = await createAggregation({ client: "limited", projectId: SANDBOX });
    expect((await t.call("GET", `${BASE}/${sandbox.uuid}`, { client: "limited" })).status).toBe(200);
    const missing = await t.call("GET", `${BASE}/00000000-0000-4000-8000-000000000000`);
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-3073004", additionalInfo: [{ property: "routeAggregationId" }] });
  });

  it("searches by name, type and uuid, leaving deleted aggregations out unless asked about /state", async () => {
    const kept = await provisionedAggregation({ name: "Demo-kept" });
    const gone = await provisionedAggregation({ name: "Demo-gone" });
    await provisionedAggregation({ name: "Other", type: "BGP_IPv6_PREFIX_AGGREGATION" });
    await t.call("DELETE", `${BASE}/${gone}`);
    await t.waitFor(`${BASE}/${gone}`, "/state", "DEPROVISIONED");
    const search = (filter: unknown) => t.call("POST", `${BASE}/search`, { body: { filter, sort: [{ property: "/name", direction: "ASC" }] } });
    const demo = await search({ and: [{ property: "/name", operator: "LIKE", values: ["Demo%"] }] });
    expect(demo.status).toBe(200);
    expect(demo.body.data.map((a: { uuid: string }) => a.uuid)).toEqual([kept]);
    const withDeleted = await search({ and: [{ property: "/name", operator: "LIKE", values: ["Demo%"] }, { property: "/state", operator: "IN", values: ["PROVISIONED", "DEPROVISIONED"] }] });
    expect(withDeleted.body.data.map((a: { name: string }) => a.name)).toEqual(["Demo-gone", "Demo-kept"]);
    const v6 = await search({ and: [{ property: "/type", operator: "=", values: ["BGP_IPv6_PREFIX_AGGREGATION"] }] });
    expect(v6.body.data.map((a: { name: string }) => a.name)).toEqual(["Other"]);
    expect((await t.call("POST", `${BASE}/search`, { body: {} })).body[0].additionalInfo[0].property).toBe("/filter");
  });
});

describe("route aggregation changes", () => {
  it("renames and redescribes in place with PATCH, and refuses other paths", async () => {
    const uuid = await provisionedAggregation();
    const patched = await t.call("PATCH", `${BASE}/${uuid}`, { body: [{ op: "replace", path: "/name", value: "renamed" }, { op: "replace", path: "/description", value: "new words" }] });
    expect(patched.status).toBe(202);
    expect(patched.body).toMatchObject({ name: "renamed", description: "new words", state: "REPROVISIONING", change: { type: "BGP_IPv4_PREFIX_AGGREGATION_UPDATE" } });
    await t.waitFor(`${BASE}/${uuid}`, "/state", "PROVISIONED");
    const type = await t.call("PATCH", `${BASE}/${uuid}`, { body: [{ op: "replace", path: "/type", value: "BGP_IPv6_PREFIX_AGGREGATION" }] });
    expect(type.body[0]).toMatchObject({ errorCode: "EQ-3044011", additionalInfo: [{ property: "/0/path" }] });
  });

  it("deletes with its rules, and refuses while it is attached to a connection", async () => {
    const uuid = await provisionedAggregation();
    const rules = await t.call("POST", `${rulesOf(uuid)}/bulk`, { body: { data: [{ prefix: "10.0.0.0/8" }, { prefix: "172.16.0.0/12" }] } });
    for (const r of rules.body.data) await t.waitFor(`${rulesOf(uuid)}/${r.uuid}`, "/state", "PROVISIONED");
    const connection = seedConnection(t);
    await attached(connection, uuid);
    const refused = await t.call("DELETE", `${BASE}/${uuid}`);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ errorCode: "EQ-3044007", additionalInfo: [{ property: "routeAggregationId", reason: expect.stringContaining(connection) }] });
    await t.call("DELETE", attachment(connection, uuid));
    await t.waitFor(attachment(connection, uuid), "/attachmentStatus", "DETACHED");
    const deleted = await t.call("DELETE", `${BASE}/${uuid}`);
    expect(deleted.body).toMatchObject({ state: "DEPROVISIONING", change: { type: "BGP_IPv4_PREFIX_AGGREGATION_DELETION" } });
    for (const r of rules.body.data) await t.waitFor(`${rulesOf(uuid)}/${r.uuid}`, "/state", "DEPROVISIONED");
    const gone = await t.waitFor(`${BASE}/${uuid}`, "/state", "DEPROVISIONED");
    expect(gone.rulesCount).toBe(0);
  });
});

describe("route aggregation rules", () => {
  it("creates, lists, patches, replaces and deletes IPv4 rules, without prefixMatch", async () => {
    const uuid = await provisionedAggregation();
    const created = await t.call("POST", rulesOf(uuid), { body: { name: "Private-subnet-aggregation", description: "Test rule", prefix: "192.168.0.0/24" } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ type: "BGP_IPv4_PREFIX_AGGREGATION_RULE", prefix: "192.168.0.0/24", state: "PROVISIONING", change: { type: "BGP_IPv4_PREFIX_AGGREGATION_RULE_CREATION" } });
    expect(created.body.prefixMatch).toBeUndefined();
    expect(created.body.action).toBeUndefined();
    const href = `${rulesOf(uuid)}/${created.body.uuid}`;
    await t.waitFor(href, "/state", "PROVISIONED");
    expect((await t.call("GET", rulesOf(uuid))).body.data.map((r: { prefix: string }) => r.prefix)).toEqual(["192.168.0.0/24"]);
    expect((await t.call("GET", `${BASE}/${uuid}`)).body.rulesCount).toBe(1);
    const prefixMatch = await t.call("PATCH", href, { body: [{ op: "replace", path: "/prefixMatch", value: "exact" }] });
    expect(prefixMatch.body[0].additionalInfo[0].property).toBe("/0/path");
    const patched = await t.call("PATCH", href, { body: [{ op: "replace", path: "/prefix", value: "192.168.0.0/23" }] });
    expect(patched.body).toMatchObject({ prefix: "192.168.0.0/23", state: "REPROVISIONING", change: { type: "BGP_IPv4_PREFIX_AGGREGATION_RULE_UPDATE" } });
    await t.waitFor(href, "/state", "PROVISIONED");
    const search = await t.call("POST", `${rulesOf(uuid)}/search`, { body: { filter: { and: [{ property: "/prefix", operator: "=", values: ["192.168.0.0/23"] }] } } });
    expect(search.body.data.map((r: { uuid: string }) => r.uuid)).toEqual([created.body.uuid]);
    const replaced = await t.call("PUT", href, { body: { name: "whole", prefix: "192.168.0.0/22" } });
    expect(replaced.body).toMatchObject({ name: "whole", prefix: "192.168.0.0/22", state: "REPROVISIONING" });
    expect(replaced.body.description).toBeUndefined();
    expect((await t.waitFor(href, "/state", "PROVISIONED")).prefix).toBe("192.168.0.0/22");
    const changes = await t.call("GET", `${href}/changes`);
    expect(changes.body.data.map((ch: { type: string }) => ch.type)).toEqual([
      "BGP_IPv4_PREFIX_AGGREGATION_RULE_CREATION",
      "BGP_IPv4_PREFIX_AGGREGATION_RULE_UPDATE",
      "BGP_IPv4_PREFIX_AGGREGATION_RULE_UPDATE",
    ]);
    const last = await t.call("GET", `${href}/changes/${String(changes.body.data[2].uuid)}`);
    expect(last.body).toMatchObject({ status: "COMPLETED", data: { op: "replace", path: "/", value: { name: "whole", prefix: "192.168.0.0/22" } } });
    expect((await t.call("DELETE", href)).body).toMatchObject({ state: "DEPROVISIONING", change: { type: "BGP_IPv4_PREFIX_AGGREGATION_RULE_DELETION" } });
  });

  it("refuses IPv6 prefixes, and any rule for an IPv6 aggregation", async () => {
    const v4 = await provisionedAggregation();
    const v6Prefix = await t.call("POST", rulesOf(v4), { body: { prefix: "2001:db8::/32" } });
    expect(v6Prefix.body[0]).toMatchObject({ errorCode: "EQ-3044013", additionalInfo: [{ property: "prefix", reason: expect.stringContaining("IPv4 prefixes only") }] });
    const v6 = await provisionedAggregation({ type: "BGP_IPv6_PREFIX_AGGREGATION" });
    const refused = await t.call("POST", rulesOf(v6), { body: { prefix: "2001:db8::/32" } });
    expect(refused.status).toBe(400);
    expect(refused.body[0].additionalInfo[0]).toMatchObject({ property: "routeAggregationId", reason: expect.stringContaining("IPv4 only") });
    const bulk = await t.call("POST", `${rulesOf(v6)}/bulk`, { body: { data: [{ prefix: "2001:db8::/32" }] } });
    expect(bulk.status).toBe(400);
  });

  it("creates rules in bulk, all or nothing", async () => {
    const uuid = await provisionedAggregation();
    const bulk = await t.call("POST", `${rulesOf(uuid)}/bulk`, { body: { data: [{ prefix: "10.1.0.0/16", name: "a" }, { prefix: "10.2.0.0/16", name: "b" }] } });
    expect(bulk.status).toBe(202);
    expect(bulk.body.data.map((r: { name: string }) => r.name)).toEqual(["a", "b"]);
    const refused = await t.call("POST", `${rulesOf(uuid)}/bulk`, { body: { data: [{ prefix: "10.3.0.0/16" }, { prefix: "10.1.0.0/16" }] } });
    expect(refused.body[0].additionalInfo[0]).toMatchObject({ property: "/data/1/prefix" });
    expect((await t.call("GET", `${BASE}/${uuid}`)).body.rulesCount).toBe(2);
  });
});

describe("route aggregation attachments", () => {
  it("attaches (ATTACHING -> ATTACHED), lists, counts, and detaches (DETACHING -> DETACHED)", async () => {
    const uuid = await provisionedAggregation();
    const connection = seedConnection(t);
    const accepted = await t.call("PUT", attachment(connection, uuid));
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ uuid, type: "BGP_IPv4_PREFIX_AGGREGATION", attachmentStatus: "ATTACHING", href: attachment(connection, uuid) });
    await t.waitFor(attachment(connection, uuid), "/attachmentStatus", "ATTACHED");
    const list = await t.call("GET", `/fabric/v4/connections/${connection}/routeAggregations`);
    expect(list.body.data.map((a: { uuid: string }) => a.uuid)).toEqual([uuid]);
    expect((await t.call("GET", `${BASE}/${uuid}`)).body.connectionsCount).toBe(1);
    const connections = await t.call("GET", `${BASE}/${uuid}/connections`);
    expect(connections.body.data).toEqual([expect.objectContaining({ uuid: connection, type: "EVPL_VC" })]);
    const detached = await t.call("DELETE", attachment(connection, uuid));
    expect(detached.body.attachmentStatus).toBe("DETACHING");
    await t.waitFor(attachment(connection, uuid), "/attachmentStatus", "DETACHED");
    expect((await t.call("DELETE", attachment(connection, uuid))).status).toBe(404);
    expect((await t.call("GET", `${BASE}/${uuid}`)).body.connectionsCount).toBe(0);
  });

  it("takes one aggregation per connection, PROVISIONED and IPv4 only", async () => {
    const connection = seedConnection(t);
    const first = await provisionedAggregation({ name: "first" });
    const second = await provisionedAggregation({ name: "second" });
    await attached(connection, first);
    const again = await t.call("PUT", attachment(connection, first));
    expect(again.body[0].additionalInfo[0].reason).toContain("already attached");
    const another = await t.call("PUT", attachment(connection, second));
    expect(another.status).toBe(400);
    expect(another.body[0].additionalInfo[0].reason).toContain("a connection takes one route aggregation");
    const v6 = await provisionedAggregation({ type: "BGP_IPv6_PREFIX_AGGREGATION" });
    const v6Attach = await t.call("PUT", attachment(seedConnection(t), v6));
    expect(v6Attach.body[0].additionalInfo[0].reason).toContain("only BGP_IPv4_PREFIX_AGGREGATION");
    // Held in a transient state once its own transition is over (the test clock would otherwise end it at once).
    const young = await provisionedAggregation({ name: "young" });
    await t.call("PATCH", `/__sim/objects/${young}`, { body: { state: "PROVISIONING" } });
    const early = await t.call("PUT", attachment(seedConnection(t), young));
    expect(early.body[0].additionalInfo[0].reason).toContain("only PROVISIONED aggregations");
  });

  it("refuses a connection in a transient state with the family's EQ-3044008, and an unknown connection with 404", async () => {
    const uuid = await provisionedAggregation();
    const busy = seedConnection(t, { state: "REPROVISIONING" });
    const refused = await t.call("PUT", attachment(busy, uuid));
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ errorCode: "EQ-3044008", errorMessage: "Cannot attach or detach route aggregation with connection in transient state" });
    const unknown = await t.call("PUT", attachment("00000000-0000-4000-8000-000000000000", uuid));
    expect(unknown.status).toBe(404);
    expect((await t.call("GET", attachment(seedConnection(t), uuid))).status).toBe(404);
  });
});
