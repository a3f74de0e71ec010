// Secrets against a service that others change too: a BGP key or a VPN pre-shared key changed in the
// portal is found by drift (masked) and restored by plan and apply; a secret the service never returns
// is named as not compared rather than claimed to match; a field fed by a secret is not drift after
// apply; the hashes' key is random and kept beside the state, never derived from it, and states hashed
// with the old lineage-derived key, or from before a field was secret, plan nothing.

import { createHash, createHmac } from "node:crypto";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type CliResult, type Workspace } from "./cli.js";
import { C8000V_DC_FIELDS } from "./service.js";

// Devices take ~10 simulated minutes: a fraction of a second at this speed.
const t = useSimulator({ speed: 2000 });

const CONFIG = `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
  accountNumber: 270848
variables:
  note: { type: string, sensitive: true }
routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.FILTER_NOTE}
  customer-out:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${var.note}
connections:
  dc:
    type: EVPL_VC
    bandwidth: 50
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }
        linkProtocol: { type: DOT1Q, vlanTag: 1801 }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-0000-4000-8000-000000000002 }
        linkProtocol: { type: DOT1Q, vlanTag: 1802 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  dc-direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.60.1/30 }
  dc-bgp:
    connection: \${connections.dc.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.60.2, enabled: true }
    bgpAuthKey: \${secret.BGP_AUTH_KEY}
devices:
  edge:
${C8000V_DC_FIELDS}
    sshUsers: [{ sshUsername: netops, sshPassword: "\${secret.SSH_PASSWORD}" }]
vpns:
  branch:
    virtualDeviceUuid: \${devices.edge.uuid}
    siteName: branch-a
    configName: branch-a-tunnel
    peerIp: 203.0.113.20
    peerSharedKey: \${secret.BRANCH_PSK}
    password: \${secret.BRANCH_BGP_PASSWORD}
    remoteAsn: 65100
    remoteIpAddress: 169.254.20.2
    localAsn: 65000
    tunnelIp: 169.254.20.1/30
    useNetworkServiceConnection: false
`;

const SECRETS = {
  BGP_AUTH_KEY: "bgpKeyWq3Er5Ty7",
  BRANCH_PSK: "pskUi9Op1As3Df5",
  BRANCH_BGP_PASSWORD: "pwdGh7Jk9Lz2",
  SSH_PASSWORD: "sshPw4Xc6Vb8",
  FILTER_NOTE: "noteNm1Qw3Er5",
  NETFORM_VAR_note: "varNoteTy6Ui8",
};
const PORTAL = { bgpAuthKey: "portalBgpKey0Zz9", peerSharedKey: "portalPsk0Yy8" };

const printed = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

function expectNoSecrets(what: string, text: string): void {
  for (const [name, value] of Object.entries({ ...SECRETS, ...PORTAL })) expect(text.includes(value), `${what} contains the value of ${name}`).toBe(false);
}

/** The key netform 0.1 derived from the state's lineage when NETFORM_STATE_KEY was not set. */
const lineageHash = (lineage: string, value: unknown) =>
  `hmac-sha256:${createHmac("sha256", createHash("sha256").update(`netform-state-key:${lineage}`).digest()).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;
const keyedHash = (key: string, value: unknown) => `hmac-sha256:${createHmac("sha256", key).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;

async function applied(env: Record<string, string> = {}): Promise<{ ws: Workspace; run: (...args: string[]) => Promise<CliResult>; first: CliResult }> {
  const ws = workspace(CONFIG);
  const run = (...args: string[]) => netform(args, { cwd: ws.dir, env: simEnv(t.url, { ...SECRETS, NETFORM_STATE_KEY: "", ...env }) });
  const first = await run("apply", "--auto-approve");
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain("Apply complete! Resources: 7 added");
  return { ws, run, first };
}

const objectOf = async (kind: string, uuid: string) => ((await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data as Array<Record<string, unknown>>).find((o) => o.uuid === uuid)!;

describe("secrets changed outside netform", () => {
  it("are found by drift where the service returns them, masked, restored by plan and apply, and the others are named as not compared", async () => {
    const { ws, run } = await applied({ NETFORM_STATE_KEY: "test-state-key" });

    // Right after apply, fields fed by a secret or a sensitive variable are not drift.
    const quiet = await run("drift");
    expect(quiet.code, printed(quiet)).toBe(0);
    expect(quiet.stdout).toContain("No drift");

    // Without a portal change, the plan does not claim what it cannot check.
    const same = await run("plan", "--detailed-exitcode");
    expect(same.code, printed(same)).toBe(0);
    expect(same.stdout).toContain("No changes.");
    expect(same.stdout).toContain("not readable; not compared");
    expect(same.stdout).toMatch(/devices\.edge: sshUsers/);
    expect(same.stdout).not.toMatch(/routingProtocols\.dc-bgp: |vpns\.branch: /);

    const bgp = ws.state().resources["routingProtocols.dc-bgp"]!.id!;
    const vpn = ws.state().resources["vpns.branch"]!.id!;
    await t.call("PATCH", `/__sim/objects/${bgp}`, { body: { bgpAuthKey: PORTAL.bgpAuthKey } });
    await t.call("PATCH", `/__sim/objects/${vpn}`, { body: { peerSharedKey: PORTAL.peerSharedKey } });

    const drift = await run("drift", "--format", "json");
    expect(drift.code, drift.stderr).toBe(2);
    expectNoSecrets("drift --format json", printed(drift));
    const entries = JSON.parse(drift.stdout).entries as Array<{ address: string; fields: unknown[]; differsFromConfiguration: boolean; changedBy?: string }>;
    expect(entries.map((e) => e.address)).toEqual(["routingProtocols.dc-bgp", "vpns.branch"]);
    expect(entries[0]).toMatchObject({ fields: [{ path: "bgpAuthKey", before: "(sensitive)", after: "(sensitive)", sensitive: true }], differsFromConfiguration: true, changedBy: "portal-user" });
    expect(entries[1]).toMatchObject({ fields: [{ path: "peerSharedKey", before: "(sensitive)", after: "(sensitive)", sensitive: true }], differsFromConfiguration: true });
    const driftText = await run("drift");
    expect(driftText.code).toBe(2);
    expect(driftText.stdout).toMatch(/bgpAuthKey: \(sensitive\) -> \(sensitive\)/);
    expectNoSecrets("drift", printed(driftText));
    const driftMarkdown = await run("drift", "--format", "markdown");
    expect(driftMarkdown.code).toBe(2);
    expectNoSecrets("drift --format markdown", printed(driftMarkdown));

    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, printed(plan)).toBe(2);
    expectNoSecrets("plan", printed(plan));
    expect(plan.stdout).toMatch(/~ bgpAuthKey\s*=\s*\(sensitive\)/);
    expect(plan.stdout).toMatch(/~ peerSharedKey\s*=\s*\(sensitive\)/);
    expect(plan.stdout).toMatch(/0 to add, 2 to change, 0 to replace, 0 to destroy/);
    expect(plan.stdout).toContain("not readable; not compared");
    const asJson = await run("plan", "--format", "json");
    const doc = JSON.parse(asJson.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; notCompared?: string[]; changes: Array<{ path: string }> }> };
    const byAddress = new Map(doc.resourceChanges.map((c) => [c.address, c]));
    expect(byAddress.get("routingProtocols.dc-bgp")).toMatchObject({ actions: ["update"], changes: [{ path: "bgpAuthKey", sensitive: true }] });
    expect(byAddress.get("vpns.branch")).toMatchObject({ actions: ["update"], changes: [{ path: "peerSharedKey", sensitive: true }] });
    expect(byAddress.get("devices.edge")).toMatchObject({ actions: ["no-op"], notCompared: ["sshUsers"] });
    expect(byAddress.get("vpns.branch")!.notCompared).toBeUndefined();
    const markdown = await run("plan", "--format", "markdown");
    expect(markdown.stdout).toContain("not readable; not compared");
    expect(markdown.stdout).toContain("devices.edge: sshUsers");

    const restored = await run("apply", "--auto-approve");
    expect(restored.code, printed(restored)).toBe(0);
    expect(restored.stdout).toContain("0 added, 2 changed, 0 replaced, 0 destroyed");
    expect((await objectOf("routingProtocols", bgp)).bgpAuthKey).toBe(SECRETS.BGP_AUTH_KEY);
    expect((await objectOf("vpns", vpn)).peerSharedKey).toBe(SECRETS.BRANCH_PSK);
    expect((await run("drift")).code).toBe(0);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  }, 240_000);
});

describe("the key of the secret hashes", () => {
  it("without NETFORM_STATE_KEY is random, kept beside the state in a 0600 file, announced once, and not derived from the lineage", async () => {
    const { ws, run, first } = await applied();
    const keyPath = `${ws.statePath}.key`;
    expect(first.stderr.match(/NETFORM_STATE_KEY is not set/g)).toHaveLength(1);
    expect(first.stderr).toContain(keyPath);
    expect(existsSync(keyPath)).toBe(true);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyPath, "utf8").trim();
    const state = ws.state();
    const bgpHash = state.resources["routingProtocols.dc-bgp"]!.sensitiveHashes.bgpAuthKey;
    expect(bgpHash).not.toBe(lineageHash(state.lineage, SECRETS.BGP_AUTH_KEY));
    expect(bgpHash).toBe(keyedHash(key, SECRETS.BGP_AUTH_KEY));
    expect(ws.stateText()).not.toContain(key);

    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, printed(again)).toBe(0);
    expect(again.stderr).not.toContain("NETFORM_STATE_KEY");
  });

  it("reads states hashed with the old lineage-derived key without planning anything, and re-hashes them at the next write", async () => {
    const { ws, run } = await applied();
    // The state as netform 0.1 wrote it: hashes keyed by the lineage, no key file.
    const state = ws.state();
    const values: Record<string, Record<string, unknown>> = {
      "routingProtocols.dc-bgp": { bgpAuthKey: SECRETS.BGP_AUTH_KEY },
      "vpns.branch": { peerSharedKey: SECRETS.BRANCH_PSK, password: SECRETS.BRANCH_BGP_PASSWORD },
      "devices.edge": { sshUsers: [{ sshUsername: "netops", sshPassword: SECRETS.SSH_PASSWORD }] },
      "routeFilters.customer-in": { description: SECRETS.FILTER_NOTE },
      "routeFilters.customer-out": { description: SECRETS.NETFORM_VAR_note },
    };
    for (const [address, fields] of Object.entries(values)) {
      expect(Object.keys(state.resources[address]!.sensitiveHashes).sort()).toEqual(Object.keys(fields).sort());
      state.resources[address]!.sensitiveHashes = Object.fromEntries(Object.entries(fields).map(([path, v]) => [path, lineageHash(state.lineage, v)]));
    }
    writeFileSync(ws.statePath, JSON.stringify(state, null, 2));
    rmSync(`${ws.statePath}.key`);

    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, printed(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect((await run("drift")).code).toBe(0);

    // Any write re-hashes: a new object is enough to make the apply write the state.
    ws.write(CONFIG.replace("routeFilters:\n", "routeFilters:\n  extra:\n    type: BGP_IPv4_PREFIX_FILTER\n"));
    const write = await run("apply", "--auto-approve");
    expect(write.code, printed(write)).toBe(0);
    expect(write.stdout).toContain("1 added, 0 changed, 0 replaced, 0 destroyed");
    const key = readFileSync(`${ws.statePath}.key`, "utf8").trim();
    const after = ws.state();
    for (const [address, fields] of Object.entries(values)) {
      expect(after.resources[address]!.sensitiveHashes, address).toEqual(Object.fromEntries(Object.entries(fields).map(([path, v]) => [path, keyedHash(key, v)])));
    }
  }, 120_000);

  it("records a baseline, and plans nothing, for a secret field whose record has no hash (a state from before it was secret)", async () => {
    const { ws, run } = await applied({ NETFORM_STATE_KEY: "test-state-key" });
    const state = ws.state();
    for (const address of ["devices.edge", "vpns.branch", "routingProtocols.dc-bgp"]) state.resources[address]!.sensitiveHashes = {};
    writeFileSync(ws.statePath, JSON.stringify(state, null, 2));

    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, printed(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect(plan.stdout).not.toContain("must be replaced");

    // The next write records the declared values' hashes, and the device is the one applied first.
    ws.write(CONFIG.replace("routeFilters:\n", "routeFilters:\n  extra:\n    type: BGP_IPv4_PREFIX_FILTER\n"));
    const apply = await run("apply", "--auto-approve");
    expect(apply.code, printed(apply)).toBe(0);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 replaced, 0 destroyed");
    const after = ws.state().resources;
    expect(after["devices.edge"]!.id).toBe(state.resources["devices.edge"]!.id);
    expect(after["devices.edge"]!.sensitiveHashes).toEqual({ sshUsers: keyedHash("test-state-key", [{ sshUsername: "netops", sshPassword: SECRETS.SSH_PASSWORD }]) });
    expect(after["vpns.branch"]!.sensitiveHashes).toEqual({ peerSharedKey: keyedHash("test-state-key", SECRETS.BRANCH_PSK), password: keyedHash("test-state-key", SECRETS.BRANCH_BGP_PASSWORD) });
  }, 120_000);
});

describe("the embedded simulator's world file", () => {
  it("is readable by its owner only, like the state: it holds the secrets sent to it", async () => {
    const ws = workspace(CONFIG.replace(/devices:[\s\S]*$/, ""));
    const env = { ...simEnv(t.url, { ...SECRETS, NETFORM_STATE_KEY: "test-state-key", NETFORM_EMBEDDED_SPEED: "2000" }) };
    delete (env as Record<string, string>).NETFORM_ENDPOINT;
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(apply.code, printed(apply)).toBe(0);
    // The world is a snapshot and the log of the changes since; the secret is in one or the other.
    const world = join(ws.dir, ".netform", "embedded-world.json");
    const log = `${world}.log`;
    expect(readFileSync(world, "utf8") + readFileSync(log, "utf8")).toContain(SECRETS.BGP_AUTH_KEY);
    expect(statSync(world).mode & 0o777).toBe(0o600);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(ws.statePath).mode & 0o777).toBe(0o600);
  });
});
