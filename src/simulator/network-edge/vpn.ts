// VPN configurations of virtual devices (sections 2.7, 3.5, 4.7): an IPsec tunnel with a BGP session to
// a remote site. Every rule of the update table of 4.7 applies to create and update alike. Status moves
// PROVISIONING -> PROVISIONED while the tunnel comes up and BGP walks Idle -> Connect -> OpenSent ->
// OpenConfirm -> Established; delete moves DEPROVISIONING -> DEPROVISIONED. The record stays readable
// once DEPROVISIONED (the status exists to be read), but plain lists leave it out.

import type { Context } from "hono";
import { ORG_ID } from "../core/auth.js";
import { fail } from "../core/errors.js";
import type { Area, Principal, SimApp, SimEnv } from "../core/context.js";
import { canSee } from "../core/context.js";
import { paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { neCreatedBy, neUpdatedBy, oneOf, optionalString, queryList, requireString, viewString, visibleDevice } from "./services-shared.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

const KIND = "vpns";

type VpnStatus = "PROVISIONING" | "PROVISIONED" | "FAILED" | "DEPROVISIONING" | "DEPROVISIONED";

/** statusList values: the five of section 3.5 and the finer ones the official description also accepts. */
const LIST_STATUSES = [
  "PROVISIONED", "PROVISIONING", "FAILED", "DEPROVISIONED", "DEPROVISIONING",
  "PROVISIONING_RETRYING", "UPDATING", "PROVISIONING_UPDATE_RETRYING", "DEPROVISIONING_RETRYING",
  "PROVISIONING_FAILED", "PROVISIONING_UPDATE_FAILED", "DEPROVISIONING_FAILED",
] as const;

/** Simulated durations: a tunnel and its BGP session take under a minute to come up, less after an edit. */
const CREATE_TIMELINE = { connect: 10_000, openSent: 30_000, openConfirm: 35_000, established: 45_000 };
const UPDATE_TIMELINE = { connect: 5_000, openSent: 12_000, openConfirm: 15_000, established: 20_000 };
const DELETE_MS = 20_000;

/** ASNs section 4.7 reserves: never accepted as remote or local ASN. */
const RESERVED_ASNS: ReadonlyArray<readonly [number, number]> = [
  [0, 0], [23456, 23456], [64496, 64511], [65535, 65535], [65552, 131071], [4294967295, 4294967295],
];
const MAX_ASN = 4294967295;

/** One tunnel's settings (the primary, or the `secondary` object of a redundant device). */
interface TunnelConfig {
  configName: string;
  peerIp: string;
  peerSharedKey: string;
  remoteAsn: number;
  remoteIpAddress: string;
  password?: string;
  localAsn: number;
  tunnelIp: string;
}

const ipv4Pattern = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isIpv4(value: string): boolean {
  const m = ipv4Pattern.exec(value);
  return m !== null && m.slice(1).every((octet) => Number(octet) <= 255 && String(Number(octet)) === octet);
}

function requireIpv4(body: JsonObject, key: string, prefix: string): string {
  const value = requireString(body, key, `${prefix}${key}`);
  if (!isIpv4(value)) fail("invalidProperty", `${prefix}${key}`, `${prefix}${key} must be an IPv4 address`, value);
  return value;
}

function requireCidr(body: JsonObject, key: string, prefix: string): string {
  const value = requireString(body, key, `${prefix}${key}`);
  const [address, length, ...rest] = value.split("/");
  const bits = Number(length);
  if (rest.length > 0 || !address || !isIpv4(address) || !/^\d{1,2}$/.test(length ?? "") || bits > 32) {
    fail("invalidProperty", `${prefix}${key}`, `${prefix}${key} must be an IPv4 address in CIDR format, e.g. 192.168.7.2/30`, value);
  }
  return value;
}

/** An ASN given as a number or a numeric string (the documents disagree), outside the reserved ranges. */
function requireAsn(body: JsonObject, key: string, prefix: string): number {
  const property = `${prefix}${key}`;
  const raw = body[key];
  if (raw === undefined || raw === null || raw === "") return fail("missingProperty", property, `${property} is required`);
  const asn = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof asn !== "number" || !Number.isInteger(asn) || asn < 0 || asn > MAX_ASN) {
    return fail("invalidProperty", property, `${property} must be an integer from 1 to ${MAX_ASN}`, raw);
  }
  if (RESERVED_ASNS.some(([lo, hi]) => asn >= lo && asn <= hi)) {
    fail("invalidProperty", property, `${property} ${asn} is reserved (0, 23456, 64496-64511, 65535, 65552-131071, 4294967295)`, asn);
  }
  return asn;
}

function readTunnel(body: JsonObject, prefix: string): TunnelConfig {
  const configName = requireString(body, "configName", `${prefix}configName`);
  if (configName.length < 3 || configName.length > 50) {
    fail("invalidProperty", `${prefix}configName`, `${prefix}configName must be 3 to 50 characters`, configName);
  }
  const peerIp = requireIpv4(body, "peerIp", prefix);
  const peerSharedKey = requireString(body, "peerSharedKey", `${prefix}peerSharedKey`);
  const remoteAsn = requireAsn(body, "remoteAsn", prefix);
  const remoteIpAddress = requireIpv4(body, "remoteIpAddress", prefix);
  const password = optionalString(body, "password", `${prefix}password`);
  if (password !== undefined && !/^[A-Za-z][A-Za-z0-9]{3,24}$/.test(password)) {
    fail("invalidProperty", `${prefix}password`, `${prefix}password must be 4 to 25 alphanumeric characters and must not start with a digit`);
  }
  const localAsn = requireAsn(body, "localAsn", prefix);
  if (localAsn === remoteAsn) fail("invalidProperty", `${prefix}remoteAsn`, `${prefix}remoteAsn must differ from ${prefix}localAsn`, remoteAsn);
  const tunnelIp = requireCidr(body, "tunnelIp", prefix);
  return { configName, peerIp, peerSharedKey, remoteAsn, remoteIpAddress, ...(password === undefined ? {} : { password }), localAsn, tunnelIp };
}

function tunnelJson(t: TunnelConfig): JsonObject {
  return { ...t };
}

/** Top-level fields as pointer -> value entries, for an immediate change. */
function pointers(fields: JsonObject): Record<string, Json> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [`/${k}`, v]));
}

// ── the device side ────────────────────────────────────────────────────────────────────────

/** The device a VPN goes on: visible, PROVISIONED, and the primary of a redundant pair. */
function readyDevice(world: World, principal: Principal, uuid: string): { device: SimObject; view: JsonObject } {
  const device = visibleDevice(world, principal, uuid);
  if (!device) return fail("vpnDeviceNotFound", "virtualDeviceUuid", `virtual device ${uuid} was not found`);
  const view = world.view(device);
  if (view.status !== "PROVISIONED") {
    fail("vpnDeviceNotReady", "virtualDeviceUuid", `virtual device ${uuid} is ${String(view.status)}; it must be PROVISIONED`);
  }
  if (view.redundancyType === "SECONDARY") {
    fail("invalidProperty", "virtualDeviceUuid", `virtual device ${uuid} is a secondary device; configure the VPN on its primary`);
  }
  return { device, view };
}

/** The redundant peer of a device, which must be PROVISIONED too; undefined for a single device. */
function redundantPeer(world: World, principal: Principal, deviceView: JsonObject): string | undefined {
  const peerUuid = viewString(deviceView, "redundantUuid");
  if (peerUuid === undefined) return undefined;
  const peer = visibleDevice(world, principal, peerUuid);
  const status = peer ? world.view(peer).status : "missing";
  if (status !== "PROVISIONED") {
    fail("vpnDeviceNotReady", "secondary", `the redundant device ${peerUuid} is ${String(status)}; it must be PROVISIONED`);
  }
  return peerUuid;
}

/**
 * Whether the device has a network service connection: a PROVISIONED connection with the device as one
 * of its endpoints (`aSide` or `zSide` `accessPoint.virtualDevice.uuid`).
 */
function hasNetworkServiceConnection(world: World, deviceUuid: string): boolean {
  return world.list("connections").some((conn) => {
    const view = world.view(conn);
    const endsAtDevice = ["/aSide", "/zSide"].some((side) => getPointer(view, `${side}/accessPoint/virtualDevice/uuid`) === deviceUuid);
    return endsAtDevice && view.state === "PROVISIONED";
  });
}

/** peerIp is unique per VPN between one device and the remote site (section 4.7). */
function checkPeerIpUnique(world: World, deviceUuid: string, self: string | undefined, pointer: "/peerIp" | "/secondary/peerIp", peerIp: string): void {
  const clash = world.list(KIND).find((o) => {
    if (o.uuid === self) return false;
    const view = world.view(o);
    return view.virtualDeviceUuid === deviceUuid && view.status !== "DEPROVISIONED" && getPointer(view, pointer) === peerIp;
  });
  const property = pointer === "/peerIp" ? "peerIp" : "secondary.peerIp";
  if (clash) fail("invalidProperty", property, `${property} ${peerIp} is already used by VPN ${clash.uuid} on this device`, peerIp);
}

// ── request bodies ─────────────────────────────────────────────────────────────────────────

interface VpnRequest {
  siteName: string | undefined;
  primary: TunnelConfig;
  secondary: TunnelConfig | undefined;
  useNetworkServiceConnection: boolean | undefined;
}

function readVpnRequest(body: JsonObject, isRedundant: boolean): VpnRequest {
  const siteName = optionalString(body, "siteName");
  const primary = readTunnel(body, "");
  const nsc = body.useNetworkServiceConnection;
  if (nsc !== undefined && nsc !== null && typeof nsc !== "boolean") {
    fail("invalidProperty", "useNetworkServiceConnection", "useNetworkServiceConnection must be a boolean", nsc);
  }
  const rawSecondary = body.secondary;
  let secondary: TunnelConfig | undefined;
  if (rawSecondary === undefined || rawSecondary === null) {
    if (isRedundant) fail("missingProperty", "secondary", "a redundant device needs a secondary VPN configuration (secondary.configName and the rest)");
  } else {
    if (!isRedundant) fail("invalidProperty", "secondary", "secondary is only for redundant devices");
    if (typeof rawSecondary !== "object" || Array.isArray(rawSecondary)) return fail("invalidProperty", "secondary", "secondary must be an object");
    secondary = readTunnel(rawSecondary, "secondary.");
  }
  return { siteName, primary, secondary, useNetworkServiceConnection: typeof nsc === "boolean" ? nsc : undefined };
}

function checkNetworkServiceConnection(world: World, deviceUuid: string, wanted: boolean): void {
  if (wanted && !hasNetworkServiceConnection(world, deviceUuid)) {
    fail("invalidProperty", "useNetworkServiceConnection", `useNetworkServiceConnection can be true only when device ${deviceUuid} has a network service connection`);
  }
}

// ── timelines ──────────────────────────────────────────────────────────────────────────────

/** Pointer -> value for the tunnel and BGP state of both tunnels (the secondary too, when there is one). */
function linkState(hasSecondary: boolean, tunnelStatus: "UP" | "DOWN", bgpState: string): Record<string, Json> {
  return {
    "/tunnelStatus": tunnelStatus,
    "/bgpState": bgpState,
    ...(hasSecondary ? { "/secondary/tunnelStatus": tunnelStatus, "/secondary/bgpState": bgpState } : {}),
  };
}

function bringUp(world: World, vpn: SimObject, immediate: Record<string, Json>, timeline: typeof CREATE_TIMELINE, hasSecondary: boolean): void {
  const status = (s: VpnStatus) => ({ "/status": s });
  world.transition(
    vpn,
    { ...immediate, ...status("PROVISIONING"), ...linkState(hasSecondary, "DOWN", "Idle") },
    [
      { afterMs: timeline.connect, set: linkState(hasSecondary, "DOWN", "Connect") },
      { afterMs: timeline.openSent, set: linkState(hasSecondary, "UP", "OpenSent") },
      { afterMs: timeline.openConfirm, set: linkState(hasSecondary, "UP", "OpenConfirm") },
      { afterMs: timeline.established, set: { ...status("PROVISIONED"), ...linkState(hasSecondary, "UP", "Established") } },
    ],
    { ...status("FAILED"), ...linkState(hasSecondary, "DOWN", "Idle") },
  );
}

// ── handlers ───────────────────────────────────────────────────────────────────────────────

/**
 * A VPN as the API answers it: VpnResponse (2.7) carries the primary tunnel's peerSharedKey and password;
 * the secondary tunnel is not in it at all, so its settings are shown without the secrets nothing documents.
 */
function vpnResponse(world: World, vpn: SimObject): JsonObject {
  const view = world.view(vpn);
  const secondary = view.secondary;
  if (secondary === null || typeof secondary !== "object" || Array.isArray(secondary)) return view;
  const { peerSharedKey: _key, password: _password, ...shown } = secondary;
  return { ...view, secondary: shown };
}

function findVpn(world: World, principal: Principal, uuid: string): SimObject {
  const vpn = world.get(uuid, KIND);
  if (!vpn || !canSee(principal, vpn)) return fail("vpnNotFound", "uuid", `VPN configuration ${uuid} was not found`);
  return vpn;
}

function refuseIfDeleted(view: JsonObject, uuid: string): void {
  if (view.status === "DEPROVISIONING" || view.status === "DEPROVISIONED") {
    fail("vpnAlreadyDeleted", "uuid", `VPN configuration ${uuid} is ${String(view.status)}`);
  }
}

async function createVpn(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const body = await readObject(c);
  const deviceUuid = requireString(body, "virtualDeviceUuid");
  const siteName = requireString(body, "siteName");
  const { device, view: deviceView } = readyDevice(world, principal, deviceUuid);
  const peerUuid = redundantPeer(world, principal, deviceView);
  const request = readVpnRequest(body, peerUuid !== undefined);
  const useNsc = request.useNetworkServiceConnection ?? false;
  checkNetworkServiceConnection(world, deviceUuid, useNsc);
  checkPeerIpUnique(world, deviceUuid, undefined, "/peerIp", request.primary.peerIp);
  if (request.secondary) checkPeerIpUnique(world, deviceUuid, undefined, "/secondary/peerIp", request.secondary.peerIp);

  const uuid = world.uuid();
  const vpn = world.create(
    KIND,
    {
      uuid,
      siteName,
      virtualDeviceUuid: deviceUuid,
      ...tunnelJson(request.primary),
      useNetworkServiceConnection: useNsc,
      ...(request.secondary && peerUuid ? { secondary: { ...tunnelJson(request.secondary), virtualDeviceUuid: peerUuid } } : {}),
      custOrgId: Number(ORG_ID),
      ...neCreatedBy(principal, world.nowIso()),
    },
    { uuid, ...(device.projectId === undefined ? {} : { projectId: device.projectId }) },
  );
  bringUp(world, vpn, {}, CREATE_TIMELINE, request.secondary !== undefined);
  c.header("Location", `/ne/v1/vpn/${uuid}`);
  return c.json({ uuid }, 201);
}

async function updateVpn(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const vpn = findVpn(world, principal, c.req.param("uuid")!);
  const current = world.view(vpn);
  refuseIfDeleted(current, vpn.uuid);
  const body = await readObject(c);
  const deviceUuid = String(current.virtualDeviceUuid);
  const movedTo = optionalString(body, "virtualDeviceUuid");
  if (movedTo !== undefined && movedTo !== deviceUuid) {
    fail("invalidProperty", "virtualDeviceUuid", "a VPN configuration cannot move to another device; create a new one");
  }
  if (body.useNetworkServiceConnection === undefined || body.useNetworkServiceConnection === null) {
    fail("missingProperty", "useNetworkServiceConnection", "useNetworkServiceConnection is required");
  }
  const { view: deviceView } = readyDevice(world, principal, deviceUuid);
  const peerUuid = redundantPeer(world, principal, deviceView);
  const request = readVpnRequest(body, peerUuid !== undefined);
  checkNetworkServiceConnection(world, deviceUuid, request.useNetworkServiceConnection === true);
  checkPeerIpUnique(world, deviceUuid, vpn.uuid, "/peerIp", request.primary.peerIp);
  if (request.secondary) checkPeerIpUnique(world, deviceUuid, vpn.uuid, "/secondary/peerIp", request.secondary.peerIp);

  const changes: Record<string, Json> = {
    ...pointers(tunnelJson(request.primary)),
    "/useNetworkServiceConnection": request.useNetworkServiceConnection === true,
    ...(request.siteName === undefined ? {} : { "/siteName": request.siteName }),
    ...(request.secondary && peerUuid ? { "/secondary": { ...tunnelJson(request.secondary), virtualDeviceUuid: peerUuid } } : {}),
    ...pointers(neUpdatedBy(principal, world.nowIso())),
  };
  bringUp(world, vpn, changes, UPDATE_TIMELINE, request.secondary !== undefined);
  return c.body(null, 202);
}

function deleteVpn(c: Context<SimEnv>, world: World): Response {
  const principal = c.get("principal");
  const vpn = findVpn(world, principal, c.req.param("uuid")!);
  const current = world.view(vpn);
  refuseIfDeleted(current, vpn.uuid);
  const hasSecondary = current.secondary !== undefined;
  world.transition(
    vpn,
    { "/status": "DEPROVISIONING", ...pointers(neUpdatedBy(principal, world.nowIso())) },
    [{ afterMs: DELETE_MS, set: { "/status": "DEPROVISIONED", ...linkState(hasSecondary, "DOWN", "Idle") } }],
    { "/status": "FAILED" },
  );
  return c.body(null, 202);
}

function listVpns(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["statusList", "virtualDeviceUuid", "offset", "limit"]);
  const statuses = queryList(c, "statusList").map((s) => oneOf(s, LIST_STATUSES, "statusList"));
  const deviceUuid = c.req.query("virtualDeviceUuid");
  const page = queryPage(c, { defaultLimit: 20 });
  const principal = c.get("principal");
  const items = world
    .list(KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => vpnResponse(world, o))
    .filter((v) => deviceUuid === undefined || v.virtualDeviceUuid === deviceUuid)
    .filter((v) => (statuses.length === 0 ? v.status !== "DEPROVISIONED" : statuses.includes(String(v.status) as (typeof LIST_STATUSES)[number])));
  return c.json(paginate(items, page));
}

export const vpnArea: Area = {
  name: "ne-vpn",
  define(world) {
    world.defineKind(KIND, { statePath: "/status", eventType: "equinix.network_edge.vpn", subject: (o) => `/ne/v1/vpn/${o.uuid}` });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/vpn", (c) => createVpn(c, world));
    app.get("/ne/v1/vpn", (c) => listVpns(c, world));
    app.get("/ne/v1/vpn/:uuid", (c) => {
      rejectUnknownQuery(c, []);
      return c.json(vpnResponse(world, findVpn(world, c.get("principal"), c.req.param("uuid"))));
    });
    app.put("/ne/v1/vpn/:uuid", (c) => updateVpn(c, world));
    app.delete("/ne/v1/vpn/:uuid", (c) => deleteVpn(c, world));
  },
};
