// A device's vendor settings (`vendorConfig` of the create body, of its `secondary`, and of a cluster
// node): which fields each takes, the form of each, which are secrets, the rules across them, and the form
// in which they are sent and compared.
//
// Every value goes to the service as a string. The specification's create body (4.10) lists the fields
// without types, the official description types connectToCloudVision as a boolean, and the service's own
// client (ne-go) sends and reads vendorConfig as a map of strings, so the incumbent provider's examples
// write `restApiSupportRequirement = "true"` and `managementInterfaceId = "6"`. The configuration accepts
// what users write (true or "true", 6 or "6") and sends what that client sends.

import { z } from "zod";
import { ipAddress, isPlainObject, type FieldPath, type RuleContext } from "../../config/index.js";
import type { Body } from "../types.js";

/** How a setting is written: free text, a whole number, yes or no, an IP address, or one of a few words. */
type Form = "text" | "count" | "yes-no" | "address" | readonly string[];

const IP_ADDRESS_TYPES = ["DHCP", "NO_IP_ADDRESS", "STATIC"] as const;
/** Who manages a Cisco FTD firewall (the incumbent provider's schema of a cluster node's settings). */
const FIREWALL_MANAGERS = ["FMC", "FDM", "CDO"] as const;
/** Where an Arista device's CloudVision runs (the official description's cvpType). */
const CLOUDVISION_TYPES = ["As-a-Service", "On-Premise"] as const;

/** Letters, digits and hyphens, starting with a letter and ending with a letter or digit, 2-30 characters (official description). */
export const HOST_NAME_PREFIX = /^[A-Za-z](?:[A-Za-z0-9-]{0,28}[A-Za-z0-9])?$/;
export const hostNamePrefix = () =>
  z.string().regex(HOST_NAME_PREFIX, { error: "hostNamePrefix must be 2 to 30 letters, digits and hyphens, start with a letter and end with a letter or digit" });

const FORMS: Readonly<Record<string, Form>> = {
  // The specification's list (4.10) and the official description's VendorConfig.
  siteId: "count", systemIpAddress: "text", licenseKey: "text", licenseSecret: "text", localId: "text", remoteId: "text",
  managementType: FIREWALL_MANAGERS, controller1: "text", controller2: "text", serialNumber: "count", adminPassword: "text",
  activationKey: "text", controllerFqdn: "text", rootPassword: "text", accountName: "text", hostname: "text", accountKey: "text",
  applianceTag: "text", userName: "text", connectToCloudVision: "yes-no", cvpType: CLOUDVISION_TYPES, cvpFqdn: "text",
  cvpIpAddress: "text", cvaasPort: "count", cvpPort: "count", cvpToken: "text", provisioningKey: "text", privateAddress: "text",
  privateCidrMask: "count", privateGateway: "text", licenseId: "count", panoramaIpAddress: "text", panoramaAuthKey: "text",
  // The management network of zero-touch devices (connectivity PRIVATE) and of Infoblox grid members: the
  // incumbent provider's examples c8000v_znpd_ha_static.tf, fortigate_firewall_ha_device_znpd_*.tf,
  // infoblox_*_device.tf and netskope_npa_ha_device.tf.
  ipAddressType: IP_ADDRESS_TYPES, ipAddress: "address", subnetMaskIp: "address", gatewayIp: "address", managementInterfaceId: "count",
  restApiSupportRequirement: "yes-no", primaryNameServer: "address", secondaryNameServer: "address", dnsSearchDomain: "text",
  // The join or registration token of 6WIND VSR, F5 XC and Infoblox NIOS-X devices (their examples).
  token: "text",
  // The incumbent's add_secondary_device example names the secondary's host prefix here.
  hostNamePrefix: "text",
};

/** What a device and its secondary take. */
export const VENDOR_CONFIG_FIELDS: readonly string[] = Object.keys(FORMS);

/**
 * What a cluster node takes: the official description's node settings, the management settings of current
 * firewall clusters, and the private network of the incumbent provider's node schema (BlueCat, Infoblox).
 */
export const NODE_VENDOR_CONFIG_FIELDS: readonly string[] = [
  "hostname", "activationKey", "controllerFqdn", "rootPassword", "adminPassword", "controller1", "panoramaIpAddress", "panoramaAuthKey",
  "managementType", "ipAddressType", "ipAddress", "subnetMaskIp", "gatewayIp", "managementInterfaceId", "token", "restApiSupportRequirement",
  "privateAddress", "privateCidrMask", "privateGateway", "licenseKey", "licenseId",
];

/** Passwords, keys and tokens: masked in plans, kept in the state as keyed hashes, never returned by the service. */
export const VENDOR_CONFIG_SECRETS = [
  "licenseKey", "licenseSecret", "adminPassword", "activationKey", "rootPassword", "accountKey", "cvpToken", "provisioningKey", "panoramaAuthKey", "token",
] as const;
const SECRETS: readonly string[] = VENDOR_CONFIG_SECRETS;

function fieldSchema(name: string, form: Form): z.ZodType {
  if (typeof form !== "string") return z.enum(form as [string, ...string[]]);
  switch (form) {
    case "text":
      return name === "hostNamePrefix" ? hostNamePrefix() : z.string();
    case "count": {
      const error = `${name} must be a whole number, written 6 or "6"`;
      return z.union([z.int().min(0, { error }), z.string().regex(/^\d+$/, { error })], { error });
    }
    case "yes-no":
      return z.literal([true, false, "true", "false"], { error: `${name} must be true or false` });
    case "address":
      return ipAddress();
    default: {
      const unreachable: never = form;
      return unreachable;
    }
  }
}

/** The strict schema of a vendorConfig taking these fields: a misspelt field is an error with a suggestion. */
export function vendorSettings(fields: readonly string[]): z.ZodObject {
  return z
    .strictObject(Object.fromEntries(fields.map((f) => [f, fieldSchema(f, FORMS[f] ?? "text").optional()])))
    .describe(`vendor-specific settings, sent as strings; secret: ${SECRETS.filter((s) => fields.includes(s)).join(", ")}`);
}

// ── what is sent, and what is compared ─────────────────────────────────────────────────────

const asText = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

/** A vendorConfig as the service's client sends it: every value a string. */
function asSent(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  const out: Body = {};
  for (const [k, x] of Object.entries(v)) {
    const s = asText(x);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

/** A create body with the vendor settings of the device, its secondary and a cluster's nodes as sent. */
export function vendorSettingsAsSent(body: Body): Body {
  const out: Body = { ...body };
  if (out.vendorConfig !== undefined) out.vendorConfig = asSent(out.vendorConfig);
  if (isPlainObject(out.secondary) && out.secondary.vendorConfig !== undefined) out.secondary = { ...out.secondary, vendorConfig: asSent(out.secondary.vendorConfig) };
  const cluster = out.clusterDetails;
  if (isPlainObject(cluster) && isPlainObject(cluster.clusterNodeDetails)) {
    const nodes = Object.entries(cluster.clusterNodeDetails).map(([key, node]) => [key, isPlainObject(node) && node.vendorConfig !== undefined ? { ...node, vendorConfig: asSent(node.vendorConfig) } : node]);
    out.clusterDetails = { ...cluster, clusterNodeDetails: Object.fromEntries(nodes) };
  }
  return out;
}

/**
 * The settings compared with the service: the create body's fields that are not secret (those are compared
 * by keyed hash, and the service answers without them), as strings, whichever way either side spells a
 * yes-or-no. Fields of other calls that the service keeps in the same object (the update call's
 * disablePassword) are not the order's, so they never show as a change of it.
 */
export function publicVendorConfig(v: unknown): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Body = {};
  for (const [k, x] of Object.entries(v)) {
    if (SECRETS.includes(k) || !VENDOR_CONFIG_FIELDS.includes(k)) continue;
    const s = asText(x);
    if (s !== undefined) out[k] = FORMS[k] === "yes-no" ? s.toLowerCase() : s;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// ── rules across the settings ──────────────────────────────────────────────────────────────

const isYes = (v: unknown): boolean => v === true || v === "true";

/** Where a device's settings are written: the device, its secondary, and a cluster's two nodes. */
const SETTINGS_AT: readonly FieldPath[] = [
  ["vendorConfig"],
  ["secondary", "vendorConfig"],
  ["clusterDetails", "clusterNodeDetails", "node0", "vendorConfig"],
  ["clusterDetails", "clusterNodeDetails", "node1", "vendorConfig"],
];

function requireAll(r: RuleContext, at: FieldPath, fields: readonly string[], because: string, code: string, hint: string): void {
  for (const f of fields) {
    if (!r.has([...at, f])) r.report({ path: [...at, f], code, message: `${f} is required when ${because}`, hint });
  }
}

/**
 * The service's rules across vendor settings, as the evidence states them:
 * - a STATIC management address needs the address, its gateway and its mask. The mask is subnetMaskIp, or
 *   privateCidrMask as the incumbent's netskope_npa_ha_device.tf writes it (the zero-touch examples
 *   c8000v_znpd_ha_static.tf and fortigate_firewall_ha_device_znpd_static.tf, and the Infoblox examples,
 *   give all three);
 * - connecting an Arista device to CloudVision needs its type and, per type, the official description's
 *   cvaasPort (As-a-Service), cvpIpAddress and cvpPort (On-Premise), and cvpToken (both);
 * - an FTD managed by FMC needs the controller's address and the activation key (the official description's
 *   managementType). A cluster gives them on its first node only (the incumbent's cisco_ftd_cluster_znpd.tf),
 *   so the rule reads the device's and the secondary's settings.
 */
export function vendorConfigRules(r: RuleContext): void {
  for (const at of SETTINGS_AT) {
    if (!r.has(at)) continue;
    if (r.get([...at, "ipAddressType"]) === "STATIC") {
      const hint = "give the management address, or set ipAddressType to DHCP or NO_IP_ADDRESS";
      requireAll(r, at, ["ipAddress", "gatewayIp"], "ipAddressType is STATIC", "rule.device-static-address", hint);
      if (!r.has([...at, "subnetMaskIp"]) && !r.has([...at, "privateCidrMask"])) {
        r.report({ path: [...at, "subnetMaskIp"], code: "rule.device-static-address", message: "subnetMaskIp (or privateCidrMask) is required when ipAddressType is STATIC", hint });
      }
    }
    if (at[0] === "clusterDetails") continue;
    if (isYes(r.get([...at, "connectToCloudVision"]))) {
      const cvpType = r.get([...at, "cvpType"]);
      const hint = "give CloudVision's details, or set connectToCloudVision to false";
      if (cvpType === "As-a-Service") requireAll(r, at, ["cvaasPort", "cvpToken"], "cvpType is As-a-Service", "rule.device-cloudvision", hint);
      else if (cvpType === "On-Premise") requireAll(r, at, ["cvpIpAddress", "cvpPort", "cvpToken"], "cvpType is On-Premise", "rule.device-cloudvision", hint);
      else if (cvpType === undefined) {
        r.report({ path: [...at, "cvpType"], code: "rule.device-cloudvision", message: "cvpType is required when connectToCloudVision is true", hint: `set cvpType to ${CLOUDVISION_TYPES.join(" or ")}` });
      }
    }
    if (r.get([...at, "managementType"]) === "FMC") {
      requireAll(r, at, ["controller1", "activationKey"], "managementType is FMC", "rule.device-fmc", "give the FMC's address (controller1) and the activation key, or choose FDM or CDO");
    }
  }
}
