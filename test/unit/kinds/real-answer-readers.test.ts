// The readers of the Fabric kinds and of VPNs on answers in the shapes the official descriptions allow (the
// fixtures of test/fixtures/real-answers): one row per shape, the spec a user writes for the same object, and
// what the engine's compare makes of the two: no change where they agree, a field not returned where the
// answer leaves it out, and a change where they differ.

import { describe, expect, it } from "vitest";
import { SecretPaths } from "../../../src/config/index.js";
import { KIND_HANDLERS, type Body } from "../../../src/kinds/index.js";
import { compareFields } from "../../../src/plan/index.js";
import { bgpProtocol, cloudRouter, directProtocol, IDS, NUMERIC_PROJECT, port, PROJECT, tokenColo } from "../../fixtures/real-answers/fabric.js";
import { IDS as EDGE } from "../../fixtures/real-answers/network-edge.js";
import { vpn } from "../../fixtures/real-answers/network-edge-reads.js";

const ACCOUNT = "201246";

/** The port of the fixture as a user writes it, with the defaults the configuration fills in. */
const portSpec = (extra: Body = {}): Body => ({
  type: "XF_PORT",
  name: "201246-DA1-CX-PRI-01",
  physicalPortsSpeed: 10000,
  physicalPortsType: "10GBASE_LR",
  connectivitySourceType: "COLO",
  location: { metroCode: "DA" },
  demarcationPointIbx: "DA1",
  encapsulation: { type: "DOT1Q", tagProtocolId: "0x8100" },
  notifications: [{ type: "TECHNICAL", registeredUsers: ["netops-user"] }],
  project: { projectId: PROJECT },
  account: { accountNumber: ACCOUNT },
  ...extra,
});

const bgpSpec = (extra: Body = {}): Body => ({
  connection: IDS.routerConnection,
  type: "BGP",
  customerAsn: 65010,
  asOverrideEnabled: true,
  bgpIpv4: { customerPeerIp: "192.168.100.2", outboundASPrependCount: 3, inboundMED: 1000, outboundMED: 2000, routesMax: 40 },
  ...extra,
});

const tokenColoConnection = (): Body => tokenColo().connection as Body;

const tokenSpec = (connection: Body = {}): Body => ({
  type: "VC_TOKEN",
  name: "partner-a",
  description: "for the partner's first connection",
  expirationDateTime: "2031-03-18T06:43:49.98Z",
  project: { projectId: String(NUMERIC_PROJECT) },
  connection: {
    type: "EVPL_VC",
    bandwidthLimit: 50,
    aSide: { accessPointSelectors: [{ type: "COLO", port: { uuid: IDS.port }, linkProtocol: { type: "QINQ", vlanSTag: 1388, vlanCTag: 1399 } }] },
    ...connection,
  },
  notifications: [{ type: "NOTIFICATION", emails: ["noc@example.com", "partner@example.com"] }],
});

const vpnSpec = (extra: Body = {}): Body => ({
  virtualDeviceUuid: EDGE.device,
  siteName: "Chicago",
  configName: "chicago-office",
  peerIp: "110.11.12.222",
  remoteAsn: 65413,
  remoteIpAddress: "100.210.1.31",
  localAsn: 65414,
  tunnelIp: "192.168.7.2/30",
  useNetworkServiceConnection: false,
  ...extra,
});

interface Row {
  what: string;
  kind: string;
  spec: Body;
  answer: Body;
  /** Each changed path, and whether it forces a replacement. */
  changes?: Array<[string, boolean]>;
  notReturned?: string[];
}

const ROWS: Row[] = [
  { what: "a port's tag protocol answered as the decimal number of 0x8100", kind: "ports", spec: portSpec(), answer: port() },
  { what: "a port's tag protocol answered as the official client spells it", kind: "ports", spec: portSpec(), answer: port({ encapsulation: { type: "DOT1Q", tagProtocolId: "0x8100" } }) },
  { what: "a QINQ port's tag protocol left out: the service's 0x88A8", kind: "ports", spec: portSpec({ encapsulation: { type: "QINQ", tagProtocolId: "0x88a8" } }), answer: port({ encapsulation: { type: "QINQ" } }) },
  { what: "another tag protocol is a change, in place", kind: "ports", spec: portSpec({ encapsulation: { type: "DOT1Q", tagProtocolId: "0x9100" } }), answer: port(), changes: [["encapsulation.tagProtocolId", false]] },
  { what: "settings the service filled in, the spec writing none", kind: "ports", spec: portSpec(), answer: port({ settings: { buyout: true, viewPortPermission: true, placeVcOrderPermission: true, sharedPortType: false } }) },
  { what: "a setting the spec writes, answered otherwise", kind: "ports", spec: portSpec({ settings: { buyout: true } }), answer: port(), changes: [["settings.buyout", true]] },
  { what: "physical ports listed without their count", kind: "ports", spec: portSpec(), answer: port() },
  { what: "two physical ports listed, one ordered", kind: "ports", spec: portSpec(), answer: port({ physicalPorts: [{ id: 1 }, { id: 2 }] }), changes: [["physicalPortsCount", true]] },
  { what: "a LAG of two with neither a count nor its ports in the answer", kind: "ports", spec: portSpec({ physicalPortsCount: 2, lagEnabled: true }), answer: port({ physicalPorts: undefined, lagEnabled: true }), notReturned: ["physicalPortsCount"] },
  { what: "an UNLIMITED port answered without its package", kind: "ports", spec: portSpec({ package: { code: "UNLIMITED" } }), answer: port({ package: undefined }), notReturned: ["package.code"] },
  { what: "a SECONDARY port answered without its redundancy", kind: "ports", spec: portSpec({ redundancy: { priority: "SECONDARY", group: "g1" } }), answer: port({ redundancy: undefined }), notReturned: ["redundancy.priority", "redundancy.group"] },
  { what: "a port of another package", kind: "ports", spec: portSpec(), answer: port({ package: { code: "UNLIMITED" } }), changes: [["package.code", true]] },
  { what: "a token allowing remote connections, answered without the flag", kind: "serviceTokens", spec: tokenSpec({ allowRemoteConnection: true }), answer: tokenColo({ connection: { ...tokenColoConnection(), allowRemoteConnection: undefined } }), notReturned: ["connection.allowRemoteConnection"] },
  { what: "a token's flags left out of the spec and the answer", kind: "serviceTokens", spec: tokenSpec(), answer: tokenColo({ connection: { ...tokenColoConnection(), allowRemoteConnection: undefined, allowCustomBandwidth: undefined } }), notReturned: ["connection.allowRemoteConnection", "connection.allowCustomBandwidth"] },
  { what: "a token's expiry spelt with milliseconds, notifications in another order, a numeric project", kind: "serviceTokens", spec: tokenSpec(), answer: tokenColo() },
  { what: "a BGP instance without bfd, connection or name", kind: "routingProtocols", spec: bgpSpec(), answer: bgpProtocol() },
  { what: "a BGP session's enabled flag left out", kind: "routingProtocols", spec: bgpSpec(), answer: bgpProtocol({ bgpIpv4: { customerPeerIp: "192.168.100.2", outboundASPrependCount: 3, inboundMED: 1000, outboundMED: 2000, routesMax: 40 } }) },
  { what: "BFD enabled in the spec, the answer leaving bfd out (disabled)", kind: "routingProtocols", spec: bgpSpec({ bfd: { enabled: true, interval: 100 } }), answer: bgpProtocol(), changes: [["bfd.enabled", false], ["bfd.interval", false]] },
  { what: "asOverrideEnabled left out of the answer: the service's false", kind: "routingProtocols", spec: bgpSpec({ asOverrideEnabled: false }), answer: bgpProtocol({ asOverrideEnabled: undefined }) },
  { what: "a DIRECT instance on another connection than its href names", kind: "routingProtocols", spec: { connection: IDS.spConnection, type: "DIRECT", directIpv4: { equinixIfaceIp: "192.168.100.1/30" } }, answer: directProtocol(), changes: [["connection", true]] },
  { what: "a DIRECT instance named by connection.uuid", kind: "routingProtocols", spec: { connection: IDS.spConnection, type: "DIRECT", directIpv4: { equinixIfaceIp: "192.168.100.1/30" } }, answer: directProtocol({ connection: { uuid: IDS.spConnection } }) },
  { what: "a VPN answered without useNetworkServiceConnection", kind: "vpns", spec: vpnSpec(), answer: vpn(), notReturned: ["useNetworkServiceConnection"] },
  { what: "a VPN with a secondary tunnel, which the answer never shows", kind: "vpns", spec: vpnSpec({ secondary: { configName: "chicago-b", peerIp: "110.11.12.223", remoteAsn: 65413, remoteIpAddress: "100.210.1.32", localAsn: 65414, tunnelIp: "192.168.7.6/30" } }), answer: vpn(), notReturned: ["useNetworkServiceConnection", "secondary"] },
  { what: "a VPN's ASNs as strings", kind: "vpns", spec: vpnSpec(), answer: vpn({ remoteAsn: "65413", localAsn: "65414", useNetworkServiceConnection: false }) },
  { what: "a router's project id as a number", kind: "cloudRouters", spec: { type: "XF_ROUTER", name: "fcr-da-1", location: { metroCode: "DA" }, package: { code: "STANDARD" }, project: { projectId: "123456" }, account: { accountNumber: ACCOUNT }, notifications: [{ type: "ALL", emails: ["noc@example.com"] }] }, answer: cloudRouter({ project: { projectId: 123456 } }) },
];

const resource = { secrets: SecretPaths.NONE, lifecycle: { ignoreChanges: [], preventDestroy: false, createBeforeDestroy: false } };
const hash = Object.assign(String, { matches: (recorded: string | undefined, value: unknown) => recorded === String(value) });

describe("the Fabric kinds' and VPNs' readers on the official descriptions' shapes", () => {
  it.each(ROWS)("$kind: $what", (row) => {
    const kind = KIND_HANDLERS.get(row.kind)!;
    // An answer is JSON: a field an override sets to undefined is not in it.
    const answer = JSON.parse(JSON.stringify(row.answer)) as Body;
    const { changes, notReturned } = compareFields(resource, kind, row.spec, answer, undefined, hash);
    expect(changes.map((c) => [c.path, c.forcesReplacement === true])).toEqual(row.changes ?? []);
    expect(notReturned).toEqual(row.notReturned ?? []);
  });
});
