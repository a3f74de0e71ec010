import { describe, expect, it } from "vitest";
import { cloudRouters as definition } from "../../src/kinds/cloud-routers.js";
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { PRODUCTION, SANDBOX, changedPaths, describeDifferences, expectNoDiff, failNextTransition, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const cloudRouters = definition.handler;
const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);

/** A spec as the engine hands it over: defaults applied. */
const spec = (overrides: Body = {}): Body => ({
  type: "XF_ROUTER",
  name: "fcr-sv",
  location: { metroCode: "SV" },
  package: { code: "STANDARD" },
  project: { projectId: PRODUCTION },
  account: { accountNumber: "270848" },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function created(s: Body): Promise<ObjectRef> {
  const { id, body } = await cloudRouters.create(k.ctx, s);
  expect(cloudRouters.readiness(body, "create")).toBe("pending");
  expect((await settle(cloudRouters, k.ctx, { id }, "create")).readiness).toBe("ready");
  return { id };
}

describe("cloudRouters handler", () => {
  it("creates, reads back without a diff, changes name, package and notifications with one PATCH, and deletes", async () => {
    const s = spec();
    const { id, body } = await cloudRouters.create(k.ctx, s);
    expect(body.state).toBe("PROVISIONING");
    const ready = await settle(cloudRouters, k.ctx, { id }, "create");
    expect(ready.readiness).toBe("ready");
    expect(ready.states.at(-1)).toBe("PROVISIONED");
    expectNoDiff(cloudRouters, s, ready.body);

    const changed = spec({ name: "fcr-sv-lab", package: { code: "LAB" }, notifications: [{ type: "ALL", emails: ["ops@example.com", "noc@example.com"] }] });
    const paths = changedPaths(cloudRouters, s, changed);
    expect(paths.sort()).toEqual(["name", "notifications", "package.code"]);
    expect(replaceReasons(cloudRouters, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => cloudRouters.update(k.ctx, { id }, changed, paths));
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`PATCH /fabric/v4/routers/${id} 200`]);
    const updated = await settle(cloudRouters, k.ctx, { id }, "update");
    expect(updated.readiness).toBe("ready");
    expectNoDiff(cloudRouters, changed, updated.body);

    await cloudRouters.delete(k.ctx, { id });
    expect((await settle(cloudRouters, k.ctx, { id }, "delete")).readiness).toBe("ready");
    expect(await cloudRouters.observe(k.ctx, { id })).toBeUndefined();
    await cloudRouters.delete(k.ctx, { id });
    await cloudRouters.delete(k.ctx, { id: "0f0f0f0f-0000-4000-8000-000000000000" });
  });

  it("replaces for another metro, project, account or type, and ignores the order of notification addresses", () => {
    const s = spec();
    expect(replaceReasons(cloudRouters, changedPaths(cloudRouters, s, spec({ location: { metroCode: "DC" } })))).toEqual(["location.metroCode"]);
    expect(replaceReasons(cloudRouters, changedPaths(cloudRouters, s, spec({ project: { projectId: SANDBOX } })))).toEqual(["project.projectId"]);
    expect(replaceReasons(cloudRouters, changedPaths(cloudRouters, s, spec({ account: { accountNumber: 270849 } })))).toEqual(["account.accountNumber"]);
    const reordered = spec({ notifications: [{ type: "ALL", emails: ["b@example.com", "a@example.com"] }] });
    expect(describeDifferences(cloudRouters, reordered, { ...reordered, notifications: [{ type: "ALL", emails: ["a@example.com", "b@example.com"] }], account: { accountNumber: 270848, accountName: "x" } })).toEqual([]);
  });

  it("refreshes with one search of the provider's project and one GET per router elsewhere, leaving deleted ones out", async () => {
    const here = await Promise.all([1, 2, 3].map((i) => created(spec({ name: `fcr-${i}` }))));
    const elsewhere = await created(spec({ name: "fcr-sandbox", project: { projectId: SANDBOX } }));
    const gone = here[2]!;
    await cloudRouters.delete(k.ctx, gone);
    await settle(cloudRouters, k.ctx, gone, "delete");
    const { result, requests } = await withRequests(t, () => cloudRouters.observeMany!(k.ctx, [...here, elsewhere]));
    expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["GET /fabric/v4/routers/" + elsewhere.id, "GET /fabric/v4/routers/" + gone.id, "POST /fabric/v4/routers/search"].sort());
    expect([...result.keys()].sort()).toEqual([here[0]!.id, here[1]!.id, elsewhere.id].sort());
  });

  it("looks up the router a spec made by every identifying field, and not a deleted one", async () => {
    const s = spec();
    expect(await cloudRouters.lookup(k.ctx, s)).toBeUndefined();
    const ref = await created(s);
    expect((await cloudRouters.lookup(k.ctx, s))?.id).toBe(ref.id);
    expect(await cloudRouters.lookup(k.ctx, spec({ location: { metroCode: "DC" } }))).toBeUndefined();
    expect(await cloudRouters.lookup(k.ctx, spec({ account: { accountNumber: "270849" } }))).toBeUndefined();
    expect(await cloudRouters.lookup(k.ctx, spec({ project: { projectId: SANDBOX } }))).toBeUndefined();
    await cloudRouters.delete(k.ctx, ref);
    expect(await cloudRouters.lookup(k.ctx, s)).toBeUndefined();
  });

  it("creates in the provider's project and account when the spec names none", async () => {
    const s = spec({ project: undefined, account: undefined });
    const ref = await created(s);
    const body = (await cloudRouters.observe(k.ctx, ref))!;
    expect(body).toMatchObject({ project: { projectId: PRODUCTION }, account: { accountNumber: 270848 } });
    expect((await cloudRouters.lookup(k.ctx, s))?.id).toBe(ref.id);
  });

  it("reports a failed transition as failed, and waits on a state it does not know", async () => {
    await failNextTransition(t, "routers");
    const { id } = await cloudRouters.create(k.ctx, spec());
    expect((await settle(cloudRouters, k.ctx, { id }, "create")).readiness).toEqual({ failed: "NOT_PROVISIONED" });
    expect(cloudRouters.readiness({ state: "SOMETHING_NEW" }, "create")).toBe("pending");
    expect(cloudRouters.readiness({ state: "REPROVISIONING" }, "update")).toBe("pending");
  });
});
