// Virtual network devices: the schema of their YAML (spec.ts), the service's rules across their fields
// (rules.ts), the combinations the device-type catalogue offers (offers.ts), and how the engine manages them
// through the network-edge API (handler.ts). A device's defaults come from the provider (project, billing
// account) and name a pair's secondary after it.

import { SecretPaths } from "../../config/index.js";
import type { KindDefinition } from "../types.js";
import { handler } from "./handler.js";
import { preflight } from "./offers.js";
import { pricing } from "./pricing.js";
import { rules } from "./rules.js";
import { schema, VENDOR_CONFIG_SECRETS } from "./spec.js";

const SSH_USERS_HINT =
  'a running device\'s SSH users are sshUsers resources: declare one (username, password, deviceUuids: ["${devices.NAME.uuid}"]) to add or change a user in place; the device is not replaced';

export const devices: KindDefinition<"devices"> = {
  name: "devices",
  topology: "device",
  description: "virtual network devices, by name",
  get spec() {
    return schema();
  },
  rules,
  displayName: "virtualDeviceName",
  defaults: (d) => {
    if (d.provider.projectId) d.set("projectId", d.provider.projectId);
    if (d.provider.accountNumber) d.set("accountNumber", d.provider.accountNumber);
    d.set("secondary.virtualDeviceName", `${d.name}-secondary`);
  },
  sensitive: new SecretPaths([
    "sshUsers[].sshPassword",
    "secondary.sshUsers[].sshPassword",
    ...VENDOR_CONFIG_SECRETS.flatMap((f) => [`vendorConfig.${f}`, `secondary.vendorConfig.${f}`]),
    // A licence token is an entitlement credential, compared by keyed hash with the one last applied. The
    // service never returns a cluster node's settings (nodes are read by name, uuid and index alone), so they
    // are compared the same way, masked in plans: a change shows, and replaces the cluster, instead of
    // passing unseen.
    "licenseToken", "secondary.licenseToken", "clusterDetails.clusterNodeDetails.node0", "clusterDetails.clusterNodeDetails.node1",
  ]),
  // What only the order reads: the terms, contacts, pending account and bootstrap files of the day the device
  // was made. The device record does not return them and no call changes them. The SSH users the order
  // makes are the same: the device record never names them, and later users are the service's SSH user
  // objects (/ne/v1/sshUsers), which the sshUsers kind manages, so a changed list never re-orders a device.
  writeOnly: [
    "accountReferenceId", "agreeOrderTerms", "licenseCategory", "day0TextFileId", "cloudInitFileId", "orderingContact", "smartLicenseUrl",
    "generateDefaultPassword", "primaryDeviceUuid", "sshUsers", "secondary.accountReferenceId", "secondary.day0TextFileId",
    "secondary.cloudInitFileId", "secondary.smartLicenseUrl", "secondary.sshUsers",
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
  timeoutMs: 90 * 60_000,
  networkEdge: true,
  // Account activation, initialising, then provisioning; an HA pair takes longer.
  typicalSeconds: { create: 660, update: 60, delete: 180 },
  handler: { ...handler, writeOnlyHints: { sshUsers: SSH_USERS_HINT, "secondary.sshUsers": SSH_USERS_HINT } },
  preflight,
  pricing,
};
