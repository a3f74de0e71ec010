// Device backups and restore (sections 2.8, 3.7, 4.8). A backup records the device's services at the
// time it was taken; the restore analysis compares them with the services the device has now:
// unchanged ones need nothing (NONE), ones added since must be deleted first (DELETE), and ones that
// have gone since cannot be brought back by a restore (UNSUPPORTED). Provider-configured devices get
// configuration backups (downloadable); self-configured devices get image snapshots (not downloadable).

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import type { Area, Principal, SimApp, SimEnv } from "../core/context.js";
import { canSee } from "../core/context.js";
import { paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { oneOf, queryList, requireString, viewString, visibleDevice } from "./services-shared.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

const KIND = "deviceBackups";

/** Section 3.7 names COMPLETED and FAILED; the steps before them follow the service's own wording. */
const BACKUP_STATUSES = ["REQUEST_ACCEPTED", "PROCESSING", "COMPLETED", "FAILED"] as const;
type BackupStatus = (typeof BACKUP_STATUSES)[number];
type BackupType = "CONFIG" | "IMAGE_SNAPSHOT";

/** Section 8: backups per device. */
const MAX_BACKUPS_PER_DEVICE = 30;

/** Simulated durations: a configuration backup takes about a minute, an image snapshot several. */
const BACKUP_DURATION_MS: Record<BackupType, number> = { CONFIG: 60_000, IMAGE_SNAPSHOT: 300_000 };
const PROCESSING_AFTER_MS = 5_000;
const RESTORE_DURATION_MS = 120_000;

const SERVICE_KINDS = ["L3_CONNECTION", "L2_CONNECTION", "BYOC", "VPN", "BGP", "ACL", "LICENSE", "DEVICE_LINKING"] as const;
type ServiceKind = (typeof SERVICE_KINDS)[number];
type Operation = "UNSUPPORTED" | "NONE" | "DELETE";

interface DeviceService {
  kind: ServiceKind;
  serviceId: string;
  serviceName: string;
  data: JsonObject;
}

// ── the device's services ──────────────────────────────────────────────────────────────────

function withoutSecrets(view: JsonObject): JsonObject {
  const { password: _password, peerSharedKey: _key, secondary: _secondary, ...rest } = view;
  return rest;
}

function vpnServices(world: World, deviceUuid: string): DeviceService[] {
  return world
    .list("vpns")
    .map((o) => world.view(o))
    .filter((v) => v.virtualDeviceUuid === deviceUuid && v.status !== "DEPROVISIONED")
    .map((v) => ({ kind: "VPN", serviceId: String(v.uuid), serviceName: String(v.configName ?? v.uuid), data: withoutSecrets(v) }));
}

function connectionServices(world: World, deviceUuid: string): DeviceService[] {
  return world
    .list("connections")
    .map((o) => world.view(o))
    .filter((v) => ["/aSide", "/zSide"].some((side) => getPointer(v, `${side}/accessPoint/virtualDevice/uuid`) === deviceUuid))
    .filter((v) => v.state !== "DEPROVISIONED" && v.state !== "DELETED")
    .map((v) => ({ kind: "L2_CONNECTION", serviceId: String(v.uuid), serviceName: String(v.name ?? v.uuid), data: v }));
}

/** Services held in the device record itself: its ACL template and its license file. */
function deviceRecordServices(deviceView: JsonObject): DeviceService[] {
  const services: DeviceService[] = [];
  const acl = viewString(deviceView, "aclTemplateUuid");
  if (acl) services.push({ kind: "ACL", serviceId: acl, serviceName: "ACL template", data: { aclTemplateUuid: acl } });
  const license = viewString(deviceView, "licenseFileId");
  if (license) services.push({ kind: "LICENSE", serviceId: license, serviceName: "License file", data: { licenseFileId: license } });
  return services;
}

function servicesOf(world: World, device: SimObject): DeviceService[] {
  return [...vpnServices(world, device.uuid), ...connectionServices(world, device.uuid), ...deviceRecordServices(world.view(device))];
}

function toJson(s: DeviceService): JsonObject {
  return { kind: s.kind, serviceId: s.serviceId, serviceName: s.serviceName, data: s.data };
}

function fromJson(j: Json): DeviceService {
  const o = j as JsonObject;
  return { kind: o.kind as ServiceKind, serviceId: String(o.serviceId), serviceName: String(o.serviceName), data: o.data as JsonObject };
}

// ── restore analysis ───────────────────────────────────────────────────────────────────────

interface AnalysisEntry {
  service: DeviceService;
  operation: Operation;
}

function analyse(backedUp: DeviceService[], now: DeviceService[]): AnalysisEntry[] {
  const key = (s: DeviceService) => `${s.kind}/${s.serviceId}`;
  const before = new Set(backedUp.map(key));
  const after = new Set(now.map(key));
  return [
    ...now.map((service) => ({ service, operation: (before.has(key(service)) ? "NONE" : "DELETE") as Operation })),
    ...backedUp.filter((s) => !after.has(key(s))).map((service) => ({ service, operation: "UNSUPPORTED" as Operation })),
  ];
}

function restorable(operation: Operation): boolean {
  switch (operation) {
    case "NONE":
      return true;
    case "DELETE":
    case "UNSUPPORTED":
      return false;
    default: {
      const unreachable: never = operation;
      return unreachable;
    }
  }
}

function analysisBody(backupView: JsonObject, entries: AnalysisEntry[]): JsonObject {
  const services: JsonObject = Object.fromEntries(SERVICE_KINDS.map((k) => [k, [] as Json[]]));
  for (const { service, operation } of entries) {
    (services[service.kind] as Json[]).push({
      serviceDetails: { uuid: service.serviceId, serviceId: service.serviceId, serviceName: service.serviceName, data: service.data },
      operationNeededToPerform: operation,
      restorable: restorable(operation),
    });
  }
  return {
    deviceBackup: {
      deviceBackup: { uuid: backupView.uuid ?? null, name: backupView.name ?? null, status: backupView.status ?? null, deleteAllowed: backupView.deleteAllowed ?? false },
    },
    services,
    restoreAllowed: entries.every((e) => e.operation === "NONE"),
    restoreAllowedAfterDeleteOrEdit: entries.every((e) => e.operation !== "UNSUPPORTED"),
  };
}

// ── configuration text ─────────────────────────────────────────────────────────────────────

/** A plausible running configuration of the device as it was when backed up. */
function configurationText(deviceView: JsonObject, services: DeviceService[], at: string): string {
  const vpnLines = services
    .filter((s) => s.kind === "VPN")
    .flatMap((s) => [
      `crypto ikev2 keyring ${s.serviceName.replace(/\s+/g, "_")}`,
      ` peer ${String(s.data.siteName ?? "site")}`,
      `  address ${String(s.data.peerIp ?? "0.0.0.0")}`,
      `router bgp ${String(s.data.localAsn ?? 65000)}`,
      ` neighbor ${String(s.data.remoteIpAddress ?? "0.0.0.0")} remote-as ${String(s.data.remoteAsn ?? 65001)}`,
      "!",
    ]);
  const body = [
    "!",
    `! Last configuration change at ${at}`,
    `version ${String(deviceView.version ?? "17.11")}`,
    `hostname ${String(deviceView.hostName ?? deviceView.name ?? "device")}`,
    "!",
    ...vpnLines,
    "end",
  ].join("\n");
  return `Building configuration...\n\nCurrent configuration : ${body.length} bytes\n${body}\n`;
}

// ── handlers ───────────────────────────────────────────────────────────────────────────────

function findBackup(world: World, principal: Principal, uuid: string): SimObject {
  const backup = world.get(uuid, KIND);
  if (!backup || !canSee(principal, backup)) return fail("notFound", "uuid", `device backup ${uuid} was not found`);
  return backup;
}

function statusOf(world: World, backup: SimObject): BackupStatus {
  return world.view(backup).status as BackupStatus;
}

function backupsOfDevice(world: World, deviceUuid: string): SimObject[] {
  return world.list(KIND).filter((o) => o.body.deviceUuid === deviceUuid);
}

async function createBackup(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const body = await readObject(c);
  const deviceUuid = requireString(body, "deviceUuid");
  const name = requireString(body, "name");
  const device = visibleDevice(world, principal, deviceUuid);
  if (!device) return fail("referenceNotFound", "deviceUuid", `virtual device ${deviceUuid} was not found`);
  const deviceView = world.view(device);
  if (deviceView.status !== "PROVISIONED") {
    fail("invalidProperty", "deviceUuid", `virtual device ${deviceUuid} is ${String(deviceView.status)}; only PROVISIONED devices can be backed up`);
  }
  if (backupsOfDevice(world, deviceUuid).length >= MAX_BACKUPS_PER_DEVICE) {
    fail("invalidProperty", "deviceUuid", `virtual device ${deviceUuid} already has ${MAX_BACKUPS_PER_DEVICE} backups, the most allowed; delete one first`);
  }
  const type: BackupType = deviceView.deviceManagementType === "SELF-CONFIGURED" ? "IMAGE_SNAPSHOT" : "CONFIG";
  const at = world.nowIso();
  const services = servicesOf(world, device);
  const uuid = world.uuid();
  const backup = world.create(
    KIND,
    {
      uuid,
      name,
      deviceUuid,
      type,
      ...(typeof deviceView.version === "string" ? { version: deviceView.version } : {}),
      createdBy: principal.userName,
      createdDate: at,
      lastUpdatedDate: at,
      ...(type === "CONFIG" ? { downloadUrl: `/ne/v1/deviceBackups/${uuid}/download` } : {}),
      restores: [],
    },
    {
      uuid,
      ...(device.projectId === undefined ? {} : { projectId: device.projectId }),
      meta: { services: services.map(toJson), configuration: configurationText(deviceView, services, at) },
    },
  );
  const status = (s: BackupStatus) => ({ "/status": s });
  world.transition(
    backup,
    status("REQUEST_ACCEPTED"),
    [
      { afterMs: PROCESSING_AFTER_MS, set: status("PROCESSING") },
      { afterMs: BACKUP_DURATION_MS[type], set: status("COMPLETED") },
    ],
    status("FAILED"),
  );
  return c.json({ id: uuid, uuid }, 202);
}

function listBackups(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["virtualDeviceUuid", "status", "offset", "limit"]);
  const principal = c.get("principal");
  const deviceUuid = c.req.query("virtualDeviceUuid");
  if (!deviceUuid) return fail("missingProperty", "virtualDeviceUuid", "virtualDeviceUuid is required");
  const statuses = queryList(c, "status").map((s) => oneOf(s, BACKUP_STATUSES, "status"));
  const page = queryPage(c, { defaultLimit: 20 });
  // The device is named by a query parameter, not the path: a reference that is not found (section 7.2, EQ-2012010).
  if (!visibleDevice(world, principal, deviceUuid)) return fail("referenceNotFound", "virtualDeviceUuid", `virtual device ${deviceUuid} was not found`, deviceUuid);
  const items = backupsOfDevice(world, deviceUuid)
    .map((o) => world.view(o))
    .filter((v) => statuses.length === 0 || statuses.includes(v.status as BackupStatus));
  return c.json(paginate(items, page));
}

async function renameBackup(c: Context<SimEnv>, world: World): Promise<Response> {
  const backup = findBackup(world, c.get("principal"), c.req.param("uuid")!);
  const name = requireString(await readObject(c), "name");
  world.apply(backup, { at: world.now(), set: { "/name": name, "/lastUpdatedDate": world.nowIso() } });
  return c.body(null, 204);
}

function deleteBackup(c: Context<SimEnv>, world: World): Response {
  const backup = findBackup(world, c.get("principal"), c.req.param("uuid")!);
  const status = statusOf(world, backup);
  if (status !== "COMPLETED" && status !== "FAILED") {
    fail("invalidProperty", "uuid", `device backup ${backup.uuid} is ${status}; only COMPLETED or FAILED backups can be deleted`);
  }
  world.remove(backup);
  return c.body(null, 204);
}

function downloadBackup(c: Context<SimEnv>, world: World): Response {
  const backup = findBackup(world, c.get("principal"), c.req.param("uuid")!);
  const view = world.view(backup);
  if (view.type !== "CONFIG") {
    fail("invalidProperty", "uuid", "image snapshots of self-configured devices cannot be downloaded; only configuration backups can");
  }
  if (view.status !== "COMPLETED") fail("invalidProperty", "uuid", `device backup ${backup.uuid} is ${String(view.status)}; only COMPLETED backups can be downloaded`);
  return c.json(String(backup.meta.configuration));
}

/** The device (404 when unseen) and one of its COMPLETED backups (400 otherwise). */
function deviceAndBackup(world: World, principal: Principal, deviceUuid: string, backupUuid: string | undefined): { device: SimObject; backup: SimObject } {
  const device = visibleDevice(world, principal, deviceUuid);
  if (!device) return fail("notFound", "uuid", `virtual device ${deviceUuid} was not found`);
  if (!backupUuid) return fail("missingProperty", "backupUuid", "backupUuid is required");
  const backup = world.get(backupUuid, KIND);
  if (!backup || !canSee(principal, backup) || backup.body.deviceUuid !== deviceUuid) {
    return fail("referenceNotFound", "backupUuid", `device ${deviceUuid} has no backup ${backupUuid}`);
  }
  const status = statusOf(world, backup);
  if (status !== "COMPLETED") fail("invalidProperty", "backupUuid", `device backup ${backupUuid} is ${status}; only COMPLETED backups can be restored`);
  return { device, backup };
}

function backupAnalysis(world: World, device: SimObject, backup: SimObject): AnalysisEntry[] {
  const backedUp = ((backup.meta.services ?? []) as Json[]).map(fromJson);
  return analyse(backedUp, servicesOf(world, device));
}

function restoreAnalysis(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["backupUuid"]);
  const { device, backup } = deviceAndBackup(world, c.get("principal"), c.req.param("uuid")!, c.req.query("backupUuid"));
  return c.json(analysisBody(world.view(backup), backupAnalysis(world, device, backup)));
}

async function restoreBackup(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const body = await readObject(c);
  const { device, backup } = deviceAndBackup(world, principal, c.req.param("uuid")!, requireString(body, "backupUuid"));
  if (world.view(device).status !== "PROVISIONED") fail("invalidProperty", "uuid", `virtual device ${device.uuid} must be PROVISIONED to restore a backup`);
  const blocking = backupAnalysis(world, device, backup).filter((e) => e.operation !== "NONE");
  if (blocking.length > 0) {
    const what = blocking.map((e) => `${e.service.kind} ${e.service.serviceId} (${e.operation})`).join(", ");
    fail("invalidProperty", "backupUuid", `the backup cannot be restored yet; see the restore analysis: ${what}`);
  }
  const restores = (world.view(backup).restores ?? []) as JsonObject[];
  if (restores.some((r) => r.status === "PROCESSING")) fail("invalidProperty", "backupUuid", `a restore of backup ${backup.uuid} is already in progress`);
  const index = restores.length;
  const at = world.nowIso();
  const restore = { uuid: world.uuid(), status: "PROCESSING", createdBy: principal.userName, createdDate: at, lastUpdatedDate: at };
  const done = world.now() + world.clock.scale(RESTORE_DURATION_MS);
  world.transition(backup, { [`/restores/${index}`]: restore }, [
    { afterMs: RESTORE_DURATION_MS, set: { [`/restores/${index}/status`]: "COMPLETED", [`/restores/${index}/lastUpdatedDate`]: new Date(done).toISOString() } },
  ]);
  return c.body(null, 204);
}

export const backupsArea: Area = {
  name: "ne-backups",
  define(world) {
    world.defineKind(KIND, {
      statePath: "/status",
      eventType: "equinix.network_edge.device_backup",
      subject: (o) => `/ne/v1/deviceBackups/${o.uuid}`,
      render: (body) => ({ ...body, deleteAllowed: body.status === "COMPLETED" || body.status === "FAILED" }),
    });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/deviceBackups", (c) => createBackup(c, world));
    app.get("/ne/v1/deviceBackups", (c) => listBackups(c, world));
    app.get("/ne/v1/deviceBackups/:uuid", (c) => c.json(world.view(findBackup(world, c.get("principal"), c.req.param("uuid")))));
    app.patch("/ne/v1/deviceBackups/:uuid", (c) => renameBackup(c, world));
    app.delete("/ne/v1/deviceBackups/:uuid", (c) => deleteBackup(c, world));
    app.get("/ne/v1/deviceBackups/:uuid/download", (c) => downloadBackup(c, world));
    app.get("/ne/v1/devices/:uuid/restoreAnalysis", (c) => restoreAnalysis(c, world));
    app.patch("/ne/v1/devices/:uuid/restore", (c) => restoreBackup(c, world));
  },
};
