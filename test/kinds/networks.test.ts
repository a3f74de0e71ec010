import { describe, expect, it } from "vitest";
import { networks as definition } from "../../src/kinds/networks.js";
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { PRODUCTION, SANDBOX, changedPaths, expectNoDiff, failNextTransition, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const networks = definition.handler;
const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);

const spec = (overrides: Body = {}): Body => ({
  type: "EVPLAN",
  name: "lan-emea",
  scope: "REGIONAL",
  location: { region: "EMEA" },
  project: { projectId: PRODUCTION },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function created(s: Body): Promise<ObjectRef> {
  const { id } = await networks.create(k.ctx, s);
  expect((await settle(networks, k.ctx, { id }, "create")).readiness).toBe("ready");
  return { id };
}

describe("networks handler", () => {
  it("creates (ready once PROVISIONED), reads back without a diff, renames in place, and deletes", async () => {
    const s = spec();
    const { id, body } = await networks.create(k.ctx, s);
    expect(networks.stateOf(body)).toBe("PROVISIONING");
    expect(networks.readiness(body, "create")).toBe("pending");
    const ready = await settle(networks, k.ctx, { id }, "create");
    expect(ready.states).toContain("PROVISIONED");
    expect(ready.body).toMatchObject({ state: "ACTIVE" });
    expectNoDiff(networks, s, ready.body);

    const changed = spec({ name: "lan-europe", notifications: [{ type: "ALL", emails: ["ops@example.com"] }] });
    const paths = changedPaths(networks, s, changed);
    expect(paths.sort()).toEqual(["name", "notifications"]);
    expect(replaceReasons(networks, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => networks.update(k.ctx, { id }, changed, paths));
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 200"]);
    expectNoDiff(networks, changed, (await settle(networks, k.ctx, { id }, "update")).body);

    await networks.delete(k.ctx, { id });
    expect(networks.readiness({ state: "INACTIVE", operation: { equinixStatus: "DEPROVISIONING" } }, "delete")).toBe("pending");
    expect((await settle(networks, k.ctx, { id }, "delete")).readiness).toBe("ready");
    expect(await networks.observe(k.ctx, { id })).toBeUndefined();
    await networks.delete(k.ctx, { id });
    await networks.delete(k.ctx, { id: "0f0f0f0f-0000-4000-8000-000000000000" });
  });

  it("replaces for another type, scope, region or project", () => {
    const s = spec();
    expect(replaceReasons(networks, changedPaths(networks, s, spec({ type: "EPLAN" })))).toEqual(["type"]);
    expect(replaceReasons(networks, changedPaths(networks, s, spec({ scope: "GLOBAL", location: undefined })))).toEqual(["scope"]);
    expect(replaceReasons(networks, changedPaths(networks, s, spec({ location: { region: "APAC" } })))).toEqual(["location.region"]);
    expect(replaceReasons(networks, changedPaths(networks, s, spec({ project: { projectId: SANDBOX } })))).toEqual(["project.projectId"]);
  });

  it("refreshes through one search per hundred networks, leaving deleted ones out", async () => {
    const refs = await Promise.all([1, 2, 3].map((i) => created(spec({ name: `lan-${i}` }))));
    await networks.delete(k.ctx, refs[0]!);
    await settle(networks, k.ctx, refs[0]!, "delete");
    const { result, requests } = await withRequests(t, () => networks.observeMany!(k.ctx, refs));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /fabric/v4/networks/search"]);
    expect([...result.keys()].sort()).toEqual([refs[1]!.id, refs[2]!.id].sort());
  });

  it("looks up the network a spec made by name, type, scope and project, and not a deleted one", async () => {
    const s = spec();
    const ref = await created(s);
    expect((await networks.lookup(k.ctx, s))?.id).toBe(ref.id);
    expect(await networks.lookup(k.ctx, spec({ type: "EPLAN" }))).toBeUndefined();
    expect(await networks.lookup(k.ctx, spec({ location: { region: "APAC" } }))).toBeUndefined();
    await networks.delete(k.ctx, ref);
    expect(await networks.lookup(k.ctx, s)).toBeUndefined();
  });

  it("reports a failed transition as failed", async () => {
    await failNextTransition(t, "networks");
    const { id } = await networks.create(k.ctx, spec());
    expect((await settle(networks, k.ctx, { id }, "create")).readiness).toEqual({ failed: "NOT_PROVISIONED" });
  });
});
