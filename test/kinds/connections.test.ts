import { describe, expect, it } from "vitest";
import { connections as definition } from "../../src/kinds/connections/index.js";

const connections = definition.handler;
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { seedDevice, seedNetwork, seedRouter, seedServiceToken } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import {
  DC_PRIMARY,
  DC_QINQ,
  DC_SECONDARY,
  SANDBOX,
  SV_PRIMARY,
  changedPaths,
  colo,
  connectionSpec,
  describeDifferences,
  expectNoDiff,
  failNextTransition,
  replaceReasons,
  serviceProfile,
  settle,
  useKindContext,
  withRequests,
} from "./fabric-kind-support.js";

const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);

/** Creates through the handler and waits until it is provisioned; checks there is no perpetual diff. */
async function provisioned(spec: Body): Promise<{ ref: ObjectRef; body: Body }> {
  const { id, body } = await connections.create(k.ctx, spec);
  expect(connections.readiness(body, "create")).toBe("pending");
  const ready = await settle(connections, k.ctx, { id }, "create");
  expect(ready.readiness).toBe("ready");
  expectNoDiff(connections, spec, ready.body);
  return { ref: { id }, body: ready.body! };
}

describe("connections handler: lifecycle", () => {
  it("creates a port-to-profile connection, changes it in place with one PATCH, and deletes it", async () => {
    const spec = connectionSpec({ order: { purchaseOrderNumber: "PO-1234" } });
    const { id, body } = await connections.create(k.ctx, spec);
    expect(connections.readiness(body, "create")).toBe("pending");
    // At this speed a slow first request may already read the next state.
    expect(["PENDING_AUTO_APPROVAL", "PROVISIONING"]).toContain(body.state);
    expect(connections.readiness({ ...body, state: "PENDING_AUTO_APPROVAL" }, "create")).toBe("pending");
    expect(connections.readiness({ ...body, state: "PROVISIONING" }, "create")).toBe("pending");
    const ready = await settle(connections, k.ctx, { id }, "create");
    expect(ready.states.at(-1)).toBe("PROVISIONED");
    expect(ready.readiness).toBe("ready");
    // The response adds href, XF_PORT, location names, billingTier, account, a redundancy group: no diff.
    expectNoDiff(connections, spec, ready.body);

    const changed = connectionSpec({
      order: { purchaseOrderNumber: "PO-1234" },
      name: "dc-to-cloud-renamed",
      bandwidth: 200,
      notifications: [{ type: "ALL", emails: ["ops@example.com", "noc@example.com"] }, { type: "BANDWIDTH_ALERT", emails: ["capacity@example.com"] }],
    });
    const paths = changedPaths(connections, spec, changed);
    expect(paths.sort()).toEqual(["bandwidth", "name", "notifications"]);
    expect(replaceReasons(connections, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => connections.update(k.ctx, { id }, changed, paths));
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 202"]);
    const updated = await settle(connections, k.ctx, { id }, "update");
    expect(updated.readiness).toBe("ready");
    expectNoDiff(connections, changed, updated.body);

    // The a-side port moves to the secondary DC port in place.
    const moved = { ...changed, aSide: colo(DC_SECONDARY, 1001) };
    const movePaths = changedPaths(connections, changed, moved);
    expect(movePaths).toEqual(["aSide.accessPoint.port.uuid"]);
    await connections.update(k.ctx, { id }, moved, movePaths);
    expectNoDiff(connections, moved, (await settle(connections, k.ctx, { id }, "update")).body);

    await connections.delete(k.ctx, { id });
    const deleted = await settle(connections, k.ctx, { id }, "delete");
    expect(deleted.readiness).toBe("ready");
    // At this simulator speed DEPROVISIONING lasts milliseconds, which a loaded machine's polls can miss: the
    // service's own record of the transition says it went through it.
    const events = await t.call("POST", "/fabric/v4/cloudevents/search", { body: { filter: { and: [{ property: "/subject", operator: "IN", values: [`/fabric/v4/connections/${id}*`] }] }, pagination: { offset: 0, limit: 100 } } });
    expect((events.body.data as Array<{ type: string }>).map((e) => e.type)).toContain("equinix.fabric.connection.state.deprovisioning");
    expect(await connections.observe(k.ctx, { id })).toBeUndefined();
    // A DEPROVISIONED connection (the service answers 400 EQ-3041120) and an unknown one count as deleted.
    await connections.delete(k.ctx, { id });
    await connections.delete(k.ctx, { id: "0f0f0f0f-0000-4000-8000-000000000000" });
  });

  it("treats a second delete of a connection that is deprovisioning as done", async () => {
    const { ref } = await provisioned(connectionSpec());
    await connections.delete(k.ctx, ref);
    await connections.delete(k.ctx, ref);
    expect(connections.readiness({ state: "DEPROVISIONING" }, "delete")).toBe("pending");
    expect(connections.readiness({ state: "DEPROVISIONED" }, "delete")).toBe("ready");
  });

  it("observes many connections with one search per hundred, leaving deleted ones out", async () => {
    const refs: ObjectRef[] = [];
    for (let i = 0; i < 3; i++) refs.push((await provisioned(connectionSpec({ name: `c-${i}`, aSide: colo(DC_PRIMARY, 2000 + i) }))).ref);
    await connections.delete(k.ctx, refs[2]!);
    await settle(connections, k.ctx, refs[2]!, "delete");
    const { result, requests } = await withRequests(t, () => connections.observeMany!(k.ctx, [...refs, { id: "0f0f0f0f-0000-4000-8000-000000000000" }]));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /fabric/v4/connections/search"]);
    expect([...result.keys()].sort()).toEqual([refs[0]!.id, refs[1]!.id].sort());
    expect(result.get(refs[1]!.id)?.name).toBe("c-1");
  });

  it("pages searches of more than a hundred uuids", async () => {
    const refs: ObjectRef[] = [];
    for (let i = 0; i < 101; i++) {
      const { id } = await connections.create(k.ctx, connectionSpec({ name: `c-${i}`, bandwidth: 50, aSide: colo(i % 2 ? DC_PRIMARY : DC_SECONDARY, 100 + i) }));
      refs.push({ id });
    }
    const { result, requests } = await withRequests(t, () => connections.observeMany!(k.ctx, refs));
    expect(requests).toHaveLength(2);
    expect(result.size).toBe(101);
  });
});

describe("connections handler: endpoint kinds", () => {
  it("reads back a QINQ port connection in another project", async () => {
    const aSide = { accessPoint: { type: "COLO", port: { uuid: DC_QINQ }, linkProtocol: { type: "QINQ", vlanSTag: 300, vlanCTag: 301 } } };
    await provisioned(connectionSpec({ aSide, project: { projectId: SANDBOX } }));
  });

  it("moves a virtual device a-side to another device and interface in place", async () => {
    const [first, second] = [seedDevice(t), seedDevice(t)];
    const spec = connectionSpec({ aSide: { accessPoint: { type: "VD", virtualDevice: { uuid: first }, interface: { type: "NETWORK", id: 5 }, linkProtocol: { type: "DOT1Q", vlanTag: 44 } } } });
    const { ref } = await provisioned(spec);
    const moved = connectionSpec({ aSide: { accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid: second }, interface: { type: "NETWORK", id: 6 }, linkProtocol: { type: "DOT1Q", vlanTag: 44 } } } });
    const paths = changedPaths(connections, spec, moved);
    expect(paths.sort()).toEqual(["aSide.accessPoint.interface.id", "aSide.accessPoint.virtualDevice.uuid"]);
    expect(replaceReasons(connections, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => connections.update(k.ctx, ref, moved, paths));
    expect(requests.map((r) => r.method)).toEqual(["PATCH"]);
    expectNoDiff(connections, moved, (await settle(connections, k.ctx, ref, "update")).body);
  });

  it("takes tag ranges at a virtual device", async () => {
    const aSide = { accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid: seedDevice(t) }, interface: { type: "CLOUD", id: 2 }, linkProtocol: { type: "QINQ", vlanSTag: 10, vlanCTagMin: 20, vlanCTagMax: 30 } } };
    await provisioned(connectionSpec({ aSide }));
  });

  it("connects to a network, from a cloud router, and through a service token", async () => {
    await provisioned(connectionSpec({ type: "EVPLAN_VC", name: "to-lan", zSide: { accessPoint: { type: "NETWORK", network: { uuid: seedNetwork(t) } } } }));
    await provisioned(connectionSpec({ type: "IP_VC", name: "from-fcr", aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: seedRouter(t) } } } }));
    const token = seedServiceToken(t);
    const viaToken = connectionSpec({ name: "via-token", aSide: colo(DC_PRIMARY, 1500), zSide: { serviceToken: { uuid: token } } });
    await provisioned(viaToken);
    expect(await connections.lookup(k.ctx, viaToken)).toBeDefined();
  });

  it("connects to a profile in another metro, with a seller region", async () => {
    const zSide = { accessPoint: { ...serviceProfile("SV").accessPoint, sellerRegion: "us-west-1" } };
    await provisioned(connectionSpec({ zSide }));
  });
});

describe("connections handler: comparing", () => {
  it("expects a PRIMARY connection when the spec has no redundancy, and compares a given group", async () => {
    const { body } = await provisioned(connectionSpec({ redundancy: { group: "g-1", priority: "PRIMARY" }, aSide: colo(SV_PRIMARY, 700), zSide: serviceProfile("SV") }));
    const bare = connectionSpec({ aSide: colo(SV_PRIMARY, 700), zSide: serviceProfile("SV") });
    expect(describeDifferences(connections, bare, body)).toEqual([]);
    expect(describeDifferences(connections, bare, { ...body, redundancy: { group: "x", priority: "SECONDARY" } })).toEqual(['redundancy.priority: want "PRIMARY", got "SECONDARY"']);
  });

  it("ignores the order of notification entries and addresses", () => {
    const spec = connectionSpec({ notifications: [{ type: "ALL", emails: ["b@example.com", "a@example.com"] }, { type: "BANDWIDTH_ALERT", emails: ["c@example.com"] }] });
    const body = { ...spec, redundancy: { group: "g", priority: "PRIMARY" }, notifications: [{ type: "BANDWIDTH_ALERT", emails: ["c@example.com"] }, { type: "ALL", emails: ["a@example.com", "b@example.com"] }] };
    expect(describeDifferences(connections, spec, body)).toEqual([]);
  });

  it("normalises numbers sent as strings and leaves secrets to the engine", () => {
    const spec = connectionSpec({ zSide: { accessPoint: { ...serviceProfile("DC").accessPoint, authenticationKey: "secret" } } });
    const body = { ...spec, redundancy: { group: "g", priority: "PRIMARY" }, bandwidth: "100", aSide: { accessPoint: { type: "COLO", port: { uuid: DC_PRIMARY, type: "XF_PORT" }, linkProtocol: { type: "DOT1Q", vlanTag: "1001" } } } };
    expect(describeDifferences(connections, spec, body)).toEqual([]);
    expect(JSON.stringify(connections.desired(spec))).not.toContain("secret");
  });

  it("replaces for anything but the five patchable paths, naming the field", () => {
    const spec = connectionSpec();
    const reasons = (after: Body) => replaceReasons(connections, changedPaths(connections, spec, after));
    expect(reasons(connectionSpec({ zSide: serviceProfile("SV") }))).toEqual(["zSide.accessPoint.location.metroCode"]);
    expect(reasons(connectionSpec({ aSide: colo(DC_PRIMARY, 1002) }))).toEqual(["aSide.accessPoint.linkProtocol.vlanTag"]);
    expect(reasons(connectionSpec({ type: "EPL_VC" }))).toEqual(["type"]);
    expect(reasons(connectionSpec({ order: { purchaseOrderNumber: "PO-2" } }))).toEqual(["order.purchaseOrderNumber"]);
    expect(reasons(connectionSpec({ redundancy: { group: "g", priority: "SECONDARY" } })).sort()).toEqual(["redundancy.group", "redundancy.priority"]);
    expect(reasons(connectionSpec({ project: { projectId: SANDBOX } }))).toEqual(["project.projectId"]);
    expect(reasons(connectionSpec({ aSide: colo(DC_SECONDARY, 1001), name: "x", bandwidth: 500 }))).toEqual([]);
  });
});

describe("connections handler: lookup and failures", () => {
  it("looks up the connection a spec made by name, project and endpoints, and not a deleted one", async () => {
    const spec = connectionSpec();
    expect(await connections.lookup(k.ctx, spec)).toBeUndefined();
    const { ref } = await provisioned(spec);
    expect((await connections.lookup(k.ctx, spec))?.id).toBe(ref.id);
    expect(await connections.lookup(k.ctx, connectionSpec({ zSide: serviceProfile("SV") }))).toBeUndefined();
    expect(await connections.lookup(k.ctx, connectionSpec({ name: "other" }))).toBeUndefined();
    await connections.delete(k.ctx, ref);
    expect(await connections.lookup(k.ctx, spec)).toBeUndefined();
  });

  it("tells same-named connections on the same endpoints apart by their tags, interface and redundancy", async () => {
    const { body: primary } = await provisioned(connectionSpec({ redundancy: { priority: "PRIMARY" } }));
    const group = (primary.redundancy as Body).group;
    // The secondary of a redundant pair, named alike, on the same port with another tag: not the primary.
    const secondary = connectionSpec({ aSide: colo(DC_PRIMARY, 1002), redundancy: { group, priority: "SECONDARY" } });
    expect(await connections.lookup(k.ctx, secondary)).toBeUndefined();
    expect(await connections.lookup(k.ctx, { ...secondary, aSide: colo(DC_PRIMARY, 1001) })).toBeUndefined();
    const { ref } = await provisioned(secondary);
    expect((await connections.lookup(k.ctx, secondary))?.id).toBe(ref.id);
    expect((await connections.lookup(k.ctx, connectionSpec()))?.id).toBe(primary.uuid);

    const device = seedDevice(t);
    const fromDevice = (id: number) => connectionSpec({ aSide: { accessPoint: { type: "VD", virtualDevice: { uuid: device }, interface: { type: "NETWORK", id } } } });
    const { ref: onFive } = await provisioned(fromDevice(5));
    expect((await connections.lookup(k.ctx, fromDevice(5)))?.id).toBe(onFive.id);
    expect(await connections.lookup(k.ctx, fromDevice(6))).toBeUndefined();
  });

  it("reports a failed provisioning with the service's statuses", async () => {
    await failNextTransition(t, "connections");
    const { id } = await connections.create(k.ctx, connectionSpec());
    const settled = await settle(connections, k.ctx, { id }, "create");
    expect(settled.readiness).toEqual({ failed: "FAILED: equinixStatus NOT_PROVISIONED, providerStatus FAILED" });
  });

  it("reads the state tables", () => {
    const r = connections.readiness;
    expect(r({ state: "PENDING_AUTO_APPROVAL" }, "create")).toBe("pending");
    expect(r({ state: "PROVISIONING" }, "create")).toBe("pending");
    expect(r({ state: "PENDING", operation: { equinixStatus: "PENDING_APPROVAL" } }, "create")).toBe("pending");
    expect(r({ state: "PENDING", operation: { equinixStatus: "REJECTED" } }, "create")).toEqual({ failed: "PENDING: rejected by the provider" });
    expect(r({ state: "FAILED", operation: { errors: [{ errorCode: "EQ-1", errorMessage: "port down" }] } }, "create")).toEqual({ failed: "FAILED: port down" });
    expect(r({ state: "SOMETHING_NEW" }, "create")).toBe("pending");
    expect(r({ state: "REPROVISIONING" }, "update")).toBe("pending");
    expect(r({ state: "PROVISIONED", change: { type: "CONNECTION_UPDATE", status: "SUBMITTED_FOR_APPROVAL" } }, "update")).toBe("pending");
    expect(r({ state: "PROVISIONED", change: { type: "CONNECTION_UPDATE", status: "REJECTED" } }, "update")).toEqual({ failed: "the update was REJECTED" });
    expect(r({ state: "PROVISIONED", change: { type: "CONNECTION_UPDATE", status: "COMPLETED" } }, "update")).toBe("ready");
    expect(r({ state: "FAILED" }, "delete")).toEqual({ failed: "FAILED" });
    expect(connections.stateOf({ state: "PROVISIONING" })).toBe("PROVISIONING");
  });
});
