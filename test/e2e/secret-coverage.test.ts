// Every secret field of every kind, against a service that others change too. For each kind that declares
// a secret, a configuration sets one from a secret; after apply, the object is read as netform reads it.
// A secret whose value comes back in the answer must be one the kind compares with the answer (else a
// change made in the portal would pass unseen, as a BGP peering's key once did); each of those is then
// changed out of band and drift must find exactly them, masked.

import { describe, expect, it } from "vitest";
import { KIND_DEFINITIONS, KIND_HANDLERS } from "../../src/kinds/index.js";
import { useKindContext } from "../kinds/kind-harness.js";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { C8000V_DC_FIELDS, CONFIG_HEADER, out, PORTS, PROFILE, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });
const kinds = useKindContext(t);

const SECRETS = {
  SSH_PASSWORD: "devSshPw4Xc6Vb8",
  PEER_KEY: "peerKeyHj2Kl4Zx6",
  RP_KEY: "rpKeyWq3Er5Ty7",
  PSK: "pskUi9Op1As3Df5",
  VPN_PASSWORD: "vpnPwGh7Jk9Lz2",
  USER_PASSWORD: "userPwBn8Mq1We3",
  CLOUD_INIT: "#cloud-config\nhostname: coverage-edge\n",
  AUTH_KEY: "authKeyRt5Yu7Io9",
  INFO_SECRET: "infoSecretPa2Sd4",
};

/** Where each secret is used: the resource and the field of its kind's secret paths. */
const USES: ReadonlyArray<{ address: string; path: string; secret: keyof typeof SECRETS }> = [
  { address: "devices.edge", path: "sshUsers.sshPassword", secret: "SSH_PASSWORD" },
  { address: "bgpPeerings.upstream", path: "authenticationKey", secret: "PEER_KEY" },
  { address: "routingProtocols.dc-bgp", path: "bgpAuthKey", secret: "RP_KEY" },
  { address: "vpns.branch", path: "peerSharedKey", secret: "PSK" },
  { address: "vpns.branch", path: "password", secret: "VPN_PASSWORD" },
  { address: "sshUsers.ops", path: "password", secret: "USER_PASSWORD" },
  { address: "files.init", path: "content", secret: "CLOUD_INIT" },
  { address: "connections.to-cloud", path: "zSide.accessPoint.authenticationKey", secret: "AUTH_KEY" },
  { address: "connections.to-cloud", path: "additionalInfo", secret: "INFO_SECRET" },
];

/** A value for the field as the portal would set it: the same shape, another secret. */
const PORTAL_VALUE = "portalChanged0Zz9";

const CONFIG = `${CONFIG_HEADER}  accountNumber: 270848
devices:
  edge:
${C8000V_DC_FIELDS}
    sshUsers: [{ sshUsername: netops, sshPassword: "\${secret.SSH_PASSWORD}" }]
connections:
  dc:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1811 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcSecondary} }, linkProtocol: { type: DOT1Q, vlanTag: 1812 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
  to-edge:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: VD, virtualDevice: { type: EDGE, uuid: "\${devices.edge.uuid}" }, interface: { type: NETWORK, id: 3 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1813 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
  to-cloud:
    type: EVPL_VC
    bandwidth: 50
    additionalInfo: [{ key: accessKey, value: AKIA-EXAMPLE }, { key: secretKey, value: "\${secret.INFO_SECRET}" }]
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcSecondary} }, linkProtocol: { type: DOT1Q, vlanTag: 1814 } } }
    zSide: { accessPoint: { type: SP, profile: { uuid: ${PROFILE} }, location: { metroCode: DC }, authenticationKey: "\${secret.AUTH_KEY}" } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  dc-direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.61.1/30 }
  dc-bgp:
    connection: \${connections.dc.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.61.2, enabled: true }
    bgpAuthKey: \${secret.RP_KEY}
bgpPeerings:
  upstream:
    connectionUuid: \${connections.to-edge.uuid}
    localIpAddress: 100.210.1.221/30
    localAsn: 65010
    remoteIpAddress: 100.210.1.222
    remoteAsn: 65020
    authenticationKey: \${secret.PEER_KEY}
vpns:
  branch:
    virtualDeviceUuid: \${devices.edge.uuid}
    siteName: branch-a
    configName: branch-a-tunnel
    peerIp: 203.0.113.20
    peerSharedKey: \${secret.PSK}
    password: \${secret.VPN_PASSWORD}
    remoteAsn: 65100
    remoteIpAddress: 169.254.20.2
    localAsn: 65000
    tunnelIp: 169.254.20.1/30
    useNetworkServiceConnection: false
sshUsers:
  ops:
    username: netops-ops
    password: \${secret.USER_PASSWORD}
    deviceUuids: ["\${devices.edge.uuid}"]
files:
  init:
    content: \${secret.CLOUD_INIT}
    fileName: edge-init.cfg
    metroCode: SV
    deviceTypeCode: C8000V
    processType: CLOUD_INIT
`;

/** The value at a dotted path, through lists (every item's value, flattened). */
function valuesAt(body: unknown, path: string): unknown[] {
  let here: unknown[] = [body];
  for (const key of path.split(".")) {
    here = here.flatMap((v) => (Array.isArray(v) ? v : [v])).flatMap((v) => (v !== null && typeof v === "object" && key in v ? [(v as Record<string, unknown>)[key]] : []));
  }
  return here.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** A JSON merge patch that sets the dotted path of a stored object to another value. */
function portalPatch(path: string): Record<string, unknown> {
  const keys = path.split(".");
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), PORTAL_VALUE) as Record<string, unknown>;
}

describe("every secret of every kind", () => {
  it("is configured here, and compared with the service's answer wherever the service returns it", async () => {
    const secretKinds = [...KIND_DEFINITIONS.values()].filter((d) => !d.sensitive.empty).map((d) => d.name);
    const used = new Set(USES.map((u) => u.address.split(".")[0]));
    expect(secretKinds.filter((k) => !used.has(k)), "kinds with secret fields that this test does not set").toEqual([]);
    for (const use of USES) {
      const kind = KIND_DEFINITIONS.get(use.address.split(".")[0] as never)!;
      expect(kind.sensitive.covers(use.path), `${use.address}: ${use.path} is one of the kind's secret fields`).toBe(true);
    }

    const ws = workspace(CONFIG);
    const run = runner(t, ws, { ...SECRETS, NETFORM_STATE_KEY: "coverage-state-key" });
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    const returned: typeof USES[number][] = [];
    for (const use of USES) {
      const record = ws.state().resources[use.address]!;
      const handler = KIND_HANDLERS.get(record.kind)!;
      const answer = await handler.observe(kinds.ctx, { id: record.id!, ...(record.parent ? { parent: record.parent } : {}) });
      expect(answer, `${use.address} is read`).toBeDefined();
      if (!JSON.stringify(answer).includes(JSON.stringify(SECRETS[use.secret]).slice(1, -1))) continue;
      returned.push(use);
      expect(handler.returnedSecrets?.covers(use.path), `the service returns ${use.address}'s ${use.path}, which the kind must compare with the answer (returnedSecrets)`).toBe(true);
    }
    // The simulator returns these, as the real service does; the rest are never read back.
    expect(returned.map((u) => `${u.address}.${u.path}`).sort()).toEqual(["bgpPeerings.upstream.authenticationKey", "connections.to-cloud.zSide.accessPoint.authenticationKey", "routingProtocols.dc-bgp.bgpAuthKey", "vpns.branch.password", "vpns.branch.peerSharedKey"]);

    const clean = await run("drift");
    expect(clean.code, out(clean)).toBe(0);
    for (const use of returned) {
      const record = ws.state().resources[use.address]!;
      expect(valuesAt((await t.call("GET", `/__sim/objects?kind=${record.kind}`)).body.data, "uuid")).toContain(record.id);
      const patched = await t.call("PATCH", `/__sim/objects/${record.id}`, { body: portalPatch(use.path) });
      expect(patched.status).toBe(200);
    }
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    const found = (JSON.parse(drift.stdout).entries as Array<{ address: string; fields: Array<{ path: string; after: unknown }> }>).flatMap((e) => e.fields.map((f) => ({ at: `${e.address}.${f.path}`, after: f.after })));
    expect(found.map((f) => f.at).sort()).toEqual(returned.map((u) => `${u.address}.${u.path}`).sort());
    expect(found.every((f) => f.after === "(sensitive)")).toBe(true);
    expect(`${drift.stdout}${drift.stderr}`).not.toContain(PORTAL_VALUE);
    for (const value of Object.values(SECRETS)) expect(`${applied.stdout}${drift.stdout}${ws.stateText()}`).not.toContain(value);

    const restored = await run("apply", "--auto-approve");
    expect(restored.code, out(restored)).toBe(0);
    expect((await run("drift")).code).toBe(0);
  }, 300_000);
});
