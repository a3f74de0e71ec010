import { describe, expect, it } from "vitest";
import { KIND_HANDLERS } from "../../src/kinds/index.js";

const routeFilterAttachments = KIND_HANDLERS.get("routeFilterAttachments")!;
const routeFilters = KIND_HANDLERS.get("routeFilters")!;
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { changedPaths, expectNoDiff, failNextTransition, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);
const kind = routeFilterAttachments;

/** A provisioned route filter of this family; returns its uuid. */
async function filter(name: string, type = "BGP_IPv4_PREFIX_FILTER"): Promise<string> {
  const { id } = await routeFilters.create(k.ctx, { type, name, project: { projectId: k.ctx.provider.projectId } });
  expect((await settle(routeFilters, k.ctx, { id }, "create")).readiness).toBe("ready");
  return id;
}

async function attached(spec: Body): Promise<ObjectRef> {
  const { id, parent, body } = await kind.create(k.ctx, spec);
  expect({ id, parent }).toEqual({ id: spec.routeFilter, parent: spec.connection });
  expect(body.attachmentStatus).toBe("ATTACHING");
  expect(kind.readiness(body, "create")).toBe("pending");
  const ready = await settle(kind, k.ctx, { id, parent }, "create");
  expect(ready.readiness).toBe("ready");
  expectNoDiff(kind, spec, ready.body);
  return { id, parent };
}

describe("routeFilterAttachments handler", () => {
  it("attaches, reads back without a diff, detaches, and counts a second detach as done", async () => {
    const spec = { connection: seedConnection(t), routeFilter: await filter("customer-in"), direction: "INBOUND" };
    const ref = await attached(spec);
    expect(kind.parentField).toBe("connection");
    await kind.delete(k.ctx, ref);
    // A detach of an attachment that is detaching is what was asked for.
    await kind.delete(k.ctx, ref);
    const gone = await settle(kind, k.ctx, ref, "delete");
    expect(gone.readiness).toBe("ready");
    expect(await kind.observe(k.ctx, ref)).toBeUndefined();
    await kind.delete(k.ctx, ref);
    expect(kind.readiness({ attachmentStatus: "DETACHED" }, "delete")).toBe("ready");
    expect(kind.readiness({ attachmentStatus: "DETACHING" }, "delete")).toBe("pending");
  });

  it("replaces for another direction, filter or connection", () => {
    const spec = { connection: "c-1", routeFilter: "f-1", direction: "INBOUND" };
    expect(replaceReasons(kind, changedPaths(kind, spec, { ...spec, direction: "OUTBOUND" }))).toEqual(["direction"]);
    expect(replaceReasons(kind, changedPaths(kind, spec, { ...spec, routeFilter: "f-2" }))).toEqual(["routeFilter"]);
    expect(replaceReasons(kind, changedPaths(kind, spec, { ...spec, connection: "c-2" }))).toEqual(["connection"]);
  });

  it("observes many attachments with one list per connection", async () => {
    const [c1, c2] = [seedConnection(t), seedConnection(t)];
    const [v4, v6, shared] = [await filter("v4"), await filter("v6", "BGP_IPv6_PREFIX_FILTER"), await filter("shared")];
    const refs = [
      await attached({ connection: c1, routeFilter: v4, direction: "INBOUND" }),
      await attached({ connection: c1, routeFilter: v6, direction: "INBOUND" }),
      await attached({ connection: c2, routeFilter: v6, direction: "OUTBOUND" }),
      await attached({ connection: c2, routeFilter: shared, direction: "INBOUND" }),
    ];
    const missing = { id: "0f0f0f0f-0000-4000-8000-000000000000", parent: c1 };
    const { result, requests } = await withRequests(t, () => kind.observeMany!(k.ctx, [...refs, missing]));
    expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([`GET /fabric/v4/connections/${c1}/routeFilters`, `GET /fabric/v4/connections/${c2}/routeFilters`].sort());
    // Filed under connection/filter (refKey): a filter attached to two connections is two attachments.
    expect([...result.keys()].sort()).toEqual([`${c1}/${v4}`, `${c1}/${v6}`, `${c2}/${v6}`, `${c2}/${shared}`].sort());
    expect(result.get(`${c2}/${v6}`)?.direction).toBe("OUTBOUND");
    expect(kind.observed(result.get(`${c1}/${v6}`)!)).toEqual({ connection: c1, routeFilter: v6, direction: "INBOUND" });
  });

  it("finds nothing under a connection that is gone", async () => {
    const c = seedConnection(t);
    const ref = await attached({ connection: c, routeFilter: await filter("f"), direction: "INBOUND" });
    await t.call("DELETE", `/__sim/objects/${c}`);
    expect((await kind.observeMany!(k.ctx, [ref])).size).toBe(0);
    expect(await kind.observe(k.ctx, ref)).toBeUndefined();
    await kind.delete(k.ctx, ref);
  });

  it("looks up an attachment by connection and filter, and not a detached one", async () => {
    const spec = { connection: seedConnection(t), routeFilter: await filter("customer-in"), direction: "OUTBOUND" };
    expect(await kind.lookup(k.ctx, spec)).toBeUndefined();
    const ref = await attached(spec);
    expect(await kind.lookup(k.ctx, spec)).toMatchObject({ ...ref, body: { direction: "OUTBOUND" } });
    await kind.delete(k.ctx, ref);
    expect(await kind.lookup(k.ctx, spec)).toBeUndefined();
    await settle(kind, k.ctx, ref, "delete");
    expect(await kind.lookup(k.ctx, spec)).toBeUndefined();
  });

  it("reports a failed attach as failed", async () => {
    const spec = { connection: seedConnection(t), routeFilter: await filter("customer-in"), direction: "INBOUND" };
    await failNextTransition(t, "routeFilterAttachments");
    const { id, parent } = await kind.create(k.ctx, spec);
    expect((await settle(kind, k.ctx, { id, parent }, "create")).readiness).toEqual({ failed: "FAILED" });
  });

  it("reads the state table", () => {
    expect(kind.readiness({ attachmentStatus: "PENDING_BGP_CONFIGURATION" }, "create")).toBe("ready");
    expect(kind.readiness({ attachmentStatus: "SOMETHING_NEW" }, "create")).toBe("pending");
    expect(kind.stateOf({ attachmentStatus: "ATTACHING" })).toBe("ATTACHING");
  });
});
