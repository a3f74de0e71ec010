// Virtual connections (2.5 request fields, 4.5 create body). One flat shape per endpoint: which fields an
// access point type takes, and the tag-range rules of connections that start at a virtual device, are
// checked in rules.ts so that every misplaced field is reported, not only the first.

import { z } from "zod";
import { lazily, metroCode, project, uuid, vlanTag } from "../../config/index.js";
import { MAX_RECIPIENTS, notificationsSpec } from "../notifications.js";

/** The official enumeration (fabricv4 ConnectionType); the specification shows EVPL_VC, IP_VC, VD_CHAIN_VC. */
export const CONNECTION_TYPES = ["EVPL_VC", "EPL_VC", "EC_VC", "IP_VC", "ACCESS_EPL_VC", "EIA_VC", "EVPLAN_VC", "EPLAN_VC", "EVPTREE_VC", "EPTREE_VC", "IPWAN_VC", "IA_VC", "MC_VC", "IX_VC", "GW_VC", "IPX_VC", "VD_CHAIN_VC"] as const;

export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/**
 * Connection types that take a whole port: their COLO ends may leave out the link protocol, on an untagged
 * port (the official description's examples of these types give none).
 */
export const PORT_BASED_TYPES: readonly ConnectionType[] = ["EPL_VC", "EPLAN_VC", "EPTREE_VC", "ACCESS_EPL_VC", "MC_VC"];

/** The access point types a connection type needs at each end, as the official description's examples give them. */
export const ENDPOINT_TYPES: Readonly<Partial<Record<ConnectionType, { aSide?: readonly AccessPointType[]; zSide?: readonly AccessPointType[] }>>> = {
  IP_VC: { aSide: ["CLOUD_ROUTER"] },
  IPWAN_VC: { aSide: ["CLOUD_ROUTER"], zSide: ["NETWORK"] },
  EVPLAN_VC: { zSide: ["NETWORK"] },
  EPLAN_VC: { aSide: ["COLO"], zSide: ["NETWORK"] },
  EVPTREE_VC: { zSide: ["NETWORK"] },
  EPTREE_VC: { aSide: ["COLO"], zSide: ["NETWORK"] },
};

/** The official enumeration (fabricv4 AccessPointType) plus CHAINGROUP, which the specification names. */
export const ACCESS_POINT_TYPES = ["COLO", "VD", "SP", "NETWORK", "CLOUD_ROUTER", "CHAINGROUP", "VG", "IGW", "SUBNET", "METAL_NETWORK", "VPIC_INTERFACE", "APP_LINK", "XF_IC"] as const;
export type AccessPointType = (typeof ACCESS_POINT_TYPES)[number];

export const LINK_PROTOCOL_TYPES = ["UNTAGGED", "DOT1Q", "QINQ", "EVPN_VXLAN", "VXLAN"] as const;
export type LinkProtocolType = (typeof LINK_PROTOCOL_TYPES)[number];


export const SERVICE_PROFILE_TYPES = ["L2_PROFILE", "L3_PROFILE", "IA_PROFILE", "IX_PROFILE", "IC_PROFILE", "LMAAS_PROFILE"] as const;

export const PEERING_TYPES = ["PRIVATE", "MICROSOFT", "PUBLIC", "MANUAL"] as const;

/** Up to 12 recipients per connection (section 8). */
export const MAX_CONNECTION_RECIPIENTS = MAX_RECIPIENTS;

export const linkProtocolSpec = lazily(() =>
  z.strictObject({
    type: z.enum(LINK_PROTOCOL_TYPES),
    vlanTag: vlanTag().optional().describe("DOT1Q tag"),
    vlanSTag: vlanTag().optional().describe("QINQ outer tag"),
    vlanCTag: vlanTag().optional().describe("QINQ inner tag; on a port, absent takes every inner tag under vlanSTag"),
    vlanTagMin: vlanTag().optional().describe("DOT1Q range start, connections from a virtual device only"),
    vlanTagMax: vlanTag().optional().describe("DOT1Q range end, connections from a virtual device only"),
    vlanCTagMin: vlanTag().optional().describe("QINQ inner range start, connections from a virtual device only"),
    vlanCTagMax: vlanTag().optional().describe("QINQ inner range end, connections from a virtual device only"),
    vni: z.int().min(1).max(16777215).optional().describe("VXLAN network identifier"),
  }),
);

export const accessPointSpec = lazily(() =>
  z.strictObject({
    type: z.enum(ACCESS_POINT_TYPES),
    port: z.strictObject({ uuid: uuid() }).optional().describe("COLO: the port"),
    linkProtocol: linkProtocolSpec().optional().describe("COLO or VD: the encapsulation and tags"),
    virtualDevice: z.strictObject({ type: z.enum(["EDGE"]).optional(), uuid: uuid() }).optional().describe("VD: the device"),
    interface: z
      .strictObject({ type: z.enum(["CLOUD", "NETWORK"]).optional().describe("default: NETWORK"), id: z.int().min(0).optional() })
      .optional()
      .describe("VD: the device interface"),
    profile: z.strictObject({ type: z.enum(SERVICE_PROFILE_TYPES).optional(), uuid: uuid() }).optional().describe("SP: the service profile"),
    location: z.strictObject({ metroCode: metroCode() }).optional().describe("SP: where to meet the provider; COLO: the port's metro, checked by the service"),
    network: z.strictObject({ uuid: uuid() }).optional().describe("NETWORK: the network, normally ${networks.NAME.uuid}"),
    router: z.strictObject({ uuid: uuid() }).optional().describe("CLOUD_ROUTER (a-side): the cloud router, normally ${cloudRouters.NAME.uuid}"),
    sellerRegion: z.string().optional(),
    authenticationKey: z.string().optional().describe("the provider's authorisation key (sensitive)"),
    peeringType: z.enum(PEERING_TYPES).optional(),
  }),
);

export const connectionSideSpec = lazily(() =>
  z.strictObject({
    serviceToken: z.strictObject({ type: z.enum(["VC_TOKEN", "EPL_TOKEN"]).optional(), uuid: uuid() }).optional().describe("a token's endpoint, normally ${serviceTokens.NAME.uuid}"),
    accessPoint: accessPointSpec().optional(),
  }),
);

export const schema = lazily(() =>
  z.strictObject({
    type: z.enum(CONNECTION_TYPES),
    name: z.string().min(1).optional().describe("display name; default: the resource name"),
    bandwidth: z.int().min(1, { error: "bandwidth must be 1 to 100000 Mbps" }).max(100000, { error: "bandwidth must be 1 to 100000 Mbps" }).describe("Mbps"),
    order: z.strictObject({ purchaseOrderNumber: z.string().optional(), customerReferenceNumber: z.string().optional() }).optional().describe("default: {}"),
    redundancy: z
      .strictObject({
        group: z.string().min(1).optional().describe("a PRIMARY's group is named by the service when absent; a SECONDARY names its primary's, e.g. ${connections.primary.redundancy.group}"),
        priority: z.enum(["PRIMARY", "SECONDARY"]),
      })
      .optional(),
    aSide: connectionSideSpec(),
    zSide: connectionSideSpec(),
    project: project().optional().describe("default: provider.projectId"),
    additionalInfo: z
      .array(z.strictObject({ key: z.string().min(1), value: z.string().min(1) }))
      .min(1, { error: "additionalInfo needs at least one {key, value} entry" })
      .optional()
      .describe("keys for the provider's automatic acceptance, such as accessKey and secretKey; sensitive, sent on create only"),
    notifications: notificationsSpec("a connection"),
  }),
);
