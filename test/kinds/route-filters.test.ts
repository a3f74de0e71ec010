import { describe, expect, it } from "vitest";
import { routeFilters as definition } from "../../src/kinds/route-filters.js";

const routeFilters = definition.handler;
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { SANDBOX, changedPaths, describeDifferences, expectNoDiff, failNextTransition, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);

const spec = (overrides: Body = {}): Body => ({
  type: "BGP_IPv4_PREFIX_FILTER",
  name: "customer-in",
  description: "Prefixes accepted from the customer",
  project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" },
  ...overrides,
});

async function created(s: Body): Promise<ObjectRef> {
  const { id, body } = await routeFilters.create(k.ctx, s);
  expect(body.state).toBe("PROVISIONING");
  expect((await settle(routeFilters, k.ctx, { id }, "create")).readiness).toBe("ready");
  return { id };
}

describe("routeFilters handler", () => {
  it("creates, reads back without a diff, renames and redescribes in place, and deletes", async () => {
    const s = spec();
    const { id, body } = await routeFilters.create(k.ctx, s);
    expect(routeFilters.readiness(body, "create")).toBe("pending");
    const ready = await settle(routeFilters, k.ctx, { id }, "create");
    expect(ready.readiness).toBe("ready");
    expect(ready.states.at(-1)).toBe("PROVISIONED");
    expectNoDiff(routeFilters, s, ready.body);

    const changed = spec({ name: "customer-in-v2", description: "Only the customer's aggregates" });
    const paths = changedPaths(routeFilters, s, changed);
    expect(paths.sort()).toEqual(["description", "name"]);
    expect(replaceReasons(routeFilters, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => routeFilters.update(k.ctx, { id }, changed, paths));
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 202"]);
    expect(routeFilters.readiness({ ...body, state: "REPROVISIONING" }, "update")).toBe("pending");
    const updated = await settle(routeFilters, k.ctx, { id }, "update");
    expect(updated.readiness).toBe("ready");
    expectNoDiff(routeFilters, changed, updated.body);

    await routeFilters.delete(k.ctx, { id });
    const deleted = await settle(routeFilters, k.ctx, { id }, "delete");
    expect(deleted.readiness).toBe("ready");
    expect(await routeFilters.observe(k.ctx, { id })).toBeUndefined();
    // Deleting again (a DEPROVISIONED filter) and deleting an unknown one both count as done.
    await routeFilters.delete(k.ctx, { id });
    await routeFilters.delete(k.ctx, { id: "0f0f0f0f-0000-4000-8000-000000000000" });
  });

  it("reads DEPROVISIONED as ready for delete, and a filter already deleting as deleted", async () => {
    const ref = await created(spec());
    await routeFilters.delete(k.ctx, ref);
    await routeFilters.delete(k.ctx, ref);
    expect(routeFilters.readiness({ state: "DEPROVISIONED" }, "delete")).toBe("ready");
    expect((await settle(routeFilters, k.ctx, ref, "delete")).readiness).toBe("ready");
  });

  it("shows a removed description as a change and clears it in place", async () => {
    const ref = await created(spec());
    const without = spec({ description: undefined });
    const body = (await routeFilters.observe(k.ctx, ref))!;
    expect(describeDifferences(routeFilters, without, body)).toEqual(['description: want "", got "Prefixes accepted from the customer"']);
    await routeFilters.update(k.ctx, ref, without, ["description"]);
    expectNoDiff(routeFilters, without, (await settle(routeFilters, k.ctx, ref, "update")).body);
  });

  it("replaces for a new type or project", async () => {
    const s = spec();
    expect(replaceReasons(routeFilters, changedPaths(routeFilters, s, spec({ type: "BGP_IPv6_PREFIX_FILTER" })))).toEqual(["type"]);
    expect(replaceReasons(routeFilters, changedPaths(routeFilters, s, spec({ project: { projectId: SANDBOX } })))).toEqual(["project.projectId"]);
  });

  it("compares a project id the service sends as a number with the string of the spec", () => {
    const s = spec({ project: { projectId: "270848" } });
    expect(describeDifferences(routeFilters, s, { ...s, project: { projectId: 270848, href: "/x" }, state: "PROVISIONED" })).toEqual([]);
  });

  it("observes many filters with one search per hundred, leaving deleted ones out", async () => {
    const refs: ObjectRef[] = [];
    for (let i = 0; i < 105; i++) refs.push((await routeFilters.create(k.ctx, spec({ name: `f-${i}` }))));
    await settle(routeFilters, k.ctx, refs[0]!, "create");
    const gone = refs[1]!;
    await routeFilters.delete(k.ctx, gone);
    await settle(routeFilters, k.ctx, gone, "delete");
    const { result, requests } = await withRequests(t, () => routeFilters.observeMany!(k.ctx, [...refs, { id: "0f0f0f0f-0000-4000-8000-000000000000" }]));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /fabric/v4/routeFilters/search", "POST /fabric/v4/routeFilters/search"]);
    expect(result.size).toBe(104);
    expect(result.has(gone.id)).toBe(false);
    expect(result.get(refs[7]!.id)?.name).toBe("f-7");
  });

  it("looks up the filter a spec made, and not a deleted one", async () => {
    const s = spec();
    expect(await routeFilters.lookup(k.ctx, s)).toBeUndefined();
    const ref = await created(s);
    await routeFilters.create(k.ctx, spec({ name: "other" }));
    const found = await routeFilters.lookup(k.ctx, s);
    expect(found?.id).toBe(ref.id);
    expect(await routeFilters.lookup(k.ctx, spec({ project: { projectId: SANDBOX } }))).toBeUndefined();
    expect(await routeFilters.lookup(k.ctx, spec({ type: "BGP_IPv6_PREFIX_FILTER" }))).toBeUndefined();
    await routeFilters.delete(k.ctx, ref);
    expect(await routeFilters.lookup(k.ctx, s)).toBeUndefined();
  });

  it("creates in the provider's project when the spec names none", async () => {
    const s = spec({ project: undefined });
    const ref = await created(s);
    const body = (await routeFilters.observe(k.ctx, ref))!;
    expect((body.project as Body).projectId).toBe(k.ctx.provider.projectId);
    expect((await routeFilters.lookup(k.ctx, s))?.id).toBe(ref.id);
  });

  it("reports a failed transition as failed", async () => {
    await failNextTransition(t, "routeFilters");
    const { id } = await routeFilters.create(k.ctx, spec());
    const settled = await settle(routeFilters, k.ctx, { id }, "create");
    expect(settled.readiness).toEqual({ failed: "NOT_PROVISIONED" });
  });

  it("waits on a state it does not know", () => {
    expect(routeFilters.readiness({ state: "SOMETHING_NEW" }, "create")).toBe("pending");
    expect(routeFilters.readiness({}, "update")).toBe("pending");
    expect(routeFilters.stateOf({ state: "REPROVISIONING" })).toBe("REPROVISIONING");
  });
});
