// Secrets end to end: values taken with ${secret.NAME} (a BGP authentication key, a VPN's pre-shared key
// and BGP password) appear nowhere in what netform prints (also with --debug), in the state file, its
// backup, or a saved plan; the state holds keyed hashes, so a changed secret shows as an update of that
// field, masked, and an unchanged one as no change.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type CliResult } from "./cli.js";
import { C8000V_DC_FIELDS } from "./service.js";

// Devices take ~10 simulated minutes: a fraction of a second at this speed.
const t = useSimulator({ speed: 2000 });

const CONFIG = `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
  accountNumber: 270848
connections:
  dc:
    type: EVPL_VC
    bandwidth: 50
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }
        linkProtocol: { type: DOT1Q, vlanTag: 1701 }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-0000-4000-8000-000000000002 }
        linkProtocol: { type: DOT1Q, vlanTag: 1702 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  dc-direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.50.1/30 }
  dc-bgp:
    connection: \${connections.dc.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.50.2, enabled: true }
    bgpAuthKey: \${secret.BGP_AUTH_KEY}
devices:
  edge:
${C8000V_DC_FIELDS}
vpns:
  branch:
    virtualDeviceUuid: \${devices.edge.uuid}
    siteName: branch-a
    configName: branch-a-tunnel
    peerIp: 203.0.113.10
    peerSharedKey: \${secret.BRANCH_PSK}
    password: \${secret.BRANCH_BGP_PASSWORD}
    remoteAsn: 65100
    remoteIpAddress: 169.254.10.2
    localAsn: 65000
    tunnelIp: 169.254.10.1/30
    useNetworkServiceConnection: false
`;

// Distinctive values, so that any leak, whole or as a fragment, is found by a plain search.
const FIRST = { BGP_AUTH_KEY: "bgpKeyQx7Vw3Zr9", BRANCH_PSK: "pskJm4Ty8Lp2Hs6", BRANCH_BGP_PASSWORD: "pwdNc5Rk1Gd8Fb3" };
const SECOND = { ...FIRST, BGP_AUTH_KEY: "bgpKeyNew4Tt2Yy8" };

function expectNoSecrets(what: string, text: string, secrets: Record<string, string>): void {
  for (const [name, value] of Object.entries(secrets)) {
    expect(text.includes(value), `${what} contains the value of ${name}`).toBe(false);
    // A leak in another encoding still counts.
    expect(text.includes(Buffer.from(value).toString("base64")), `${what} contains ${name} in base64`).toBe(false);
  }
}

const printed = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

describe("secrets", () => {
  it("are never printed nor stored in clear, are hashed in the state, and a changed one is an update shown as (sensitive)", async () => {
    const ws = workspace(CONFIG);
    const all = { ...FIRST, ...Object.fromEntries(Object.entries(SECOND).map(([k, v]) => [`${k}_2`, v])) };
    const run = (secrets: Record<string, string>, ...args: string[]) => netform(args, { cwd: ws.dir, env: simEnv(t.url, secrets) });

    const applied = await run(FIRST, "apply", "--auto-approve", "--debug");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("Apply complete! Resources: 5 added");
    expect(applied.stderr).toContain("[debug]");
    expectNoSecrets("apply --debug output", printed(applied), all);

    // The service received the real values: the VPN and BGP session work with them.
    const [bgp] = (await t.call("GET", "/__sim/objects?kind=routingProtocols")).body.data.filter((p: { type: string }) => p.type === "BGP");
    expect(bgp.state).toBe("PROVISIONED");

    // The state: keyed hashes for the secret fields, never the values.
    const stateText = ws.stateText();
    expectNoSecrets("the state file", stateText, all);
    const state = ws.state();
    const bgpState = state.resources["routingProtocols.dc-bgp"]!;
    expect(Object.keys(bgpState.sensitiveHashes)).toEqual(["bgpAuthKey"]);
    expect(bgpState.sensitiveHashes.bgpAuthKey).toMatch(/^hmac-sha256:[0-9a-f]{40}$/);
    const vpnState = state.resources["vpns.branch"]!;
    expect(Object.keys(vpnState.sensitiveHashes).sort()).toEqual(["password", "peerSharedKey"]);
    for (const h of Object.values(vpnState.sensitiveHashes)) expect(h).toMatch(/^hmac-sha256:[0-9a-f]{40}$/);
    expect(vpnState.sensitiveHashes.password).not.toBe(vpnState.sensitiveHashes.peerSharedKey);
    const backup = `${ws.statePath}.backup`;
    if (existsSync(backup)) expectNoSecrets("the state backup", readFileSync(backup, "utf8"), all);

    // Same secrets: no changes, in every plan format.
    const same = await run(FIRST, "plan", "--detailed-exitcode", "--debug");
    expect(same.stdout).toContain("No changes.");
    expect(same.code).toBe(0);
    expectNoSecrets("plan --debug output", printed(same), all);

    // A changed secret: an in-place update of that field alone, shown masked.
    const changed = await run(SECOND, "plan", "--detailed-exitcode", "--debug", "--out", "rotate.plan");
    expect(changed.code).toBe(2);
    expectNoSecrets("plan output after rotation", printed(changed), all);
    expect(changed.stdout).toContain("~ routingProtocols.dc-bgp");
    expect(changed.stdout).toMatch(/~ bgpAuthKey\s*=\s*\(sensitive\)/);
    expect(changed.stdout).not.toMatch(/peerSharedKey|password/);
    expect(changed.stdout).toMatch(/0 to add, 1 to change, 0 to replace, 0 to destroy/);
    expectNoSecrets("the saved plan file", readFileSync(join(ws.dir, "rotate.plan"), "utf8"), all);

    const rotated = await run(SECOND, "apply", "rotate.plan", "--debug");
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expectNoSecrets("apply of the rotation", printed(rotated), all);
    const after = ws.state();
    expect(after.resources["routingProtocols.dc-bgp"]!.sensitiveHashes.bgpAuthKey).not.toBe(bgpState.sensitiveHashes.bgpAuthKey);
    expect(after.resources["vpns.branch"]!.sensitiveHashes).toEqual(vpnState.sensitiveHashes);
    expectNoSecrets("the state file after rotation", ws.stateText(), all);
    if (existsSync(backup)) expectNoSecrets("the state backup after rotation", readFileSync(backup, "utf8"), all);

    const settled = await run(SECOND, "plan", "--detailed-exitcode");
    expect(settled.stdout).toContain("No changes.");
    expect(settled.code).toBe(0);
  });

  it("are masked in the machine-readable plans (--format json and markdown)", async () => {
    const ws = workspace(CONFIG);
    const all = { ...FIRST, ...Object.fromEntries(Object.entries(SECOND).map(([k, v]) => [`${k}_2`, v])) };
    const run = (secrets: Record<string, string>, ...args: string[]) => netform(args, { cwd: ws.dir, env: simEnv(t.url, secrets) });
    expect((await run(FIRST, "apply", "--auto-approve")).code).toBe(0);

    const asJson = await run(SECOND, "plan", "--format", "json");
    expect(asJson.code, asJson.stderr).toBe(0);
    expectNoSecrets("plan --format json", printed(asJson), all);
    const doc = JSON.parse(asJson.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; changes: Array<{ path: string; sensitive?: boolean; after?: unknown }> }> };
    const bgpChange = doc.resourceChanges.find((c) => c.address === "routingProtocols.dc-bgp")!;
    expect(bgpChange.actions).toEqual(["update"]);
    expect(bgpChange.changes).toEqual([expect.objectContaining({ path: "bgpAuthKey", sensitive: true, after: "(sensitive)" })]);
    const markdown = await run(SECOND, "plan", "--format", "markdown");
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("routingProtocols.dc-bgp");
    expectNoSecrets("plan --format markdown", printed(markdown), all);
  });
});
