// VPNs end to end through the command line against the simulator, beyond the lifecycle (and the pre-shared
// key kept out of every output and state) that lifecycle.test.ts runs for every kind: a destroy removes the
// VPN before its device, and a replaced device takes its VPN along.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, idOf, objects, out, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

const PSK = "e2e-shared-key-7d1f";

interface VpnOptions {
  device: "edge-a" | "edge-b";
  configName: string;
  peerIp: string;
}

const device = (name: string) => `
  ${name}:
${C8000V_DC_FIELDS}`;

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
