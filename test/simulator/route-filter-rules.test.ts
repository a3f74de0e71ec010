// The prefix rules of a route filter (official: /fabric/v4/routeFilters/{id}/routeFilterRules): create one
// or many (bulk), list, search, get, replace, patch, delete, change records, and the choices the README
// notes where the description is silent (family, host bits, one rule per prefix, all-or-nothing bulk,
// rules deleted with their filter).

import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;

async function provisionedFilter(sim: TestSim, type = "BGP_IPv4_PREFIX_FILTER", client: "demo" | "limited" = "demo", projectId = PRODUCTION): Promise<string> {
  const res = await sim.call("POST", "/fabric/v4/routeFilters", { client, body: { type, name: "rules-home", project: { projectId } } });
  expect(res.status).toBe(202);
  await sim.waitFor(`/fabric/v4/routeFilters/${res.body.uuid}`, "/state", "PROVISIONED", client);
  return res.body.uuid;
}

const rulesOf = (filter: string) => `/fabric/v4/routeFilters/${filter}/routeFilterRules`;

async function provisionedRule(filter: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.call("POST", rulesOf(filter), { body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return t.waitFor(`${rulesOf(filter)}/${res.body.uuid}`, "/state", "PROVISIONED");
}

describe("route filter rule create and get", () => {
  it("accepts a rule (202, PROVISIONING, creation change) and provisions it on the clock", async () => {
    const filter = await provisionedFilter(t);
    const created = await t.call("POST", rulesOf(filter), { body: { name: "private", description: "Test rule", prefix: "192.168.0.0/24", prefixMatch: "exact" } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      type: "BGP_IPv4_PREFIX_FILTER_RULE",
      name: "private",
      description: "Test rule",
      prefix: "192.168.0.0/24",
      prefixMatch: "exact",
      action: "PERMIT",
      state: "PROVISIONING",
      change: { type: "BGP_IPv4_PREFIX_FILTER_RULE_CREATION" },
      changeLog: { createdBy: "demo-user" },
    });
    const href = `${rulesOf(filter)}/${created.body.uuid}`;
    expect(created.body.href).toBe(href);
    expect(created.body.change.href).toBe(`${href}/changes/${created.body.change.uuid}`);
    const provisioned = await t.waitFor(href, "/state", "PROVISIONED");
    expect(provisioned.uuid).toBe(created.body.uuid);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.rulesCount).toBe(1);
  });

  it("defaults prefixMatch to orlonger, types IPv6 rules of an IPv6 filter, and keeps IPv6 prefixes in RFC 5952 form", async () => {
    const v4 = await provisionedFilter(t);
    const plain = await t.call("POST", rulesOf(v4), { body: { prefix: "10.0.0.0/8" } });
    expect(plain.body).toMatchObject({ prefixMatch: "orlonger", prefix: "10.0.0.0/8" });
    expect(plain.body.name).toBeUndefined();
    const v6 = await provisionedFilter(t, "BGP_IPv6_PREFIX_FILTER");
    const rule = await t.call("POST", rulesOf(v6), { body: { prefix: "2001:DB8:0:0::/32" } });
    expect(rule.status).toBe(202);
    expect(rule.body).toMatchObject({ type: "BGP_IPv6_PREFIX_FILTER_RULE", prefix: "2001:db8::/32", change: { type: "BGP_IPv6_PREFIX_FILTER_RULE_CREATION" } });
  });

  it("refuses a prefix of the other family, with host bits set, or not a prefix, and a prefixMatch outside the list", async () => {
    const v4 = await provisionedFilter(t);
    const v6 = await provisionedFilter(t, "BGP_IPv6_PREFIX_FILTER");
    const wrongFamily = await t.call("POST", rulesOf(v4), { body: { prefix: "2001:db8::/32" } });
    expect(wrongFamily.status).toBe(400);
    expect(wrongFamily.body[0]).toMatchObject({ errorCode: "EQ-3044013", additionalInfo: [{ property: "prefix", reason: expect.stringContaining("takes IPv4 prefixes only") }] });
    const wrongFamily6 = await t.call("POST", rulesOf(v6), { body: { prefix: "10.0.0.0/8" } });
    expect(wrongFamily6.body[0].additionalInfo[0].reason).toContain("takes IPv6 prefixes only");
    const hostBits = await t.call("POST", rulesOf(v4), { body: { prefix: "192.168.0.1/24" } });
    expect(hostBits.body[0].additionalInfo[0].reason).toContain("write 192.168.0.0/24");
    for (const prefix of ["192.168.0.0", "192.168.0.0/33", "banana/8", 24]) {
      const bad = await t.call("POST", rulesOf(v4), { body: { prefix } });
      expect(bad.status, String(prefix)).toBe(400);
      expect(bad.body[0].additionalInfo[0].property).toBe("prefix");
    }
    const missing = await t.call("POST", rulesOf(v4), { body: { name: "no prefix" } });
    expect(missing.body[0].additionalInfo[0]).toMatchObject({ property: "prefix", reason: expect.stringContaining("required") });
    const match = await t.call("POST", rulesOf(v4), { body: { prefix: "10.0.0.0/8", prefixMatch: "longer" } });
    expect(match.body[0]).toMatchObject({ errorCode: "EQ-3044013", additionalInfo: [{ property: "prefixMatch" }] });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${v4}`)).body.rulesCount).toBe(0);
  });

  it("keeps one rule per prefix in a filter, and lets another filter have the same prefix", async () => {
    const filter = await provisionedFilter(t);
    const first = await provisionedRule(filter, { prefix: "10.1.0.0/16" });
    const again = await t.call("POST", rulesOf(filter), { body: { prefix: "10.1.0.0/16", prefixMatch: "exact" } });
    expect(again.status).toBe(400);
    expect(again.body[0].additionalInfo[0].reason).toContain(`already has a rule for 10.1.0.0/16 (${String(first.uuid)})`);
    const other = await provisionedFilter(t);
    expect((await t.call("POST", rulesOf(other), { body: { prefix: "10.1.0.0/16" } })).status).toBe(202);
  });

  it("adds rules only to a PROVISIONED filter", async () => {
    const filter = await provisionedFilter(t);
    // Held in its transient state (the test clock would otherwise move past it at once).
    await t.call("PATCH", `/__sim/objects/${filter}`, { body: { state: "PROVISIONING" } });
    const early = await t.call("POST", rulesOf(filter), { body: { prefix: "10.0.0.0/8" } });
    expect(early.status).toBe(400);
    expect(early.body[0].additionalInfo[0]).toMatchObject({ property: "routeFilterId", reason: expect.stringContaining("is PROVISIONING") });
  });

  it("answers 404 for an unknown filter or rule, another project's filter, and a rule of another filter", async () => {
    const missingFilter = await t.call("GET", rulesOf("00000000-0000-4000-8000-000000000000"));
    expect(missingFilter.status).toBe(404);
    expect(missingFilter.body[0].additionalInfo[0].property).toBe("routeFilterId");
    const filter = await provisionedFilter(t);
    const rule = await provisionedRule(filter, { prefix: "10.2.0.0/16" });
    expect((await t.call("GET", `${rulesOf(filter)}/00000000-0000-4000-8000-000000000000`)).body[0].additionalInfo[0].property).toBe("routeFilterRuleId");
    const other = await provisionedFilter(t);
    expect((await t.call("GET", `${rulesOf(other)}/${String(rule.uuid)}`)).status).toBe(404);
    expect((await t.call("GET", rulesOf(filter), { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", rulesOf(filter), { client: "none" })).status).toBe(401);
  });

  it("ends in NOT_PROVISIONED when a transition failure is injected", async () => {
    const filter = await provisionedFilter(t);
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routeFilterRules", count: 1 } } });
    const created = await t.call("POST", rulesOf(filter), { body: { prefix: "10.3.0.0/16" } });
    await t.waitFor(`${rulesOf(filter)}/${created.body.uuid}`, "/state", "NOT_PROVISIONED");
    expect((await t.call("GET", `${rulesOf(filter)}/${created.body.uuid}/changes/${created.body.change.uuid}`)).body.status).toBe("FAILED");
  });
});

describe("route filter rules in bulk", () => {
  it("creates every rule of the request in one call, in order", async () => {
    const filter = await provisionedFilter(t);
    const data = Array.from({ length: 150 }, (_, i) => ({ name: `r${i}`, prefix: `10.${Math.floor(i / 256)}.${i % 256}.0/24`, prefixMatch: i % 2 ? "exact" : "orlonger" }));
    const bulk = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data } });
    expect(bulk.status).toBe(202);
    expect(bulk.body.pagination).toMatchObject({ offset: 0, total: 150 });
    expect(bulk.body.data.map((r: { prefix: string }) => r.prefix)).toEqual(data.map((d) => d.prefix));
    expect(bulk.body.data.every((r: { state: string }) => r.state === "PROVISIONING")).toBe(true);
    await t.eventually(async () => ((await t.call("GET", `${rulesOf(filter)}?limit=100&offset=100`)).body.data.every((r: { state: string }) => r.state === "PROVISIONED") ? true : undefined));
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.rulesCount).toBe(150);
  });

  it("is all or nothing: a bad item or a duplicate prefix refuses the whole request, naming the item", async () => {
    const filter = await provisionedFilter(t);
    await provisionedRule(filter, { prefix: "10.9.0.0/16" });
    const bad = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data: [{ prefix: "10.10.0.0/16" }, { prefix: "10.11.0.1/16" }, { prefix: "2001:db8::/32" }] } });
    expect(bad.status).toBe(400);
    expect(bad.body[0].additionalInfo.map((i: { property: string }) => i.property)).toEqual(["/data/1/prefix", "/data/2/prefix"]);
    const duplicate = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data: [{ prefix: "10.12.0.0/16" }, { prefix: "10.9.0.0/16" }, { prefix: "10.12.0.0/16" }] } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body[0].additionalInfo).toEqual([
      expect.objectContaining({ property: "/data/1/prefix", reason: expect.stringContaining("already has a rule for 10.9.0.0/16") }),
      expect.objectContaining({ property: "/data/2/prefix", reason: expect.stringContaining("asked for twice (also at /data/0/prefix)") }),
    ]);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.rulesCount).toBe(1);
    const empty = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data: [] } });
    expect(empty.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/data" }] });
  });

  it("holds at most 1000 rules in a filter", async () => {
    const filter = await provisionedFilter(t);
    const data = Array.from({ length: 1001 }, (_, i) => ({ prefix: `10.${Math.floor(i / 256)}.${i % 256}.0/24` }));
    const tooMany = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body[0].additionalInfo[0].reason).toContain("at most 1000");
  });
});

describe("route filter rule list and search", () => {
  it("lists the filter's rules page by page, without deleted ones", async () => {
    const filter = await provisionedFilter(t);
    const bulk = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data: ["10.20.0.0/16", "10.21.0.0/16", "10.22.0.0/16"].map((prefix) => ({ prefix })) } });
    const [first] = bulk.body.data;
    await t.waitFor(`${rulesOf(filter)}/${first.uuid}`, "/state", "PROVISIONED");
    const page = await t.call("GET", `${rulesOf(filter)}?offset=1&limit=1`);
    expect(page.body.pagination).toMatchObject({ offset: 1, limit: 1, total: 3 });
    expect(page.body.pagination.next).toMatch(/offset=2&limit=1/);
    expect((await t.call("GET", `${rulesOf(filter)}?limit=101`)).status).toBe(400);
    await t.call("DELETE", `${rulesOf(filter)}/${first.uuid}`);
    await t.waitFor(`${rulesOf(filter)}/${first.uuid}`, "/state", "DEPROVISIONED");
    const after = await t.call("GET", rulesOf(filter));
    expect(after.body.data.map((r: { prefix: string }) => r.prefix)).toEqual(["10.21.0.0/16", "10.22.0.0/16"]);
  });

  it("searches by prefix, prefixMatch, name (LIKE, ILIKE) and state, and sorts", async () => {
    const filter = await provisionedFilter(t);
    await t.call("POST", `${rulesOf(filter)}/bulk`, {
      body: { data: [{ name: "Demo-a", prefix: "10.30.0.0/16", prefixMatch: "exact" }, { name: "demo-b", prefix: "10.31.0.0/16" }, { name: "Other", prefix: "10.32.0.0/16" }] },
    });
    const search = (filterBody: unknown, sort?: unknown) => t.call("POST", `${rulesOf(filter)}/search`, { body: { filter: filterBody, ...(sort ? { sort } : {}) } });
    const byPrefix = await search({ and: [{ property: "/prefix", operator: "=", values: ["10.31.0.0/16"] }] });
    expect(byPrefix.status).toBe(200);
    expect(byPrefix.body.data.map((r: { name: string }) => r.name)).toEqual(["demo-b"]);
    const like = await search({ and: [{ property: "/name", operator: "LIKE", values: ["Demo%"] }] });
    expect(like.body.data.map((r: { name: string }) => r.name)).toEqual(["Demo-a"]);
    const ilike = await search({ or: [{ property: "/name", operator: "ILIKE", values: ["demo%"] }] }, [{ property: "/name", direction: "ASC" }]);
    expect(ilike.body.data.map((r: { name: string }) => r.name)).toEqual(["Demo-a", "demo-b"]);
    const exact = await search({ and: [{ property: "/prefixMatch", operator: "=", values: ["exact"] }, { property: "/state", operator: "IN", values: ["PROVISIONING", "PROVISIONED"] }] });
    expect(exact.body.data.map((r: { name: string }) => r.name)).toEqual(["Demo-a"]);
    const unsupported = await search({ and: [{ property: "/action", operator: "=", values: ["PERMIT"] }] });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body[0].errorCode).toBe("EQ-3040055");
  });
});

describe("route filter rule changes", () => {
  it("patches the prefix in place (REPROVISIONING, update change with the rule after it) and keeps the uuid", async () => {
    const filter = await provisionedFilter(t);
    const rule = await provisionedRule(filter, { name: "edge", prefix: "10.40.0.0/16" });
    const href = `${rulesOf(filter)}/${String(rule.uuid)}`;
    const patched = await t.call("PATCH", href, { body: [{ op: "replace", path: "/prefix", value: "10.41.0.0/16" }, { op: "replace", path: "/prefixMatch", value: "exact" }] });
    expect(patched.status).toBe(202);
    expect(patched.body).toMatchObject({ uuid: rule.uuid, prefix: "10.41.0.0/16", prefixMatch: "exact", state: "REPROVISIONING", change: { type: "BGP_IPv4_PREFIX_FILTER_RULE_UPDATE" } });
    await t.waitFor(href, "/state", "PROVISIONED");
    const changes = await t.call("GET", `${href}/changes`);
    expect(changes.body.data.map((ch: { type: string }) => ch.type)).toEqual(["BGP_IPv4_PREFIX_FILTER_RULE_CREATION", "BGP_IPv4_PREFIX_FILTER_RULE_UPDATE"]);
    expect(changes.body.data[1]).toMatchObject({ status: "COMPLETED", data: { op: "replace", path: "/prefixMatch", value: { prefix: "10.41.0.0/16", prefixMatch: "exact", name: "edge" } } });
    const one = await t.call("GET", `${href}/changes/${String(changes.body.data[0].uuid)}`);
    expect(one.body.data).toMatchObject({ op: "add", path: "/", value: { prefix: "10.40.0.0/16" } });
    expect((await t.call("GET", `${href}/changes/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it("refuses a patch of another path or op, a bad value, or a change while the rule is transient", async () => {
    const filter = await provisionedFilter(t);
    const rule = await provisionedRule(filter, { prefix: "10.50.0.0/16" });
    const href = `${rulesOf(filter)}/${String(rule.uuid)}`;
    const action = await t.call("PATCH", href, { body: [{ op: "replace", path: "/action", value: "DENY" }] });
    expect(action.body[0]).toMatchObject({ errorCode: "EQ-3044011", additionalInfo: [{ property: "/0/path" }] });
    const add = await t.call("PATCH", href, { body: [{ op: "add", path: "/name", value: "x" }] });
    expect(add.body[0].additionalInfo[0].property).toBe("/0/op");
    const badPrefix = await t.call("PATCH", href, { body: [{ op: "replace", path: "/prefix", value: "2001:db8::/32" }] });
    expect(badPrefix.body[0]).toMatchObject({ errorCode: "EQ-3044013", additionalInfo: [{ property: "/0/value" }] });
    expect((await t.call("PATCH", href, { body: [] })).status).toBe(400);
    const renamed = await t.call("PATCH", href, { body: [{ op: "replace", path: "/name", value: "renamed" }] });
    expect(renamed.status).toBe(202);
    await t.waitFor(href, "/state", "PROVISIONED");
    await t.call("PATCH", `/__sim/objects/${String(rule.uuid)}`, { body: { state: "REPROVISIONING" } });
    const busy = await t.call("PATCH", href, { body: [{ op: "replace", path: "/description", value: "again" }] });
    expect(busy.status).toBe(400);
    expect(busy.body[0]).toMatchObject({ errorCode: "EQ-3044215", additionalInfo: [{ property: "routeFilterRuleId", value: "REPROVISIONING" }] });
    const busyDelete = await t.call("DELETE", href);
    expect(busyDelete.body[0].errorCode).toBe("EQ-3044215");
  });

  it("replaces a rule completely with PUT: fields left out are removed", async () => {
    const filter = await provisionedFilter(t);
    const rule = await provisionedRule(filter, { name: "old", description: "words", prefix: "10.60.0.0/16", prefixMatch: "exact" });
    const href = `${rulesOf(filter)}/${String(rule.uuid)}`;
    const replaced = await t.call("PUT", href, { body: { prefix: "10.61.0.0/16" } });
    expect(replaced.status).toBe(202);
    expect(replaced.body).toMatchObject({ prefix: "10.61.0.0/16", prefixMatch: "orlonger", state: "REPROVISIONING" });
    expect(replaced.body.name).toBeUndefined();
    expect(replaced.body.description).toBeUndefined();
    const settled = await t.waitFor(href, "/state", "PROVISIONED");
    expect(settled.name).toBeUndefined();
  });

  it("deletes a rule (DEPROVISIONING, then readable as DEPROVISIONED) and refuses a second delete", async () => {
    const filter = await provisionedFilter(t);
    const rule = await provisionedRule(filter, { prefix: "10.70.0.0/16" });
    const href = `${rulesOf(filter)}/${String(rule.uuid)}`;
    const deleted = await t.call("DELETE", href);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toMatchObject({ state: "DEPROVISIONING", change: { type: "BGP_IPv4_PREFIX_FILTER_RULE_DELETION" }, changeLog: { deletedBy: "demo-user" } });
    await t.waitFor(href, "/state", "DEPROVISIONED");
    expect((await t.call("DELETE", href)).status).toBe(404);
    // The prefix is free again once its rule is deleted.
    expect((await t.call("POST", rulesOf(filter), { body: { prefix: "10.70.0.0/16" } })).status).toBe(202);
    const withDeleted = await t.call("POST", `${rulesOf(filter)}/search`, { body: { filter: { and: [{ property: "/state", operator: "=", values: ["DEPROVISIONED"] }] } } });
    expect(withDeleted.body.data.map((r: { uuid: string }) => r.uuid)).toEqual([rule.uuid]);
  });

  it("deletes a filter's rules with the filter", async () => {
    const filter = await provisionedFilter(t);
    const bulk = await t.call("POST", `${rulesOf(filter)}/bulk`, { body: { data: [{ prefix: "10.80.0.0/16" }, { prefix: "10.81.0.0/16" }] } });
    for (const r of bulk.body.data) await t.waitFor(`${rulesOf(filter)}/${r.uuid}`, "/state", "PROVISIONED");
    expect((await t.call("DELETE", `/fabric/v4/routeFilters/${filter}`)).status).toBe(202);
    for (const r of bulk.body.data) await t.waitFor(`${rulesOf(filter)}/${r.uuid}`, "/state", "DEPROVISIONED");
    await t.waitFor(`/fabric/v4/routeFilters/${filter}`, "/state", "DEPROVISIONED");
    expect((await t.call("GET", rulesOf(filter))).body.data).toEqual([]);
    const late = await t.call("POST", rulesOf(filter), { body: { prefix: "10.82.0.0/16" } });
    expect(late.body[0].additionalInfo[0].reason).toContain("DEPROVISIONED");
  });
});
