import { describe, expect, it } from "vitest";
import { KIND_HANDLERS } from "../../src/kinds/index.js";
import { vpns as definition } from "../../src/kinds/vpns.js";

const devices = KIND_HANDLERS.get("devices")!;
const kind = definition.handler;
import type { Body, KindContext } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { ACCOUNT_NUMBER, PROJECT_ID, differences, useKindContext, methodFor, ready, requestsDuring, settle } from "./kind-harness.js";

// The VPNs need a PROVISIONED device, which takes 8 to 12 simulated minutes.
const t = useSimulator({ speed: 5000 });
const kindCtx = useKindContext(t);
const context = () => kindCtx.ctx;

/** A provisioned device made through the devices kind; `redundant` orders a pair. */
async function device(ctx: KindContext, redundant = false): Promise<string> {
  const spec: Body = {
    virtualDeviceName: redundant ? "vpn-edge-pair" : "vpn-edge",
    deviceTypeCode: "C8000V",
    metroCode: "DC",
    packageCode: "network-essentials",
    version: "17.11.01a",
    licenseMode: "SUB",
    deviceManagementType: "PROVIDER-CONFIGURED",
    core: 2,
    notifications: ["netops@example.com"],
    accountNumber: ACCOUNT_NUMBER,
    projectId: PROJECT_ID,
    ...(redundant ? { secondary: { virtualDeviceName: "vpn-edge-pair-secondary", metroCode: "DC", notifications: ["netops@example.com"] } } : {}),
  };
  const created = await devices.create(ctx, spec);
  await ready(devices, ctx, { id: created.id }, "create");
  return created.id;
}

/** remoteAsn as a string, as the VPN body documents it; the service answers with a number. */
const vpnSpec = (virtualDeviceUuid: string, configName = "branch-a-tunnel", peerIp = "203.0.113.10"): Body => ({
  virtualDeviceUuid,
  siteName: "branch-a",
  configName,
  peerIp,
  peerSharedKey: "psk-one",
  remoteAsn: "65100",
  remoteIpAddress: "169.254.10.2",
  password: "bgpPass1",
  localAsn: 65000,
  tunnelIp: "169.254.10.1/30",
  useNetworkServiceConnection: false,
});

const secondaryTunnel = (configName = "branch-a-secondary"): Body => ({
  configName,
  peerIp: "203.0.113.11",
  peerSharedKey: "psk-two",
  remoteAsn: 65101,
  remoteIpAddress: "169.254.11.2",
  localAsn: 65001,
  tunnelIp: "169.254.11.1/30",
});

function valid(spec: Body): Body {
  definition.spec.parse(spec);
  return spec;
}

describe("vpns kind", () => {
  it("creates, reads back without a perpetual diff, puts every change and deletes", async () => {
    const ctx = context();
    const dev = await device(ctx);
    const spec = valid(vpnSpec(dev));
    const created = await kind.create(ctx, spec);
    const ref = { id: created.id };
    expect(kind.readiness({ status: "PROVISIONING" }, "create")).toBe("pending");
    const body = await ready(kind, ctx, ref, "create");
    expect(kind.stateOf(body)).toBe("PROVISIONED");
    expect(differences(kind, spec, body)).toEqual([]);
    expect(kind.observed(body)).toMatchObject({ remoteAsn: 65100 });
    expect(JSON.stringify(kind.desired(spec))).not.toMatch(/psk-one|bgpPass1/);
    expect(JSON.stringify(kind.observed(body))).not.toMatch(/psk-one|bgpPass1/);
    // Removing useNetworkServiceConnection from the file compares as its default.
    const { useNetworkServiceConnection: _nsc, ...withoutNsc } = spec;
    expect(differences(kind, withoutNsc, body)).toEqual([]);

    const changedSpec = valid({ ...spec, configName: "branch-a-renamed", remoteAsn: 65200, tunnelIp: "169.254.20.1/30", peerSharedKey: "psk-rotated" });
    const changed = differences(kind, changedSpec, body);
    expect(changed.sort()).toEqual(["configName", "remoteAsn", "tunnelIp"]);
    for (const path of [...changed, "peerSharedKey", "password"]) expect(methodFor(kind, path), path).toEqual({ via: "put" });
    const log = await requestsDuring(t, () => kind.update(ctx, ref, changedSpec, [...changed, "peerSharedKey"]));
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`PUT /ne/v1/vpn/${ref.id} 202`]);
    expect(kind.readiness({ status: "PROVISIONING" }, "update")).toBe("pending");
    const updated = await ready(kind, ctx, ref, "update");
    expect(differences(kind, changedSpec, updated)).toEqual([]);
    expect(updated.peerSharedKey).toBe("psk-rotated");

    // The device cannot change in place.
    expect(differences(kind, { ...changedSpec, virtualDeviceUuid: "00000000-0000-4000-8000-00000000dead" }, updated)).toEqual(["virtualDeviceUuid"]);
    expect(methodFor(kind, "virtualDeviceUuid")).toBeUndefined();

    await kind.delete(ctx, ref);
    expect(kind.readiness({ status: "DEPROVISIONING" }, "delete")).toBe("pending");
    await kind.delete(ctx, ref);
    expect((await settle(kind, ctx, ref, "delete")).readiness).toBe("ready");
    expect(await kind.observe(ctx, ref)).toBeUndefined();
    await kind.delete(ctx, ref);
    await kind.delete(ctx, { id: "00000000-0000-4000-8000-00000000dead" });
  });

  it("carries the secondary tunnel of a redundant device", async () => {
    const ctx = context();
    const dev = await device(ctx, true);
    const spec = valid({ ...vpnSpec(dev), secondary: secondaryTunnel() });
    const created = await kind.create(ctx, spec);
    const body = await ready(kind, ctx, { id: created.id }, "create");
    expect(differences(kind, spec, body)).toEqual([]);
    const changedSpec = valid({ ...spec, secondary: secondaryTunnel("branch-a-secondary-2") });
    const changed = differences(kind, changedSpec, body);
    expect(changed).toEqual(["secondary.configName"]);
    expect(methodFor(kind, changed[0]!)).toEqual({ via: "put" });
    await kind.update(ctx, { id: created.id }, changedSpec, changed);
    expect(differences(kind, changedSpec, await ready(kind, ctx, { id: created.id }, "update"))).toEqual([]);
  });

  it("refreshes many VPNs with one list request, leaving deleted ones out", async () => {
    const ctx = context();
    const dev = await device(ctx);
    const a = await kind.create(ctx, valid(vpnSpec(dev, "tunnel-a", "203.0.113.20")));
    const b = await kind.create(ctx, valid(vpnSpec(dev, "tunnel-b", "203.0.113.21")));
    const c = await kind.create(ctx, valid(vpnSpec(dev, "tunnel-c", "203.0.113.22")));
    await ready(kind, ctx, { id: c.id }, "create");
    await kind.delete(ctx, { id: c.id });
    await settle(kind, ctx, { id: c.id }, "delete");
    let found = new Map<string, Body>();
    const log = await requestsDuring(t, async () => {
      found = await kind.observeMany!(ctx, [{ id: a.id }, { id: b.id }, { id: c.id }, { id: "00000000-0000-4000-8000-00000000dead" }]);
    });
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /ne/v1/vpn"]);
    expect([...found.keys()].sort()).toEqual([a.id, b.id].sort());
  });

  it("looks up a VPN by device and configName, but not one being deleted", async () => {
    const ctx = context();
    const dev = await device(ctx);
    expect(await kind.lookup(ctx, vpnSpec(dev))).toBeUndefined();
    const created = await kind.create(ctx, valid(vpnSpec(dev)));
    await kind.create(ctx, valid(vpnSpec(dev, "another-tunnel", "203.0.113.30")));
    expect(await kind.lookup(ctx, vpnSpec(dev))).toMatchObject({ id: created.id, body: { configName: "branch-a-tunnel" } });
    await ready(kind, ctx, { id: created.id }, "create");
    await kind.delete(ctx, { id: created.id });
    expect(await kind.lookup(ctx, vpnSpec(dev))).toBeUndefined();
  });

  it("reports a failed transition as failed, with the tunnel's condition", async () => {
    const ctx = context();
    const dev = await device(ctx);
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "vpns", count: 1 } } });
    const created = await kind.create(ctx, valid(vpnSpec(dev)));
    expect((await settle(kind, ctx, { id: created.id }, "create")).readiness).toEqual({ failed: "FAILED: tunnel DOWN, BGP Idle" });
    expect(kind.readiness({ status: "UPDATING" }, "update")).toBe("pending");
  });
});
