// What the configuration layer knows about each kind: its spec schema, the field that holds its display
// name, its secrets, the attributes other resources may reference, and the server-set fields that a spec
// must not declare.

import type { z } from "zod";
import type { Kind } from "./address.js";
import { connectionSpec } from "./schema-connections.js";
import { deviceSpec, VENDOR_CONFIG_SECRETS } from "./schema-devices.js";
import { routeFilterAttachmentSpec, routeFilterSpec } from "./schema-route-filters.js";
import { routingProtocolSpec } from "./schema-routing-protocols.js";
import { vpnSpec } from "./schema-vpns.js";

export interface KindInfo {
  spec: z.ZodObject;
  /** The field that defaults to the resource name. */
  displayName?: string;
  /** Field paths that are always secret, whatever the value is written as ("[]" stands for every item). */
  sensitive: readonly string[];
  /** Top-level attributes of the object as the API returns it. */
  attributes: readonly string[];
  /** Fields the service sets; declaring one is an error with its own message. */
  serverSet: readonly string[];
  /** The parent whose uuid a field takes (for messages and the engine's ordering). */
  parents: Readonly<Record<string, Kind>>;
}

const CHANGE = ["href", "uuid", "state", "change", "changeLog", "changelog"];

export const KIND_INFO: Readonly<Record<Kind, KindInfo>> = {
  routeFilters: {
    spec: routeFilterSpec,
    displayName: "name",
    sensitive: [],
    attributes: ["href", "uuid", "type", "name", "description", "state", "change", "notMatchedRuleAction", "connectionsCount", "rulesCount", "project", "changeLog"],
    serverSet: [...CHANGE, "notMatchedRuleAction", "connectionsCount", "rulesCount"],
    parents: {},
  },
  routeFilterAttachments: {
    spec: routeFilterAttachmentSpec,
    sensitive: [],
    attributes: ["href", "type", "uuid", "attachmentStatus", "direction", "connection", "routeFilter"],
    serverSet: [...CHANGE, "attachmentStatus", "type"],
    parents: { connection: "connections", routeFilter: "routeFilters" },
  },
  connections: {
    spec: connectionSpec,
    displayName: "name",
    sensitive: ["aSide.accessPoint.authenticationKey", "zSide.accessPoint.authenticationKey"],
    attributes: ["href", "uuid", "type", "name", "state", "operation", "order", "bandwidth", "redundancy", "aSide", "zSide", "project", "notifications", "account", "change", "changeLog", "isRemote", "direction"],
    serverSet: [...CHANGE, "operation", "account", "isRemote", "direction"],
    parents: {},
  },
  routingProtocols: {
    spec: routingProtocolSpec,
    sensitive: ["bgpAuthKey"],
    attributes: ["href", "uuid", "type", "name", "state", "change", "changeLog", "directIpv4", "directIpv6", "bgpIpv4", "bgpIpv6", "asOverrideEnabled", "customerAsn", "equinixAsn", "bgpAuthKey", "bfd", "connection"],
    serverSet: [...CHANGE, "equinixAsn", "operation"],
    parents: { connection: "connections" },
  },
  devices: {
    spec: deviceSpec,
    displayName: "virtualDeviceName",
    sensitive: [
      "sshUsers[].sshPassword",
      "secondary.sshUsers[].sshPassword",
      ...VENDOR_CONFIG_SECRETS.flatMap((f) => [`vendorConfig.${f}`, `secondary.vendorConfig.${f}`, `clusterDetails.clusterNodeDetails.node0.vendorConfig.${f}`, `clusterDetails.clusterNodeDetails.node1.vendorConfig.${f}`]),
    ],
    attributes: [
      "uuid", "serviceId", "name", "deviceTypeCode", "deviceTypeName", "deviceTypeVendor", "deviceTypeCategory", "diverseFromDeviceName", "diverseFromDeviceUuid",
      "status", "licenseStatus", "expiry", "metroCode", "metroName", "ibx", "region", "podName", "throughput", "throughputUnit", "tier", "hostName", "packageCode",
      "packageName", "version", "licenseType", "licenseName", "licenseFileId", "aclTemplateUuid", "sshIpAddress", "sshIpFqdn", "sshIpFqdnStatus", "deviceSerialNo",
      "accountNumber", "accountName", "notifications", "purchaseOrderNumber", "redundancyType", "redundantUuid", "connectivity", "managementIp", "managementGatewayIp",
      "publicIp", "publicGatewayIp", "primaryDnsName", "secondaryDnsName", "additionalBandwidth", "termLength", "interfaceCount", "core", "deviceManagementType",
      "userPublicKey", "clusterDetails", "vendorConfig", "interfaces", "projectId", "virtualDeviceName",
    ],
    serverSet: ["uuid", "serviceId", "status", "licenseStatus", "expiry", "ibx", "region", "podName", "sshIpAddress", "sshIpFqdn", "sshIpFqdnStatus", "deviceSerialNo", "redundancyType", "redundantUuid", "interfaces", "createdBy", "createdDate", "lastUpdatedBy", "lastUpdatedDate"],
    parents: {},
  },
  vpns: {
    spec: vpnSpec,
    sensitive: ["peerSharedKey", "password", "secondary.peerSharedKey", "secondary.password"],
    attributes: ["uuid", "configName", "peerIp", "peerSharedKey", "remoteAsn", "remoteIpAddress", "password", "localAsn", "tunnelIp", "virtualDeviceUuid", "siteName", "status", "bgpState", "tunnelStatus", "useNetworkServiceConnection", "secondary"],
    serverSet: ["uuid", "status", "bgpState", "tunnelStatus", "createdDate", "lastUpdatedDate", "createdBy", "lastUpdatedBy"],
    parents: { virtualDeviceUuid: "devices" },
  },
};

/** Whether a concrete path (with indexes) matches a sensitive pattern (with "[]"). */
export function isSensitivePath(kind: Kind, path: string): boolean {
  const generic = path.replace(/\[\d+\]/g, "[]");
  return KIND_INFO[kind].sensitive.some((p) => generic === p || generic.startsWith(`${p}.`) || generic.startsWith(`${p}[`));
}

/** Whether a referenced attribute of a kind is a secret. */
export const isSensitiveAttribute = (kind: Kind, attribute: string): boolean => isSensitivePath(kind, attribute);
