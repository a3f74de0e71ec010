// Operations on an existing virtual device (section 4.10): soft reboot and its reload history, resource
// upgrade (core resize) history, the interface list and per-interface throughput statistics, ping, and
// licence files (uploaded before creation, or applied to a device afterwards).

import type { Context } from "hono";
import { findVisible, requestHeader, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { SimError, fail } from "../core/errors.js";
import { pageLink, paginate, queryPage, rejectUnknownQuery } from "../core/http.js";
import { DEVICE_TYPE_BY_CODE, LICENSE_MODES, licenseModeSpelling } from "./device-catalogue.js";
import { oneOf, queryRequired } from "./device-fields.js";
import { DEVICE_KIND, auditUpdated, repricedCharges } from "./device-model.js";
import { deviceType } from "./device-rules.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

const RELOAD_KIND = "deviceReloads";
const UPGRADE_KIND = "deviceUpgrades";
const FILE_KIND = "files";

/** Simulated durations of device operations. */
const OP_DURATIONS = {
  rebootStarts: 5_000,
  rebootDone: 90_000,
  upgradeStarts: 30_000,
  upgradeDone: 10 * 60_000,
  licenseRegistered: 60_000,
} as const;

const FINISHED: readonly Json[] = ["SUCCESS", "FAILED", "CANCELLED"];
const STATS_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

type Ctx = Context<SimEnv>;

export function defineDeviceOpKinds(world: World): void {
  const deviceSubject = (suffix: string) => (o: SimObject) => `/ne/v1/devices/${String(o.meta.deviceUuid)}/${suffix}`;
  world.defineKind(RELOAD_KIND, { statePath: "/status", eventType: "equinix.network_edge.device.reboot", subject: deviceSubject("softReboot") });
  world.defineKind(UPGRADE_KIND, { statePath: "/status", eventType: "equinix.network_edge.device.upgrade", subject: deviceSubject("resourceUpgrade") });
}

function isoAfter(world: World, simulatedMs: number): string {
  return new Date(world.now() + world.clock.scale(simulatedMs)).toISOString();
}

/** A visible device that is PROVISIONED (running operations need a running device). */
function runningDevice(world: World, principal: Principal, uuid: string, what: string): { device: SimObject; view: JsonObject } {
  const device = findVisible(world, principal, DEVICE_KIND, uuid);
  const view = world.view(device);
  if (view.status !== "PROVISIONED") fail("invalidProperty", "uuid", `device ${uuid} is ${String(view.status)}; ${what} needs a PROVISIONED device`, uuid);
  return { device, view };
}

function entriesOf(world: World, kind: string, deviceUuid: string): SimObject[] {
  return world.list(kind).filter((o) => o.meta.deviceUuid === deviceUuid);
}

function inProgress(world: World, kind: string, deviceUuid: string): boolean {
  return entriesOf(world, kind, deviceUuid).some((o) => !FINISHED.includes(world.view(o).status ?? null));
}

/** History of one device's operations, newest first. */
function history(c: Ctx, world: World, kind: string, param: string) {
  rejectUnknownQuery(c, ["offset", "limit"]);
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param(param)!);
  const page = queryPage(c, { defaultLimit: 20 });
  const items = entriesOf(world, kind, device.uuid).map((o) => world.view(o)).reverse();
  return c.json(paginate(items, page, pageLink(c)));
}

// ── soft reboot ────────────────────────────────────────────────────────────────────────────────

function softReboot(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, []);
  const { device } = runningDevice(world, principal, c.req.param("virtualDeviceUUID")!, "a reboot");
  if (inProgress(world, RELOAD_KIND, device.uuid)) fail("invalidProperty", "virtualDeviceUUID", `device ${device.uuid} is already rebooting`, device.uuid);
  const reload = world.create(
    RELOAD_KIND,
    { deviceUUID: device.uuid, status: "REQUEST_ACCEPTED", requestedBy: principal.userName, requestedDate: world.nowIso() },
    { ...(device.projectId === undefined ? {} : { projectId: device.projectId }), meta: { deviceUuid: device.uuid } },
  );
  world.transition(
    reload,
    { "/status": "REQUEST_ACCEPTED" },
    [
      { afterMs: OP_DURATIONS.rebootStarts, set: { "/status": "IN_PROGRESS" } },
      { afterMs: OP_DURATIONS.rebootDone, set: { "/status": "SUCCESS", "/completiondDate": isoAfter(world, OP_DURATIONS.rebootDone) } },
    ],
    { "/status": "FAILED", "/completiondDate": isoAfter(world, OP_DURATIONS.rebootDone) },
  );
  return c.body(null, 201);
}

// ── resource upgrade ───────────────────────────────────────────────────────────────────────────

/** Resizes a device to `core` cores: an upgrade entry moves REQUEST_ACCEPTED -> IN_PROGRESS -> SUCCESS, then the device has its new size. */
export function startCoreUpgrade(world: World, principal: Principal, device: SimObject, view: JsonObject, core: number): void {
  if (view.status !== "PROVISIONED") fail("invalidProperty", "core", `device ${device.uuid} is ${String(view.status)}; a resize needs a PROVISIONED device`, core);
  const type = typeof view.deviceTypeCode === "string" ? DEVICE_TYPE_BY_CODE.get(view.deviceTypeCode) : undefined;
  const management = view.deviceManagementType === "SELF-CONFIGURED" ? "SELF-CONFIGURED" : "PROVIDER-CONFIGURED";
  const cores = type?.management[management]?.licenses[view.licenseType === "BYOL" ? "BYOL" : "SUB"] ?? [];
  const target = cores.find((c) => c.core === core && c.packages.includes(String(view.packageCode)));
  if (!target) return fail("notInAllowedList", "core", `this device can be resized to ${cores.filter((c) => c.packages.includes(String(view.packageCode))).map((c) => c.core).join(", ") || "no other size"} cores`, core);
  const current = (view.core as JsonObject | undefined)?.core;
  if (current === core) fail("invalidProperty", "core", `the device already has ${core} cores`, core);
  if (inProgress(world, UPGRADE_KIND, device.uuid)) fail("invalidProperty", "core", `a resize of device ${device.uuid} is already in progress`, core);
  const upgradeUuid = world.uuid();
  const upgrade = world.create(
    UPGRADE_KIND,
    { uuid: upgradeUuid, virtualDeviceUuid: device.uuid, status: "REQUEST_ACCEPTED", requestedBy: principal.userName, requestedDate: world.nowIso() },
    { uuid: upgradeUuid, ...(device.projectId === undefined ? {} : { projectId: device.projectId }), meta: { deviceUuid: device.uuid } },
  );
  const completed = isoAfter(world, OP_DURATIONS.upgradeDone);
  world.transition(
    upgrade,
    { "/status": "REQUEST_ACCEPTED" },
    [
      { afterMs: OP_DURATIONS.upgradeStarts, set: { "/status": "IN_PROGRESS" } },
      { afterMs: OP_DURATIONS.upgradeDone, set: { "/status": "SUCCESS", "/completionDate": completed } },
    ],
    { "/status": "FAILED", "/completionDate": completed },
  );
  if (upgrade.phases[upgrade.phases.length - 1]?.set["/status"] === "FAILED") return;
  world.transition(device, auditUpdated(principal, world.nowIso()), [
    { afterMs: OP_DURATIONS.upgradeDone, set: { "/core/core": core, "/core/memory": target.memory, ...repricedCharges(view, { core }) } },
  ]);
}

// ── interfaces and statistics ──────────────────────────────────────────────────────────────────

function deviceInterfaces(view: JsonObject): JsonObject[] {
  return (Array.isArray(view.interfaces) ? view.interfaces : []).filter((i): i is JsonObject => i !== null && typeof i === "object" && !Array.isArray(i));
}

function listInterfaces(c: Ctx, world: World) {
  rejectUnknownQuery(c, []);
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param("uuid")!);
  const keys = ["id", "name", "status", "operationStatus", "macAddress", "ipAddress", "assignedType", "type"];
  return c.json(deviceInterfaces(world.view(device)).map((i) => Object.fromEntries(keys.filter((k) => i[k] !== undefined).map((k) => [k, i[k]!]))));
}

function statsTime(c: Ctx, name: string): number {
  const raw = queryRequired(c, name);
  const ms = Date.parse(raw);
  if (!STATS_TIME.test(raw) || Number.isNaN(ms)) return fail("invalidQueryParameter", name, `${name} must be a UTC time in the form YYYY-MM-DDThh:mm:ssZ`, raw);
  return ms;
}

/** FNV-1a: a stable number per device and interface, so statistics are the same on every call. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const INTERVALS_MIN = [5, 15, 60, 360, 1440];
const MAX_POINTS = 300;

/** Throughput (Mbps) with a daily rhythm; no traffic before the device existed. */
function traffic(seed: number, base: number, createdMs: number, t: number): number {
  if (t < createdMs) return 0;
  const day = 86_400_000;
  const phase = (seed % 1000) / 1000;
  const wave = 1 + 0.6 * Math.sin(2 * Math.PI * (t / day + phase));
  const jitter = ((hash(`${seed}:${t}`) % 1000) / 1000 - 0.5) * 0.2;
  return Math.round(base * Math.max(0, wave + jitter) * 1000) / 1000;
}

function direction(seed: number, base: number, createdMs: number, start: number, end: number): JsonObject {
  const minutes = INTERVALS_MIN.find((m) => (end - start) / (m * 60_000) <= MAX_POINTS) ?? INTERVALS_MIN[INTERVALS_MIN.length - 1]!;
  const step = minutes * 60_000;
  const metrics: JsonObject[] = [];
  for (let t = start + step; t <= end; t += step) metrics.push({ intervalEndDateTime: new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z"), mean: traffic(seed, base, createdMs, t) });
  const means = metrics.map((m) => m.mean as number);
  const mean = means.length ? Math.round((means.reduce((a, b) => a + b, 0) / means.length) * 1000) / 1000 : 0;
  return { max: means.length ? Math.max(...means) : 0, mean, lastPolled: means[means.length - 1] ?? 0, metrics };
}

function interfaceStats(c: Ctx, world: World) {
  rejectUnknownQuery(c, ["startDateTime", "endDateTime"]);
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param("virtualDeviceUuid")!);
  const rawId = c.req.param("interfaceId")!;
  if (!/^\d+$/.test(rawId)) fail("invalidProperty", "interfaceId", "interfaceId must be an integer", rawId);
  const view = world.view(device);
  const iface = deviceInterfaces(view).find((i) => i.id === Number(rawId));
  if (!iface) return fail("notFound", "interfaceId", `device ${device.uuid} has no interface ${rawId}`, rawId);
  const start = statsTime(c, "startDateTime");
  const end = statsTime(c, "endDateTime");
  if (start >= end) fail("invalidQueryParameter", "startDateTime", "startDateTime must be before endDateTime", c.req.query("startDateTime"));
  const seed = hash(`${device.uuid}/${rawId}`);
  const base = iface.type === "DATA" ? 20 + (seed % 80) : 0.5;
  const created = Date.parse(String(view.createdDate ?? "")) || 0;
  return c.json({
    stats: {
      startDateTime: c.req.query("startDateTime")!,
      endDateTime: c.req.query("endDateTime")!,
      unit: "Mbps",
      inbound: direction(seed, base, created, start, end),
      outbound: direction(seed >>> 1, base * 0.6, created, start, end),
    },
  });
}

// ── ping ───────────────────────────────────────────────────────────────────────────────────────

function ping(c: Ctx, world: World) {
  rejectUnknownQuery(c, []);
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, c.req.param("uuid")!);
  const view = world.view(device);
  const type = typeof view.deviceTypeCode === "string" ? DEVICE_TYPE_BY_CODE.get(view.deviceTypeCode) : undefined;
  if (!type?.pingSupported || view.deviceManagementType !== "SELF-CONFIGURED") {
    const offered = [...DEVICE_TYPE_BY_CODE.values()].filter((t) => t.pingSupported).map((t) => t.code);
    fail("invalidProperty", "uuid", `ping is offered for self-configured ${offered.join(", ")} devices only`, device.uuid);
  }
  if (view.status !== "PROVISIONED") fail("invalidProperty", "uuid", `device ${device.uuid} is ${String(view.status)} and does not answer`, device.uuid);
  return c.body(null, 200);
}

// ── licence files ──────────────────────────────────────────────────────────────────────────────

async function uploadedFile(c: Ctx): Promise<File> {
  const type = requestHeader(c, "content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw new SimError("unsupportedMediaType", [{ property: "Content-Type", reason: `expected multipart/form-data, got ${type || "nothing"}` }]);
  }
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    return fail("invalidProperty", "file", "the multipart body could not be read");
  }
  const file = form.file;
  if (!(file instanceof File) || file.size === 0) return fail("missingProperty", "file", "a non-empty file part named file is required");
  return file;
}

function storeLicenseFile(world: World, principal: Principal, file: File, fields: JsonObject): string {
  const uuid = world.uuid();
  world.create(
    FILE_KIND,
    { uuid, fileUuid: uuid, fileName: file.name, fileSize: file.size, processType: "LICENSE", ...fields, createdBy: principal.userName, createdDate: world.nowIso() },
    { uuid, projectId: principal.projectIds[0]! },
  );
  return uuid;
}

async function uploadLicenseBeforeCreation(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["metroCode", "deviceTypeCode", "licenseType"]);
  const type = deviceType(queryRequired(c, "deviceTypeCode"), "deviceTypeCode");
  const metroCode = queryRequired(c, "metroCode");
  if (!type.metros.includes(metroCode)) fail("notInAllowedList", "metroCode", `${type.code} is offered in ${type.metros.join(", ")}`, metroCode);
  const licenseType = oneOf(licenseModeSpelling(queryRequired(c, "licenseType")), LICENSE_MODES, "licenseType");
  if (licenseType !== "BYOL") fail("invalidProperty", "licenseType", "licence files are for BYOL devices", licenseType);
  const file = await uploadedFile(c);
  return c.json({ fileId: storeLicenseFile(world, principal, file, { deviceTypeCode: type.code, metroCode, licenseType }) }, 200);
}

async function uploadLicenseForDevice(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, []);
  const device = findVisible(world, principal, DEVICE_KIND, c.req.param("uuid")!);
  const view = world.view(device);
  if (view.status === "DRAFT" || view.status === "DEPROVISIONING" || view.status === "DEPROVISIONED") {
    fail("invalidProperty", "uuid", `device ${device.uuid} is ${String(view.status)}`, device.uuid);
  }
  if (view.licenseType !== "BYOL") fail("invalidProperty", "uuid", `device ${device.uuid} has a subscription licence; licence files are for BYOL devices`, device.uuid);
  const file = await uploadedFile(c);
  const fileId = storeLicenseFile(world, principal, file, { deviceTypeCode: String(view.deviceTypeCode), metroCode: String(view.metroCode), licenseType: "BYOL" });
  const changes = { "/licenseFileId": fileId, ...auditUpdated(principal, world.nowIso()) };
  if (view.status === "PROVISIONED") {
    world.transition(device, { ...changes, "/licenseStatus": "APPLYING_LICENSE" }, [{ afterMs: OP_DURATIONS.licenseRegistered, set: { "/licenseStatus": "REGISTERED" } }]);
  } else {
    // Still being provisioned: the licence is applied when provisioning completes.
    world.apply(device, { at: world.now(), set: changes });
  }
  return c.json({ fileId }, 200);
}

export function deviceOpsRoutes(app: SimApp, world: World): void {
  app.post("/ne/v1/devices/licenseFiles", (c) => uploadLicenseBeforeCreation(c, world));
  app.post("/ne/v1/devices/licenseFiles/:uuid", (c) => uploadLicenseForDevice(c, world));
  app.post("/ne/v1/devices/:virtualDeviceUUID/softReboot", (c) => softReboot(c, world));
  app.get("/ne/v1/devices/:virtualDeviceUUID/softReboot", (c) => history(c, world, RELOAD_KIND, "virtualDeviceUUID"));
  app.get("/ne/v1/devices/:virtualDeviceUuid/resourceUpgrade", (c) => history(c, world, UPGRADE_KIND, "virtualDeviceUuid"));
  app.get("/ne/v1/devices/:uuid/interfaces", (c) => listInterfaces(c, world));
  app.get("/ne/v1/devices/:virtualDeviceUuid/interfaces/:interfaceId/stats", (c) => interfaceStats(c, world));
  app.get("/ne/v1/devices/:uuid/ping", (c) => ping(c, world));
}
