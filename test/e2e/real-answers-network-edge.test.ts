// What the real network-edge service answers, netform reads without a false diff. A replay serves answers in
// the shapes equinix/ne-go's recordings show (test/fixtures/real-answers/network-edge.ts); a user adopts every
// object with `netform import`, then a configuration that matches plans clean, and one that differs plans
// exactly the change intended: in place where the service changes it in place, never a replacement for a
// spelling.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startReplay, type Replay, type ReplayAnswer } from "../support/replay.js";
import { aclTemplate, ACCOUNT, bgpPeering, deviceListed, deviceRecord, IDS, linkGroup, noDowntime, page, PROJECT, SSH_KEY_VALUE, sshKeys, sshUser, uploadedFile } from "../fixtures/real-answers/network-edge.js";
import { netform, simEnv, workspace, type Workspace } from "./cli.js";
import { out } from "./service.js";

let replay: Replay;
beforeAll(async () => {
  replay = await startReplay();
});
afterAll(async () => {
  await replay.close();
});

/** Every object of the recordings, answered as the real service answers: singly and in its list. */
function realAnswers(changed: { device?: Record<string, unknown>; template?: Record<string, unknown>; group?: Record<string, unknown>; bgp?: Record<string, unknown>; user?: Record<string, unknown> } = {}): ReplayAnswer[] {
  const listedOther = deviceListed({ uuid: IDS.otherDevice, name: "edge-router-2", hostName: "edge-router-2" });
  return [
    { method: "GET", path: `/ne/v1/devices/${IDS.device}`, body: deviceRecord(changed.device) },
    { method: "GET", path: "/ne/v1/devices", body: page([deviceListed(changed.device), listedOther]) },
    { method: "GET", path: `/ne/v1/aclTemplates/${IDS.aclTemplate}`, body: aclTemplate(changed.template) },
    { method: "GET", path: "/ne/v1/aclTemplates", body: page([aclTemplate(changed.template)]) },
    { method: "GET", path: `/ne/v1/links/${IDS.linkGroup}`, body: linkGroup(changed.group) },
    { method: "GET", path: "/ne/v1/links", body: page([linkGroup(changed.group)]) },
    { method: "GET", path: `/ne/v1/bgp/${IDS.bgp}`, body: bgpPeering(changed.bgp) },
    { method: "GET", path: "/ne/v1/bgp", body: page([bgpPeering(changed.bgp)]) },
    { method: "GET", path: "/ne/v1/publicKeys", body: sshKeys() },
    { method: "GET", path: `/ne/v1/publicKeys/${IDS.sshKey}`, body: (sshKeys() as Record<string, unknown>[])[0] },
    { method: "GET", path: `/ne/v1/sshUsers/${IDS.sshUser}`, body: sshUser(changed.user) },
    { method: "GET", path: "/ne/v1/sshUsers", body: page([sshUser(changed.user)]) },
    { method: "GET", path: `/ne/v1/files/${IDS.file}`, body: uploadedFile() },
    { method: "PUT", path: `/ne/v1/sshUsers/${IDS.sshUser}`, status: 204 },
    { method: "GET", path: "/ne/v1/notifications", body: noDowntime() },
  ];
}

const ADDRESSES: Array<[string, string]> = [
  ["sshKeys.netops-key", IDS.sshKey],
  ["aclTemplates.office-access", IDS.aclTemplate],
  ["devices.edge-router-1", IDS.device],
  ["deviceLinks.sv-core-links", IDS.linkGroup],
  ["bgpPeerings.edge-peer", IDS.bgp],
  ["sshUsers.ops", IDS.sshUser],
  ["files.init", IDS.file],
];

interface Variant {
  managementType?: string;
  licenseMode?: string;
  redundancyType?: string;
  deviceName?: string;
  dstPort?: string;
  subnet?: string;
  remoteAsn?: number;
}

/**
 * A configuration of what the recordings hold, as a user migrating to netform writes it from the service's
 * documentation: the specification's spellings (PROVIDER-CONFIGURED, SUB, PRIMARY), one `subnet` per rule.
 */
const configuration = (v: Variant = {}) => `netform: 1
provider:
  endpoint: https://api.example.net
  projectId: ${PROJECT}
  accountNumber: "${ACCOUNT}"
sshKeys:
  netops-key:
    keyValue: ${SSH_KEY_VALUE}
aclTemplates:
  office-access:
    description: SSH and DNS from the offices
    inboundRules:
      - { protocol: TCP, subnet: 198.51.100.0/24, dstPort: "22", description: office SSH }
      - { protocol: TCP, srcType: DOMAIN, fqdn: vpn.example.com, dstPort: "${v.dstPort ?? "1024-10000"}" }
      - { protocol: UDP, subnet: 192.0.2.0/24, srcPort: any, dstPort: "53,1045,2041" }
devices:
  edge-router-1:
    deviceTypeCode: CSR1000V
    metroCode: SV
    packageCode: IPBASE
    version: 16.09.05
    licenseMode: ${v.licenseMode ?? "SUB"}
    deviceManagementType: ${v.managementType ?? "PROVIDER-CONFIGURED"}
    core: 2
    throughput: 500
    throughputUnit: Mbps
    termlength: 12
    interfaceCount: 10
    additionalBandwidth: 25
    virtualDeviceName: ${v.deviceName ?? "edge-router-1"}
    hostNamePrefix: edge-router-1
    notifications: [noc@example.com]
    purchaseOrderNumber: PO-7781
    orderReference: edge-rollout
    userPublicKey: { username: netops, keyName: "\${sshKeys.netops-key.keyName}" }
    aclDetails: [{ interfaceType: WAN, uuid: "\${aclTemplates.office-access.uuid}" }]
deviceLinks:
  sv-core-links:
    subnet: ${v.subnet ?? "10.0.0.0/27"}
    redundancyType: ${v.redundancyType ?? "PRIMARY"}
    linkDevices:
      - { deviceUuid: "\${devices.edge-router-1.uuid}", interfaceId: 5, asn: 65010 }
      - { deviceUuid: ${IDS.otherDevice}, interfaceId: 5, asn: 65011 }
    metroLinks: [{ metroCode: SV, throughput: 10, throughputUnit: Mbps, accountNumber: "${ACCOUNT}" }]
bgpPeerings:
  edge-peer:
    connectionUuid: ${IDS.connection}
    localIpAddress: 10.1.1.1/30
    localAsn: 65010
    remoteIpAddress: 10.1.1.2
    remoteAsn: ${v.remoteAsn ?? 65020}
    authenticationKey: \${secret.PEER_KEY}
sshUsers:
  ops:
    username: netops-ops
    password: \${secret.OPS_PASSWORD}
    deviceUuids: ["\${devices.edge-router-1.uuid}", ${IDS.otherDevice}]
files:
  init:
    content: \${secret.CLOUD_INIT}
    fileName: edge-init.cfg
    metroCode: SV
    deviceTypeCode: CSR1000V
    processType: CLOUD_INIT
`;

const env = () => simEnv(replay.url, { PEER_KEY: "peering-key-1", OPS_PASSWORD: "ops-password-1", CLOUD_INIT: "#cloud-config\nhostname: edge-router-1\n" });
const run = (ws: Workspace, ...args: string[]) => netform(args, { cwd: ws.dir, env: env() });

/**
 * A workspace whose state holds every recorded object, adopted one by one as a user would. The service never
 * returns an SSH user's password, so the first apply after the import sets it, and only it.
 */
async function adopted(v: Variant = {}): Promise<Workspace> {
  const ws = workspace(configuration(v));
  for (const [address, id] of ADDRESSES) {
    const imported = await run(ws, "import", address, id);
    expect(imported.code, out(imported)).toBe(0);
  }
  const applied = await run(ws, "apply", "--auto-approve", "--no-cost");
  expect(applied.code, out(applied)).toBe(0);
  expect(replay.changes().map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /ne/v1/sshUsers/${IDS.sshUser}`]);
  replay.requests.length = 0;
  return ws;
}

beforeEach(() => {
  replay.answer(realAnswers());
  replay.requests.length = 0;
});

describe("network-edge objects as the real service answers them", () => {
  it("are adopted, then a configuration that matches plans no change, sends nothing, and says what it could not compare", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    const plan = await run(ws, "plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect(replay.changes()).toEqual([]);
    // The device's record has no connectivity and no project: not a replacement, and said so.
    const json = await run(ws, "plan", "--format", "json");
    const doc = JSON.parse(json.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; notReturned?: string[] }> };
    const device = doc.resourceChanges.find((c) => c.address === "devices.edge-router-1");
    expect(device).toMatchObject({ actions: ["no-op"] });
    expect(device?.notReturned).toEqual(expect.arrayContaining(["connectivity", "projectId"]));
    const group = doc.resourceChanges.find((c) => c.address === "deviceLinks.sv-core-links");
    expect(group?.notReturned).toEqual(["linkDevices[].asn"]);
  });

  it.each([
    ["the management type as the official description spells it", { managementType: "EQUINIX-CONFIGURED" }],
    ["the licence mode as the official client spells it", { licenseMode: "Sub" }],
    ["the redundancy type as the service answers it", { redundancyType: "Primary" }],
  ])("plan clean with %s", { timeout: 60_000 }, async (_what, variant) => {
    const ws = await adopted(variant);
    const plan = await run(ws, "plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
  });

  it("drift finds nothing after adoption: a field the list's answer leaves out is not a change made outside netform", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    const drift = await run(ws, "drift");
    expect(drift.code, out(drift)).toBe(0);
    expect(drift.stdout).toContain("No drift.");
    expect(drift.stdout).not.toContain("aclDetails");
  });

  it("a device read through the list keeps its ACL template: no ACL call on refresh", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    // The list never names templates (acl: []); a plan that refreshes through it must not want to set one.
    const plan = await run(ws, "plan", "--detailed-exitcode", "--no-cost");
    expect(plan.code, out(plan)).toBe(0);
    expect(replay.requests.some((r) => r.path === "/ne/v1/devices" && r.method === "GET")).toBe(true);
  });

  it.each([
    ["devices.edge-router-1", { deviceName: "edge-router-one" }, "virtualDeviceName"],
    ["aclTemplates.office-access", { dstPort: "443" }, "inboundRules"],
    ["deviceLinks.sv-core-links", { subnet: "10.0.1.0/27" }, "subnet"],
    ["bgpPeerings.edge-peer", { remoteAsn: 65030 }, "remoteAsn"],
  ] as const)("%s: a changed field plans exactly that change, in place", { timeout: 60_000 }, async (address, variant, field) => {
    const ws = await adopted();
    ws.write(configuration(variant));
    const plan = await run(ws, "plan", "--format", "json", "--no-cost");
    expect(plan.code, out(plan)).toBe(0);
    const doc = JSON.parse(plan.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; changes: Array<{ path: string; forcesReplacement: boolean }> }> };
    const changed = doc.resourceChanges.filter((c) => !c.actions.includes("no-op"));
    expect(changed.map((c) => [c.address, c.actions, c.changes.map((f) => [f.path, f.forcesReplacement])])).toEqual([[address, ["update"], [[field, false]]]]);
  });

  it("a BGP peering's key changed on the service is found: the answer carries it", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    replay.answer(realAnswers({ bgp: { authenticationKey: "rotated-elsewhere" } }));
    const plan = await run(ws, "plan", "--format", "json", "--no-cost");
    const doc = JSON.parse(plan.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; changes: Array<{ path: string; sensitive: boolean }> }> };
    expect(doc.resourceChanges.find((c) => c.address === "bgpPeerings.edge-peer")).toMatchObject({ actions: ["update"], changes: [{ path: "authenticationKey", sensitive: true }] });
    expect(plan.stdout + plan.stderr).not.toContain("rotated-elsewhere");
    expect(plan.stdout + plan.stderr).not.toContain("peering-key-1");
  });

  it("a BGP peering answered without its key is sent the key once, then plans clean: an answer that leaves it out says nothing of it", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    replay.answer([...realAnswers({ bgp: { authenticationKey: undefined } }), { method: "PUT", path: `/ne/v1/bgp/${IDS.bgp}`, status: 202, body: { uuid: IDS.bgp } }]);
    // Adopted, the key was never sent by netform and the answer does not show it: sent once, in place.
    const first = await run(ws, "plan", "--format", "json", "--no-cost");
    const doc = JSON.parse(first.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; changes: Array<{ path: string; forcesReplacement?: boolean }> }> };
    expect(doc.resourceChanges.find((c) => c.address === "bgpPeerings.edge-peer")).toMatchObject({ actions: ["update"], changes: [{ path: "authenticationKey" }] });
    const applied = await run(ws, "apply", "--auto-approve", "--no-cost");
    expect(applied.code, out(applied)).toBe(0);
    const again = await run(ws, "plan", "--detailed-exitcode", "--no-cost");
    expect(again.code, out(again)).toBe(0);
    // Drift finds nothing either: neither the peering's key nor the ACL template the device list leaves out.
    const drift = await run(ws, "drift");
    expect(drift.code, out(drift)).toBe(0);
    expect(drift.stdout).toContain("No drift.");
    replay.answer(realAnswers());
  });

  it("an SSH user's devices read under either spelling: a device dropped on the service is found and added back in place", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    replay.answer(realAnswers({ user: { deviceUuids: undefined, deviceUUIDs: [IDS.device] } }));
    const plan = await run(ws, "plan", "--format", "json", "--no-cost");
    const doc = JSON.parse(plan.stdout) as { resourceChanges: Array<{ address: string; actions: string[]; changes: Array<{ path: string; forcesReplacement: boolean }> }> };
    const changed = doc.resourceChanges.filter((c) => !c.actions.includes("no-op"));
    expect(changed.map((c) => [c.address, c.actions, c.changes.map((f) => [f.path, f.forcesReplacement])])).toEqual([["sshUsers.ops", ["update"], [["deviceUuids", false]]]]);
  });

  it("a link group listed as one page is found on every plan: never deleted outside netform, never made twice", { timeout: 60_000 }, async () => {
    const ws = await adopted();
    for (let i = 0; i < 2; i++) {
      const plan = await run(ws, "plan", "--detailed-exitcode");
      expect(plan.code, out(plan)).toBe(0);
      expect(plan.stdout).not.toContain("deleted outside netform");
    }
  });
});
