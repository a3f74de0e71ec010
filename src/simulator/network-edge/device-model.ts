// How a virtual device looks and lives: the body built from a validated order (section 2.10), its
// interfaces, its charges (the same model for a device's pricingDetails and for `GET /ne/v1/prices`),
// and the timed phases of its statuses (section 3.6) from order to PROVISIONED and from delete to
// DEPROVISIONED.

import type { Principal } from "../core/context.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import {
  DEVICE_TYPE_BY_CODE, LICENSE_NAMES, findPackage, type DeviceTypeDef, type LicenseMode, type ManagementType, type PackageDef,
} from "./device-catalogue.js";
import type { Account, DeviceOrder, PeerOrder, PublicKeyRef } from "./device-rules.js";
import { publicVendorConfig } from "./device-vendor-config.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

export const DEVICE_KIND = "devices";

export const DEVICE_STATUSES = [
  "INITIALIZING", "PENDING_ACCOUNT", "PROVISIONING", "WAITING_FOR_PRIMARY", "WAITING_FOR_SECONDARY", "WAITING_FOR_REPLICA_CLUSTER_NODES",
  "CLUSTER_SETUP_IN_PROGRESS", "CLUSTER_SETUP_FAILED", "PROVISIONED", "FAILED", "DEPROVISIONING", "DEPROVISIONED", "DRAFT",
] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Simulated durations (ms, divided by --speed). Devices are the slowest assets of the service. */
export const DURATIONS = {
  accountActivation: 2 * 60_000,
  initializing: 60_000,
  waitForPrimary: 30_000,
  provisioned: 8 * 60_000,
  pairProvisioned: 12 * 60_000,
  clusterReplicas: 5 * 60_000,
  clusterSetup: 8 * 60_000,
  clusterProvisioned: 12 * 60_000,
  deprovisioned: 3 * 60_000,
  licenseApplied: 60_000,
} as const;

type Changes = Record<string, Json>;
export interface Step {
  afterMs: number;
  set: Changes;
}

// ── interfaces ─────────────────────────────────────────────────────────────────────────────────

export type InterfaceRole = "MGMT" | "SSH" | "DATA";

/** The role of each interface: provider-configured devices keep interface 1 for management, self-configured ones an SSH interface. */
export function interfaceRole(management: ManagementType, id: number, sshInterfaceId: number | undefined): InterfaceRole {
  switch (management) {
    case "PROVIDER-CONFIGURED":
      return id === 1 ? "MGMT" : "DATA";
    case "SELF-CONFIGURED":
      return id === (sshInterfaceId ?? 1) ? "SSH" : "DATA";
    default: {
      const unreachable: never = management;
      return unreachable;
    }
  }
}

const ipv4 = (world: World, first: number) => `${first}.${world.random.int(0, 255)}.${world.random.int(0, 255)}.${world.random.int(2, 254)}`;
const mac = (world: World) => `fa16.${world.random.hex(4)}.${world.random.hex(4)}`;

function interfaces(world: World, order: DeviceOrder, peer: PeerOrder): JsonObject[] {
  const out: JsonObject[] = [];
  for (let id = 1; id <= order.interfaceCount; id++) {
    const role = interfaceRole(order.management, id, peer.sshInterfaceId);
    out.push({
      id,
      name: order.type.interfaceName(id),
      macAddress: mac(world),
      status: role === "DATA" ? "AVAILABLE" : "ASSIGNED",
      type: role,
      vxLan: world.random.int(2000, 9999),
      ...(role === "DATA" ? {} : { ipAddress: ipv4(world, 10), assignedType: role === "MGMT" ? "Equinix Managed" : "Customer Managed" }),
    });
  }
  return out;
}

// ── charges ────────────────────────────────────────────────────────────────────────────────────

export interface PriceInput {
  type: DeviceTypeDef;
  pkg: PackageDef;
  core: number;
  licenseMode: LicenseMode;
  management: ManagementType;
  termLength: number;
  additionalBandwidth: number;
  metroCode: string;
}

const TERM_DISCOUNT: Readonly<Record<number, number>> = { 1: 1, 12: 0.9, 24: 0.85, 36: 0.8 };

/** Monthly recurring charges of one device: the VM, the licence (subscription only), management and bandwidth. */
export function deviceCharges(input: PriceInput): { currency: string; charges: JsonObject[] } {
  const discount = TERM_DISCOUNT[input.termLength] ?? 1;
  const packageRank = Math.max(0, input.type.packages.indexOf(input.pkg));
  const money = (n: number) => (Math.round(n * discount * 100) / 100).toFixed(2);
  const charges: JsonObject[] = [{ description: "VIRTUAL_DEVICE", monthlyRecurringCharges: money(150 + 110 * input.core) }];
  if (input.licenseMode === "SUB") charges.push({ description: "DEVICE_LICENSE", monthlyRecurringCharges: money(input.core * (40 + 25 * packageRank)) });
  if (input.management === "PROVIDER-CONFIGURED") charges.push({ description: "DEVICE_MANAGEMENT", monthlyRecurringCharges: money(75) });
  if (input.additionalBandwidth > 0) charges.push({ description: "ADDITIONAL_BANDWIDTH", monthlyRecurringCharges: money(input.additionalBandwidth * 1.2) });
  const currency = METRO_BY_CODE.get(input.metroCode)?.region === "EMEA" ? "EUR" : "USD";
  return { currency, charges };
}

function priceInput(order: DeviceOrder, peer: PeerOrder): PriceInput {
  return {
    type: order.type,
    pkg: order.pkg,
    core: order.core.core,
    licenseMode: order.licenseMode,
    management: order.management,
    termLength: order.termLength,
    additionalBandwidth: peer.additionalBandwidth,
    metroCode: peer.metroCode,
  };
}

function pricingDetails(world: World, order: DeviceOrder, peers: { primary: PeerOrder; secondary?: PeerOrder }): JsonObject {
  const block = (peer: PeerOrder) => ({ ...deviceCharges(priceInput(order, peer)), billingEnabled: false });
  return {
    termLength: String(order.termLength),
    orderNumber: `1-${world.random.int(100_000_000_000, 999_999_999_999)}`,
    core: order.core.core,
    ...(order.throughput ? { throughput: String(order.throughput.value), throughputUnit: order.throughput.unit } : {}),
    packageCode: order.pkg.code,
    additionalBandwidth: String(peers.primary.additionalBandwidth),
    primary: block(peers.primary),
    ...(peers.secondary ? { secondary: block(peers.secondary) } : {}),
    ...(order.channelPartner ? { channelPartner: order.channelPartner } : {}),
  };
}

// ── bodies ─────────────────────────────────────────────────────────────────────────────────────

export type DeviceRole = "SINGLE" | "PRIMARY" | "SECONDARY" | "CLUSTER";

function redundancyType(role: DeviceRole): "PRIMARY" | "SECONDARY" | "CLUSTER" {
  switch (role) {
    case "SINGLE":
    case "PRIMARY":
      return "PRIMARY";
    case "SECONDARY":
      return "SECONDARY";
    case "CLUSTER":
      return "CLUSTER";
    default: {
      const unreachable: never = role;
      return unreachable;
    }
  }
}

export function auditCreated(principal: Principal, at: string): JsonObject {
  return { createdBy: principal.userName, createdDate: at, lastUpdatedBy: principal.userName, lastUpdatedDate: at };
}

export function auditUpdated(principal: Principal, at: string): Changes {
  return { "/lastUpdatedBy": principal.userName, "/lastUpdatedDate": at };
}

function accountFields(account: Account | undefined): JsonObject {
  return account ? { accountNumber: String(account.accountNumber), accountName: account.accountName } : {};
}

function sdwanFields(order: DeviceOrder, peer: PeerOrder): JsonObject {
  if (order.type.category !== "SDWAN" || !peer.vendorConfig) return {};
  const picked: JsonObject = {};
  // The licence key is a secret: the record names the device's identity and controllers only.
  for (const key of ["localId", "remoteId", "controller1", "controller2"]) {
    const value = peer.vendorConfig[key];
    if (typeof value === "string") picked[key] = value;
  }
  return picked;
}

function clusterDetails(world: World, order: DeviceOrder, peer: PeerOrder): JsonObject | undefined {
  if (!order.cluster) return undefined;
  return {
    clusterId: world.uuid(),
    clusterName: order.cluster.name,
    numOfNodes: 2,
    nodes: order.cluster.nodes.map((node, i) => ({
      name: `${peer.name}-node${i}`,
      uuid: world.uuid(),
      node: i,
      ...(node.licenseFileId ? { licenseFileId: node.licenseFileId } : {}),
      ...(typeof node.vendorConfig?.hostname === "string" ? { hostName: node.vendorConfig.hostname } : {}),
    })),
  };
}

/** The device record names the WAN interface's ACL template and the management interface's. */
/** A device's user key as its record shows it (2.10 userPublicKey). */
const keyOf = (key: PublicKeyRef | undefined): JsonObject | undefined =>
  key && { username: key.username, publicKeyName: key.keyName, publicKey: key.keyValue, publicKeyType: key.keyType };

export function aclTemplateFields(aclDetails: readonly JsonObject[]): { aclTemplateUuid?: string; mgmtAclTemplateUuid?: string } {
  const of = (interfaceType: string) => {
    const uuid = aclDetails.find((a) => a.interfaceType === interfaceType)?.uuid;
    return typeof uuid === "string" ? uuid : undefined;
  };
  return { aclTemplateUuid: of("WAN"), mgmtAclTemplateUuid: of("MGMT") };
}

export interface BodyContext {
  uuid: string;
  role: DeviceRole;
  peerUuid?: string;
  principal: Principal;
}

/** The device record of section 2.10 at creation time; the provisioning phases add the rest. */
export function deviceBody(world: World, order: DeviceOrder, peer: PeerOrder, ctx: BodyContext): JsonObject {
  const metro = METRO_BY_CODE.get(peer.metroCode)!;
  const now = world.nowIso();
  const acl = aclTemplateFields(peer.aclDetails);
  const diverseIbx = order.diverseFrom ? world.view(order.diverseFrom).ibx : undefined;
  const optional: Record<string, Json | undefined> = {
    diverseFromDeviceUuid: order.diverseFrom?.uuid,
    throughput: order.throughput?.value,
    throughputUnit: order.throughput?.unit,
    licenseFileId: peer.licenseFileId,
    ...acl,
    purchaseOrderNumber: peer.purchaseOrderNumber ?? order.purchaseOrderNumber,
    orderReference: peer.orderReference ?? order.orderReference,
    redundantUuid: ctx.peerUuid,
    channelPartner: order.channelPartner,
    siteId: peer.siteId,
    systemIpAddress: peer.systemIpAddress,
    sshInterfaceId: peer.sshInterfaceId === undefined ? undefined : String(peer.sshInterfaceId),
    vendorConfig: publicVendorConfig(peer.vendorConfig),
    clusterDetails: clusterDetails(world, order, peer),
    userPublicKey: keyOf(peer.userPublicKey ?? order.userPublicKey),
  };
  const pricingPeers = ctx.role === "SECONDARY" ? { primary: peer } : { primary: order.primary, ...(order.secondary ? { secondary: order.secondary } : {}) };
  return {
    uuid: ctx.uuid,
    serviceId: String(world.random.int(10_000_000, 99_999_999)),
    name: peer.name,
    deviceTypeCode: order.type.code,
    deviceTypeName: order.type.name,
    deviceTypeVendor: order.type.vendor,
    deviceTypeCategory: order.type.category,
    status: "INITIALIZING",
    licenseStatus: "APPLYING_LICENSE",
    metroCode: peer.metroCode,
    metroName: metro.name,
    // A device that must be diverse from another goes to another data centre of the metro.
    ibx: diverseIbx === `${peer.metroCode}1` ? `${peer.metroCode}2` : `${peer.metroCode}1`,
    region: metro.region,
    hostName: `${peer.hostNamePrefix ?? `${peer.metroCode}-${order.type.code}`}-${ctx.uuid.slice(0, 4)}`,
    packageCode: order.pkg.code,
    packageName: order.pkg.name,
    version: peer.version.version,
    licenseType: order.licenseMode,
    licenseName: LICENSE_NAMES[order.licenseMode],
    ...auditCreated(ctx.principal, now),
    ...accountFields(peer.account),
    notifications: peer.notifications,
    redundancyType: redundancyType(ctx.role),
    connectivity: order.connectivity,
    billingEnabled: false,
    additionalBandwidth: peer.additionalBandwidth,
    termLength: String(order.termLength),
    pricingDetails: pricingDetails(world, order, pricingPeers),
    interfaceCount: order.interfaceCount,
    core: { core: order.core.core, memory: order.core.memory, unit: "GB", ...(order.tier === undefined ? {} : { tier: order.tier }) },
    deviceManagementType: order.management,
    networkScope: "TENANT",
    plane: ctx.role === "SECONDARY" ? "SECONDARY" : "PRIMARY",
    interfaces: interfaces(world, order, peer),
    projectId: order.projectId,
    ...sdwanFields(order, peer),
    ...Object.fromEntries(Object.entries(optional).filter((e): e is [string, Json] => e[1] !== undefined)),
  };
}

// ── lifecycle ──────────────────────────────────────────────────────────────────────────────────

const dateOnly = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function addMonths(ms: number, months: number): string {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + months);
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
}

/** What becomes true once the device runs: its SSH endpoint, serial number, billing and licence. */
function provisionedSet(world: World, body: JsonObject, afterMs: number, hasSecondaryPricing: boolean): Changes {
  const at = world.now() + world.clock.scale(afterMs);
  const ssh = (Array.isArray(body.interfaces) ? body.interfaces : []).find((i) => (i as JsonObject).type !== "DATA") as JsonObject | undefined;
  const sshIp = typeof ssh?.ipAddress === "string" ? ssh.ipAddress : ipv4(world, 10);
  const sdwan: Changes =
    body.deviceTypeCategory === "SDWAN"
      ? {
          "/managementIp": `${ipv4(world, 10)}/26`,
          "/managementGatewayIp": ipv4(world, 10),
          "/publicIp": `${ipv4(world, 149)}/31`,
          "/publicGatewayIp": ipv4(world, 149),
          "/primaryDnsName": "4.0.0.53",
          "/secondaryDnsName": "129.250.35.250",
        }
      : {};
  return {
    "/status": "PROVISIONED",
    "/licenseStatus": "REGISTERED",
    "/sshIpAddress": sshIp,
    "/sshIpFqdn": `${String(body.hostName ?? "device").toLowerCase()}-${sshIp.replace(/\./g, "-")}.ne.example.net`,
    "/sshIpFqdnStatus": "ASSIGNED",
    "/deviceSerialNo": String(world.random.int(10_000_000_000, 99_999_999_999)),
    "/billingEnabled": true,
    "/billingCommencementDate": dateOnly(at),
    "/expiry": addMonths(at, Number(body.termLength ?? 1)),
    "/pricingDetails/primary/billingEnabled": true,
    "/pricingDetails/primary/billingCommencementDate": dateOnly(at),
    ...(hasSecondaryPricing ? { "/pricingDetails/secondary/billingEnabled": true, "/pricingDetails/secondary/billingCommencementDate": dateOnly(at) } : {}),
    ...sdwan,
  };
}

const status = (s: DeviceStatus, extra: Changes = {}): Changes => ({ "/status": s, ...extra });
export const FAILED_SET: Changes = status("FAILED", { "/licenseStatus": "REGISTRATION_FAILED" });

export interface Lifecycle {
  immediate: Changes;
  steps: Step[];
  failure: Changes;
}

/** The phases from order to PROVISIONED for a device of this role. */
export function provisioningLifecycle(world: World, obj: SimObject, role: DeviceRole, addingToExisting: boolean, pendingAccount: Account | undefined): Lifecycle {
  const delay = pendingAccount ? DURATIONS.accountActivation : 0;
  const hasSecondaryPricing = Boolean((obj.body.pricingDetails as JsonObject | undefined)?.secondary);
  const done = (afterMs: number) => provisionedSet(world, obj.body, delay + afterMs, hasSecondaryPricing);
  const initializing: Step[] = pendingAccount
    ? [{ afterMs: delay, set: status("INITIALIZING", { "/accountNumber": String(pendingAccount.accountNumber), "/accountName": pendingAccount.accountName }) }]
    : [];
  const at = (afterMs: number, set: Changes): Step => ({ afterMs: delay + afterMs, set });
  const immediate = status(pendingAccount ? "PENDING_ACCOUNT" : "INITIALIZING");
  switch (role) {
    case "SINGLE":
      return { immediate, steps: [...initializing, at(DURATIONS.initializing, status("PROVISIONING")), at(DURATIONS.provisioned, done(DURATIONS.provisioned))], failure: FAILED_SET };
    case "PRIMARY":
      return {
        immediate,
        steps: [
          ...initializing,
          at(DURATIONS.initializing, status("PROVISIONING")),
          at(DURATIONS.provisioned, status("WAITING_FOR_SECONDARY")),
          at(DURATIONS.pairProvisioned, done(DURATIONS.pairProvisioned)),
        ],
        failure: FAILED_SET,
      };
    case "SECONDARY":
      if (addingToExisting) {
        return { immediate, steps: [...initializing, at(DURATIONS.initializing, status("PROVISIONING")), at(DURATIONS.provisioned, done(DURATIONS.provisioned))], failure: FAILED_SET };
      }
      return {
        immediate,
        steps: [
          ...initializing,
          at(DURATIONS.waitForPrimary, status("WAITING_FOR_PRIMARY")),
          at(DURATIONS.provisioned, status("PROVISIONING")),
          at(DURATIONS.pairProvisioned, done(DURATIONS.pairProvisioned)),
        ],
        failure: FAILED_SET,
      };
    case "CLUSTER":
      return {
        immediate,
        steps: [
          ...initializing,
          at(DURATIONS.initializing, status("PROVISIONING")),
          at(DURATIONS.clusterReplicas, status("WAITING_FOR_REPLICA_CLUSTER_NODES", { "/licenseStatus": "WAITING_FOR_CLUSTER_SETUP" })),
          at(DURATIONS.clusterSetup, status("CLUSTER_SETUP_IN_PROGRESS")),
          at(DURATIONS.clusterProvisioned, done(DURATIONS.clusterProvisioned)),
        ],
        failure: status("CLUSTER_SETUP_FAILED", { "/licenseStatus": "REGISTRATION_FAILED" }),
      };
    default: {
      const unreachable: never = role;
      return unreachable;
    }
  }
}

/** Whether the transition just planned for the object ends in a failure (an injected fault). */
export function plannedToFail(obj: SimObject): boolean {
  const last = obj.phases[obj.phases.length - 1];
  const s = last?.set["/status"];
  return s === "FAILED" || s === "CLUSTER_SETUP_FAILED";
}

/** A secondary whose primary is planned to fail waits for it and fails with it. */
export function failWithPrimary(primary: SimObject, world: World): Lifecycle {
  const failedAt = primary.phases[primary.phases.length - 1]!.at;
  const afterMs = Math.max(0, (failedAt - world.now()) * world.clock.speed);
  return { immediate: status("INITIALIZING"), steps: [{ afterMs: Math.min(DURATIONS.waitForPrimary, afterMs), set: status("WAITING_FOR_PRIMARY") }, { afterMs, set: FAILED_SET }], failure: FAILED_SET };
}

export function deprovisioningLifecycle(principal: Principal, world: World): Lifecycle {
  const at = world.now() + world.clock.scale(DURATIONS.deprovisioned);
  return {
    immediate: { ...status("DEPROVISIONING"), ...auditUpdated(principal, world.nowIso()) },
    steps: [{ afterMs: DURATIONS.deprovisioned, set: status("DEPROVISIONED", { "/deletedBy": principal.userName, "/deletedDate": new Date(at).toISOString(), "/billingEnabled": false }) }],
    failure: FAILED_SET,
  };
}

/** Adds derived fields: the current name of the device this one is diverse from, and interface link states. */
export function renderDevice(body: JsonObject, _obj: SimObject, world: World): JsonObject {
  const out = { ...body };
  if (typeof body.diverseFromDeviceUuid === "string") {
    const other = world.get(body.diverseFromDeviceUuid, DEVICE_KIND);
    if (other && typeof other.body.name === "string") out.diverseFromDeviceName = other.body.name;
  }
  if (Array.isArray(body.interfaces)) {
    const running = body.status === "PROVISIONED";
    out.interfaces = body.interfaces.map((i) => {
      const iface = i as JsonObject;
      return { ...iface, operationStatus: running && iface.status === "ASSIGNED" ? "UP" : "DOWN" };
    });
  }
  return out;
}

/** Pricing changes after a change of term, bandwidth or core: the device's own charges are recomputed. */
export function repricedCharges(view: JsonObject, change: { termLength?: number; additionalBandwidth?: number; core?: number }): Changes {
  const type = typeof view.deviceTypeCode === "string" ? DEVICE_TYPE_BY_CODE.get(view.deviceTypeCode) : undefined;
  const pkg = type && typeof view.packageCode === "string" ? findPackage(type, view.packageCode) : undefined;
  const pricing = view.pricingDetails as JsonObject | undefined;
  if (!type || !pkg || !pricing) return {};
  const core = change.core ?? Number((view.core as JsonObject | undefined)?.core ?? pricing.core);
  const termLength = change.termLength ?? Number(view.termLength ?? 1);
  const additionalBandwidth = change.additionalBandwidth ?? Number(view.additionalBandwidth ?? 0);
  const { charges } = deviceCharges({
    type,
    pkg,
    core,
    licenseMode: view.licenseType === "BYOL" ? "BYOL" : "SUB",
    management: view.deviceManagementType === "SELF-CONFIGURED" ? "SELF-CONFIGURED" : "PROVIDER-CONFIGURED",
    termLength,
    additionalBandwidth,
    metroCode: String(view.metroCode),
  });
  return {
    "/pricingDetails/primary/charges": charges,
    "/pricingDetails/termLength": String(termLength),
    "/pricingDetails/core": core,
    "/pricingDetails/additionalBandwidth": String(additionalBandwidth),
  };
}
