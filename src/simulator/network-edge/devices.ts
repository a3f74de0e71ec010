// Virtual devices of the network-edge service (sections 2.10, 3.6, 4.10): create (single devices,
// redundant pairs, clusters, a secondary for an existing primary, drafts), read, list, update, delete,
// additional bandwidth, and the ACL templates on its interfaces. Statuses move on the clock; the operations on a running device (reboot,
// interfaces, statistics, upgrade history, ping, licence files) are in device-ops.ts.

import type { Context } from "hono";
import { canSee, findVisible, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { pageLink, paginate, queryPage, readObject, readOptionalObject, rejectUnknownQuery } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { ACCOUNTS } from "../core/auth.js";
import { DEVICE_TYPE_BY_CODE, LICENSE_NAMES, type LicenseMode } from "./device-catalogue.js";
import {
  emailList, oneOf, optionalBoolean, optionalInteger, optionalObject, optionalString, queryBoolean, queryList, rejectUnknownFields,
  requiredString,
} from "./device-fields.js";
import {
  DEVICE_KIND, DEVICE_STATUSES, aclTemplateFields, auditCreated, auditUpdated, deprovisioningLifecycle, deviceBody, failWithPrimary, plannedToFail,
  provisioningLifecycle, renderDevice, repricedCharges, type DeviceRole, type Lifecycle,
} from "./device-model.js";
import { ACL_TEMPLATE_KIND } from "./acl-templates.js";
import { deviceOpsRoutes, defineDeviceOpKinds, startCoreUpgrade } from "./device-ops.js";
import { orderedUsers } from "./ssh-users.js";
import { secretVendorConfig } from "./device-vendor-config.js";
import {
  MAX_ADDITIONAL_BANDWIDTH, NAME_RULE, NOTIFICATIONS, accountByNumber, aclDetails, parseTermLength, validateCreate, validateDraft, type DeviceOrder,
  type PeerOrder,
} from "./device-rules.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

const LIST_QUERY = ["offset", "limit", "metroCode", "status", "showOnlySubCustomerDevices", "accountUcmId", "searchText", "sort"];
const SORT_KEYS: Readonly<Record<string, string>> = {
  name: "name",
  status: "status",
  metro: "metroCode",
  createdDate: "createdDate",
  lastUpdatedDate: "lastUpdatedDate",
  vendor: "deviceTypeVendor",
  type: "deviceTypeCode",
};
const PATCH_FIELDS = ["core", "notifications", "termLength", "termLengthEffectiveImmediate", "virtualDeviceName", "clusterName", "status", "autoRenewalOptOut", "vendorConfig"];
const GONE_STATUSES: readonly Json[] = ["DEPROVISIONING", "DEPROVISIONED"];

type Ctx = Context<SimEnv>;

function start(world: World, obj: SimObject, lifecycle: Lifecycle): void {
  world.transition(obj, lifecycle.immediate, lifecycle.steps, lifecycle.failure);
}

// ── create ─────────────────────────────────────────────────────────────────────────────────────

function place(world: World, principal: Principal, order: DeviceOrder, peer: PeerOrder, role: DeviceRole, uuid: string, peerUuid?: string): SimObject {
  const body = deviceBody(world, order, peer, { uuid, role, principal, ...(peerUuid ? { peerUuid } : {}) });
  const vendorSecrets = secretVendorConfig(peer.vendorConfig);
  return world.create(DEVICE_KIND, body, { uuid, projectId: order.projectId, ...(vendorSecrets ? { meta: { vendorSecrets } } : {}) });
}

function pendingAccount(principal: Principal, peer: PeerOrder) {
  // An order against a pending account (accountReferenceId) waits until the account is active; the
  // caller's first account stands for the account that becomes active.
  return peer.accountReferenceId === undefined ? undefined : accountByNumber(principal.accountNumbers[0]!);
}

/** A secondary joins a running primary: the primary now names its peer. */
function addSecondary(world: World, principal: Principal, order: DeviceOrder, primary: SimObject): JsonObject {
  const secondaryUuid = world.uuid();
  const secondary = place(world, principal, order, order.secondary!, "SECONDARY", secondaryUuid, primary.uuid);
  start(world, secondary, provisioningLifecycle(world, secondary, "SECONDARY", true, pendingAccount(principal, order.secondary!)));
  world.apply(primary, { at: world.now(), set: { "/redundantUuid": secondaryUuid, ...auditUpdated(principal, world.nowIso()) } });
  world.recordEvent(primary, "updated", world.now(), `secondary device ${secondaryUuid} added`);
  return { uuid: primary.uuid, secondaryUuid };
}

function createFromOrder(world: World, principal: Principal, order: DeviceOrder, uuid: string): JsonObject {
  if (order.existingPrimary) return addSecondary(world, principal, order, order.existingPrimary);
  const primaryPending = pendingAccount(principal, order.primary);
  if (!order.secondary) {
    const role: DeviceRole = order.cluster ? "CLUSTER" : "SINGLE";
    const device = place(world, principal, order, order.primary, role, uuid);
    start(world, device, provisioningLifecycle(world, device, role, false, primaryPending));
    return { uuid };
  }
  const secondaryUuid = world.uuid();
  const primary = place(world, principal, order, order.primary, "PRIMARY", uuid, secondaryUuid);
  const secondary = place(world, principal, order, order.secondary, "SECONDARY", secondaryUuid, uuid);
  start(world, primary, provisioningLifecycle(world, primary, "PRIMARY", false, primaryPending));
  const secondaryLifecycle = plannedToFail(primary)
    ? failWithPrimary(primary, world)
    : provisioningLifecycle(world, secondary, "SECONDARY", false, pendingAccount(principal, order.secondary));
  start(world, secondary, secondaryLifecycle);
  return { uuid, secondaryUuid };
}

function visibleDraft(world: World, principal: Principal, uuid: string, property: string): SimObject {
  const draft = world.get(uuid, DEVICE_KIND);
  if (!draft || !canSee(principal, draft) || world.view(draft).status !== "DRAFT") return fail("referenceNotFound", property, `no device draft ${uuid}`, uuid);
  return draft;
}

/** The fields a draft keeps, as a device record with status DRAFT. */
function draftFields(body: JsonObject): JsonObject {
  const type = typeof body.deviceTypeCode === "string" ? DEVICE_TYPE_BY_CODE.get(body.deviceTypeCode) : undefined;
  const metro = typeof body.metroCode === "string" ? METRO_BY_CODE.get(body.metroCode) : undefined;
  const account = body.accountNumber === undefined ? undefined : accountByNumber(Number(body.accountNumber));
  const mode = body.licenseMode === "SUB" || body.licenseMode === "BYOL" ? (body.licenseMode as LicenseMode) : undefined;
  const fields: Record<string, Json | undefined> = {
    name: body.virtualDeviceName,
    deviceTypeCode: body.deviceTypeCode,
    deviceTypeName: type?.name,
    deviceTypeVendor: type?.vendor,
    deviceTypeCategory: type?.category,
    metroCode: body.metroCode,
    metroName: metro?.name,
    region: metro?.region,
    notifications: body.notifications,
    deviceManagementType: body.deviceManagementType,
    licenseType: mode,
    licenseName: mode ? LICENSE_NAMES[mode] : undefined,
    packageCode: body.packageCode,
    version: body.version,
    termLength: body.termlength === undefined ? undefined : String(body.termlength),
    additionalBandwidth: body.additionalBandwidth,
    accountNumber: account ? String(account.accountNumber) : undefined,
    accountName: account?.accountName,
    purchaseOrderNumber: body.purchaseOrderNumber,
    core: typeof body.core === "number" ? { core: body.core, ...(typeof body.tier === "number" ? { tier: body.tier } : {}) } : undefined,
  };
  return {
    ...Object.fromEntries(Object.entries(fields).filter((e): e is [string, Json] => e[1] !== undefined)),
    status: "DRAFT",
  };
}

function createDraft(world: World, principal: Principal, body: JsonObject): JsonObject {
  const { projectId } = validateDraft(principal, body);
  const uuid = world.uuid();
  world.create(DEVICE_KIND, { uuid, ...draftFields(body), ...auditCreated(principal, world.nowIso()), projectId }, { uuid, projectId, meta: { draftRequest: body } });
  return { uuid };
}

async function createDevice(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["draft", "draftUuid"]);
  const draft = queryBoolean(c, "draft") ?? false;
  const draftUuid = c.req.query("draftUuid");
  const body = await readObject(c);
  if (draft) {
    if (draftUuid !== undefined) fail("invalidQueryParameter", "draftUuid", "draftUuid orders an existing draft; it cannot be combined with draft=true");
    return c.json(createDraft(world, principal, body), 202);
  }
  const order = validateCreate(world, principal, body);
  // The users the order names are checked with it, and made once its devices are: an order that adds a
  // secondary to a running primary makes the secondary alone.
  const secondaryUsers = order.secondary ? [{ entries: order.secondary.sshUsers, property: "secondary.sshUsers" }] : [];
  const addUsers = orderedUsers(world, principal, order.existingPrimary ? secondaryUsers : [{ entries: order.primary.sshUsers, property: "sshUsers" }, ...secondaryUsers]);
  // Ordering a draft turns the draft itself into the device (same uuid).
  const uuid = draftUuid === undefined ? world.uuid() : visibleDraft(world, principal, draftUuid, "draftUuid").uuid;
  const made = createFromOrder(world, principal, order, uuid);
  const secondaryUuid = typeof made.secondaryUuid === "string" ? [made.secondaryUuid] : [];
  addUsers(order.existingPrimary ? secondaryUuid : [uuid, ...secondaryUuid]);
  return c.json(made, 202);
}

// ── read ───────────────────────────────────────────────────────────────────────────────────────

function sortKeys(c: Ctx): Array<{ pointer: string; sign: number }> {
  return queryList(c, "sort").map((raw) => {
    const descending = raw.startsWith("-");
    const key = descending ? raw.slice(1) : raw;
    const pointer = SORT_KEYS[key];
    if (!pointer) return fail("invalidQueryParameter", "sort", `sort keys are ${Object.keys(SORT_KEYS).join(", ")}, each optionally prefixed with -`, raw);
    return { pointer, sign: descending ? -1 : 1 };
  });
}

function compareBy(keys: Array<{ pointer: string; sign: number }>) {
  return (a: JsonObject, b: JsonObject) => {
    for (const { pointer, sign } of keys) {
      const x = String(a[pointer] ?? "");
      const y = String(b[pointer] ?? "");
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}

function ucmFilter(c: Ctx, principal: Principal): ((view: JsonObject) => boolean) | undefined {
  const ucmId = c.req.query("accountUcmId");
  if (ucmId === undefined) return undefined;
  const account = Object.values(ACCOUNTS).find((a) => a.ucmId === ucmId && principal.accountNumbers.includes(a.accountNumber));
  if (!account) return fail("invalidQueryParameter", "accountUcmId", `account ${ucmId} is not one of your accounts`, ucmId);
  return (view) => view.accountNumber === String(account.accountNumber);
}

function listDevices(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, LIST_QUERY);
  const page = queryPage(c, { defaultLimit: 20 });
  const statuses = queryList(c, "status").map((s) => oneOf(s, DEVICE_STATUSES, "status"));
  const metro = c.req.query("metroCode");
  const search = c.req.query("searchText")?.toLowerCase();
  const byAccount = ucmFilter(c, principal);
  // The caller has no sub-customers, so asking only for theirs finds nothing.
  const subCustomersOnly = queryBoolean(c, "showOnlySubCustomerDevices") ?? false;
  const keys = sortKeys(c);
  const wanted = (view: JsonObject) =>
    (statuses.length > 0 ? (statuses as readonly Json[]).includes(view.status ?? null) : view.status !== "DRAFT" && view.status !== "DEPROVISIONED") &&
    (metro === undefined || view.metroCode === metro) &&
    (search === undefined || String(view.name ?? "").toLowerCase().includes(search)) &&
    (!byAccount || byAccount(view)) &&
    !subCustomersOnly;
  const newestFirst = world
    .list(DEVICE_KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o))
    .filter(wanted)
    .reverse()
    .sort(compareBy([{ pointer: "createdDate", sign: -1 }]));
  const items = keys.length > 0 ? newestFirst.sort(compareBy(keys)) : newestFirst;
  return c.json(paginate(items, page, pageLink(c)));
}

function getDevice(c: Ctx, world: World) {
  rejectUnknownQuery(c, []);
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param("uuid")!);
  return c.json(world.view(device));
}

// ── update ─────────────────────────────────────────────────────────────────────────────────────

/** A device that exists, is visible, and is not a draft nor on its way out. */
export function liveDevice(world: World, principal: Principal, uuid: string): { device: SimObject; view: JsonObject } {
  const device = findVisible(world, principal, DEVICE_KIND, uuid);
  const view = world.view(device);
  if (view.status === "DRAFT") fail("invalidProperty", "uuid", `device ${uuid} is a draft; update it with PUT ?draft=true or order it`, uuid);
  if (GONE_STATUSES.includes(view.status ?? null)) fail("invalidProperty", "uuid", `device ${uuid} is ${String(view.status)}`, uuid);
  return { device, view };
}

function termChanges(body: JsonObject, view: JsonObject): Record<string, Json> {
  const term = parseTermLength(body, "termLength", "termLength");
  const immediate = optionalBoolean(body, "termLengthEffectiveImmediate", "termLengthEffectiveImmediate") ?? true;
  if (term === undefined) return {};
  if (!immediate) return { "/newTermLength": String(term) };
  if (term < Number(view.termLength ?? 0)) {
    fail("invalidProperty", "termLength", "the term length cannot be shortened before the end of the current term; set termLengthEffectiveImmediate to false", String(term));
  }
  return { "/termLength": String(term), ...repricedCharges(view, { termLength: term }) };
}

function attributeChanges(body: JsonObject, view: JsonObject): Record<string, Json> {
  const changes: Record<string, Json> = {};
  const name = optionalString(body, "virtualDeviceName", "virtualDeviceName", NAME_RULE);
  if (name !== undefined) changes["/name"] = name;
  if (body.notifications !== undefined) changes["/notifications"] = emailList(body.notifications, "notifications", NOTIFICATIONS.min, NOTIFICATIONS.max);
  const clusterName = optionalString(body, "clusterName", "clusterName", NAME_RULE);
  if (clusterName !== undefined) {
    if (view.redundancyType !== "CLUSTER") fail("invalidProperty", "clusterName", "clusterName applies to cluster devices only", clusterName);
    changes["/clusterDetails/clusterName"] = clusterName;
  }
  const optOut = optionalBoolean(body, "autoRenewalOptOut", "autoRenewalOptOut");
  if (optOut !== undefined) changes["/autoRenewalOptOut"] = optOut;
  const vendorConfig = optionalObject(body, "vendorConfig", "vendorConfig");
  if (vendorConfig) {
    rejectUnknownFields(vendorConfig, ["disablePassword"], "vendorConfig.");
    const disable = optionalBoolean(vendorConfig, "disablePassword", "vendorConfig.disablePassword");
    if (disable !== undefined) changes["/vendorConfig/disablePassword"] = disable;
  }
  if (body.status !== undefined) fail("invalidProperty", "status", "the status of a device is set by the service", JSON.stringify(body.status));
  return { ...changes, ...termChanges(body, view) };
}

async function patchDevice(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, []);
  const { device, view } = liveDevice(world, principal, c.req.param("uuid")!);
  const body = await readObject(c);
  rejectUnknownFields(body, PATCH_FIELDS);
  if (Object.keys(body).length === 0) fail("missingProperty", "body", "name one or more fields to update");
  if (body.core !== undefined) {
    if (Object.keys(body).length > 1) fail("invalidProperty", "core", "a resize (core) cannot be combined with other changes");
    startCoreUpgrade(world, principal, device, view, optionalInteger(body, "core", "core", 1)!);
    return c.body(null, 204);
  }
  const changes = attributeChanges(body, view);
  world.apply(device, { at: world.now(), set: { ...changes, ...auditUpdated(principal, world.nowIso()) } });
  world.recordEvent(device, "updated", world.now(), `updated: ${Object.keys(body).join(", ")}`);
  return c.body(null, 204);
}

async function putDraft(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["draft"]);
  if (queryBoolean(c, "draft") !== true) fail("missingProperty", "draft", "this call updates device drafts only; send draft=true");
  const draft = findVisible(world, principal, DEVICE_KIND, c.req.param("uuid")!);
  if (world.view(draft).status !== "DRAFT") fail("invalidProperty", "uuid", `device ${draft.uuid} is not a draft; use PATCH to update a device`, draft.uuid);
  const body = await readObject(c);
  const { projectId } = validateDraft(principal, body);
  const created = { createdBy: draft.body.createdBy ?? principal.userName, createdDate: draft.body.createdDate ?? world.nowIso() };
  world.replace(draft, { uuid: draft.uuid, ...draftFields(body), ...created, lastUpdatedBy: principal.userName, lastUpdatedDate: world.nowIso(), projectId }, projectId);
  world.setMeta(draft, "draftRequest", body);
  world.recordEvent(draft, "updated", world.now(), "draft updated");
  return c.body(null, 204);
}

async function additionalBandwidth(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, []);
  const { device, view } = liveDevice(world, principal, c.req.param("uuid")!);
  const body = await readObject(c);
  rejectUnknownFields(body, ["additionalBandwidth"]);
  const value = optionalInteger(body, "additionalBandwidth", "additionalBandwidth", 0, MAX_ADDITIONAL_BANDWIDTH);
  if (value === undefined) return fail("missingProperty", "additionalBandwidth", "additionalBandwidth is required");
  if (view.status !== "PROVISIONED") fail("invalidProperty", "uuid", `device ${device.uuid} is ${String(view.status)}; bandwidth can be changed on PROVISIONED devices`, device.uuid);
  if (view.connectivity === "PRIVATE") fail("invalidProperty", "additionalBandwidth", "PRIVATE devices have no internet bandwidth", value);
  world.apply(device, { at: world.now(), set: { "/additionalBandwidth": value, ...repricedCharges(view, { additionalBandwidth: value }), ...auditUpdated(principal, world.nowIso()) } });
  world.recordEvent(device, "updated", world.now(), `additional bandwidth set to ${value} Mbps`);
  return c.body(null, 204);
}

/** The status of a device's ACL templates on it (DeviceACLDetailsResponse's values): applied once the device runs. */
function aclStatus(deviceStatus: Json | undefined): string {
  if (deviceStatus === "PROVISIONED" || deviceStatus === "FAILED") return deviceStatus;
  return GONE_STATUSES.includes(deviceStatus ?? null) ? "DEPROVISIONED" : "DEVICE_NOT_READY";
}

/** getDeviceTemplatesbyUuid: the template on each interface (InitialDeviceACLResponse), with its status on the device. */
function getAcl(c: Ctx, world: World) {
  rejectUnknownQuery(c, []);
  const view = world.view(findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param("uuid")!));
  const status = aclStatus(view.status);
  const details = (field: string): JsonObject | undefined => {
    const uuid = view[field];
    const template = typeof uuid === "string" ? world.get(uuid, ACL_TEMPLATE_KIND) : undefined;
    if (!template) return undefined;
    const { name, description, inboundRules, createdBy, createdDate } = world.view(template);
    const kept = Object.entries({ name, description, inboundRules, createdBy, createdDate }).filter((e): e is [string, Json] => e[1] !== undefined);
    return { uuid: template.uuid, ...Object.fromEntries(kept), status };
  };
  const wan = details("aclTemplateUuid");
  const mgmt = details("mgmtAclTemplateUuid");
  return c.json({ ...(wan ? { aclTemplate: wan } : {}), ...(mgmt ? { mgmtAclTemplate: mgmt } : {}) });
}

/**
 * Sets the device's ACL templates. PATCH (patchDeviceTemplatesbyUuid, "updates or removes") replaces them:
 * interfaces the request leaves out lose theirs; POST (postDeviceTemplatesbyUuid, "add") leaves those alone.
 */
async function setAcl(c: Ctx, world: World, interfacesLeftOut: "lose" | "keep") {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["accountUcmId"]);
  const { device, view } = liveDevice(world, principal, c.req.param("uuid")!);
  const body = await readObject(c);
  rejectUnknownFields(body, ["aclDetails"]);
  if (body.aclDetails === undefined) return fail("missingProperty", "aclDetails", "aclDetails is required");
  const templates = aclTemplateFields(aclDetails(world, principal, body, "aclDetails"));
  if (view.status !== "PROVISIONED") fail("invalidProperty", "uuid", `device ${device.uuid} is ${String(view.status)}; ACLs can be changed on PROVISIONED devices`, device.uuid);
  if (view.connectivity === "PRIVATE" && Object.values(templates).some((t) => t !== undefined)) fail("invalidProperty", "aclDetails", "PRIVATE devices have no ACLs");
  world.settle(device);
  world.edit(device, (stored) => {
    for (const [field, uuid] of Object.entries(templates)) {
      if (uuid !== undefined) stored[field] = uuid;
      else if (interfacesLeftOut === "lose") delete stored[field];
    }
  });
  world.apply(device, { at: world.now(), set: auditUpdated(principal, world.nowIso()) });
  world.recordEvent(device, "updated", world.now(), "ACL templates changed");
  return c.body(null, 204);
}

// ── delete ─────────────────────────────────────────────────────────────────────────────────────

/** deleteVRouterUsingDELETE's optional body (`deletionInfo`, not required): deactivation keys for devices that need them. */
async function deletionInfo(c: Ctx): Promise<void> {
  const body = await readOptionalObject(c);
  if (!body) return;
  rejectUnknownFields(body, ["deactivationKey", "secondary"]);
  optionalString(body, "deactivationKey", "deactivationKey");
  const secondary = optionalObject(body, "secondary", "secondary");
  if (secondary) {
    rejectUnknownFields(secondary, ["deactivationKey"], "secondary.");
    requiredString(secondary, "deactivationKey", "secondary.deactivationKey");
  }
}

async function deleteDevice(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["deleteRedundantDevice"]);
  const withPeer = queryBoolean(c, "deleteRedundantDevice") ?? false;
  await deletionInfo(c);
  const device = findVisible(world, principal, DEVICE_KIND, c.req.param("uuid")!);
  const view = world.view(device);
  if (view.status === "DRAFT") {
    world.remove(device);
    return c.body(null, 204);
  }
  if (GONE_STATUSES.includes(view.status ?? null)) fail("invalidProperty", "uuid", `device ${device.uuid} is already ${String(view.status)}`, device.uuid);
  const peer = typeof view.redundantUuid === "string" ? world.get(view.redundantUuid, DEVICE_KIND) : undefined;
  const livePeer = peer && !GONE_STATUSES.includes(world.view(peer).status ?? null) ? peer : undefined;
  if (livePeer && view.redundancyType === "PRIMARY" && !withPeer) {
    fail("invalidProperty", "deleteRedundantDevice", "this primary has a secondary device; set deleteRedundantDevice=true to delete both", "false");
  }
  const targets = withPeer && livePeer ? [device, livePeer] : [device];
  if (livePeer && !withPeer) {
    // The secondary leaves the pair: its primary becomes a single device again.
    world.settle(livePeer);
    world.edit(livePeer, (stored) => delete stored.redundantUuid);
    world.recordEvent(livePeer, "updated", world.now(), `secondary device ${device.uuid} removed`);
  }
  for (const target of targets) start(world, target, deprovisioningLifecycle(principal, world));
  return c.body(null, 204);
}

export const devicesArea: Area = {
  name: "ne-devices",
  define(world) {
    world.defineKind(DEVICE_KIND, {
      statePath: "/status",
      eventType: "equinix.network_edge.device",
      subject: (o) => `/ne/v1/devices/${o.uuid}`,
      render: renderDevice,
    });
    defineDeviceOpKinds(world);
  },
  routes(app: SimApp, world: World) {
    app.post("/ne/v1/devices", (c) => createDevice(c, world));
    app.get("/ne/v1/devices", (c) => listDevices(c, world));
    deviceOpsRoutes(app, world);
    app.get("/ne/v1/devices/:uuid", (c) => getDevice(c, world));
    app.patch("/ne/v1/devices/:uuid", (c) => patchDevice(c, world));
    app.put("/ne/v1/devices/:uuid", (c) => putDraft(c, world));
    app.delete("/ne/v1/devices/:uuid", (c) => deleteDevice(c, world));
    app.put("/ne/v1/devices/:uuid/additionalBandwidths", (c) => additionalBandwidth(c, world));
    app.get("/ne/v1/devices/:uuid/acl", (c) => getAcl(c, world));
    app.post("/ne/v1/devices/:uuid/acl", (c) => setAcl(c, world, "keep"));
    app.patch("/ne/v1/devices/:uuid/acl", (c) => setAcl(c, world, "lose"));
  },
};
