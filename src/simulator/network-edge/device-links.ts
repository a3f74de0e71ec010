// Device link groups (official description, tag "Device Link"): provisioned devices joined on a private
// subnet, each on one of its interfaces with its ASN, and, for devices in more than one metro, a metro link
// per metro with its throughput. A group is made (202), read, listed, changed by PATCH and deleted; its
// status moves PROVISIONING -> PROVISIONED, and a deleted group is DEPROVISIONING until it is gone (404).
// Where the official description and the real service differ, the simulator answers as the real one
// (equinix/ne-go's recorded answers ne_device_links_get_resp.json, ne_device_link_get_resp.json): the list is
// one page `{pagination, data}`, not a bare array, and `redundancyType` reads "Primary" or "Secondary",
// whatever case the request wrote it in.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { ACCOUNTS } from "../core/auth.js";
import { optionalInteger, rejectUnknownFields } from "./device-fields.js";
import { neCreatedBy, neUpdatedBy, oneOf, optionalString, requireString, visibleDevice } from "./services-shared.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

const KIND = "deviceLinks";
const REDUNDANCY_TYPES = ["PRIMARY", "SECONDARY"] as const;
/** How the real service spells each redundancy type in its answers. */
const REDUNDANCY_ANSWERS: Readonly<Record<(typeof REDUNDANCY_TYPES)[number], string>> = { PRIMARY: "Primary", SECONDARY: "Secondary" };
const THROUGHPUT_UNITS = ["Mbps", "Gbps"] as const;
const PROVISION_MS = 30_000;
const UPDATE_MS = 15_000;
const DELETE_MS = 20_000;
const MAX_ASN = 4294967295;
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

function subnetOf(body: JsonObject): { subnet: string; base: number; bits: number } {
  const subnet = requireString(body, "subnet");
  const m = CIDR.exec(subnet);
  const octets = m ? m.slice(1, 5).map(Number) : [];
  const bits = m ? Number(m[5]) : -1;
  if (!m || octets.some((o) => o > 255) || bits < 8 || bits > 30) {
    return fail("invalidProperty", "subnet", "subnet must be an IPv4 subnet in CIDR notation with a prefix of /8 to /30, e.g. 192.168.0.0/29", subnet);
  }
  const base = octets.reduce((n, o) => n * 256 + o, 0);
  return { subnet, base, bits };
}

const dotted = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");

interface LinkDevice {
  device: JsonObject;
  asn: number | undefined;
  interfaceId: number | undefined;
}

function linkDevices(world: World, principal: Principal, body: JsonObject): LinkDevice[] {
  const raw = body.linkDevices;
  if (!Array.isArray(raw) || raw.length < 2) return fail("invalidProperty", "linkDevices", "linkDevices must list at least two devices", JSON.stringify(raw ?? null));
  const seen = new Set<string>();
  return raw.map((entry, i) => {
    const p = `linkDevices[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return fail("invalidProperty", p, `${p} must be an object`);
    rejectUnknownFields(entry, ["deviceUuid", "asn", "interfaceId"], `${p}.`);
    const uuid = requireString(entry, "deviceUuid", `${p}.deviceUuid`);
    if (seen.has(uuid)) fail("invalidProperty", `${p}.deviceUuid`, `device ${uuid} is listed twice`, uuid);
    seen.add(uuid);
    const device = visibleDevice(world, principal, uuid);
    if (!device) return fail("referenceNotFound", `${p}.deviceUuid`, `virtual device ${uuid} was not found`, uuid);
    const view = world.view(device);
    if (view.status !== "PROVISIONED") fail("invalidProperty", `${p}.deviceUuid`, `virtual device ${uuid} is ${String(view.status)}; only PROVISIONED devices can be linked`, uuid);
    return { device: view, asn: optionalInteger(entry, "asn", `${p}.asn`, 1, MAX_ASN), interfaceId: optionalInteger(entry, "interfaceId", `${p}.interfaceId`, 1, 64) };
  });
}

function metroLinks(principal: Principal, body: JsonObject, deviceMetros: ReadonlySet<string>): JsonObject[] {
  const raw = body.metroLinks ?? [];
  if (!Array.isArray(raw)) return fail("invalidProperty", "metroLinks", "metroLinks must be an array", JSON.stringify(raw));
  const links = raw.map((entry, i) => {
    const p = `metroLinks[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return fail("invalidProperty", p, `${p} must be an object`);
    rejectUnknownFields(entry, ["accountNumber", "throughput", "throughputUnit", "metroCode"], `${p}.`);
    const metroCode = requireString(entry, "metroCode", `${p}.metroCode`);
    const metro = METRO_BY_CODE.get(metroCode);
    if (!metro) return fail("notInAllowedList", `${p}.metroCode`, `metro ${metroCode} is not a known metro`, metroCode);
    const rawThroughput = entry.throughput;
    const throughput = typeof rawThroughput === "number" ? String(rawThroughput) : requireString(entry, "throughput", `${p}.throughput`);
    if (!/^[1-9]\d*$/.test(throughput)) fail("invalidProperty", `${p}.throughput`, `${p}.throughput must be a positive whole number`, throughput);
    const throughputUnit = oneOf(requireString(entry, "throughputUnit", `${p}.throughputUnit`), THROUGHPUT_UNITS, `${p}.throughputUnit`);
    const rawAccount = entry.accountNumber;
    const accountNumber = rawAccount === undefined || rawAccount === null ? principal.accountNumbers[0]! : Number(rawAccount);
    const account = Object.values(ACCOUNTS).find((a) => a.accountNumber === accountNumber);
    if (!account || !principal.accountNumbers.includes(accountNumber)) fail("invalidProperty", `${p}.accountNumber`, `account ${String(rawAccount)} is not one of your accounts`, String(rawAccount));
    return { accountNumber: String(accountNumber), accountName: account!.accountName, metroCode, metroName: metro.name, throughput, throughputUnit };
  });
  // Devices in more than one metro talk across metros: each of their metros needs its link.
  if (deviceMetros.size > 1) {
    for (const metro of deviceMetros) {
      if (!links.some((l) => l.metroCode === metro)) fail("missingProperty", "metroLinks", `the devices are in ${[...deviceMetros].join(", ")}; metroLinks needs a link for ${metro}`);
    }
  }
  return links;
}

/** The group as the service stores it: the request checked, each device with the address it is given. */
function readGroup(world: World, principal: Principal, body: JsonObject): JsonObject {
  rejectUnknownFields(body, ["groupName", "subnet", "redundancyType", "linkDevices", "metroLinks"]);
  const groupName = requireString(body, "groupName");
  if (groupName.length > 50) fail("invalidProperty", "groupName", "groupName must be at most 50 characters", groupName);
  const { subnet, base, bits } = subnetOf(body);
  const devices = linkDevices(world, principal, body);
  if (devices.length > 2 ** (32 - bits) - 2) fail("invalidProperty", "subnet", `subnet ${subnet} has too few addresses for ${devices.length} devices`, subnet);
  const rawRedundancy = optionalString(body, "redundancyType");
  // The official client and the provider send it in capitals; the service reads it without regard to case.
  const redundancyType = REDUNDANCY_ANSWERS[oneOf(rawRedundancy?.toUpperCase() ?? "PRIMARY", REDUNDANCY_TYPES, "redundancyType")];
  const metros = metroLinks(principal, body, new Set(devices.map((d) => String(d.device.metroCode))));
  return {
    groupName,
    subnet,
    redundancyType,
    metroLinks: metros,
    linkDevices: devices.map(({ device, asn, interfaceId }, i) => ({
      deviceUuid: device.uuid ?? null,
      deviceName: device.name ?? null,
      metroCode: device.metroCode ?? null,
      metroName: METRO_BY_CODE.get(String(device.metroCode))?.name ?? null,
      deviceTypeCode: device.deviceTypeCode ?? null,
      category: "ROUTER",
      ipAssigned: `${dotted(base + i + 1)}/${bits}`,
      ...(asn === undefined ? {} : { asn }),
      ...(interfaceId === undefined ? {} : { interfaceId }),
      status: "PROVISIONING",
      deviceManagementType: device.deviceManagementType ?? null,
      networkScope: "TENANT",
      isDeviceAccessible: true,
    })),
  };
}

/** The group's status and each member's, as one set of pointers. */
function statusOf(group: JsonObject, status: string): Record<string, Json> {
  const members = Array.isArray(group.linkDevices) ? group.linkDevices.length : 0;
  return { "/status": status, ...Object.fromEntries(Array.from({ length: members }, (_, i) => [`/linkDevices/${i}/status`, status])) };
}

function findGroup(world: World, principal: Principal, uuid: string): SimObject {
  const group = world.get(uuid, KIND);
  if (!group || !canSee(principal, group)) return fail("notFound", "uuid", `device link group ${uuid} was not found`, uuid);
  return group;
}

function refuseIfLeaving(view: JsonObject, uuid: string): void {
  if (view.status === "DEPROVISIONING" || view.status === "DEPROVISIONED") fail("invalidProperty", "uuid", `device link group ${uuid} is already ${String(view.status)}`, uuid);
}

async function createGroup(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const group = readGroup(world, principal, await readObject(c));
  const uuid = world.uuid();
  const projectId = principal.projectIds[0]!;
  const obj = world.create(KIND, { uuid, ...group, ...neCreatedBy(principal, world.nowIso()) }, { uuid, projectId });
  world.transition(obj, statusOf(group, "PROVISIONING"), [{ afterMs: PROVISION_MS, set: statusOf(group, "PROVISIONED") }], statusOf(group, "FAILED"));
  return c.json({ uuid }, 202);
}

async function updateGroup(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const obj = findGroup(world, principal, c.req.param("uuid")!);
  refuseIfLeaving(world.view(obj), obj.uuid);
  const group = readGroup(world, principal, await readObject(c));
  world.settle(obj);
  world.edit(obj, (stored) => Object.assign(stored, group, neUpdatedBy(principal, world.nowIso())));
  world.transition(obj, statusOf(group, "PROVISIONING"), [{ afterMs: UPDATE_MS, set: statusOf(group, "PROVISIONED") }], statusOf(group, "FAILED"));
  return c.body(null, 204);
}

function deleteGroup(c: Context<SimEnv>, world: World): Response {
  const principal = c.get("principal");
  const obj = findGroup(world, principal, c.req.param("uuid")!);
  const view = world.view(obj);
  refuseIfLeaving(view, obj.uuid);
  world.transition(obj, { ...statusOf(view, "DEPROVISIONING"), ...Object.fromEntries(Object.entries(neUpdatedBy(principal, world.nowIso())).map(([k, v]) => [`/${k}`, v])) }, [
    { afterMs: DELETE_MS, set: statusOf(view, "DEPROVISIONED"), gone: true },
  ]);
  return c.body(null, 204);
}

function listGroups(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["metro", "virtualDeviceUuid", "accountUcmId", "groupUuid", "groupName", "offset", "limit"]);
  const principal = c.get("principal");
  const { offset, limit } = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
  const [metro, device, groupUuid, groupName] = ["metro", "virtualDeviceUuid", "groupUuid", "groupName"].map((q) => c.req.query(q));
  const members = (v: JsonObject): JsonObject[] => (Array.isArray(v.linkDevices) ? (v.linkDevices as JsonObject[]) : []);
  const items = world
    .list(KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o))
    .filter((v) => groupUuid === undefined || v.uuid === groupUuid)
    .filter((v) => groupName === undefined || v.groupName === groupName)
    .filter((v) => device === undefined || members(v).some((d) => d.deviceUuid === device))
    .filter((v) => metro === undefined || members(v).some((d) => d.metroCode === metro));
  return c.json(paginate(items, { offset, limit }));
}

export const deviceLinksArea: Area = {
  name: "ne-device-links",
  define(world) {
    world.defineKind(KIND, { statePath: "/status", eventType: "equinix.network_edge.device_link_group", subject: (o) => `/ne/v1/links/${o.uuid}` });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/links", (c) => createGroup(c, world));
    app.get("/ne/v1/links", (c) => listGroups(c, world));
    app.get("/ne/v1/links/:uuid", (c) => {
      rejectUnknownQuery(c, []);
      return c.json(world.view(findGroup(world, c.get("principal"), c.req.param("uuid")!)));
    });
    app.patch("/ne/v1/links/:uuid", (c) => updateGroup(c, world));
    app.delete("/ne/v1/links/:uuid", (c) => deleteGroup(c, world));
  },
};
