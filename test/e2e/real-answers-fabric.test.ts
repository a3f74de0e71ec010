// What the real Fabric service (and the network edge's VPN service) answers, netform reads without a false diff.
// No public recording of these answers exists: a replay serves them in the shapes the official descriptions'
// examples and schemas show (test/fixtures/real-answers/fabric.ts, network-edge-reads.ts). A user adopts every
// object with `netform import`; then a configuration that matches plans clean and sends nothing (the searches
// netform reads through are POSTs that change nothing), and one that differs plans exactly the change
// intended: in place where the service changes it in place.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startReplay, type Json, type Replay, type ReplayAnswer } from "../support/replay.js";
import * as fabric from "../fixtures/real-answers/fabric.js";
import { ACCOUNT, API, IDS, PROJECT, searched } from "../fixtures/real-answers/fabric.js";
import { IDS as EDGE } from "../fixtures/real-answers/network-edge.js";
import { page as edgePage, VPN, vpn } from "../fixtures/real-answers/network-edge-reads.js";
import { netform, simEnv, workspace, type Workspace } from "./cli.js";
import { out } from "./service.js";

type Obj = Record<string, Json>;

/** What the service has, each object as the builder of its example makes it, with the overrides given. */
interface World {
  filterV4: Obj;
  filterV6: Obj;
  ruleExact: Obj;
  ruleLonger: Obj;
  ruleV6: Obj;
  filterAttachment: Obj;
  router: Obj;
  port: Obj;
  otherPort: Obj;
  network: Obj;
  tokenColo: Obj;
  tokenNetwork: Obj;
  routerConnection: Obj;
  spConnection: Obj;
  networkConnection: Obj;
  direct: Obj;
  bgp: Obj;
  aggregation: Obj;
  aggregationRule: Obj;
  aggregationAttachment: Obj;
  vpn: Obj;
  profile: Obj;
}

function world(changed: Partial<Record<keyof World, Obj>> = {}): World {
  return {
    filterV4: fabric.routeFilterV4(changed.filterV4),
    filterV6: fabric.routeFilterV6(changed.filterV6),
    ruleExact: fabric.ruleExact(changed.ruleExact),
    ruleLonger: fabric.ruleLonger(changed.ruleLonger),
    ruleV6: fabric.ruleV6(changed.ruleV6),
    filterAttachment: fabric.filterAttachment(changed.filterAttachment),
    router: fabric.cloudRouter(changed.router),
    port: fabric.port(changed.port),
    otherPort: fabric.otherPort(changed.otherPort),
    network: fabric.network(changed.network),
    tokenColo: fabric.tokenColo(changed.tokenColo),
    tokenNetwork: fabric.tokenNetwork(changed.tokenNetwork),
    routerConnection: fabric.routerConnection(changed.routerConnection),
    spConnection: fabric.spConnection(changed.spConnection),
    networkConnection: fabric.networkConnection(changed.networkConnection),
    direct: fabric.directProtocol(changed.direct),
    bgp: fabric.bgpProtocol(changed.bgp),
    aggregation: fabric.routeAggregation(changed.aggregation),
    aggregationRule: fabric.aggregationRule(changed.aggregationRule),
    aggregationAttachment: fabric.aggregationAttachment(changed.aggregationAttachment),
    vpn: vpn(changed.vpn),
    profile: fabric.serviceProfile(changed.profile),
  };
}

const V4 = "/fabric/v4";

/** Every object answered as the real service answers it: by its GET, in its lists, and through the searches. */
function realAnswers(changed: Partial<Record<keyof World, Obj>> = {}): ReplayAnswer[] {
  const w = world(changed);
  const get = (path: string, body: Obj): ReplayAnswer => ({ method: "GET", path, body });
  const list = (path: string, items: Obj[]): ReplayAnswer => ({ method: "GET", path, body: fabric.page(items, 0, 100) });
  const search = (path: string, objects: Obj[]): ReplayAnswer => ({ method: "POST", path, body: searched(objects) });
  const connection = IDS.routerConnection;
  return [
    get(`${V4}/routeFilters/${IDS.filterV4}`, w.filterV4),
    get(`${V4}/routeFilters/${IDS.filterV6}`, w.filterV6),
    search(`${V4}/routeFilters/search`, [w.filterV4, w.filterV6]),
    get(`${V4}/routeFilters/${IDS.filterV4}/routeFilterRules/${IDS.ruleExact}`, w.ruleExact),
    get(`${V4}/routeFilters/${IDS.filterV4}/routeFilterRules/${IDS.ruleLonger}`, w.ruleLonger),
    get(`${V4}/routeFilters/${IDS.filterV6}/routeFilterRules/${IDS.ruleV6}`, w.ruleV6),
    list(`${V4}/routeFilters/${IDS.filterV4}/routeFilterRules`, [w.ruleExact, w.ruleLonger]),
    list(`${V4}/routeFilters/${IDS.filterV6}/routeFilterRules`, [w.ruleV6]),
    get(`${V4}/connections/${connection}/routeFilters/${IDS.filterV4}`, w.filterAttachment),
    list(`${V4}/connections/${connection}/routeFilters`, [w.filterAttachment]),
    get(`${V4}/routers/${IDS.router}`, w.router),
    search(`${V4}/routers/search`, [w.router]),
    get(`${V4}/ports/${IDS.port}`, w.port),
    search(`${V4}/ports/search`, [w.port, w.otherPort]),
    get(`${V4}/networks/${IDS.network}`, w.network),
    search(`${V4}/networks/search`, [w.network]),
    get(`${V4}/serviceTokens/${IDS.tokenColo}`, w.tokenColo),
    get(`${V4}/serviceTokens/${IDS.tokenNetwork}`, w.tokenNetwork),
    search(`${V4}/serviceTokens/search`, [w.tokenColo, w.tokenNetwork]),
    get(`${V4}/connections/${IDS.routerConnection}`, w.routerConnection),
    get(`${V4}/connections/${IDS.spConnection}`, w.spConnection),
    get(`${V4}/connections/${IDS.networkConnection}`, w.networkConnection),
    search(`${V4}/connections/search`, [w.routerConnection, w.spConnection, w.networkConnection]),
    get(`${V4}/connections/${connection}/routingProtocols/${IDS.direct}`, w.direct),
    get(`${V4}/connections/${connection}/routingProtocols/${IDS.bgp}`, w.bgp),
    list(`${V4}/connections/${connection}/routingProtocols`, [w.bgp, w.direct]),
    get(`${V4}/routeAggregations/${IDS.aggregation}`, w.aggregation),
    search(`${V4}/routeAggregations/search`, [w.aggregation]),
    get(`${V4}/routeAggregations/${IDS.aggregation}/routeAggregationRules/${IDS.aggregationRule}`, w.aggregationRule),
    list(`${V4}/routeAggregations/${IDS.aggregation}/routeAggregationRules`, [w.aggregationRule]),
    get(`${V4}/connections/${connection}/routeAggregations/${IDS.aggregation}`, w.aggregationAttachment),
    list(`${V4}/connections/${connection}/routeAggregations`, [w.aggregationAttachment]),
    search(`${V4}/serviceProfiles/search`, [w.profile, fabric.otherProfile()]),
    get(`/ne/v1/vpn/${VPN}`, w.vpn),
    { method: "GET", path: "/ne/v1/vpn", body: edgePage([w.vpn]) },
    { method: "GET", path: "/ne/v1/notifications", body: { notificationType: "no_downtime", additionalMessage: "" } },
  ];
}

/** Every object, adopted parents first: a nested kind is imported under the parent its configuration names. */
const ADDRESSES: Array<[string, string]> = [
  ["routeFilters.cloud-in-v4", IDS.filterV4],
  ["routeFilters.cloud-in-v6", IDS.filterV6],
  ["routeFilterRules.office-lan", IDS.ruleExact],
  ["routeFilterRules.branch-lans", IDS.ruleLonger],
  ["routeFilterRules.cloud-v6", IDS.ruleV6],
  ["cloudRouters.fcr-da-1", IDS.router],
  ["ports.dc-primary", IDS.port],
  ["networks.branch-lan", IDS.network],
  ["serviceTokens.partner-a", IDS.tokenColo],
  ["serviceTokens.partner-lan", IDS.tokenNetwork],
  ["connections.fcr-to-dc", IDS.routerConnection],
  ["connections.dc-to-storage", IDS.spConnection],
  ["connections.dc-to-lan", IDS.networkConnection],
  ["routeFilterAttachments.fcr-in", IDS.filterV4],
  ["routingProtocols.direct", IDS.direct],
  ["routingProtocols.bgp", IDS.bgp],
  ["routeAggregations.summary-v4", IDS.aggregation],
  ["routeAggregationRules.branches", IDS.aggregationRule],
  ["routeAggregationAttachments.fcr-summary", IDS.aggregation],
  ["vpns.chicago", VPN],
];

/** Values of the configuration a variant changes. */
interface Variant {
  filterDescription?: string;
  prefixMatch?: string;
  direction?: string;
  routerName?: string;
  portName?: string;
  tagProtocolId?: string;
  networkName?: string;
  tokenDescription?: string;
  expiry?: string;
  bandwidth?: number;
  routesMax?: number;
  aggregationDescription?: string;
  aggregationRuleDescription?: string;
  siteName?: string;
}

/**
 * A configuration of what the service has, as a user adopting it writes it from the service's documentation:
 * the tag protocol as 0x8100, defaults left out, lists in another order than the answers give them, the
 * expiry without its trailing zero, a profile found by a lookup (the adopted port by its address: lookups leave
 * out what the configuration manages).
 */
const configuration = (v: Variant = {}) => `netform: 1
provider:
  endpoint: ${API}
  projectId: ${PROJECT}
  accountNumber: "${ACCOUNT}"
lookups:
  storage: { kind: serviceProfile, where: { name: Secure Storage, metroCode: DA } }
routeFilters:
  cloud-in-v4: { type: BGP_IPv4_PREFIX_FILTER, description: ${v.filterDescription ?? "prefixes learnt from the cloud"} }
  cloud-in-v6: { type: BGP_IPv6_PREFIX_FILTER }
routeFilterRules:
  office-lan: { routeFilter: "\${routeFilters.cloud-in-v4.uuid}", prefix: 192.168.10.0/24, prefixMatch: ${v.prefixMatch ?? "exact"}, description: the office LAN only }
  branch-lans: { routeFilter: "\${routeFilters.cloud-in-v4.uuid}", prefix: 10.20.0.0/16 }
  cloud-v6: { routeFilter: "\${routeFilters.cloud-in-v6.uuid}", prefix: "2001:db8:7a9::/48", prefixMatch: orlonger }
routeFilterAttachments:
  fcr-in: { connection: "\${connections.fcr-to-dc.uuid}", routeFilter: "\${routeFilters.cloud-in-v4.uuid}", direction: ${v.direction ?? "INBOUND"} }
cloudRouters:
  fcr-da-1:
    name: ${v.routerName ?? "fcr-da-1"}
    location: { metroCode: DA }
    package: { code: STANDARD }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
ports:
  dc-primary:
    name: ${v.portName ?? "201246-DA1-CX-PRI-01"}
    physicalPortsSpeed: 10000
    physicalPortsType: 10GBASE_LR
    connectivitySourceType: COLO
    location: { metroCode: DA }
    demarcationPointIbx: DA1
    encapsulation: { type: DOT1Q, tagProtocolId: "${v.tagProtocolId ?? "0x8100"}" }
    notifications: [{ type: TECHNICAL, registeredUsers: [netops-user] }]
networks:
  branch-lan:
    name: ${v.networkName ?? "branch-lan"}
    type: EVPLAN
    scope: REGIONAL
    location: { region: AMER }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
serviceTokens:
  partner-a:
    description: ${v.tokenDescription ?? "for the partner's first connection"}
    expirationDateTime: ${v.expiry ?? "2031-03-18T06:43:49.98Z"}
    project: { projectId: "${fabric.NUMERIC_PROJECT}" }
    connection:
      type: EVPL_VC
      bandwidthLimit: 50
      aSide:
        accessPointSelectors:
          - { type: COLO, port: { uuid: "\${ports.dc-primary.uuid}" }, linkProtocol: { type: QINQ, vlanSTag: 1388, vlanCTag: 1399 } }
    notifications: [{ type: NOTIFICATION, emails: [noc@example.com, partner@example.com] }]
  partner-lan:
    description: joins the branch LAN
    expirationDateTime: 2031-03-18T06:43:49.980Z
    connection:
      type: EVPLAN_VC
      allowRemoteConnection: true
      bandwidthLimit: 20000
      zSide:
        accessPointSelectors: [{ type: NETWORK, network: { uuid: "\${networks.branch-lan.uuid}" } }]
    notifications: [{ type: NOTIFICATION, emails: [noc@example.com] }]
connections:
  fcr-to-dc:
    type: IP_VC
    bandwidth: ${v.bandwidth ?? 50}
    aSide: { accessPoint: { type: CLOUD_ROUTER, router: { uuid: "\${cloudRouters.fcr-da-1.uuid}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: "\${ports.dc-primary.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    notifications: [{ type: ALL, emails: [oncall@example.com, noc@example.com] }]
  dc-to-storage:
    type: EVPL_VC
    bandwidth: 100
    order: { purchaseOrderNumber: PO754587184643 }
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${ports.dc-primary.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1043 } } }
    zSide: { accessPoint: { type: SP, profile: { type: L2_PROFILE, uuid: "\${lookups.storage.uuid}" }, location: { metroCode: DA } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
  dc-to-lan:
    type: EVPLAN_VC
    bandwidth: 50
    order: { purchaseOrderNumber: "1-129105284100" }
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${ports.dc-primary.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 307 } } }
    zSide: { accessPoint: { type: NETWORK, network: { uuid: "\${networks.branch-lan.uuid}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  direct: { connection: "\${connections.fcr-to-dc.uuid}", type: DIRECT, directIpv4: { equinixIfaceIp: 192.168.100.1/30 } }
  bgp:
    connection: \${connections.fcr-to-dc.uuid}
    type: BGP
    customerAsn: 65010
    asOverrideEnabled: true
    bgpIpv4: { customerPeerIp: 192.168.100.2, outboundASPrependCount: 3, inboundMED: 1000, outboundMED: 2000, routesMax: ${v.routesMax ?? 40} }
routeAggregations:
  summary-v4: { type: BGP_IPv4_PREFIX_AGGREGATION, description: ${v.aggregationDescription ?? "one route for the branches"} }
routeAggregationRules:
  branches: { routeAggregation: "\${routeAggregations.summary-v4.uuid}", prefix: 10.20.0.0/16, description: ${v.aggregationRuleDescription ?? "the branch offices"} }
routeAggregationAttachments:
  fcr-summary: { connection: "\${connections.fcr-to-dc.uuid}", routeAggregation: "\${routeAggregations.summary-v4.uuid}" }
vpns:
  chicago:
    virtualDeviceUuid: ${EDGE.device}
    siteName: ${v.siteName ?? "Chicago"}
    configName: chicago-office
    peerIp: 110.11.12.222
    peerSharedKey: \${secret.VPN_KEY}
    remoteAsn: 65413
    remoteIpAddress: 100.210.1.31
    password: \${secret.VPN_PASSWORD}
    localAsn: 65414
    tunnelIp: 192.168.7.2/30
`;

let replay: Replay;
/** One workspace holding every object, adopted once: plans only read it. */
let adopted: Workspace;

const env = () => simEnv(replay.url, { VPN_KEY: "sharedKey1", VPN_PASSWORD: "bgpPass1" });
const run = (ws: Workspace, ...args: string[]) => netform(args, { cwd: ws.dir, env: env() });

interface PlanDocument {
  resourceChanges: Array<{ address: string; actions: string[]; notReturned?: string[]; changes: Array<{ path: string; forcesReplacement: boolean }> }>;
}

async function planDocument(ws: Workspace): Promise<PlanDocument> {
  const plan = await run(ws, "plan", "--format", "json", "--no-cost");
  expect(plan.code, out(plan)).toBe(0);
  return JSON.parse(plan.stdout) as PlanDocument;
}

beforeAll(async () => {
  replay = await startReplay(realAnswers());
  adopted = workspace(configuration());
  for (const [address, id] of ADDRESSES) {
    const imported = await run(adopted, "import", address, id);
    expect(imported.code, `${address}\n${out(imported)}`).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await replay.close();
});

beforeEach(() => {
  adopted.write(configuration());
  replay.answer(realAnswers());
  replay.requests.length = 0;
});

describe("Fabric objects and VPNs as the real service answers them", () => {
  it("are adopted, then a configuration that matches plans no change and sends nothing", { timeout: 60_000 }, async () => {
    const plan = await run(adopted, "plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect(replay.changes()).toEqual([]);
    // The refresh read through the searches, which change nothing.
    expect(replay.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual(expect.arrayContaining([`${V4}/connections/search`, `${V4}/routers/search`]));
    const doc = await planDocument(adopted);
    expect(doc.resourceChanges.filter((c) => !c.actions.includes("no-op"))).toEqual([]);
    // What the answers leave out is said, never a replacement: access point types (Fcr2Colo, COLO2NETWORK),
    // the VPN's useNetworkServiceConnection (VpnResponse), an attachment's connection without its href.
    const notReturned = Object.fromEntries(doc.resourceChanges.filter((c) => c.notReturned).map((c) => [c.address, c.notReturned]));
    expect(notReturned).toEqual({
      "connections.fcr-to-dc": ["zSide.accessPoint.type"],
      "connections.dc-to-lan": ["aSide.accessPoint.type", "zSide.accessPoint.type"],
      "routeAggregationAttachments.fcr-summary": ["connection"],
      "vpns.chicago": ["useNetworkServiceConnection"],
    });
  });

  it.each([
    ["the port's tag protocol as the official client spells it", { port: { encapsulation: { type: "DOT1Q", tagProtocolId: "0x8100" } } }],
    ["the port's tag protocol as a decimal string", { port: { encapsulation: { type: "DOT1Q", tagProtocolId: "33024" } } }],
    ["a BGP instance with its BFD, disabled, and an interval as a string", { bgp: { bfd: { enabled: false, interval: "100" } } }],
    ["a port's physical ports counted", { port: { physicalPortsCount: 1 } }],
    ["a router's project with its href", { router: { project: { href: `${API}/resourceManager/v1/projects/${PROJECT}`, projectId: PROJECT } } }],
    ["a VPN's ASNs as strings", { vpn: { remoteAsn: "65413", localAsn: "65414" } }],
    ["a rule's description empty rather than absent", { ruleLonger: { description: "" } }],
    ["a port without its package and redundancy, which Port leaves optional", { port: { package: undefined, redundancy: undefined } }],
    ["a token without its flags, which ServiceTokenConnection leaves optional", { tokenColo: { connection: { ...(fabric.tokenColo().connection as Obj), allowRemoteConnection: undefined, allowCustomBandwidth: undefined } } }],
    ["an attachment without its href", { filterAttachment: { href: undefined } }],
  ] as Array<[string, Partial<Record<keyof World, Obj>>]>)("plan clean with %s", { timeout: 60_000 }, async (_what, changed) => {
    replay.answer(realAnswers(changed));
    const plan = await run(adopted, "plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
  });

  it.each([
    ["routeFilters.cloud-in-v4", { filterDescription: "prefixes from the cloud" }, "description"],
    ["routeFilterRules.office-lan", { prefixMatch: "orlonger" }, "prefixMatch"],
    ["cloudRouters.fcr-da-1", { routerName: "fcr-da-one" }, "name"],
    ["ports.dc-primary", { portName: "dc-primary-port" }, "name"],
    ["networks.branch-lan", { networkName: "branch-lan-2" }, "name"],
    ["serviceTokens.partner-a", { tokenDescription: "for the partner" }, "description"],
    ["connections.fcr-to-dc", { bandwidth: 100 }, "bandwidth"],
    ["routingProtocols.bgp", { routesMax: 80 }, "bgpIpv4.routesMax"],
    ["routeAggregations.summary-v4", { aggregationDescription: "the branches in one route" }, "description"],
    ["routeAggregationRules.branches", { aggregationRuleDescription: "branches" }, "description"],
    ["vpns.chicago", { siteName: "Chicago-2" }, "siteName"],
  ] as Array<[string, Variant, string]>)("%s: a changed field plans exactly that change, in place", { timeout: 60_000 }, async (address, variant, field) => {
    adopted.write(configuration(variant));
    const doc = await planDocument(adopted);
    const changed = doc.resourceChanges.filter((c) => !c.actions.includes("no-op"));
    expect(changed.map((c) => [c.address, c.actions, c.changes.map((f) => [f.path, f.forcesReplacement])])).toEqual([[address, ["update"], [[field, false]]]]);
    expect(replay.changes()).toEqual([]);
  });

  it("a filter attached in the other direction plans a replacement of that attachment only", { timeout: 60_000 }, async () => {
    adopted.write(configuration({ direction: "OUTBOUND" }));
    const doc = await planDocument(adopted);
    const changed = doc.resourceChanges.filter((c) => !c.actions.includes("no-op"));
    expect(changed.map((c) => [c.address, c.changes.map((f) => [f.path, f.forcesReplacement])])).toEqual([["routeFilterAttachments.fcr-in", [["direction", true]]]]);
    expect(changed[0]?.actions).toContain("create");
    expect(changed[0]?.actions).toContain("delete");
  });
});
