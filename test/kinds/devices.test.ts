import { describe, expect, it } from "vitest";
import { devices as definition } from "../../src/kinds/devices/index.js";

const kind = definition.handler;
import type { Body, KindContext, ObjectRef } from "../../src/kinds/types.js";
import { seedAclTemplate, seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { ACCOUNT_NUMBER, PROJECT_ID, differences, useKindContext, methodFor, ready, requestsDuring, settle } from "./kind-harness.js";

// Devices take 8 to 12 simulated minutes; at this speed that is a fraction of a second.
const t = useSimulator({ speed: 5000 });
const kindCtx = useKindContext(t);
const context = () => kindCtx.ctx;

/** The configuration example's device, as the engine hands it over (provider defaults filled in). */
const single = (name = "edge-1"): Body => ({
  virtualDeviceName: name,
  deviceTypeCode: "C8000V",
  metroCode: "DC",
  packageCode: "network-essentials",
  version: "17.11.01a",
  licenseMode: "SUB",
  deviceManagementType: "PROVIDER-CONFIGURED",
  core: 2,
  termlength: 12,
  notifications: ["netops@example.com", "alerts@example.com"],
  accountNumber: ACCOUNT_NUMBER,
  projectId: PROJECT_ID,
  hostNamePrefix: "edge1",
});

const pair = (name = "edge-pair"): Body => ({
  ...single(name),
  hostNamePrefix: undefined,
  secondary: { virtualDeviceName: `${name}-secondary`, metroCode: "SV", notifications: ["netops@example.com"], additionalBandwidth: 25 },
});

const cluster = (name = "fw-cluster"): Body => ({
  virtualDeviceName: name,
  deviceTypeCode: "PA-VM",
  version: "10.2.4",
  metroCode: "DC",
  licenseMode: "SUB",
  deviceManagementType: "SELF-CONFIGURED",
  core: 2,
  notifications: ["sec@example.com"],
  projectId: PROJECT_ID,
  clusterDetails: { clusterName: "fw-cluster", clusterNodeDetails: { node0: {}, node1: {} } },
});

/** Checks the spec against the configuration's own schema, so the tests drive only specs users can write. */
function valid(spec: Body): Body {
  const clean = JSON.parse(JSON.stringify(spec)) as Body;
  definition.spec.parse(clean);
  return clean;
}

async function createReady(ctx: KindContext, spec: Body): Promise<{ ref: ObjectRef; body: Body }> {
  const created = await kind.create(ctx, valid(spec));
  const ref = { id: created.id };
  return { ref, body: await ready(kind, ctx, ref, "create") };
}

describe("devices kind: single device", () => {
  it("creates, reads back without a perpetual diff, updates in place and deletes", async () => {
    const ctx = context();
    const spec = valid(single());
    const { ref, body } = await createReady(ctx, spec);
    expect(kind.stateOf(body)).toBe("PROVISIONED");
    expect(differences(kind, spec, body)).toEqual([]);
    // The API's defaults are part of the desired form, so removing a field from the file is a change.
    expect(kind.desired(spec)).toMatchObject({ additionalBandwidth: 15, connectivity: "INTERNET-ACCESS", termlength: 12, core: 2, licenseMode: "SUB" });
    expect(kind.observed(body)).toMatchObject({ virtualDeviceName: "edge-1", termlength: 12, core: 2, hostNamePrefix: "edge1", accountNumber: 270848 });

    const changedSpec = valid({ ...spec, virtualDeviceName: "edge-1-renamed", notifications: ["noc@example.com"], termlength: 24, additionalBandwidth: 100 });
    const changed = differences(kind, changedSpec, body);
    expect(changed.sort()).toEqual(["additionalBandwidth", "notifications", "termlength", "virtualDeviceName"]);
    expect(changed.map((p) => methodFor(kind, p)?.via).sort()).toEqual(["action", "update", "update", "update"]);
    const log = await requestsDuring(t, () => kind.update(ctx, ref, changedSpec, changed));
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`PATCH /ne/v1/devices/${ref.id} 204`, `PUT /ne/v1/devices/${ref.id}/additionalBandwidths 204`]);
    const updated = await ready(kind, ctx, ref, "update");
    expect(differences(kind, changedSpec, updated)).toEqual([]);
    expect(updated).toMatchObject({ name: "edge-1-renamed", termLength: "24", additionalBandwidth: 100 });

    await kind.delete(ctx, ref);
    expect(kind.readiness({ status: "DEPROVISIONING" }, "delete")).toBe("pending");
    await kind.delete(ctx, ref);
    expect((await settle(kind, ctx, ref, "delete")).readiness).toBe("ready");
    expect(await kind.observe(ctx, ref)).toBeUndefined();
    await kind.delete(ctx, ref);
  });

  it("forces a replace for everything fixed by the order, naming the field", () => {
    const spec = single();
    for (const field of ["deviceTypeCode", "packageCode", "version", "licenseMode", "deviceManagementType", "core", "metroCode", "accountNumber", "projectId", "hostNamePrefix", "connectivity"]) {
      expect(methodFor(kind, field), field).toBeUndefined();
    }
    // The secondary's own order is not the primary's: it is re-ordered beside the running primary.
    expect(methodFor(kind, "secondary.metroCode")).toEqual({ via: "action", name: "secondaryOrder" });
    const body = { ...spec, name: spec.virtualDeviceName, licenseType: "SUB", core: { core: 2, memory: 8, unit: "GB", tier: 2 }, termLength: "12", hostName: "edge1-abcd", uuid: "abcd0000-0000-4000-8000-000000000000", additionalBandwidth: 15, connectivity: "INTERNET-ACCESS" };
    expect(differences(kind, spec, body)).toEqual([]);
    expect(differences(kind, { ...spec, packageCode: "network-advantage", core: 4 }, body).sort()).toEqual(["core", "packageCode"]);
  });

  it("changes the ACL templates through the device's ACL call, and removing them is a change too", async () => {
    const ctx = context();
    const wan = { interfaceType: "WAN", uuid: seedAclTemplate(t) };
    const mgmt = { interfaceType: "MGMT", uuid: seedAclTemplate(t) };
    const spec = valid({ ...single("edge-acl"), aclDetails: [wan] });
    const { ref, body } = await createReady(ctx, spec);
    expect(differences(kind, spec, body)).toEqual([]);
    const both = valid({ ...spec, aclDetails: [wan, mgmt] });
    expect(differences(kind, both, body)).toEqual(["aclDetails"]);
    expect(methodFor(kind, "aclDetails")).toEqual({ via: "action", name: "acl" });
    const log = await requestsDuring(t, () => kind.update(ctx, ref, both, ["aclDetails"]));
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`PATCH /ne/v1/devices/${ref.id}/acl 204`]);
    const updated = await ready(kind, ctx, ref, "update");
    expect(differences(kind, both, updated)).toEqual([]);
    const none = valid({ ...spec, aclDetails: undefined });
    expect(differences(kind, none, updated)).toEqual(["aclDetails"]);
    await kind.update(ctx, ref, none, ["aclDetails"]);
    expect(differences(kind, none, await ready(kind, ctx, ref, "update"))).toEqual([]);
    await kind.delete(ctx, ref);
  });

  it("leaves secrets out of both forms", () => {
    const spec = { ...single(), vendorConfig: { hostname: "edge", adminPassword: "s3cret", licenseKey: "k" }, sshUsers: [{ sshUsername: "ops", sshPassword: "s3cret!" }] };
    const want = kind.desired(spec);
    expect(want.vendorConfig).toEqual({ hostname: "edge" });
    expect(JSON.stringify(want)).not.toContain("s3cret");
    expect(kind.observed({ vendorConfig: { hostname: "edge", licenseKey: "k" } }).vendorConfig).toEqual({ hostname: "edge" });
  });

  it("reports a failed order as failed", async () => {
    const ctx = context();
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "devices", count: 1 } } });
    const created = await kind.create(ctx, valid(single("edge-doomed")));
    const { readiness } = await settle(kind, ctx, { id: created.id }, "create");
    expect(readiness).toEqual({ failed: "FAILED" });
    expect(kind.readiness({ status: "SOMETHING_NEW" }, "create")).toBe("pending");
  });
});

describe("devices kind: redundant pair", () => {
  it("adds a secondary to a running device and deletes it alone, the primary untouched", async () => {
    const ctx = context();
    const spec = valid(single("edge-grows"));
    const { ref, body } = await createReady(ctx, spec);
    const withSecondary = valid({ ...spec, secondary: { virtualDeviceName: "edge-grows-b", metroCode: "SV", notifications: ["netops@example.com"] } });
    const adding = differences(kind, withSecondary, body);
    expect(adding).toContain("secondary.metroCode");
    const added = await requestsDuring(t, () => kind.update(ctx, ref, withSecondary, adding));
    expect(added.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /ne/v1/devices/${ref.id} 200`, "POST /ne/v1/devices 202"]);
    const pairBody = await ready(kind, ctx, ref, "update");
    expect(differences(kind, withSecondary, pairBody)).toEqual([]);
    expect(pairBody.secondary).toMatchObject({ name: "edge-grows-b", metroCode: "SV", redundancyType: "SECONDARY", redundantUuid: ref.id });
    const secondaryUuid = String((pairBody.secondary as Body).uuid);

    const removing = differences(kind, spec, pairBody);
    expect(removing).toEqual(["secondary.metroCode"]);
    const removed = await requestsDuring(t, () => kind.update(ctx, ref, spec, removing));
    expect(removed.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /ne/v1/devices/${ref.id} 200`, `DELETE /ne/v1/devices/${secondaryUuid} 204`]);
    const singleAgain = await ready(kind, ctx, ref, "update");
    expect(singleAgain.secondary).toBeUndefined();
    expect(differences(kind, spec, singleAgain)).toEqual([]);
    await kind.delete(ctx, ref);
  });

  it("creates both devices, compares the secondary, changes each in place and deletes both", async () => {
    const ctx = context();
    const spec = valid(pair());
    const created = await kind.create(ctx, spec);
    expect(created.body).toMatchObject({ uuid: created.id, secondaryUuid: expect.any(String) });
    const secondaryUuid = String(created.body.secondaryUuid);
    const ref = { id: created.id };
    const body = await ready(kind, ctx, ref, "create");
    expect(body.secondary).toMatchObject({ uuid: secondaryUuid, status: "PROVISIONED", redundancyType: "SECONDARY" });
    expect(differences(kind, spec, body)).toEqual([]);
    expect(kind.observed(body).secondary).toMatchObject({ virtualDeviceName: "edge-pair-secondary", metroCode: "SV", additionalBandwidth: 25, version: "17.11.01a", accountNumber: 270848 });

    const changedSpec = valid({ ...spec, termlength: 36, secondary: { ...(spec.secondary as Body), virtualDeviceName: "edge-pair-b", additionalBandwidth: 50 } });
    const changed = differences(kind, changedSpec, body);
    expect(changed.sort()).toEqual(["secondary.additionalBandwidth", "secondary.virtualDeviceName", "termlength"]);
    const log = await requestsDuring(t, () => kind.update(ctx, ref, changedSpec, changed));
    expect(log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /ne/v1/devices/${ref.id}`,
      `PATCH /ne/v1/devices/${secondaryUuid}`,
      `PUT /ne/v1/devices/${secondaryUuid}/additionalBandwidths`,
    ]);
    const updated = await ready(kind, ctx, ref, "update");
    expect(differences(kind, changedSpec, updated)).toEqual([]);

    await kind.delete(ctx, ref);
    expect((await settle(kind, ctx, ref, "delete")).readiness).toBe("ready");
    expect((await t.call("GET", `/ne/v1/devices/${secondaryUuid}`)).body.status).toBe("DEPROVISIONED");
  });

  it("is ready only when both devices are, and fails naming the device that failed", () => {
    const provisioned = { status: "PROVISIONED", redundancyType: "PRIMARY" };
    expect(kind.readiness({ ...provisioned, secondary: { uuid: "s", status: "PROVISIONING" } }, "create")).toBe("pending");
    expect(kind.readiness({ ...provisioned, secondary: { uuid: "s", status: "PROVISIONED" } }, "create")).toBe("ready");
    expect(kind.readiness({ ...provisioned, secondary: { uuid: "s", status: "FAILED" } }, "create")).toEqual({ failed: "secondary device s: FAILED" });
    expect(kind.readiness({ status: "FAILED", secondary: { uuid: "s", status: "WAITING_FOR_PRIMARY" } }, "create")).toEqual({ failed: "primary device: FAILED" });
    expect(kind.readiness({ status: "DEPROVISIONED", secondary: { uuid: "s", status: "DEPROVISIONING" } }, "delete")).toBe("pending");
    expect(kind.stateOf({ status: "WAITING_FOR_SECONDARY", secondary: { status: "PROVISIONING" } })).toBe("WAITING_FOR_SECONDARY (secondary PROVISIONING)");
  });
});

describe("devices kind: cluster", () => {
  it("creates a cluster, compares its name and renames it in place", async () => {
    const ctx = context();
    const spec = valid(cluster());
    const { ref, body } = await createReady(ctx, spec);
    expect(body.redundancyType).toBe("CLUSTER");
    expect(differences(kind, spec, body)).toEqual([]);
    const renamed = valid({ ...spec, clusterDetails: { ...(spec.clusterDetails as Body), clusterName: "fw-cluster-2" } });
    const changed = differences(kind, renamed, body);
    expect(changed).toEqual(["clusterDetails.clusterName"]);
    expect(methodFor(kind, changed[0]!)).toEqual({ via: "update" });
    await kind.update(ctx, ref, renamed, changed);
    expect(differences(kind, renamed, await ready(kind, ctx, ref, "update"))).toEqual([]);
  });

  it("fails with CLUSTER_SETUP_FAILED", async () => {
    const ctx = context();
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "devices", count: 1 } } });
    const created = await kind.create(ctx, valid(cluster("fw-doomed")));
    expect((await settle(kind, ctx, { id: created.id }, "create")).readiness).toEqual({ failed: "CLUSTER_SETUP_FAILED" });
  });
});

describe("devices kind: refresh and lookup", () => {
  it("reads many devices, pairs included, with one list request", async () => {
    const ctx = context();
    const a = await kind.create(ctx, valid(single("edge-a")));
    const p = await kind.create(ctx, valid(pair("edge-b")));
    await ready(kind, ctx, { id: p.id }, "create");
    const gone = "00000000-0000-4000-8000-00000000dead";
    let found = new Map<string, Body>();
    const log = await requestsDuring(t, async () => {
      found = await kind.observeMany!(ctx, [{ id: a.id }, { id: p.id }, { id: gone }]);
    });
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /ne/v1/devices"]);
    expect([...found.keys()].sort()).toEqual([a.id, p.id].sort());
    expect(found.get(p.id)!.secondary).toMatchObject({ uuid: p.body.secondaryUuid });
    expect(differences(kind, valid(pair("edge-b")), found.get(p.id)!)).toEqual([]);

    // A deleted device is no longer listed, so it reads as gone.
    await kind.delete(ctx, { id: a.id });
    await settle(kind, ctx, { id: a.id }, "delete");
    expect((await kind.observeMany!(ctx, [{ id: a.id }])).size).toBe(0);
  });

  it("reads the missing devices one by one when the account's list is much longer than what netform manages", async () => {
    const ctx = context();
    const mine = await kind.create(ctx, valid(single("edge-mine")));
    // 400 devices made elsewhere, newer than ours, so ours is on the last page of the list.
    for (let i = 0; i < 400; i++) t.sim.world.edit(t.sim.world.get(seedDevice(t), "devices")!, (body) => (body.createdDate = "2999-01-01T00:00:00.000Z"));
    let found = new Map<string, Body>();
    const log = await requestsDuring(t, async () => {
      found = await kind.observeMany!(ctx, [{ id: mine.id }]);
    });
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /ne/v1/devices", `GET /ne/v1/devices/${mine.id}`]);
    expect(found.has(mine.id)).toBe(true);
  });

  it("looks up the primary by name, and not a device on its way out", async () => {
    const ctx = context();
    expect(await kind.lookup(ctx, pair("edge-c"))).toBeUndefined();
    const p = await kind.create(ctx, valid(pair("edge-c")));
    await kind.create(ctx, valid(single("edge-c-other")));
    const found = await kind.lookup(ctx, pair("edge-c"));
    expect(found).toMatchObject({ id: p.id, body: { secondary: { uuid: p.body.secondaryUuid } } });
    await ready(kind, ctx, { id: p.id }, "create");
    await kind.delete(ctx, { id: p.id });
    expect(await kind.lookup(ctx, pair("edge-c"))).toBeUndefined();
  });
});
