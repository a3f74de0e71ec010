// The vendor settings of a device order (`vendorConfig` of the create body, of its secondary, and of a
// cluster node, section 4.10): which fields each takes, the form of each value, the rules across them,
// and what the device record shows of them.
//
// The specification lists the fields without types. The official description types connectToCloudVision
// as a boolean and the rest as strings; the service's own client (ne-go) sends every value as a string, and
// the incumbent provider's examples write "true" and "6". Both spellings are taken; the record keeps every
// value as a string but connectToCloudVision, which it answers as the official description types it.
// Secrets are checked and not kept: nothing answers them, and the embedded world is saved to a file.

import { isIPv4, isIPv6 } from "node:net";
import { fail } from "../core/errors.js";
import type { Json, JsonObject } from "../core/world.js";
import { optionalObject, rejectUnknownFields } from "./device-fields.js";

type Form = "text" | "count" | "yes-no" | "address" | readonly string[];

const IP_ADDRESS_TYPES = ["DHCP", "NO_IP_ADDRESS", "STATIC"] as const;
const FIREWALL_MANAGERS = ["FMC", "FDM", "CDO"] as const;
const CLOUDVISION_TYPES = ["As-a-Service", "On-Premise"] as const;
const HOST_NAME_PREFIX = /^[A-Za-z]([A-Za-z0-9-]{0,28}[A-Za-z0-9])?$/;

const FORMS: Readonly<Record<string, Form>> = {
  siteId: "count", systemIpAddress: "text", licenseKey: "text", licenseSecret: "text", localId: "text", remoteId: "text",
  managementType: FIREWALL_MANAGERS, controller1: "text", controller2: "text", serialNumber: "count", adminPassword: "text",
  activationKey: "text", controllerFqdn: "text", rootPassword: "text", accountName: "text", hostname: "text", accountKey: "text",
  applianceTag: "text", userName: "text", connectToCloudVision: "yes-no", cvpType: CLOUDVISION_TYPES, cvpFqdn: "text",
  cvpIpAddress: "text", cvaasPort: "count", cvpPort: "count", cvpToken: "text", provisioningKey: "text", privateAddress: "text",
  privateCidrMask: "count", privateGateway: "text", licenseId: "count", panoramaIpAddress: "text", panoramaAuthKey: "text",
  // The management network of zero-touch (PRIVATE) devices and Infoblox grid members, as the incumbent
  // provider's examples order them.
  ipAddressType: IP_ADDRESS_TYPES, ipAddress: "address", subnetMaskIp: "address", gatewayIp: "address", managementInterfaceId: "count",
  restApiSupportRequirement: "yes-no", primaryNameServer: "address", secondaryNameServer: "address", dnsSearchDomain: "text",
  token: "text",
  hostNamePrefix: "text",
};

/** What a device and its secondary take. */
export const DEVICE_VENDOR_FIELDS: readonly string[] = Object.keys(FORMS);

/** What a cluster node takes. */
export const NODE_VENDOR_FIELDS: readonly string[] = [
  "hostname", "activationKey", "controllerFqdn", "rootPassword", "adminPassword", "controller1", "panoramaIpAddress", "panoramaAuthKey",
  "managementType", "ipAddressType", "ipAddress", "subnetMaskIp", "gatewayIp", "managementInterfaceId", "token", "restApiSupportRequirement",
  "privateAddress", "privateCidrMask", "privateGateway", "licenseKey", "licenseId",
];

/** Passwords, keys and tokens: accepted on create, never answered. */
export const SECRET_VENDOR_FIELDS: ReadonlySet<string> = new Set([
  "licenseKey", "licenseSecret", "adminPassword", "activationKey", "rootPassword", "accountKey", "cvpToken", "provisioningKey", "panoramaAuthKey", "token",
]);

/** One value in its form, as the record keeps it; a 400 naming the property otherwise. */
function settingValue(key: string, value: Json, property: string): Json {
  const form = FORMS[key] ?? "text";
  const shown = JSON.stringify(value);
  if (typeof form !== "string") {
    if (typeof value !== "string" || !form.includes(value)) return fail("notInAllowedList", property, `${property} must be one of ${form.join(", ")}`, shown);
    return value;
  }
  switch (form) {
    case "text":
      if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`, shown);
      if (key === "hostNamePrefix" && !HOST_NAME_PREFIX.test(value)) {
        fail("invalidProperty", property, `${property} may hold only letters, digits and hyphens, 2 to 30, starting with a letter and ending with a letter or digit`, value);
      }
      return value;
    case "count":
      if (!(typeof value === "number" ? Number.isInteger(value) && value >= 0 : typeof value === "string" && /^\d+$/.test(value))) {
        return fail("invalidProperty", property, `${property} must be a whole number`, shown);
      }
      return String(value);
    case "yes-no": {
      if (value !== true && value !== false && value !== "true" && value !== "false") return fail("invalidProperty", property, `${property} must be true or false`, shown);
      const yes = value === true || value === "true";
      return key === "connectToCloudVision" ? yes : String(yes);
    }
    case "address":
      if (typeof value !== "string" || !(isIPv4(value) || isIPv6(value))) return fail("invalidProperty", property, `${property} must be an IPv4 or IPv6 address`, shown);
      return value;
    default: {
      const unreachable: never = form;
      return unreachable;
    }
  }
}

const present = (config: JsonObject, key: string) => config[key] !== undefined && config[key] !== null && config[key] !== "";

function requireAll(config: JsonObject, property: string, keys: readonly string[], because: string): void {
  for (const key of keys) if (!present(config, key)) fail("missingProperty", `${property}.${key}`, `${property}.${key} is required when ${because}`);
}

/**
 * The rules across settings: a STATIC management address needs its address, gateway and mask (subnetMaskIp,
 * or privateCidrMask as Netskope's order writes it); CloudVision needs its details by type (the official
 * description's cvaasPort, cvpIpAddress, cvpPort, cvpToken); an FTD managed by FMC needs the FMC's address
 * and the activation key. A cluster gives the FMC's details on its first node only, so that rule reads
 * devices, not nodes.
 */
function checkAcross(config: JsonObject, property: string, node: boolean): void {
  if (config.ipAddressType === "STATIC") {
    requireAll(config, property, ["ipAddress", "gatewayIp"], "ipAddressType is STATIC");
    if (!present(config, "subnetMaskIp") && !present(config, "privateCidrMask")) {
      fail("missingProperty", `${property}.subnetMaskIp`, `${property}.subnetMaskIp (or privateCidrMask) is required when ipAddressType is STATIC`);
    }
  }
  if (node) return;
  if (config.connectToCloudVision === true) {
    switch (config.cvpType) {
      case "As-a-Service":
        requireAll(config, property, ["cvaasPort", "cvpToken"], "cvpType is As-a-Service");
        break;
      case "On-Premise":
        requireAll(config, property, ["cvpIpAddress", "cvpPort", "cvpToken"], "cvpType is On-Premise");
        break;
      default:
        fail("missingProperty", `${property}.cvpType`, `${property}.cvpType is required when connectToCloudVision is true`);
    }
  }
  if (config.managementType === "FMC") requireAll(config, property, ["controller1", "activationKey"], "managementType is FMC");
}

/**
 * The settings at `body.vendorConfig`, every field and value checked, in the form the record keeps; secrets
 * included (the caller keeps them out of the record).
 */
export function readVendorConfig(body: JsonObject, property: string, kind: "device" | "node"): JsonObject | undefined {
  const raw = optionalObject(body, "vendorConfig", property);
  if (!raw) return undefined;
  rejectUnknownFields(raw, kind === "device" ? DEVICE_VENDOR_FIELDS : NODE_VENDOR_FIELDS, `${property}.`);
  const config: JsonObject = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === undefined) continue;
    config[key] = settingValue(key, value, `${property}.${key}`);
  }
  checkAcross(config, property, kind === "node");
  return config;
}

/** The settings that are secrets (true) or not (false). */
function part(config: JsonObject | undefined, secret: boolean): JsonObject | undefined {
  if (!config) return undefined;
  const kept = Object.fromEntries(Object.entries(config).filter(([k]) => SECRET_VENDOR_FIELDS.has(k) === secret));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** What the device record shows of its settings: all but the secrets. */
export const publicVendorConfig = (config: JsonObject | undefined): JsonObject | undefined => part(config, false);

/** The secrets among the settings, which the simulator keeps out of the record. */
export const secretVendorConfig = (config: JsonObject | undefined): JsonObject | undefined => part(config, true);
