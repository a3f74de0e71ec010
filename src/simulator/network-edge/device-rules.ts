// The rules of a device order (`POST /ne/v1/devices`, section 4.10 and limits of section 8), checked
// against the device-type catalogue: the combination of type, management type, licence mode, metro,
// core, package, version and tier must be one the catalogue offers. The result is a normalised order
// with every default applied, from which the device bodies are built.

import { ACCOUNTS } from "../core/auth.js";
import { canSee, projectFor, type Principal } from "../core/context.js";
import { fail } from "../core/errors.js";
import { requireAclTemplates } from "./acl-templates.js";
import {
  DEFAULT_TIER, DEVICE_TYPE_BY_CODE, LICENSE_MODES, MANAGEMENT_TYPES, licenseModeSpelling, managementSpelling, TIER_THROUGHPUT, findPackage, findVersion, metroClusterSupported,
  packageThroughputs, type CoreDef, type DeviceTypeDef, type LicenseMode, type ManagementDef, type ManagementType, type PackageDef,
  type Throughput, type VersionDef,
} from "./device-catalogue.js";
import {
  emailList, isObject, oneOf, optionalBoolean, optionalInteger, optionalObject, optionalString, optionalText, rejectUnknownFields,
  requiredString,
} from "./device-fields.js";
import { readVendorConfig } from "./device-vendor-config.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

export const TERM_LENGTHS = [1, 12, 24, 36] as const;
export const DEFAULT_TERM_LENGTH = 1;
export const DEFAULT_ADDITIONAL_BANDWIDTH = 15;
export const MAX_ADDITIONAL_BANDWIDTH = 10_000;
export const NAME_RULE = { min: 3, max: 50 };
export const NOTIFICATIONS = { min: 1, max: 5 };

export const CONNECTIVITY = ["INTERNET-ACCESS", "PRIVATE", "INTERNET-ACCESS-WITH-PRVT-MGMT"] as const;
export type Connectivity = (typeof CONNECTIVITY)[number];

const HOST_NAME_RULE = {
  min: 2,
  max: 30,
  pattern: /^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$/,
  patternText: "may hold only letters, digits and hyphens, starting with a letter and ending with a letter or digit",
};
const LICENSE_TOKEN_RULE = { pattern: /^[A-Za-z0-9]{8}$/, patternText: "must be 8 alphanumeric characters" };
const SSH_USERNAME_RULE = { min: 3, max: 32, pattern: /^[A-Za-z0-9_-]+$/, patternText: "may hold only letters, digits, dashes and underscores" };

export const CREATE_FIELDS = [
  "accountNumber", "accountReferenceId", "projectId", "version", "deviceTypeCode", "hostNamePrefix", "agreeOrderTerms", "licenseMode",
  "licenseCategory", "licenseFileId", "licenseToken", "day0TextFileId", "termlength", "metroCode", "packageCode", "sshUsers", "throughput",
  "throughputUnit", "tier", "virtualDeviceName", "orderingContact", "notifications", "aclDetails", "additionalBandwidth",
  "deviceManagementType", "core", "interfaceCount", "siteId", "systemIpAddress", "vendorConfig", "userPublicKey", "ipType",
  "sshInterfaceId", "smartLicenseUrl", "diverseFromDeviceUuid", "clusterDetails", "primaryDeviceUuid", "connectivity", "channelPartner",
  "cloudInitFileId", "purchaseOrderNumber", "orderReference", "secondary", "generateDefaultPassword",
] as const;

const SECONDARY_FIELDS = [
  "accountNumber", "accountReferenceId", "version", "additionalBandwidth", "licenseFileId", "licenseToken", "day0TextFileId", "metroCode",
  "notifications", "aclDetails", "sshUsers", "virtualDeviceName", "hostNamePrefix", "siteId", "systemIpAddress", "vendorConfig",
  "sshInterfaceId", "smartLicenseUrl", "cloudInitFileId", "purchaseOrderNumber", "orderReference",
  // Not in the specification's list, but the official client sends it (equinix/ne-go's SecondaryDeviceRequest)
  // and the incumbent provider's add-a-secondary example gives the secondary its own key.
  "userPublicKey",
];

export interface Account {
  accountNumber: number;
  accountName: string;
  ucmId: string;
}

/** The fields of one device of the order (the primary, the secondary of a pair, or a single device). */
export interface PeerOrder {
  name: string;
  metroCode: string;
  notifications: string[];
  account?: Account;
  /** Ordered against an account that is still pending: the device waits in PENDING_ACCOUNT. */
  accountReferenceId?: string;
  additionalBandwidth: number;
  version: VersionDef;
  hostNamePrefix?: string;
  vendorConfig?: JsonObject;
  licenseFileId?: string;
  licenseToken?: string;
  cloudInitFileId?: string;
  day0TextFileId?: string;
  sshInterfaceId?: number;
  siteId?: string;
  systemIpAddress?: string;
  smartLicenseUrl?: string;
  /** A secondary's own user key, where its order names one; else it takes the primary's. */
  userPublicKey?: PublicKeyRef;
  /** A secondary may be billed against its own purchase order; a primary's are the order's. */
  purchaseOrderNumber?: string;
  orderReference?: string;
  aclDetails: JsonObject[];
  sshUsers: JsonObject[];
}

export interface ClusterNodeOrder {
  licenseFileId?: string;
  licenseToken?: string;
  vendorConfig?: JsonObject;
}

export interface ClusterOrder {
  name: string;
  nodes: [ClusterNodeOrder, ClusterNodeOrder];
}

export interface PublicKeyRef {
  username: string;
  keyName: string;
  keyValue: string;
  keyType: string;
}

export interface DeviceOrder {
  type: DeviceTypeDef;
  management: ManagementType;
  licenseMode: LicenseMode;
  pkg: PackageDef;
  core: CoreDef;
  tier?: number;
  throughput?: Throughput;
  interfaceCount: number;
  termLength: number;
  connectivity: Connectivity;
  projectId: string;
  primary: PeerOrder;
  secondary?: PeerOrder;
  cluster?: ClusterOrder;
  /** Adding a secondary to this existing device. */
  existingPrimary?: SimObject;
  diverseFrom?: SimObject;
  userPublicKey?: PublicKeyRef;
  purchaseOrderNumber?: string;
  orderReference?: string;
  channelPartner?: string;
  orderingContact?: string;
}

// ── shared lookups ───────────────────────────────────────────────────────────────────────────

export function accountByNumber(accountNumber: number): Account | undefined {
  return Object.values(ACCOUNTS).find((a) => a.accountNumber === accountNumber);
}

/** The caller's account of this number; a 400 for an account that is not the caller's. */
export function callerAccount(principal: Principal, raw: string, property: string): Account {
  const number = /^\d+$/.test(raw) ? Number(raw) : NaN;
  const account = accountByNumber(number);
  if (!account || !principal.accountNumbers.includes(number)) {
    return fail("invalidProperty", property, `account ${raw} is not one of your accounts (${principal.accountNumbers.join(", ")})`, raw);
  }
  return account;
}

export function deviceType(code: string, property: string): DeviceTypeDef {
  const type = DEVICE_TYPE_BY_CODE.get(code);
  if (!type) return fail("notInAllowedList", property, `${property} must be one of ${[...DEVICE_TYPE_BY_CODE.keys()].join(", ")}`, code);
  return type;
}

function managementOf(type: DeviceTypeDef, management: ManagementType, property: string): ManagementDef {
  const def = type.management[management];
  if (!def) {
    const offered = Object.keys(type.management).join(", ");
    return fail("notInAllowedList", property, `${type.code} is offered as ${offered}, not ${management}`, management);
  }
  return def;
}

/** An uploaded file (kind `files`, made by `POST /ne/v1/files` or the licence upload) that the caller may use. */
function uploadedFile(world: World, principal: Principal, id: string, property: string): string {
  const file = world.get(id, "files");
  if (!file || !canSee(principal, file)) return fail("referenceNotFound", property, `no uploaded file ${id}`, id);
  return id;
}

function optionalFile(world: World, principal: Principal, body: JsonObject, key: string, property: string): string | undefined {
  const id = optionalString(body, key, property);
  return id === undefined ? undefined : uploadedFile(world, principal, id, property);
}

/** A device's ACL templates by interface; each must be a template the caller has. */
export function aclDetails(world: World, principal: Principal, body: JsonObject, property: string): JsonObject[] {
  const value = body.aclDetails;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail("invalidProperty", property, `${property} must be an array`, JSON.stringify(value));
  const entries = value.map((entry, i) => {
    const p = `${property}[${i}]`;
    if (!isObject(entry)) return fail("invalidProperty", p, `${p} must be an object`);
    rejectUnknownFields(entry, ["interfaceType", "uuid"], `${p}.`);
    oneOf(requiredString(entry, "interfaceType", `${p}.interfaceType`), ["MGMT", "WAN"], `${p}.interfaceType`);
    requiredString(entry, "uuid", `${p}.uuid`);
    return entry;
  });
  requireAclTemplates(world, principal, entries, property);
  return entries;
}

function sshUsers(body: JsonObject, property: string): JsonObject[] {
  const value = body.sshUsers;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail("invalidProperty", property, `${property} must be an array`, JSON.stringify(value));
  return value.map((entry, i) => {
    const p = `${property}[${i}]`;
    if (!isObject(entry)) return fail("invalidProperty", p, `${p} must be an object`);
    rejectUnknownFields(entry, ["sshUsername", "sshPassword", "sshUserUuid", "action"], `${p}.`);
    const action = oneOf(optionalString(entry, "action", `${p}.action`) ?? "CREATE", ["CREATE", "DELETE", "REUSE"], `${p}.action`);
    if (action === "CREATE") {
      requiredString(entry, "sshUsername", `${p}.sshUsername`, SSH_USERNAME_RULE);
      requiredString(entry, "sshPassword", `${p}.sshPassword`, { min: 6 });
    } else {
      requiredString(entry, "sshUserUuid", `${p}.sshUserUuid`);
    }
    return entry;
  });
}

export function parseTermLength(body: JsonObject, key: string, property: string): number | undefined {
  const raw = optionalText(body, key, property);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(TERM_LENGTHS as readonly number[]).includes(n)) return fail("notInAllowedList", property, `${property} must be one of ${TERM_LENGTHS.join(", ")} (months)`, raw);
  return n;
}

// ── the order ────────────────────────────────────────────────────────────────────────────────

export interface Offer {
  type: DeviceTypeDef;
  management: ManagementType;
  managementDef: ManagementDef;
  licenseMode: LicenseMode;
  core: CoreDef;
  pkg: PackageDef;
}

/** How the fields of an offer are named in the request (create body, or price query). */
export interface OfferNames {
  deviceTypeCode: string;
  deviceManagementType: string;
  licenseMode: string;
  core: string;
  packageCode: string;
}
const CREATE_NAMES: OfferNames = { deviceTypeCode: "deviceTypeCode", deviceManagementType: "deviceManagementType", licenseMode: "licenseMode", core: "core", packageCode: "packageCode" };

/** Type, management type, licence mode, core and package: the combination must be in the catalogue. */
export function resolveOffer(body: JsonObject, names: OfferNames = CREATE_NAMES): Offer {
  const type = deviceType(requiredString(body, "deviceTypeCode", names.deviceTypeCode), names.deviceTypeCode);
  const management = oneOf(managementSpelling(requiredString(body, "deviceManagementType", names.deviceManagementType)), MANAGEMENT_TYPES, names.deviceManagementType);
  const managementDef = managementOf(type, management, names.deviceManagementType);
  const offeredModes = LICENSE_MODES.filter((m) => managementDef.licenses[m]);
  const requestedMode = optionalString(body, "licenseMode", names.licenseMode);
  const licenseMode = requestedMode === undefined ? offeredModes[0]! : oneOf(licenseModeSpelling(requestedMode), LICENSE_MODES, names.licenseMode);
  const cores = managementDef.licenses[licenseMode];
  if (!cores) return fail("notInAllowedList", names.licenseMode, `${type.code} ${management} is offered with ${offeredModes.join(", ")}`, licenseMode);
  const coreCount = optionalInteger(body, "core", names.core);
  if (coreCount === undefined) return fail("missingProperty", names.core, `${names.core} is required`);
  const core = cores.find((c) => c.core === coreCount);
  if (!core) return fail("notInAllowedList", names.core, `${type.code} ${management} ${licenseMode} offers ${cores.map((c) => c.core).join(", ")} cores`, coreCount);
  const packageCode = optionalString(body, "packageCode", names.packageCode) ?? core.packages[0]!;
  const pkg = findPackage(type, packageCode);
  if (!pkg) return fail("notInAllowedList", names.packageCode, `${type.code} packages are ${type.packages.map((p) => p.code).join(", ")}`, packageCode);
  if (!core.packages.includes(pkg.code)) {
    fail("notInAllowedList", names.packageCode, `package ${pkg.code} is not offered with ${core.core} cores; offered: ${core.packages.join(", ")}`, pkg.code);
  }
  return { type, management, managementDef, licenseMode, core, pkg };
}

function chooseVersion(o: Offer, requested: string | undefined, property: string): VersionDef {
  const candidates = o.pkg.versions.filter((v) => v.licenseModes.includes(o.licenseMode));
  if (requested === undefined) return candidates.find((v) => v.stable) ?? candidates[candidates.length - 1]!;
  const found = findVersion(o.pkg, requested);
  if (!found) return fail("notInAllowedList", property, `${o.pkg.code} versions are ${o.pkg.versions.map((v) => v.version).join(", ")}`, requested);
  if (!found.licenseModes.includes(o.licenseMode)) fail("notInAllowedList", property, `version ${requested} is not offered with ${o.licenseMode}`, requested);
  return found;
}

/**
 * Tier (8000-series) or numeric throughput, with the tier default of 2. A throughput the catalogue offers for
 * the package and core is ordered under either management type: it names its tier.
 */
function throughputChoice(o: Offer, body: JsonObject): { tier?: number; throughput?: Throughput } {
  const tier = optionalInteger(body, "tier", "tier", 0, 3);
  const value = optionalInteger(body, "throughput", "throughput", 1);
  const unitRaw = optionalString(body, "throughputUnit", "throughputUnit");
  const unit = unitRaw === undefined ? undefined : oneOf(unitRaw, ["Mbps", "Gbps"] as const, "throughputUnit");
  const offered = packageThroughputs(o.type, o.pkg, o.core);
  const matching = value === undefined ? undefined : offered.find((t) => t.value === value && (unit === undefined || t.unit === unit));
  if (value !== undefined && !matching) {
    fail("notInAllowedList", "throughput", `throughput options are ${offered.map((t) => `${t.value} ${t.unit}`).join(", ") || "none"}`, value);
  }
  if (!o.type.tiered) {
    if (tier !== undefined) fail("invalidProperty", "tier", "tier applies to 8000-series devices only", tier);
    return { throughput: matching ?? o.pkg.throughput };
  }
  if (matching) {
    if (tier !== undefined) fail("invalidProperty", "throughput", "choose either tier or a numeric throughput, not both", value);
    const chosen = Object.entries(TIER_THROUGHPUT).find(([, t]) => t === matching)!;
    return { tier: Number(chosen[0]), throughput: matching };
  }
  const chosenTier = tier ?? DEFAULT_TIER;
  if (!(o.core.tiers ?? []).includes(chosenTier)) {
    fail("notInAllowedList", "tier", `${o.core.core}-core ${o.type.code} offers tiers ${(o.core.tiers ?? []).join(", ")}`, chosenTier);
  }
  return { tier: chosenTier, throughput: TIER_THROUGHPUT[chosenTier]! };
}

function metroOf(type: DeviceTypeDef, body: JsonObject, property: string): string {
  const metro = requiredString(body, "metroCode", property);
  if (!type.metros.includes(metro)) return fail("notInAllowedList", property, `${type.code} is offered in ${type.metros.join(", ")}`, metro);
  return metro;
}

type AccountChoice = Pick<PeerOrder, "account" | "accountReferenceId">;

/** The account a device is ordered on; a secondary without one of its own takes its primary's. */
function accountOf(principal: Principal, body: JsonObject, prefix: string, fallback: AccountChoice | undefined): AccountChoice {
  const number = optionalText(body, "accountNumber", `${prefix}accountNumber`);
  const referenceId = optionalString(body, "accountReferenceId", `${prefix}accountReferenceId`);
  if (number !== undefined && number !== "") return { account: callerAccount(principal, number, `${prefix}accountNumber`) };
  if (referenceId !== undefined && referenceId !== "") return { accountReferenceId: referenceId };
  return fallback ?? { account: accountByNumber(principal.accountNumbers[0]!)! };
}

/** Licence credentials that a BYOL device of the type must bring (and that a SUB device must not). */
function licenseCredentials(world: World, principal: Principal, o: Offer, body: JsonObject, prefix: string, required: boolean): Pick<PeerOrder, "licenseFileId" | "licenseToken"> {
  const licenseFileId = optionalFile(world, principal, body, "licenseFileId", `${prefix}licenseFileId`);
  const licenseToken = optionalString(body, "licenseToken", `${prefix}licenseToken`, LICENSE_TOKEN_RULE);
  if (o.licenseMode === "SUB") {
    if (licenseFileId !== undefined) fail("invalidProperty", `${prefix}licenseFileId`, "licenseFileId applies to BYOL devices only", licenseFileId);
    if (licenseToken !== undefined) fail("invalidProperty", `${prefix}licenseToken`, "licenseToken applies to BYOL devices only", licenseToken);
    return {};
  }
  const needed = o.type.byolCredential;
  switch (needed) {
    case "none":
      break;
    case "licenseFileId":
      if (required && licenseFileId === undefined) fail("missingProperty", `${prefix}licenseFileId`, `a BYOL ${o.type.code} needs the licenseFileId of an uploaded licence file`);
      break;
    case "licenseToken":
      if (required && licenseToken === undefined) fail("missingProperty", `${prefix}licenseToken`, `a BYOL ${o.type.code} needs a licenseToken`);
      break;
    default: {
      const unreachable: never = needed;
      return unreachable;
    }
  }
  return { ...(licenseFileId === undefined ? {} : { licenseFileId }), ...(licenseToken === undefined ? {} : { licenseToken }) };
}

function sshInterface(o: Offer, body: JsonObject, property: string, interfaceCount: number): number | undefined {
  const raw = optionalText(body, "sshInterfaceId", property);
  if (raw === undefined) return undefined;
  if (o.management !== "SELF-CONFIGURED") return fail("invalidProperty", property, "sshInterfaceId applies to self-configured devices only", raw);
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(id >= 1 && id <= interfaceCount)) return fail("invalidProperty", property, `sshInterfaceId must be an interface of the device (1 to ${interfaceCount})`, raw);
  return id;
}

/** The value of an additional field: top level or in vendorConfig. */
function additionalFieldValue(body: JsonObject, name: string): Json | undefined {
  const config = isObject(body.vendorConfig) ? body.vendorConfig : {};
  return config[name] ?? body[name];
}

/** Where an additional field is written: in vendorConfig, or beside it. */
const additionalFieldProperty = (body: JsonObject, name: string, prefix: string): string =>
  isObject(body.vendorConfig) && body.vendorConfig[name] !== undefined && body.vendorConfig[name] !== null ? `${prefix}vendorConfig.${name}` : `${prefix}${name}`;

function checkAdditionalFields(def: ManagementDef, body: JsonObject, prefix: string): void {
  for (const field of def.additionalFields) {
    const value = additionalFieldValue(body, field.name);
    if (field.required && (value === undefined || value === null || value === "")) {
      fail("missingProperty", `${prefix}vendorConfig.${field.name}`, `${field.name} is required for this device type`);
    }
  }
}

interface PeerContext {
  prefix: string;
  fallbackAccount: AccountChoice | undefined;
  interfaceCount: number;
  version: string | undefined;
  /** A cluster's licences come per node, so its device-level credentials are optional. */
  needsLicense: boolean;
  /** A cluster's settings come per node, so the type's required settings are checked there. */
  cluster: boolean;
}

function peer(world: World, principal: Principal, o: Offer, body: JsonObject, ctx: PeerContext): PeerOrder {
  const { prefix, interfaceCount } = ctx;
  const p = (key: string) => `${prefix}${key}`;
  const order: PeerOrder = {
    name: requiredString(body, "virtualDeviceName", p("virtualDeviceName"), NAME_RULE),
    metroCode: metroOf(o.type, body, p("metroCode")),
    notifications: emailList(body.notifications, p("notifications"), NOTIFICATIONS.min, NOTIFICATIONS.max),
    ...accountOf(principal, body, prefix, ctx.fallbackAccount),
    additionalBandwidth: optionalInteger(body, "additionalBandwidth", p("additionalBandwidth"), 0, MAX_ADDITIONAL_BANDWIDTH) ?? DEFAULT_ADDITIONAL_BANDWIDTH,
    version: chooseVersion(o, ctx.version, p("version")),
    aclDetails: aclDetails(world, principal, body, p("aclDetails")),
    sshUsers: sshUsers(body, p("sshUsers")),
    ...licenseCredentials(world, principal, o, body, prefix, ctx.needsLicense),
  };
  const optional: Array<[keyof PeerOrder, string | number | JsonObject | undefined]> = [
    ["hostNamePrefix", optionalString(body, "hostNamePrefix", p("hostNamePrefix"), HOST_NAME_RULE)],
    ["vendorConfig", readVendorConfig(body, p("vendorConfig"), "device")],
    ["cloudInitFileId", optionalFile(world, principal, body, "cloudInitFileId", p("cloudInitFileId"))],
    ["day0TextFileId", optionalFile(world, principal, body, "day0TextFileId", p("day0TextFileId"))],
    ["sshInterfaceId", sshInterface(o, body, p("sshInterfaceId"), interfaceCount)],
    ["siteId", optionalString(body, "siteId", p("siteId"))],
    ["systemIpAddress", optionalString(body, "systemIpAddress", p("systemIpAddress"))],
    ["smartLicenseUrl", optionalString(body, "smartLicenseUrl", p("smartLicenseUrl"))],
    ["purchaseOrderNumber", optionalString(body, "purchaseOrderNumber", p("purchaseOrderNumber"))],
    ["orderReference", optionalString(body, "orderReference", p("orderReference"))],
  ];
  const target = order as unknown as Record<string, unknown>;
  for (const [key, value] of optional) if (value !== undefined) target[key] = value;
  if (!ctx.cluster) checkAdditionalFields(o.managementDef, body, prefix);
  return order;
}

function cluster(world: World, principal: Principal, o: Offer, body: JsonObject, metroCode: string, needsLicense: boolean): ClusterOrder | undefined {
  const details = optionalObject(body, "clusterDetails", "clusterDetails");
  if (!details) return undefined;
  if (!o.managementDef.clustering) fail("invalidProperty", "clusterDetails", `${o.type.code} ${o.management} devices cannot be clustered`);
  if (!metroClusterSupported(metroCode)) fail("invalidProperty", "metroCode", `metro ${metroCode} does not support cluster devices`, metroCode);
  rejectUnknownFields(details, ["clusterName", "clusterNodeDetails"], "clusterDetails.");
  const name = requiredString(details, "clusterName", "clusterDetails.clusterName", NAME_RULE);
  const nodeDetails = optionalObject(details, "clusterNodeDetails", "clusterDetails.clusterNodeDetails");
  if (!nodeDetails) return fail("missingProperty", "clusterDetails.clusterNodeDetails", "clusterNodeDetails with node0 and node1 is required");
  rejectUnknownFields(nodeDetails, ["node0", "node1"], "clusterDetails.clusterNodeDetails.");
  const node = (key: "node0" | "node1"): ClusterNodeOrder => {
    const prefix = `clusterDetails.clusterNodeDetails.${key}.`;
    const raw = optionalObject(nodeDetails, key, prefix.slice(0, -1));
    if (!raw) return fail("missingProperty", prefix.slice(0, -1), `${key} is required`);
    rejectUnknownFields(raw, ["licenseFileId", "licenseToken", "vendorConfig"], prefix);
    const config = readVendorConfig(raw, `${prefix}vendorConfig`, "node");
    checkAdditionalFields(o.managementDef, raw, prefix);
    return { ...licenseCredentials(world, principal, o, raw, prefix, needsLicense), ...(config ? { vendorConfig: config } : {}) };
  };
  return { name, nodes: [node("node0"), node("node1")] };
}

/**
 * The key a device's user logs in with. The create body (4.10) takes it whatever the management type, and
 * real provider-managed devices carry one (equinix/ne-go's recorded device ne_device_get_resp.json).
 */
function userPublicKey(world: World, principal: Principal, body: JsonObject, prefix = ""): PublicKeyRef | undefined {
  const raw = optionalObject(body, "userPublicKey", `${prefix}userPublicKey`);
  if (!raw) return undefined;
  rejectUnknownFields(raw, ["username", "keyName"], `${prefix}userPublicKey.`);
  const username = requiredString(raw, "username", `${prefix}userPublicKey.username`, { min: 3, max: 32 });
  const keyName = requiredString(raw, "keyName", `${prefix}userPublicKey.keyName`);
  const key = world
    .list("publicKeys")
    .filter((k) => canSee(principal, k))
    .map((k) => world.view(k))
    .find((k) => k.keyName === keyName);
  if (!key) return fail("referenceNotFound", `${prefix}userPublicKey.keyName`, `no public key named ${keyName}; create it with POST /ne/v1/publicKeys`, keyName);
  return { username, keyName, keyValue: String(key.keyValue ?? ""), keyType: String(key.keyType ?? "RSA") };
}

function referencedDevice(world: World, principal: Principal, uuid: string, property: string): SimObject {
  const device = world.get(uuid, "devices");
  const status = device ? world.view(device).status : undefined;
  if (!device || !canSee(principal, device) || status === "DRAFT" || status === "DEPROVISIONED" || status === "DEPROVISIONING") {
    return fail("referenceNotFound", property, `no virtual device ${uuid}`, uuid);
  }
  return device;
}

function existingPrimary(world: World, principal: Principal, type: DeviceTypeDef, uuid: string): SimObject {
  const device = referencedDevice(world, principal, uuid, "primaryDeviceUuid");
  const view = world.view(device);
  if (view.deviceTypeCode !== type.code) fail("invalidProperty", "deviceTypeCode", `the secondary must be a ${String(view.deviceTypeCode)} like its primary`, type.code);
  if (view.redundancyType !== "PRIMARY" || view.redundantUuid) fail("invalidProperty", "primaryDeviceUuid", `device ${uuid} is not a single device; it already has a peer or is a cluster`, uuid);
  if (view.status !== "PROVISIONED") fail("invalidProperty", "primaryDeviceUuid", `device ${uuid} is ${String(view.status)}; a secondary can be added to a PROVISIONED device`, uuid);
  return device;
}

function checkDistinctFields(def: ManagementDef, primary: JsonObject, secondary: JsonObject): void {
  for (const field of [...def.additionalFields]) {
    if (field.isSameValueAllowedForPrimaryAndSecondary) continue;
    const a = additionalFieldValue(primary, field.name);
    const b = additionalFieldValue(secondary, field.name);
    if (a !== undefined && a !== null && a === b) {
      fail("invalidProperty", additionalFieldProperty(secondary, field.name, "secondary."), `${field.name} must differ between the primary and the secondary device`, String(b));
    }
  }
}

/** Validates a create request completely; the first broken rule is the answer. */
export function validateCreate(world: World, principal: Principal, body: JsonObject): DeviceOrder {
  rejectUnknownFields(body, CREATE_FIELDS);
  const o = resolveOffer(body);
  const primaryUuid = optionalString(body, "primaryDeviceUuid", "primaryDeviceUuid");
  const addingSecondary = primaryUuid !== undefined;
  const existing = addingSecondary ? existingPrimary(world, principal, o.type, primaryUuid) : undefined;
  if (optionalBoolean(body, "agreeOrderTerms", "agreeOrderTerms") === false) {
    fail("invalidProperty", "agreeOrderTerms", "the order terms must be accepted (GET /ne/v1/agreements/orders) to create a device");
  }
  const ipType = optionalString(body, "ipType", "ipType");
  if (ipType !== undefined) oneOf(ipType, ["STATIC"], "ipType");
  const projectId = projectFor(principal, body.projectId, "projectId");
  const connectivity = oneOf(optionalString(body, "connectivity", "connectivity") ?? "INTERNET-ACCESS", CONNECTIVITY, "connectivity");
  const isCluster = body.clusterDetails !== undefined && body.clusterDetails !== null;
  const counts = isCluster ? (o.type.clusterInterfaceCounts ?? o.type.interfaceCounts) : o.type.interfaceCounts;
  const interfaceCount = optionalInteger(body, "interfaceCount", "interfaceCount") ?? counts[0]!;
  if (!counts.includes(interfaceCount)) fail("notInAllowedList", "interfaceCount", `${o.type.code} offers ${counts.join(" or ")} interfaces`, interfaceCount);
  if (connectivity === "PRIVATE" && body.additionalBandwidth !== undefined && body.additionalBandwidth !== 0) {
    fail("invalidProperty", "additionalBandwidth", "PRIVATE devices have no internet bandwidth", JSON.stringify(body.additionalBandwidth));
  }

  const secondaryBody = optionalObject(body, "secondary", "secondary");
  if (addingSecondary && !secondaryBody) fail("missingProperty", "secondary", "adding a secondary to an existing primary needs the secondary object");
  const requestedVersion = optionalString(body, "version", "version");
  // A zero-touch device of a type licensed on the device itself is ordered without a licence credential.
  const needsLicense = !(connectivity === "PRIVATE" && o.type.zeroTouchLicense === true);
  const primary = peer(world, principal, o, body, {
    prefix: "",
    fallbackAccount: undefined,
    interfaceCount,
    version: requestedVersion,
    needsLicense: needsLicense && !isCluster && !addingSecondary,
    cluster: isCluster,
  });
  if (connectivity === "PRIVATE") primary.additionalBandwidth = 0;

  let secondary: PeerOrder | undefined;
  if (secondaryBody) {
    if (isCluster) fail("invalidProperty", "secondary", "a cluster device cannot also have a secondary device");
    rejectUnknownFields(secondaryBody, SECONDARY_FIELDS, "secondary.");
    const secondaryVersion = optionalString(secondaryBody, "version", "secondary.version");
    if (!addingSecondary && secondaryVersion !== undefined && secondaryVersion !== primary.version.version) {
      fail("invalidProperty", "secondary.version", "a secondary's own version can only be chosen when adding it to an existing primary", secondaryVersion);
    }
    secondary = peer(world, principal, o, secondaryBody, {
      prefix: "secondary.",
      fallbackAccount: {
        ...(primary.account ? { account: primary.account } : {}),
        ...(primary.accountReferenceId === undefined ? {} : { accountReferenceId: primary.accountReferenceId }),
      },
      interfaceCount,
      version: addingSecondary ? (secondaryVersion ?? primary.version.version) : primary.version.version,
      needsLicense,
      cluster: false,
    });
    if (connectivity === "PRIVATE") secondary.additionalBandwidth = 0;
    const secondaryKey = userPublicKey(world, principal, secondaryBody, "secondary.");
    if (secondaryKey) secondary.userPublicKey = secondaryKey;
    checkDistinctFields(o.managementDef, body, secondaryBody);
  }
  const diverseUuid = optionalString(body, "diverseFromDeviceUuid", "diverseFromDeviceUuid");
  if (diverseUuid !== undefined && (secondaryBody || isCluster)) {
    fail("invalidProperty", "diverseFromDeviceUuid", "diverseFromDeviceUuid applies to single devices only", diverseUuid);
  }
  const { tier, throughput } = throughputChoice(o, body);
  const key = userPublicKey(world, principal, body);
  const clusterOrder = cluster(world, principal, o, body, primary.metroCode, needsLicense);
  if (clusterOrder) {
    // A cluster's licences come per node; the device-level credentials are not used.
    delete primary.licenseFileId;
    delete primary.licenseToken;
  }
  const text = (k: string) => optionalString(body, k, k);
  const optional = {
    purchaseOrderNumber: text("purchaseOrderNumber"),
    orderReference: text("orderReference"),
    channelPartner: text("channelPartner"),
    orderingContact: text("orderingContact"),
  };
  optionalString(body, "licenseCategory", "licenseCategory");
  optionalBoolean(body, "generateDefaultPassword", "generateDefaultPassword");
  return {
    type: o.type,
    management: o.management,
    licenseMode: o.licenseMode,
    pkg: o.pkg,
    core: o.core,
    ...(tier === undefined ? {} : { tier }),
    ...(throughput === undefined ? {} : { throughput }),
    interfaceCount,
    termLength: parseTermLength(body, "termlength", "termlength") ?? DEFAULT_TERM_LENGTH,
    connectivity,
    projectId,
    primary,
    ...(secondary ? { secondary } : {}),
    ...(clusterOrder ? { cluster: clusterOrder } : {}),
    ...(existing ? { existingPrimary: existing } : {}),
    ...(diverseUuid === undefined ? {} : { diverseFrom: referencedDevice(world, principal, diverseUuid, "diverseFromDeviceUuid") }),
    ...(key ? { userPublicKey: key } : {}),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

/**
 * A draft holds an order that is not complete yet: the fields it has must be valid, but only a name
 * is required (so that it can be found again).
 */
export function validateDraft(principal: Principal, body: JsonObject): { projectId: string; type?: DeviceTypeDef } {
  rejectUnknownFields(body, CREATE_FIELDS);
  requiredString(body, "virtualDeviceName", "virtualDeviceName", NAME_RULE);
  if (body.notifications !== undefined) emailList(body.notifications, "notifications", NOTIFICATIONS.min, NOTIFICATIONS.max);
  const code = optionalString(body, "deviceTypeCode", "deviceTypeCode");
  const type = code === undefined ? undefined : deviceType(code, "deviceTypeCode");
  const metro = optionalString(body, "metroCode", "metroCode");
  if (type && metro !== undefined) metroOf(type, body, "metroCode");
  const management = optionalString(body, "deviceManagementType", "deviceManagementType");
  if (management !== undefined) oneOf(managementSpelling(management), MANAGEMENT_TYPES, "deviceManagementType");
  const mode = optionalString(body, "licenseMode", "licenseMode");
  if (mode !== undefined) oneOf(licenseModeSpelling(mode), LICENSE_MODES, "licenseMode");
  optionalInteger(body, "core", "core", 1);
  optionalInteger(body, "tier", "tier", 0, 3);
  optionalInteger(body, "additionalBandwidth", "additionalBandwidth", 0, MAX_ADDITIONAL_BANDWIDTH);
  parseTermLength(body, "termlength", "termlength");
  if (body.accountNumber !== undefined) {
    const raw = optionalText(body, "accountNumber", "accountNumber");
    if (raw !== undefined) callerAccount(principal, raw, "accountNumber");
  }
  return { projectId: projectFor(principal, body.projectId, "projectId"), ...(type ? { type } : {}) };
}
