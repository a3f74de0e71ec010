// Virtual devices end to end through the command line against the simulator, beyond the lifecycle that
// lifecycle.test.ts runs for every kind: a redundant pair ordered through `secondary`, read back as one
// resource, and deleted together; and a device replaced under the connection and the VPN that use it.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, idOf, objects, out, runner } from "./service.js";

// Devices take minutes of simulated time: a fast clock.
const t = useSimulator({ speed: 2000 });

interface DeviceOptions {
  name?: string;
  secondary?: boolean;
}

const config = (device?: DeviceOptions) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${
  device === undefined
    ? " {}"
    : `
  edge-1:
${device.name ? `    virtualDeviceName: ${device.name}\n` : ""}${C8000V_DC_FIELDS}${
      device.secondary
        ? `
    secondary:
      virtualDeviceName: edge-1-secondary
      metroCode: DC
      notifications: [netops@example.com]`
        : ""
    }`
}
`;

const ADDRESS = "devices.edge-1";

/** A device the service no longer runs: 404, or readable as DEPROVISIONED. */
async function isGone(uuid: string): Promise<boolean> {
  const res = await t.call("GET", `/ne/v1/devices/${uuid}`);
  return res.status === 404 || res.body.status === "DEPROVISIONED";
}

const live = async () => (await objects(t, "devices")).filter((d) => d.status !== "DEPROVISIONED" && d.status !== "DEPROVISIONING");

describe("devices end to end", () => {
  it("orders a redundant pair through secondary, reads it as one resource, and deletes both devices", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ name: "edge-1-primary", secondary: true }));
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = idOf(ws, ADDRESS);
    const primary = (await t.call("GET", `/ne/v1/devices/${id}`)).body;
    expect(primary).toMatchObject({ uuid: id, name: "edge-1-primary", status: "PROVISIONED", redundancyType: "PRIMARY" });
    const secondaryId = primary.redundantUuid as string;
    expect(typeof secondaryId).toBe("string");
    expect((await t.call("GET", `/ne/v1/devices/${secondaryId}`)).body).toMatchObject({
      name: "edge-1-secondary",
      status: "PROVISIONED",
      redundancyType: "SECONDARY",
      redundantUuid: id,
      metroCode: "DC",
    });
    // Only the primary is a resource; the state has the pair's secondary under it.
    expect(Object.keys(ws.state().resources)).toEqual([ADDRESS]);
    expect(ws.state().resources[ADDRESS]!.attributes).toMatchObject({ redundantUuid: secondaryId });
    expect(await live()).toHaveLength(2);

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);

    // The secondary's name changes through the secondary's own update call.
    ws.write(config({ name: "edge-1-primary", secondary: true }).replace("edge-1-secondary", "edge-1-standby"));
    const renamePlan = await run("plan", "--detailed-exitcode");
    expect(renamePlan.code, out(renamePlan)).toBe(2);
    expect(renamePlan.stdout).toMatch(/~ secondary\.virtualDeviceName\s+= "edge-1-secondary" -> "edge-1-standby"/);
    const renamed = await run("apply", "--auto-approve");
    expect(renamed.code, out(renamed)).toBe(0);
    expect(renamed.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(id);
    expect((await t.call("GET", `/ne/v1/devices/${secondaryId}`)).body).toMatchObject({ name: "edge-1-standby", status: "PROVISIONED" });
    expect((await t.call("GET", `/ne/v1/devices/${id}`)).body.name).toBe("edge-1-primary");
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(config());
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources).toEqual({});
    expect(await isGone(id)).toBe(true);
    expect(await isGone(secondaryId)).toBe(true);
    expect(await live()).toEqual([]);
  });

  // A device replaced by deleting it first takes the connections and VPNs on it along (the planner replaces
  // its dependents): connection- -> device- -> device+ -> connection+.
  it("replaces a device that a connection and a VPN use: they leave the old device before it is deleted and move to the new one", { timeout: 180_000 }, async () => {
    const withUsers = `${config({})}
connections:
  edge-uplink:
    type: EVPL_VC
    bandwidth: 50
    aSide:
      accessPoint:
        type: VD
        virtualDevice: { type: EDGE, uuid: "\${devices.edge-1.uuid}" }
        interface: { type: NETWORK, id: 3 }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }
        linkProtocol: { type: DOT1Q, vlanTag: 1901 }
    notifications: [{ type: ALL, emails: [netops@example.com] }]
vpns:
  branch:
    virtualDeviceUuid: \${devices.edge-1.uuid}
    siteName: branch
    configName: branch-tunnel
    peerIp: 203.0.113.10
    peerSharedKey: \${secret.BRANCH_PSK}
    remoteAsn: 65100
    remoteIpAddress: 169.254.10.2
    localAsn: 65000
    tunnelIp: 169.254.10.1/30
`;
    const ws = workspace(withUsers);
    const run = runner(t, ws, { BRANCH_PSK: "e2e-psk-31" });
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const oldDevice = idOf(ws, ADDRESS);
    const oldVpn = idOf(ws, "vpns.branch");

    await t.call("DELETE", "/__sim/requests");
    const replaced = await run("apply", "--auto-approve", "--replace", ADDRESS);
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stderr).not.toContain("dependency cycle");
    const newDevice = idOf(ws, ADDRESS);
    expect(newDevice).not.toBe(oldDevice);
    expect(await isGone(oldDevice)).toBe(true);
    const connection = idOf(ws, "connections.edge-uplink");
    expect((await t.call("GET", `/fabric/v4/connections/${connection}`)).body).toMatchObject({ state: "PROVISIONED", aSide: { accessPoint: { virtualDevice: { uuid: newDevice } } } });
    const vpn = idOf(ws, "vpns.branch");
    expect(vpn).not.toBe(oldVpn);
    expect((await t.call("GET", `/ne/v1/vpn/${vpn}`)).body).toMatchObject({ status: "PROVISIONED", virtualDeviceUuid: newDevice });
    // Nothing used the old device when it was deleted.
    const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
    const calls = log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}`);
    const deviceDeleted = calls.indexOf(`DELETE /ne/v1/devices/${oldDevice}`);
    expect(deviceDeleted).toBeGreaterThan(calls.indexOf(`DELETE /ne/v1/vpn/${oldVpn}`));
    expect(calls.slice(0, deviceDeleted).some((c) => c.startsWith("DELETE /fabric/v4/connections/") || c.startsWith("PATCH /fabric/v4/connections/"))).toBe(true);
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);
  });
});
