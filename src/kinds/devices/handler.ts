// Virtual devices (sections 2.10, 3.6, 4.10): single devices, redundant pairs created in one order
// (`secondary`), and clusters (`clusterDetails`). A pair is one resource whose id is the primary's uuid;
// the secondary is read beside it and compared under `secondary`. Only the device update call (name,
// notifications, term, cluster name) and the additional-bandwidth call change a device in place: its
// type, package, version, licence, size, metro and account are fixed by the order, so changing them
// means a new device. The secondary is the exception: the service adds one to a running primary (a create
// naming `primaryDeviceUuid`) and removes one by deleting it alone, so adding, removing or re-ordering the
// secondary changes the declared device in place and never touches the primary. ACL templates change
// through the device's ACL call.
//
// Reading the real service (equinix/ne-go's recorded answers ne_device_get_resp.json, ne_devices_get.json
// and its constants): the management type is EQUINIX-CONFIGURED where the specification writes
// PROVIDER-CONFIGURED (one type under two names: compared as one, sent as the official client sends it),
// the licence reads "Sub" where the specification writes SUB (compared without regard to case, sent as
// "Sub"), the throughput is a string, the project and the connectivity may be left out (compared only when
// there), and the device list names no ACL template (`acl: []`; only the device's own record does), so a
// listed device's templates are compared only once read.

import { isPlainObject, readPath } from "../../config/index.js";
import { asPage, type ApiClient } from "../../api/index.js";
import { licenseModeSent, managementTypeForm } from "./spec.js";
import { publicVendorConfig, vendorSettingsAsSent } from "./vendor-config.js";
import { enumeration } from "../reading.js";
import { NetformError } from "../../diag/index.js";
import { asNumber, compact, deleteIdempotently, orGone, pick, readinessFrom, sortedStrings, type StateTable } from "../common.js";
import type { Body, KindContext, ObjectRef, Observed, Operation, Readiness, KindHandler, UpdateMethod } from "../types.js";

const BASE = "/ne/v1/devices";
const PAGE_SIZE = 100;

/** 4.10 and section 8: 15 Mbps unless the device has no internet access at all. */
const DEFAULT_ADDITIONAL_BANDWIDTH = 15;
const DEFAULT_CONNECTIVITY = "INTERNET-ACCESS";
/** Months; the order's default term. */
const DEFAULT_TERM_LENGTH = 1;

const TABLE: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED", "CLUSTER_SETUP_FAILED"],
};
const DELETED_STATES: readonly string[] = ["DEPROVISIONING", "DEPROVISIONED"];

const statusOf = (body: Body): string | undefined => (typeof body.status === "string" ? body.status : undefined);
const devicePath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;
const text = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
const secondaryOf = (body: Body): Body | undefined => (isPlainObject(body.secondary) ? body.secondary : undefined);

/** A device on its way out: never the device a create just ordered, nor a pair's secondary any more. */
const isLeaving = (body: Body): boolean => DELETED_STATES.includes(statusOf(body) ?? "");

/** The peer of a primary (redundantUuid also names the primary on a secondary's own record). */
function peerUuid(body: Body): string | undefined {
  return body.redundancyType === "PRIMARY" && typeof body.redundantUuid === "string" ? body.redundantUuid : undefined;
}

// ── the comparable forms ───────────────────────────────────────────────────────────────────

/**
 * The hostNamePrefix a device was ordered with: the service names the host `<prefix>-<4 characters of
 * the uuid>`, so the prefix is the host name without that last part.
 */
function hostNamePrefixOf(hostName: unknown, uuid: unknown): string | undefined {
  if (typeof hostName !== "string") return undefined;
  const suffix = typeof uuid === "string" ? `-${uuid.slice(0, 4)}` : undefined;
  return suffix && hostName.endsWith(suffix) ? hostName.slice(0, -suffix.length) : hostName;
}

/** ACL templates by interface, in one order: the spec lists them, the device record names one per interface. */
function aclForm(aclDetails: unknown): Body[] {
  if (!Array.isArray(aclDetails)) return [];
  return aclDetails
    .filter(isPlainObject)
    .map((a) => ({ interfaceType: a.interfaceType, uuid: a.uuid }))
    .sort((a, b) => String(a.interfaceType).localeCompare(String(b.interfaceType)));
}

/** The templates a device record names; undefined for a device as the list shows it, which names none (`acl: []`). */
function observedAcl(body: Body): Body[] | undefined {
  if (body.aclTemplateUuid === undefined && body.mgmtAclTemplateUuid === undefined && Array.isArray(body.acl)) return undefined;
  return aclForm([
    { interfaceType: "WAN", uuid: body.aclTemplateUuid },
    { interfaceType: "MGMT", uuid: body.mgmtAclTemplateUuid },
  ].filter((a) => typeof a.uuid === "string"));
}

const additionalBandwidthDefault = (connectivity: unknown): number => (connectivity === "PRIVATE" ? 0 : DEFAULT_ADDITIONAL_BANDWIDTH);

/** Fields one device of the order has, in spec and in response alike (the secondary has these and no more). */
function desiredPeer(spec: Body, connectivity: unknown): Body {
  return {
    virtualDeviceName: spec.virtualDeviceName,
    metroCode: spec.metroCode,
    notifications: sortedStrings(spec.notifications),
    accountNumber: asNumber(text(spec.accountNumber)),
    additionalBandwidth: asNumber(spec.additionalBandwidth ?? additionalBandwidthDefault(connectivity)),
    version: spec.version,
    licenseFileId: spec.licenseFileId,
    hostNamePrefix: spec.hostNamePrefix,
    siteId: spec.siteId,
    systemIpAddress: spec.systemIpAddress,
    vendorConfig: publicVendorConfig(spec.vendorConfig),
    sshInterfaceId: text(spec.sshInterfaceId),
    aclDetails: aclForm(spec.aclDetails),
    userPublicKey: userKeyForm(spec.userPublicKey, "keyName"),
  };
}

/** A device's user key: the order names the key `keyName`, the device record `publicKeyName`. */
function userKeyForm(v: unknown, keyField: "keyName" | "publicKeyName"): Body | undefined {
  return isPlainObject(v) ? { username: v.username, keyName: v[keyField] } : undefined;
}

function observedPeer(body: Body): Body {
  return {
    virtualDeviceName: body.name,
    metroCode: body.metroCode,
    notifications: sortedStrings(body.notifications),
    accountNumber: asNumber(text(body.accountNumber)),
    additionalBandwidth: asNumber(body.additionalBandwidth),
    version: body.version,
    licenseFileId: body.licenseFileId,
    hostNamePrefix: hostNamePrefixOf(body.hostName, body.uuid),
    siteId: body.siteId,
    systemIpAddress: body.systemIpAddress,
    vendorConfig: publicVendorConfig(body.vendorConfig),
    sshInterfaceId: text(body.sshInterfaceId),
    aclDetails: observedAcl(body),
    userPublicKey: userKeyForm(body.userPublicKey, "publicKeyName"),
  };
}

function desired(spec: Body): Body {
  const connectivity = spec.connectivity ?? DEFAULT_CONNECTIVITY;
  const secondary = isPlainObject(spec.secondary) ? spec.secondary : undefined;
  const cluster = isPlainObject(spec.clusterDetails) ? spec.clusterDetails : undefined;
  const form = compact({
    ...desiredPeer(spec, connectivity),
    deviceTypeCode: spec.deviceTypeCode,
    packageCode: spec.packageCode,
    licenseMode: enumeration(spec.licenseMode),
    deviceManagementType: managementTypeForm(spec.deviceManagementType),
    core: asNumber(spec.core),
    tier: asNumber(spec.tier),
    throughput: asNumber(spec.throughput),
    throughputUnit: spec.throughputUnit,
    interfaceCount: asNumber(spec.interfaceCount),
    termlength: asNumber(text(spec.termlength ?? DEFAULT_TERM_LENGTH)),
    connectivity,
    projectId: spec.projectId,
    purchaseOrderNumber: spec.purchaseOrderNumber,
    orderReference: spec.orderReference,
    channelPartner: spec.channelPartner,
    diverseFromDeviceUuid: spec.diverseFromDeviceUuid,
    clusterDetails: cluster ? { clusterName: cluster.clusterName } : undefined,
    secondary: secondary
      ? {
          ...desiredPeer(secondary, connectivity),
          // A secondary ordered with its primary runs the primary's version on the primary's account.
          version: secondary.version ?? spec.version,
          accountNumber: asNumber(text(secondary.accountNumber ?? spec.accountNumber)),
          purchaseOrderNumber: secondary.purchaseOrderNumber ?? spec.purchaseOrderNumber,
          orderReference: secondary.orderReference ?? spec.orderReference,
          userPublicKey: userKeyForm(secondary.userPublicKey ?? spec.userPublicKey, "keyName"),
        }
      : undefined,
  }) as Body;
  // A secondary removed from the configuration must be absent, so that its removal shows as a change. The
  // mark is its metro, which every secondary has: `secondary` itself holds secrets and is compared by hash.
  return secondary ? form : { ...form, secondary: { metroCode: null } };
}

function observed(body: Body): Body {
  const core = isPlainObject(body.core) ? body.core : {};
  const cluster = isPlainObject(body.clusterDetails) ? body.clusterDetails : undefined;
  const secondary = secondaryOf(body);
  return compact({
    ...observedPeer(body),
    deviceTypeCode: body.deviceTypeCode,
    packageCode: body.packageCode,
    licenseMode: enumeration(body.licenseType),
    deviceManagementType: managementTypeForm(body.deviceManagementType),
    // The response's core is an object {core, memory, unit, tier}; the order's core and tier are its parts.
    core: asNumber(core.core),
    tier: asNumber(core.tier),
    throughput: asNumber(body.throughput),
    throughputUnit: body.throughputUnit,
    interfaceCount: asNumber(body.interfaceCount),
    termlength: asNumber(text(body.termLength)),
    connectivity: body.connectivity,
    projectId: body.projectId,
    purchaseOrderNumber: body.purchaseOrderNumber,
    orderReference: body.orderReference,
    channelPartner: body.channelPartner,
    diverseFromDeviceUuid: body.diverseFromDeviceUuid,
    clusterDetails: cluster ? { clusterName: cluster.clusterName } : undefined,
    secondary: secondary ? { ...observedPeer(secondary), purchaseOrderNumber: secondary.purchaseOrderNumber, orderReference: secondary.orderReference } : undefined,
  }) as Body;
}

// ── reading ────────────────────────────────────────────────────────────────────────────────

const getDevice = (api: ApiClient, uuid: string) => orGone(() => api.call<Body>("GET", devicePath(uuid)));

/** The primary's record with its secondary's under `secondary`; undefined once the primary is gone. */
async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await getDevice(ctx.api, ref.id);
  // A pair is deleted together (deleteRedundantDevice) on the same clock, so the primary speaks for both.
  if (body === undefined || statusOf(body) === "DEPROVISIONED") return undefined;
  const peer = peerUuid(body);
  const secondary = peer === undefined ? undefined : await getDevice(ctx.api, peer);
  return withSecondary(body, secondary);
}

/** A secondary being deleted has left the pair, whether or not its primary still names it. */
const withSecondary = (primary: Body, secondary: Body | undefined): Body => (secondary && !isLeaving(secondary) ? { ...primary, secondary } : primary);


/**
 * Reads the managed devices through the device list (which leaves DEPROVISIONED and DRAFT devices out,
 * exactly the ones that count as gone), page by page; when the pages still to read outnumber the
 * devices still missing (an account with many devices netform does not manage), the rest are read one
 * by one instead.
 */
async function observeMany(ctx: KindContext, refs: ObjectRef[]): Promise<Map<string, Body>> {
  const listed = new Map<string, Body>();
  const ids = [...new Set(refs.map((r) => r.id))];
  const missing = () => {
    const needed = ids.filter((id) => !listed.has(id)).length;
    const peers = ids.map((id) => listed.get(id)).filter((b): b is Body => b !== undefined).map(peerUuid).filter((p) => p !== undefined && !listed.has(p));
    return needed + peers.length;
  };
  let complete = false;
  for (let offset = 0; ; ) {
    const page = asPage<Body>(await ctx.api.call<unknown>("GET", BASE, { query: { offset, limit: PAGE_SIZE } }));
    const data = (page.data ?? []).filter(isPlainObject);
    for (const body of data) if (typeof body.uuid === "string") listed.set(body.uuid, body);
    offset += data.length;
    const total = page.pagination?.total;
    if (data.length === 0 || (total !== undefined ? offset >= total : data.length < PAGE_SIZE)) {
      complete = true;
      break;
    }
    const pagesLeft = total === undefined ? 1 : Math.ceil((total - offset) / PAGE_SIZE);
    if (pagesLeft > missing()) break;
  }
  const found = new Map<string, Body>();
  await Promise.all(
    ids.map(async (id) => {
      let body = listed.get(id);
      if (body === undefined) {
        if (complete) return;
        body = await getDevice(ctx.api, id);
        if (body === undefined || statusOf(body) === "DEPROVISIONED") return;
      }
      const peer = peerUuid(body);
      const secondary = peer === undefined ? undefined : (listed.get(peer) ?? (complete ? undefined : await getDevice(ctx.api, peer)));
      found.set(id, withSecondary(body, secondary));
    }),
  );
  return found;
}

// ── readiness ──────────────────────────────────────────────────────────────────────────────

/** Both devices of a pair must be done; the first failure, named by device, is the answer. */
function readiness(body: Body, operation: Operation): Readiness {
  const primary = readinessFrom(TABLE, statusOf(body), operation);
  const secondaryBody = secondaryOf(body);
  const secondary = secondaryBody ? readinessFrom(TABLE, statusOf(secondaryBody), operation) : "ready";
  if (typeof primary === "object") return { failed: secondaryBody ? `primary device: ${primary.failed}` : primary.failed };
  if (typeof secondary === "object") return { failed: `secondary device ${String(secondaryBody?.uuid)}: ${secondary.failed}` };
  return primary === "ready" && secondary === "ready" ? "ready" : "pending";
}

function stateOf(body: Body): string | undefined {
  const primary = statusOf(body);
  const secondaryBody = secondaryOf(body);
  const secondary = secondaryBody ? statusOf(secondaryBody) : undefined;
  return secondary === undefined || secondary === primary ? primary : `${primary ?? "unknown"} (secondary ${secondary})`;
}

// ── changes ────────────────────────────────────────────────────────────────────────────────

const UPDATE: UpdateMethod = { via: "update" };
const BANDWIDTH: UpdateMethod = { via: "action", name: "additionalBandwidth" };
const ACL: UpdateMethod = { via: "action", name: "acl" };
/** Adds the secondary to the running primary, deletes it alone, or does both to re-order it. */
const SECONDARY_ORDER: UpdateMethod = { via: "action", name: "secondaryOrder" };

/** The secondary's fields its own update and bandwidth calls change; any other change to it re-orders it. */
const SECONDARY_IN_PLACE: readonly string[] = ["secondary.virtualDeviceName", "secondary.notifications", "secondary.additionalBandwidth", "secondary.aclDetails"];
const reordersSecondary = (path: string): boolean => (path === "secondary" || path.startsWith("secondary.")) && !SECONDARY_IN_PLACE.includes(path);

const UPDATABLE: Readonly<Record<string, UpdateMethod>> = {
  virtualDeviceName: UPDATE,
  notifications: UPDATE,
  termlength: UPDATE,
  "clusterDetails.clusterName": UPDATE,
  additionalBandwidth: BANDWIDTH,
  aclDetails: ACL,
  "secondary.virtualDeviceName": UPDATE,
  "secondary.notifications": UPDATE,
  "secondary.additionalBandwidth": BANDWIDTH,
  "secondary.aclDetails": ACL,
  secondary: SECONDARY_ORDER,
};

/** What one device's update, bandwidth and ACL calls carry. */
interface DeviceChanges {
  patch: Body;
  additionalBandwidth?: unknown;
  aclDetails?: Body[];
}

/** Sorts the changed paths into calls per device; a path the device calls cannot change is a defect upstream. */
function plan(spec: Body, changed: readonly string[]): { primary: DeviceChanges; secondary: DeviceChanges } {
  const secondarySpec = isPlainObject(spec.secondary) ? spec.secondary : {};
  const primary: DeviceChanges = { patch: {} };
  const secondary: DeviceChanges = { patch: {} };
  for (const path of changed) {
    switch (path) {
      case "virtualDeviceName":
      case "notifications":
        primary.patch[path] = spec[path];
        break;
      case "termlength":
        // The update call spells it termLength; the term is the pair's, so both devices take it.
        primary.patch.termLength = text(spec.termlength ?? DEFAULT_TERM_LENGTH);
        if (isPlainObject(spec.secondary)) secondary.patch.termLength = primary.patch.termLength;
        break;
      case "clusterDetails.clusterName":
        primary.patch.clusterName = readPath(spec, path);
        break;
      case "additionalBandwidth":
        primary.additionalBandwidth = spec.additionalBandwidth ?? additionalBandwidthDefault(spec.connectivity);
        break;
      case "aclDetails":
        primary.aclDetails = aclForm(spec.aclDetails);
        break;
      case "secondary.aclDetails":
        secondary.aclDetails = aclForm(secondarySpec.aclDetails);
        break;
      case "secondary.virtualDeviceName":
      case "secondary.notifications":
        secondary.patch[path.slice("secondary.".length)] = readPath(spec, path);
        break;
      case "secondary.additionalBandwidth":
        secondary.additionalBandwidth = secondarySpec.additionalBandwidth ?? additionalBandwidthDefault(spec.connectivity);
        break;
      default:
        throw new NetformError({ code: "resource.not_updatable", source: "internal", message: `a device's ${path} cannot change in place; the plan should have replaced the device` });
    }
  }
  return { primary, secondary };
}

async function send(api: ApiClient, uuid: string, changes: DeviceChanges): Promise<void> {
  if (Object.keys(changes.patch).length > 0) await api.call("PATCH", devicePath(uuid), { body: changes.patch });
  if (changes.additionalBandwidth !== undefined) {
    await api.call("PUT", `${devicePath(uuid)}/additionalBandwidths`, { body: { additionalBandwidth: changes.additionalBandwidth } });
  }
  // An empty list removes the templates: the call replaces them all.
  if (changes.aclDetails !== undefined) await api.call("PATCH", `${devicePath(uuid)}/acl`, { body: { aclDetails: changes.aclDetails } });
}

const hasWork = (c: DeviceChanges) => Object.keys(c.patch).length > 0 || c.additionalBandwidth !== undefined || c.aclDetails !== undefined;

/**
 * Makes the primary's secondary the one the spec declares, or none: deletes the current secondary alone
 * (its primary becomes a single device again), then orders the declared one against the primary.
 */
async function reorderSecondary(ctx: KindContext, primaryUuid: string, spec: Body): Promise<void> {
  const primary = await getDevice(ctx.api, primaryUuid);
  const peer = primary ? peerUuid(primary) : undefined;
  if (peer !== undefined) {
    await deleteIdempotently(
      () => ctx.api.call("DELETE", devicePath(peer)),
      () => getDevice(ctx.api, peer),
      isLeaving,
    );
  }
  if (isPlainObject(spec.secondary)) await ctx.api.call("POST", BASE, { body: { ...createBody(ctx, spec), primaryDeviceUuid: primaryUuid } });
}

/**
 * The create body: the spec as written (its field names are the order's), without empty members, with the
 * management type and licence mode spelled as the official client sends them.
 */
function createBody(ctx: KindContext, spec: Body): Body {
  const body = vendorSettingsAsSent(compact(spec) as Body);
  if (body.deviceManagementType !== undefined) body.deviceManagementType = managementTypeForm(body.deviceManagementType);
  if (body.licenseMode !== undefined) body.licenseMode = licenseModeSent(body.licenseMode);
  // The configuration fills these from the provider block; a spec built elsewhere may not have them.
  if (body.accountNumber === undefined && ctx.provider.accountNumber !== undefined) body.accountNumber = ctx.provider.accountNumber;
  if (body.projectId === undefined && ctx.provider.projectId !== undefined) body.projectId = ctx.provider.projectId;
  return body;
}

export const handler: KindHandler = {
  noun: "device",

  observe,
  observeMany,
  desired,
  observed,
  updatable: UPDATABLE,
  // Absent from an answer, these are the service's defaults, or what the order sent; a listed device's
  // templates are read from its own record only (observedAcl); whether a secondary without a key of its own
  // answers the primary's is not known.
  mayOmit: ["additionalBandwidth", "termlength", "aclDetails", "secondary.additionalBandwidth", "secondary.aclDetails", "secondary.userPublicKey"],

  async create(ctx, spec) {
    // 202 {uuid, secondaryUuid?}: the pair's devices are read by observe from here on.
    const response = await ctx.api.call<Body>("POST", BASE, { body: createBody(ctx, spec) });
    if (typeof response.uuid !== "string") throw new NetformError({ code: "api.unexpected_body", source: "internal", message: "device create: the service's answer has no uuid" });
    return { id: response.uuid, body: pick(response, ["uuid", "secondaryUuid"]) };
  },

  async update(ctx, ref, spec, changed) {
    const reorder = changed.some(reordersSecondary);
    const calls = plan(spec, reorder ? changed.filter((p) => p !== "secondary" && !p.startsWith("secondary.")) : changed);
    await send(ctx.api, ref.id, calls.primary);
    // A secondary ordered now is ordered with the whole spec: nothing is left to change on it.
    if (reorder) return reorderSecondary(ctx, ref.id, spec);
    if (!hasWork(calls.secondary)) return;
    const primary = await getDevice(ctx.api, ref.id);
    const peer = primary ? peerUuid(primary) : undefined;
    if (peer === undefined) {
      throw new NetformError({ code: "resource.no_secondary", message: `device ${ref.id} has no secondary device to change`, hint: "the pair may have been split outside netform; refresh and plan again" });
    }
    await send(ctx.api, peer, calls.secondary);
  },

  // A primary of a pair is refused without deleteRedundantDevice; the pair is one resource here.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", devicePath(ref.id), { query: { deleteRedundantDevice: true } }),
      () => getDevice(ctx.api, ref.id),
      isLeaving,
    ),

  readiness,
  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const name = spec.virtualDeviceName;
    if (typeof name !== "string") return undefined;
    // searchText matches part of the name; the device of this spec has exactly the name, in the spec's metro.
    for (let offset = 0; ; ) {
      const page = asPage<Body>(await ctx.api.call<unknown>("GET", BASE, { query: { searchText: name, offset, limit: PAGE_SIZE } }));
      const data = (page.data ?? []).filter(isPlainObject);
      const match = data.find((b) => b.name === name && b.redundancyType !== "SECONDARY" && b.metroCode === spec.metroCode && !owned?.has(String(b.uuid)) && !isLeaving(b));
      if (match && typeof match.uuid === "string") {
        const body = await observe(ctx, { id: match.uuid });
        return body ? { id: match.uuid, body } : undefined;
      }
      offset += data.length;
      const total = page.pagination?.total;
      if (data.length === 0 || (total !== undefined ? offset >= total : data.length < PAGE_SIZE)) return undefined;
    }
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};
