// The routeFilterRules handler against the simulator: create one and many (one bulk request), read back
// without a diff, change the prefix in place, refresh with one list per filter, find what an interrupted
// create made, and delete; plus route aggregation rules, made by the same module, without prefixMatch.

import { describe, expect, it } from "vitest";
import { KIND_HANDLERS } from "../../src/kinds/index.js";
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { PRODUCTION, changedPaths, expectNoDiff, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);
const kind = KIND_HANDLERS.get("routeFilterRules")!;
const filters = KIND_HANDLERS.get("routeFilters")!;

async function filter(type = "BGP_IPv4_PREFIX_FILTER"): Promise<string> {
  const { id } = await filters.create(k.ctx, { type, name: "rules-home", project: { projectId: PRODUCTION } });
  expect((await settle(filters, k.ctx, { id }, "create")).readiness).toBe("ready");
  return id;
}

const rule = (routeFilter: string, overrides: Body = {}): Body => ({ routeFilter, name: "customer-a", prefix: "192.168.0.0/24", ...overrides });

async function created(spec: Body): Promise<ObjectRef> {
  const { id, parent, body } = await kind.create(k.ctx, spec);
  expect(parent).toBe(spec.routeFilter);
  expect(kind.readiness(body, "create")).toBe("pending");
  const ready = await settle(kind, k.ctx, { id, parent }, "create");
  expect(ready.readiness).toBe("ready");
  expectNoDiff(kind, spec, ready.body);
  return { id, parent };
}

describe("routeFilterRules handler", () => {
  it("creates, reads back without a diff, changes the prefix in place with one PATCH, and deletes", async () => {
    const spec = rule(await filter(), { prefixMatch: "exact", description: "customer A" });
    const ref = await created(spec);
    expect(kind.parentField).toBe("routeFilter");
    expect(kind.eventSubject(ref)).toBe(`/fabric/v4/routeFilters/${ref.parent}/routeFilterRules/${ref.id}`);

    const moved = { ...spec, prefix: "192.168.4.0/22", prefixMatch: "orlonger" };
    const paths = changedPaths(kind, spec, moved);
    expect(paths.sort()).toEqual(["prefix", "prefixMatch"]);
    expect(replaceReasons(kind, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => kind.update(k.ctx, ref, moved, paths));
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 202"]);
    const updated = await settle(kind, k.ctx, ref, "update");
    expect(updated.readiness).toBe("ready");
    expectNoDiff(kind, moved, updated.body);

    await kind.delete(k.ctx, ref);
    // A delete of a rule that is being deleted is what was asked for.
    await kind.delete(k.ctx, ref);
    expect((await settle(kind, k.ctx, ref, "delete")).readiness).toBe("ready");
    expect(await kind.observe(k.ctx, ref)).toBeUndefined();
    await kind.delete(k.ctx, ref);
  });

  it("compares prefixes in the service's spelling and the default prefixMatch, and replaces only for another filter", async () => {
    const spec = rule("f-1", { prefix: "2001:DB8:0:0::/32" });
    expect(kind.desired(spec)).toEqual({ routeFilter: "f-1", prefix: "2001:db8::/32", prefixMatch: "orlonger", name: "customer-a", description: "" });
    expect(changedPaths(kind, spec, { ...spec, prefix: "2001:db8::/32", prefixMatch: "orlonger" })).toEqual([]);
    expect(replaceReasons(kind, changedPaths(kind, spec, { ...spec, routeFilter: "f-2" }))).toEqual(["routeFilter"]);
    expect(replaceReasons(kind, changedPaths(kind, spec, { ...spec, name: "b", description: "words" }))).toEqual([]);
  });

  it("creates a filter's rules in one bulk request, and refreshes them with one list per filter", async () => {
    const [a, b] = [await filter(), await filter("BGP_IPv6_PREFIX_FILTER")];
    const specsA = Array.from({ length: 120 }, (_, i) => rule(a, { name: `a${i}`, prefix: `10.${i}.0.0/16` }));
    const specsB = [rule(b, { name: "b0", prefix: "2001:db8::/32" }), rule(b, { name: "b1", prefix: "2001:db8:1::/48", prefixMatch: "exact" })];
    const { result, requests } = await withRequests(t, () => kind.bulkCreate!.create(k.ctx, specsA));
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`POST /fabric/v4/routeFilters/${a}/routeFilterRules/bulk 202`]);
    expect(result.map((o) => o.body.prefix)).toEqual(specsA.map((s) => s.prefix));
    expect(new Set(result.map((o) => o.parent))).toEqual(new Set([a]));
    expect(kind.bulkCreate!.key(specsA[0]!)).toBe(a);
    const inB = await kind.bulkCreate!.create(k.ctx, specsB);
    const refs = [...result, ...inB].map(({ id, parent }) => ({ id, parent }));
    for (const ref of [refs[0]!, refs[refs.length - 1]!]) await settle(kind, k.ctx, ref, "create");

    const missing = { id: "0f0f0f0f-0000-4000-8000-000000000000", parent: a };
    const read = await withRequests(t, () => kind.observeMany!(k.ctx, [...refs, missing]));
    // 120 rules of one filter are two pages of one list; the other filter's, one page.
    expect(read.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      `GET /fabric/v4/routeFilters/${a}/routeFilterRules`,
      `GET /fabric/v4/routeFilters/${a}/routeFilterRules`,
      `GET /fabric/v4/routeFilters/${b}/routeFilterRules`,
    ].sort());
    expect(read.result.size).toBe(122);
    expect(read.result.has(`${a}/${missing.id}`)).toBe(false);
    expectNoDiff(kind, specsB[1]!, read.result.get(`${b}/${inB[1]!.id}`));
  });

  it("finds the rule an interrupted create made, by every field, and nothing under a filter that is gone", async () => {
    const f = await filter();
    const spec = rule(f, { prefix: "172.16.0.0/12", description: "made before the crash" });
    const ref = await created(spec);
    expect(await kind.lookup(k.ctx, spec)).toMatchObject({ id: ref.id, parent: f });
    expect(await kind.lookup(k.ctx, { ...spec, prefix: "172.16.0.0/13" })).toBeUndefined();
    expect(await kind.lookup(k.ctx, { ...spec, name: "someone-else" })).toBeUndefined();
    expect(await kind.lookup(k.ctx, { ...spec, prefixMatch: "exact" })).toBeUndefined();
    await t.call("DELETE", `/__sim/objects/${f}`);
    expect(await kind.lookup(k.ctx, spec)).toBeUndefined();
    expect((await kind.observeMany!(k.ctx, [ref])).size).toBe(0);
  });

  it("goes with its filter: the filter's delete leaves the rule gone", async () => {
    const f = await filter();
    const ref = await created(rule(f));
    expect(kind.deletedWithParent).toBe(true);
    await filters.delete(k.ctx, { id: f });
    expect((await settle(kind, k.ctx, ref, "delete")).readiness).toBe("ready");
  });
});

describe("routeAggregationRules handler", () => {
  const rules = KIND_HANDLERS.get("routeAggregationRules")!;
  const aggregations = KIND_HANDLERS.get("routeAggregations")!;

  it("creates in bulk, reads back without a diff, patches the prefix, and has no prefixMatch", async () => {
    const { id: aggregation } = await aggregations.create(k.ctx, { type: "BGP_IPv4_PREFIX_AGGREGATION", name: "summary", project: { projectId: PRODUCTION } });
    await settle(aggregations, k.ctx, { id: aggregation }, "create");
    const specs = [
      { routeAggregation: aggregation, name: "a", prefix: "10.0.0.0/8" },
      { routeAggregation: aggregation, name: "b", prefix: "172.16.0.0/12" },
    ];
    const made = await rules.bulkCreate!.create(k.ctx, specs);
    const ready = await settle(rules, k.ctx, made[1]!, "create");
    expectNoDiff(rules, specs[1]!, ready.body);
    expect(rules.desired(specs[0]!)).toEqual({ routeAggregation: aggregation, prefix: "10.0.0.0/8", name: "a", description: "" });
    const moved = { ...specs[1]!, prefix: "172.16.0.0/16" };
    await rules.update(k.ctx, made[1]!, moved, ["prefix"]);
    expectNoDiff(rules, moved, (await settle(rules, k.ctx, made[1]!, "update")).body);
    expect(rules.eventSubject(made[0]!)).toBe(`/fabric/v4/routeAggregations/${aggregation}/routeAggregationRules/${made[0]!.id}`);
  });
});
