// VPNs end to end through the command line against the simulator: a VPN on a provisioned device (created
// only once the device is PROVISIONED), read back, re-planned without changes, updated in place (configName
// and peerIp, one PUT of the whole configuration, same uuid), replaced by moving it to another device (the
// service refuses a move), deleted; and a destroy that removes the VPN before its device. The pre-shared
// key is a secret: never in the state file nor in the output.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, idOf, objects, out, runner, CONFIG_HEADER } from "./service.js";

const t = useSimulator({ speed: 2000 });

const PSK = "e2e-shared-key-7d1f";
const NEW_PSK = "e2e-shared-key-rotated-93b0";

interface VpnOptions {
  device: "edge-a" | "edge-b";
  configName: string;
  peerIp: string;
}

const device = (name: string) => `
  ${name}:
    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: network-essentials
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    termlength: 12
    notifications: [netops@example.com]`;

const config = (vpn?: VpnOptions) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${device("edge-a")}${device("edge-b")}
vpns:${
  vpn === undefined
    ? " {}"
    : `
  branch:
    virtualDeviceUuid: \${devices.${vpn.device}.uuid}
    siteName: branch
    configName: ${vpn.configName}
    peerIp: ${vpn.peerIp}
    peerSharedKey: \${secret.BRANCH_PSK}
    remoteAsn: 65100
    remoteIpAddress: 169.254.10.2
    localAsn: 65000
    tunnelIp: 169.254.10.1/30
    useNetworkServiceConnection: false`
}
`;

const ADDRESS = "vpns.branch";

async function isGone(uuid: string): Promise<boolean> {
  const res = await t.call("GET", `/ne/v1/vpn/${uuid}`);
  return res.status === 404 || res.body.status === "DEPROVISIONED";
}

interface Logged {
  method: string;
  path: string;
  status: number;
}

describe("VPNs end to end", () => {
  it("creates a VPN on a provisioned device, updates it with a PUT, moves it to another device, and deletes it", { timeout: 180_000 }, async () => {
    const ws = workspace(config({ device: "edge-a", configName: "branch-tunnel", peerIp: "203.0.113.10" }));
    const run = runner(t, ws, { BRANCH_PSK: PSK });

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain(`+ ${ADDRESS}`);
    expect(created.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed.");
    expect(created.stdout).not.toContain(PSK);
    const deviceA = idOf(ws, "devices.edge-a");
    const deviceB = idOf(ws, "devices.edge-b");
    const id = idOf(ws, ADDRESS);
    const vpn = (await t.call("GET", `/ne/v1/vpn/${id}`)).body;
    expect(vpn).toMatchObject({
      uuid: id,
      virtualDeviceUuid: deviceA,
      siteName: "branch",
      configName: "branch-tunnel",
      peerIp: "203.0.113.10",
      remoteIpAddress: "169.254.10.2",
      tunnelIp: "169.254.10.1/30",
      status: "PROVISIONED",
    });
    expect(Number(vpn.remoteAsn)).toBe(65100);
    expect(Number(vpn.localAsn)).toBe(65000);
    expect(ws.stateText()).not.toContain(PSK);
    expect(ws.state().resources[ADDRESS]!.sensitiveHashes).toHaveProperty("peerSharedKey");

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config({ device: "edge-a", configName: "branch-tunnel-v2", peerIp: "203.0.113.20" }));
    const updatePlan = await run("plan", "--detailed-exitcode");
    expect(updatePlan.code, out(updatePlan)).toBe(2);
    expect(updatePlan.stdout).toContain(`~ ${ADDRESS}`);
    expect(updatePlan.stdout).toMatch(/~ configName\s+= "branch-tunnel" -> "branch-tunnel-v2"/);
    expect(updatePlan.stdout).toMatch(/~ peerIp\s+= "203\.0\.113\.10" -> "203\.0\.113\.20"/);
    expect(updatePlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(updated.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    const log = (await t.call("GET", "/__sim/requests")).body as Logged[];
    expect(log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2")).map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /ne/v1/vpn/${id}`]);
    expect(idOf(ws, ADDRESS)).toBe(id);
    expect((await t.call("GET", `/ne/v1/vpn/${id}`)).body).toMatchObject({ configName: "branch-tunnel-v2", peerIp: "203.0.113.20", status: "PROVISIONED" });
    const afterUpdate = await run("plan", "--detailed-exitcode");
    expect(afterUpdate.code, out(afterUpdate)).toBe(0);

    // A new pre-shared key is a change although the state holds only its hash; it is sent, never shown.
    const rotated = runner(t, ws, { BRANCH_PSK: NEW_PSK });
    const rotatePlan = await rotated("plan", "--detailed-exitcode");
    expect(rotatePlan.code, out(rotatePlan)).toBe(2);
    expect(rotatePlan.stdout).toMatch(/~ peerSharedKey\s+= \(sensitive\)/);
    expect(rotatePlan.stdout).not.toContain(NEW_PSK);
    expect(rotatePlan.stdout).not.toContain(PSK);
    const rotation = await rotated("apply", "--auto-approve");
    expect(rotation.code, out(rotation)).toBe(0);
    expect(rotation.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(id);
    expect((await objects(t, "vpns")).find((v) => v.uuid === id)).toMatchObject({ peerSharedKey: NEW_PSK, configName: "branch-tunnel-v2" });
    expect(ws.stateText()).not.toContain(NEW_PSK);
    expect((await rotated("plan", "--detailed-exitcode")).code).toBe(0);

    // A VPN cannot move between devices: a new one on the other device, the old one deleted.
    ws.write(config({ device: "edge-b", configName: "branch-tunnel-v2", peerIp: "203.0.113.20" }));
    const movePlan = await rotated("plan", "--detailed-exitcode");
    expect(movePlan.code, out(movePlan)).toBe(2);
    expect(movePlan.stdout).toContain(`-/+ ${ADDRESS}`);
    expect(movePlan.stdout).toContain("virtualDeviceUuid cannot change in place");
    expect(movePlan.stdout).toContain("0 to add, 0 to change, 1 to replace, 0 to destroy");
    const moved = await rotated("apply", "--auto-approve");
    expect(moved.code, out(moved)).toBe(0);
    expect(moved.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const newId = idOf(ws, ADDRESS);
    expect(newId).not.toBe(id);
    expect(await isGone(id)).toBe(true);
    expect((await t.call("GET", `/ne/v1/vpn/${newId}`)).body).toMatchObject({ virtualDeviceUuid: deviceB, configName: "branch-tunnel-v2", status: "PROVISIONED" });
    const afterMove = await rotated("plan", "--detailed-exitcode");
    expect(afterMove.code, out(afterMove)).toBe(0);

    ws.write(config());
    const deleted = await rotated("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources[ADDRESS]).toBeUndefined();
    expect(Object.keys(ws.state().resources).sort()).toEqual(["devices.edge-a", "devices.edge-b"]);
    expect(await isGone(newId)).toBe(true);
    expect((await objects(t, "vpns")).filter((v) => v.status !== "DEPROVISIONED")).toEqual([]);
    const afterDelete = await rotated("plan", "--detailed-exitcode");
    expect(afterDelete.code, out(afterDelete)).toBe(0);
  });

  it("destroys the VPN before the device it lives on", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ device: "edge-a", configName: "branch-tunnel", peerIp: "203.0.113.10" }));
    const run = runner(t, ws, { BRANCH_PSK: PSK });
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const vpn = idOf(ws, ADDRESS);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    const steps = [...destroyed.stdout.matchAll(/ ((?:vpns|devices)\.[\w-]+): (Destroying\.\.\.|Destruction complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(steps.indexOf(`${ADDRESS} Destruction complete`)).toBeLessThan(steps.indexOf("devices.edge-a Destroying..."));
    expect(ws.state().resources).toEqual({});
    expect(await isGone(vpn)).toBe(true);
    expect((await objects(t, "devices")).filter((d) => d.status !== "DEPROVISIONED")).toEqual([]);
  });

  it("replacing the device replaces its VPN: the VPN goes first and comes back on the new device", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ device: "edge-a", configName: "branch-tunnel", peerIp: "203.0.113.10" }));
    const run = runner(t, ws, { BRANCH_PSK: PSK });
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const oldDevice = idOf(ws, "devices.edge-a");
    const oldVpn = idOf(ws, ADDRESS);

    const plan = await run("plan", "--detailed-exitcode", "--replace", "devices.edge-a");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain(`-/+ ${ADDRESS}`);
    expect(plan.stdout).toContain("virtualDeviceUuid cannot change in place");
    expect(plan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const replaced = await run("apply", "--auto-approve", "--replace", "devices.edge-a");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 2 replaced, 0 destroyed");
    const newDevice = idOf(ws, "devices.edge-a");
    const newVpn = idOf(ws, ADDRESS);
    expect(newDevice).not.toBe(oldDevice);
    expect(newVpn).not.toBe(oldVpn);
    const log = (await t.call("GET", "/__sim/requests")).body as Logged[];
    expect(log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2")).map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /ne/v1/vpn/${oldVpn}`,
      `DELETE /ne/v1/devices/${oldDevice}`,
      "POST /ne/v1/devices",
      "POST /ne/v1/vpn",
    ]);
    expect(await isGone(oldVpn)).toBe(true);
    expect((await t.call("GET", `/ne/v1/vpn/${newVpn}`)).body).toMatchObject({ status: "PROVISIONED", virtualDeviceUuid: newDevice });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });
});
