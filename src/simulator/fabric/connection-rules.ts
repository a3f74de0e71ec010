// The validation rules of virtual connections (sections 2.5, 4.5 and 8 of the specification, with the
// official description where the specification says "not shown"): field types and enumerations, the
// endpoints of both sides resolved against the objects they name, VLAN tags unique per port, and the
// bandwidth a connection may use (metro limits, port capacity, the service profile's offer).

import { fail } from "../core/errors.js";
import { canSee, type Principal } from "../core/context.js";
import { ACCOUNTS, ORG_ID } from "../core/auth.js";
import { METRO_BY_CODE, remoteVcBandwidthMax } from "../core/metros-data.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { packageOf } from "./cloud-router-packages.js";

/** Official ConnectionType enumeration. */
export const CONNECTION_TYPES = [
  "EVPL_VC", "EPL_VC", "EC_VC", "IP_VC", "ACCESS_EPL_VC", "EIA_VC", "EVPLAN_VC", "EPLAN_VC",
  "EVPTREE_VC", "EPTREE_VC", "IPWAN_VC", "IA_VC", "MC_VC", "IX_VC", "GW_VC", "IPX_VC",
] as const;

type ConnectionType = (typeof CONNECTION_TYPES)[number];

/**
 * Connection types that take a whole port: their COLO ends may leave out the link protocol, on an untagged
 * port (the official description's examples of these types give none).
 */
export const PORT_BASED_TYPES: readonly ConnectionType[] = ["EPL_VC", "EPLAN_VC", "EPTREE_VC", "ACCESS_EPL_VC", "MC_VC"];

/** The access point types a connection type needs at each end, as the official description's examples give them. */
export const ENDPOINT_TYPES: Readonly<Partial<Record<ConnectionType, { aSide?: readonly string[]; zSide?: readonly string[] }>>> = {
  IP_VC: { aSide: ["CLOUD_ROUTER"] },
  IPWAN_VC: { aSide: ["CLOUD_ROUTER"], zSide: ["NETWORK"] },
  EVPLAN_VC: { zSide: ["NETWORK"] },
  EPLAN_VC: { aSide: ["COLO"], zSide: ["NETWORK"] },
  EVPTREE_VC: { zSide: ["NETWORK"] },
  EPTREE_VC: { aSide: ["COLO"], zSide: ["NETWORK"] },
};

/** The connection types that join a network: one per network type. */
const NETWORK_CONNECTION_TYPES: readonly string[] = ["EVPLAN_VC", "EPLAN_VC", "IPWAN_VC", "EVPTREE_VC", "EPTREE_VC"];

/**
 * Each end's access point type is one the connection type takes (a service token end is not checked): a cloud
 * router is only ever the a-side, of IP_VC or IPWAN_VC connections, and a network takes only the network types.
 */
export function checkEndpointTypes(type: ConnectionType, body: JsonObject): void {
  const apType = (side: string) => getPointer(body, `/${side}/accessPoint/type`);
  if (apType("zSide") === "CLOUD_ROUTER") fail("invalidProperty", "/zSide/accessPoint/type", "a cloud router is the a-side of its connections", "CLOUD_ROUTER");
  if (apType("aSide") === "CLOUD_ROUTER" && type !== "IP_VC" && type !== "IPWAN_VC") {
    fail("invalidProperty", "/type", "a connection from a cloud router is an IP_VC, or an IPWAN_VC to an IPWAN network", type);
  }
  if ((apType("aSide") === "NETWORK" || apType("zSide") === "NETWORK") && !NETWORK_CONNECTION_TYPES.includes(type)) {
    fail("invalidProperty", "/type", `a connection joins a network as ${NETWORK_CONNECTION_TYPES.join(", ")} (the network's type), not ${type}`, type);
  }
  for (const side of ["aSide", "zSide"] as const) {
    const allowed = ENDPOINT_TYPES[type]?.[side];
    const found = apType(side);
    if (allowed && typeof found === "string" && !allowed.includes(found)) {
      fail("invalidProperty", `/${side}/accessPoint/type`, `${type} needs a ${allowed.join(" or ")} access point as its ${side}, not ${found}`, found);
    }
  }
}

/** Official SimplifiedNotification type enumeration. */
export const NOTIFICATION_TYPES = [
  "NOTIFICATION", "BANDWIDTH_ALERT", "CONNECTION_APPROVAL", "PROFILE_LIFECYCLE", "ALL",
  "SALES_REP_NOTIFICATIONS", "TECHNICAL", "ORDERING", "QUOTE_NOTIFICATIONS",
] as const;

/** Access point types the simulator can resolve (the endpoint kinds of section 2.5). */
export const ACCESS_POINT_TYPES = ["COLO", "VD", "SP", "NETWORK", "CLOUD_ROUTER"] as const;
export type AccessPointType = (typeof ACCESS_POINT_TYPES)[number];

/** Section 8: connection notification recipients. */
export const MAX_NOTIFICATION_EMAILS = 12;
/** Official ConnectionPostRequest.bandwidth maximum (Mbps). */
export const MAX_REQUEST_BANDWIDTH = 100_000;
/**
 * VLAN tags 2-4094, the range the specification gives for tags (the official description's schema
 * caps Fabric tags at 4092; the specification wins, and the difference is a listed conformance exception).
 */
export const VLAN_MIN = 2;
export const VLAN_MAX = 4094;

/** Connection states in which the connection holds its VLAN tags and port bandwidth. */
const RELEASED_STATES = ["DEPROVISIONED", "FAILED", "CANCELLED"];

export interface RuleContext {
  world: World;
  principal: Principal;
}

/** A VLAN tag (DOT1Q) or tag pair (QINQ) taken on a port. */
export interface VlanClaim {
  portUuid: string;
  /** The outer tag; 0 on an untagged port, which carries one connection. */
  outer: number;
  /** QINQ inner tag; absent when the connection takes every inner tag under its outer tag. */
  inner?: number;
}

/** One side of a connection, checked and rendered as the API returns it. */
export interface ResolvedSide {
  body: JsonObject;
  metroCode?: string;
  portUuid?: string;
  vlan?: VlanClaim;
  /** The service profile's view, for SP endpoints (its bandwidth offer). */
  profile?: JsonObject;
  /** The cloud router's view, for CLOUD_ROUTER endpoints (its package's limits). */
  router?: JsonObject;
  /** The network's view, for NETWORK endpoints (its type and scope). */
  network?: JsonObject;
  /** The service token's view, for token endpoints (the bandwidth and reach it allows). */
  token?: JsonObject;
}

// ── primitive readers: each names the offending property ────────────────────────────────

export function asObject(value: Json | undefined, path: string, required = true): JsonObject | undefined {
  if (value === undefined || value === null) {
    if (required) fail("missingProperty", path, `${path} is required`);
    return undefined;
  }
  if (typeof value !== "object" || Array.isArray(value)) return fail("invalidProperty", path, `${path} must be an object`, JSON.stringify(value));
  return value;
}

export function asString(value: Json | undefined, path: string, required = true): string | undefined {
  if (value === undefined || value === null) {
    if (required) fail("missingProperty", path, `${path} is required`);
    return undefined;
  }
  if (typeof value !== "string") return fail("invalidProperty", path, `${path} must be a string`, JSON.stringify(value));
  if (required && value.trim() === "") fail("invalidProperty", path, `${path} must not be empty`);
  return value;
}

export function asInteger(value: Json | undefined, path: string, min: number, max: number, required = true): number | undefined {
  if (value === undefined || value === null) {
    if (required) fail("missingProperty", path, `${path} is required`);
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) return fail("invalidProperty", path, `${path} must be an integer`, JSON.stringify(value));
  if (value < min || value > max) fail("invalidProperty", path, `${path} must be between ${min} and ${max}`, value);
  return value;
}

export function asEnum<T extends string>(value: Json | undefined, allowed: readonly T[], path: string, required = true): T | undefined {
  const text = asString(value, path, required);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) fail("notInAllowedList", path, `${path} must be one of ${allowed.join(", ")}`, text);
  return text as T;
}

// ── whole fields ─────────────────────────────────────────────────────────────────────────

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Notifications: at least one entry, each with a type and emails; 1 to 12 addresses in all (section 8). */
export function readNotifications(value: Json | undefined, path: string): JsonObject[] {
  if (value === undefined || value === null) return fail("missingProperty", path, `${path} is required`);
  if (!Array.isArray(value) || value.length === 0) return fail("invalidProperty", path, `${path} must be a non-empty array of {type, emails}`);
  let recipients = 0;
  const out = value.map((entry, i) => {
    const at = `${path}/${i}`;
    const n = asObject(entry, at)!;
    const type = asEnum(n.type, NOTIFICATION_TYPES, `${at}/type`)!;
    const emails = n.emails;
    if (emails === undefined || emails === null) return fail("missingProperty", `${at}/emails`, `${at}/emails is required`);
    if (!Array.isArray(emails) || emails.length === 0) return fail("invalidProperty", `${at}/emails`, `${at}/emails must be a non-empty array of email addresses`);
    emails.forEach((email, j) => {
      if (typeof email !== "string" || !EMAIL.test(email)) fail("invalidProperty", `${at}/emails/${j}`, "must be an email address", JSON.stringify(email));
    });
    recipients += emails.length;
    return { type, emails: [...emails] } as JsonObject;
  });
  if (recipients > MAX_NOTIFICATION_EMAILS) {
    fail("invalidProperty", path, `at most ${MAX_NOTIFICATION_EMAILS} notification email addresses are allowed, got ${recipients}`, recipients);
  }
  return out;
}

/**
 * additionalInfo [{key, value}]: what a provider needs to accept the connection on its side (cloud
 * credentials). Checked and passed on, never stored or returned.
 */
export function checkAdditionalInfo(value: Json | undefined, path = "/additionalInfo"): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) return fail("invalidProperty", path, `${path} must be an array of {key, value}`);
  value.forEach((entry, i) => {
    const e = asObject(entry, `${path}/${i}`)!;
    asString(e.key, `${path}/${i}/key`);
    asString(e.value, `${path}/${i}/value`);
  });
}

export function readBandwidth(value: Json | undefined, path = "/bandwidth"): number {
  return asInteger(value, path, 1, MAX_REQUEST_BANDWIDTH)!;
}

/**
 * redundancy {group, priority}: a primary without a group (or a lone connection) starts a group the
 * service names; a secondary joins the group of a live primary, which it must name.
 */
export function readRedundancy(ctx: RuleContext, value: Json | undefined): JsonObject {
  const r = asObject(value, "/redundancy", false);
  if (!r) return { group: ctx.world.uuid(), priority: "PRIMARY" };
  const priority = asEnum(r.priority, ["PRIMARY", "SECONDARY"], "/redundancy/priority")!;
  const group = asString(r.group, "/redundancy/group", priority === "SECONDARY");
  if (priority === "SECONDARY" && !hasLivePrimary(ctx, group!)) {
    fail("invalidProperty", "/redundancy/group", `no live primary connection has redundancy group ${group!}; a secondary joins its primary's group`, group!);
  }
  return { group: group ?? ctx.world.uuid(), priority };
}

/** Whether a live primary connection the caller can see has this redundancy group. */
function hasLivePrimary(ctx: RuleContext, group: string): boolean {
  return ctx.world
    .lookup("connections", CONNECTION_REFERENCES, `group:${group}`)
    .filter((o) => canSee(ctx.principal, o))
    .map((o) => ctx.world.view(o))
    .some((c) => isLive(c) && getPointer(c, "/redundancy/priority") === "PRIMARY" && getPointer(c, "/redundancy/group") === group);
}

// ── shared renderings ────────────────────────────────────────────────────────────────────

export function locationOf(metroCode: string): JsonObject {
  const metro = METRO_BY_CODE.get(metroCode);
  const href = `/fabric/v4/metros/${metroCode}`;
  return { href, metroHref: href, metroCode, ...(metro ? { metroName: metro.name, region: metro.region } : {}) };
}

/** The account block of the caller (its first account unless another is named), as the API stamps it on what it creates. */
export function accountOf(principal: Principal, number = principal.accountNumbers[0]!): JsonObject {
  const account = Object.values(ACCOUNTS).find((a) => a.accountNumber === number);
  return {
    accountNumber: number,
    ...(account ? { accountName: account.accountName, ucmId: account.ucmId } : {}),
    orgId: Number(ORG_ID),
    organizationName: ACCOUNTS.main.accountName,
    globalOrgId: `0016u0000${ORG_ID}AAG`,
  };
}

// ── referenced objects ───────────────────────────────────────────────────────────────────

/** An object another field refers to: unknown or invisible ids are a 400 naming the field. */
export function referenced(ctx: RuleContext, kind: string, uuid: string, path: string): SimObject {
  const obj = ctx.world.get(uuid, kind);
  if (!obj || !canSee(ctx.principal, obj)) return fail("referenceNotFound", path, `${kind} ${uuid} does not exist or is not accessible`, uuid);
  return obj;
}

export function isLive(connection: JsonObject): boolean {
  const state = connection.state;
  return typeof state !== "string" || !RELEASED_STATES.includes(state);
}

function connectionPorts(connection: JsonObject): string[] {
  return ["/aSide/accessPoint/port/uuid", "/zSide/accessPoint/port/uuid"]
    .map((p) => getPointer(connection, p))
    .filter((u): u is string => typeof u === "string");
}

/** Where a connection names another object, for `liveConnectionsNaming`. */
const NAMING_POINTERS = ["/accessPoint/network/uuid", "/accessPoint/router/uuid", "/serviceToken/uuid"] as const;
type NamingPointer = (typeof NAMING_POINTERS)[number];

/**
 * The index the connection rules look connections up in, instead of scanning them all on each request:
 * by the VLAN each side holds on its port (and by the port), by redundancy group, by the authorisation key
 * of a side, and by the objects its sides name.
 */
export const CONNECTION_REFERENCES = "references";

export function* connectionReferences(connection: JsonObject): Iterable<string> {
  for (const claim of claimsOf(connection)) yield* [`vlan:${claim.portUuid}:${claim.outer}`, `port:${claim.portUuid}`];
  for (const side of ["aSide", "zSide"]) {
    const key = getPointer(connection, `/${side}/accessPoint/authenticationKey`);
    if (typeof key === "string") yield `authKey:${key}`;
  }
  const group = getPointer(connection, "/redundancy/group");
  if (typeof group === "string") yield `group:${group}`;
  for (const pointer of NAMING_POINTERS) {
    for (const side of ["aSide", "zSide"]) {
      const uuid = getPointer(connection, `/${side}${pointer}`);
      if (typeof uuid === "string") yield `${pointer}=${uuid}`;
    }
  }
}

/** Live connections (other than `exceptUuid`) filed under `key`, as the API shows them now. */
function liveConnections(world: World, key: string, exceptUuid?: string): JsonObject[] {
  return world
    .lookup("connections", CONNECTION_REFERENCES, key)
    .filter((o) => o.uuid !== exceptUuid)
    .map((o) => world.view(o))
    .filter(isLive);
}

/**
 * Live connections with a side that names the object `uuid` at `pointer` within the side
 * ("/accessPoint/router/uuid", "/serviceToken/uuid"): what holds a router, network or token in use.
 */
export function liveConnectionsNaming(world: World, pointer: NamingPointer, uuid: string): JsonObject[] {
  return liveConnections(world, `${pointer}=${uuid}`).filter((c) => getPointer(c, `/aSide${pointer}`) === uuid || getPointer(c, `/zSide${pointer}`) === uuid);
}

/** The VLAN an access point (or a token's access point selector) holds on its port, if it is on a port. */
function claimAt(accessPoint: Json | undefined): VlanClaim | undefined {
  const portUuid = getPointer(accessPoint, "/port/uuid");
  if (typeof portUuid !== "string") return undefined;
  const lp = (getPointer(accessPoint, "/linkProtocol") ?? {}) as JsonObject;
  const outer = typeof lp.vlanTag === "number" ? lp.vlanTag : typeof lp.vlanSTag === "number" ? lp.vlanSTag : 0;
  return { portUuid, outer, ...(typeof lp.vlanCTag === "number" ? { inner: lp.vlanCTag } : {}) };
}

function claimsOf(connection: JsonObject): VlanClaim[] {
  return ["aSide", "zSide"].map((side) => claimAt(getPointer(connection, `/${side}/accessPoint`))).filter((c): c is VlanClaim => c !== undefined);
}

/** The index of service tokens by the VLAN each side's access point selector names (and by its port), for `reservingToken`. */
export const TOKEN_VLANS = "vlans";

export function* tokenVlanKeys(token: JsonObject): Iterable<string> {
  for (const claim of selectorClaims(token)) yield* [`vlan:${claim.portUuid}:${claim.outer}`, `port:${claim.portUuid}`];
}

/** An unused token holds the VLAN of its selector for the partner it was handed to; one in use leaves it to its connection. */
const reservesVlan = (token: JsonObject): boolean => token.state === "INACTIVE";

function selectorClaims(token: JsonObject): VlanClaim[] {
  return ["aSide", "zSide"].map((side) => claimAt(getPointer(token, `/connection/${side}/accessPointSelectors/0`))).filter((c): c is VlanClaim => c !== undefined);
}

/**
 * The unused service token (other than `exceptToken`) that holds `claim` for the partner it was handed to:
 * an INACTIVE token keeps its port and tags. A token in use leaves the claim to its connection; an expired
 * or deleted one releases it.
 */
function reservingToken(world: World, claim: VlanClaim, exceptToken?: string): JsonObject | undefined {
  return world
    .lookup("serviceTokens", TOKEN_VLANS, `vlan:${claim.portUuid}:${claim.outer}`)
    .filter((o) => o.uuid !== exceptToken)
    .map((o) => world.view(o))
    .find((token) => reservesVlan(token) && selectorClaims(token).some((other) => overlaps(claim, other)));
}

function overlaps(a: VlanClaim, b: VlanClaim): boolean {
  if (a.portUuid !== b.portUuid || a.outer !== b.outer) return false;
  return a.inner === undefined || b.inner === undefined || a.inner === b.inner;
}

/**
 * A VLAN tag is unique per port among live connections and the unused service tokens standing for one;
 * `exceptToken` is the token a connection is made with, whose VLAN it takes over.
 */
export function checkVlanFree(world: World, claim: VlanClaim, path: string, exceptUuid?: string, exceptToken?: string): void {
  const taken = liveConnections(world, `vlan:${claim.portUuid}:${claim.outer}`, exceptUuid).find((c) => claimsOf(c).some((other) => overlaps(claim, other)));
  if (taken && claim.outer === 0) fail("invalidProperty", path, `port ${claim.portUuid} is untagged and already carries connection ${String(taken.uuid)}`);
  const tags = claim.inner === undefined ? String(claim.outer) : `${claim.outer}.${claim.inner}`;
  if (taken) fail("invalidProperty", path, `VLAN ${tags} is already used on port ${claim.portUuid} by connection ${String(taken.uuid)}`, claim.outer);
  const reserved = reservingToken(world, claim, exceptToken);
  if (reserved) fail("invalidProperty", path, `VLAN ${tags} on port ${claim.portUuid} is reserved by service token ${String(reserved.uuid)}, which is not used yet`, claim.outer);
}

/** A VLAN taken on a port, with what takes it: a live connection's side, or an unused service token's selector. */
export interface PortVlan {
  linkProtocol: JsonObject;
  connection?: JsonObject;
  token?: JsonObject;
}

/** Every VLAN taken on a port, by the rule `checkVlanFree` enforces: live connections and the unused tokens standing for one. */
export function vlansOnPort(world: World, portUuid: string): PortVlan[] {
  const taken: PortVlan[] = [];
  const on = (accessPoint: Json | undefined) => (getPointer(accessPoint, "/port/uuid") === portUuid ? ((getPointer(accessPoint, "/linkProtocol") ?? { type: "UNTAGGED" }) as JsonObject) : undefined);
  for (const connection of liveConnections(world, `port:${portUuid}`)) {
    for (const side of ["aSide", "zSide"]) {
      const linkProtocol = on(getPointer(connection, `/${side}/accessPoint`));
      if (linkProtocol) taken.push({ linkProtocol, connection });
    }
  }
  for (const token of world.lookup("serviceTokens", TOKEN_VLANS, `port:${portUuid}`).map((o) => world.view(o)).filter(reservesVlan)) {
    for (const side of ["aSide", "zSide"]) {
      const linkProtocol = on(getPointer(token, `/connection/${side}/accessPointSelectors/0`));
      if (linkProtocol) taken.push({ linkProtocol, token });
    }
  }
  return taken;
}

/**
 * An authorisation key is the seller's, for one service profile (a cloud account's key for its provider):
 * the connections made with it bind it to that profile, and to the seller region they name. A profile whose
 * configuration requires a key refuses a connection without one. Returns the live connections made with it.
 */
export function checkAuthenticationKey(world: World, profile: JsonObject, key: string | undefined, sellerRegion: string | undefined, path: string): JsonObject[] {
  if (key === undefined) {
    if (getPointer(profile, "/accessPointTypeConfigs/0/authenticationKey/required") === true) {
      fail("missingProperty", path, `service profile ${String(profile.name)} needs the authorisation key of the seller's account`);
    }
    return [];
  }
  if (key.trim() === "") return fail("invalidProperty", path, "the authorisation key must not be empty");
  const made = liveConnections(world, `authKey:${key}`);
  for (const connection of made) {
    const side = ["aSide", "zSide"].map((s) => getPointer(connection, `/${s}/accessPoint`) as JsonObject | undefined).find((ap) => ap?.authenticationKey === key);
    const boundProfile = getPointer(side, "/profile/uuid");
    if (boundProfile !== profile.uuid) fail("invalidProperty", path, `the authorisation key is for service profile ${String(boundProfile)}, not ${String(profile.uuid)}`);
    const boundRegion = side?.sellerRegion;
    if (sellerRegion !== undefined && typeof boundRegion === "string" && boundRegion !== sellerRegion) {
      fail("invalidProperty", path, `the authorisation key is for seller region ${boundRegion}, not ${sellerRegion}`);
    }
  }
  return made;
}

/**
 * The tally of the bandwidth connections use on each port, kept as they change rather than added up on each
 * request: a port may carry thousands of connections.
 */
export const PORT_BANDWIDTH = "portBandwidth";

/** The bandwidth a connection uses on each of its ports (once on a port both its sides are on): none once released. */
export function* portBandwidthUse(connection: JsonObject): Iterable<readonly [string, number]> {
  if (!isLive(connection) || typeof connection.bandwidth !== "number") return;
  for (const port of new Set(connectionPorts(connection))) yield [port, connection.bandwidth];
}

/** Bandwidth left on a port: its bandwidth less what live connections on it use. */
export function portBandwidthLeft(world: World, port: JsonObject, exceptUuid?: string): number | undefined {
  if (typeof port.bandwidth !== "number") return undefined;
  const portUuid = String(port.uuid);
  let used = world.tally("connections", PORT_BANDWIDTH, portUuid);
  const except = exceptUuid === undefined ? undefined : world.get(exceptUuid, "connections");
  if (except) for (const [at, amount] of portBandwidthUse(world.view(except))) if (at === portUuid) used -= amount;
  return port.bandwidth - used;
}

/** Every bandwidth rule: the metro pair's maximum, each port's capacity, the service profile's offer. */
export function checkBandwidth(ctx: RuleContext, bandwidth: number, sides: ResolvedSide[], exceptUuid?: string, path = "/bandwidth"): void {
  const [a, z] = sides;
  if (a?.metroCode && z?.metroCode) {
    const max = remoteVcBandwidthMax(a.metroCode, z.metroCode);
    if (bandwidth > max) {
      const scope = a.metroCode === z.metroCode ? `a local connection in ${a.metroCode}` : `a connection between ${a.metroCode} and ${z.metroCode}`;
      fail("invalidProperty", path, `bandwidth ${bandwidth} Mbps exceeds the ${max} Mbps allowed for ${scope}`, bandwidth);
    }
  }
  for (const side of sides) {
    if (side.portUuid) {
      const port = ctx.world.get(side.portUuid, "ports");
      const left = port ? portBandwidthLeft(ctx.world, ctx.world.view(port), exceptUuid) : undefined;
      if (left !== undefined && bandwidth > left) {
        fail("invalidProperty", path, `bandwidth ${bandwidth} Mbps exceeds the ${Math.max(left, 0)} Mbps available on port ${side.portUuid}`, bandwidth);
      }
    }
    if (side.profile) checkProfileBandwidth(side.profile, bandwidth, path);
    if (side.router) checkRouterBandwidth(side.router, bandwidth, path);
    if (side.token) checkTokenBandwidth(side.token, bandwidth, path);
  }
}

/** Section 8: a cloud router's package caps the bandwidth of each of its connections. */
function checkRouterBandwidth(router: JsonObject, bandwidth: number, path: string): void {
  const limits = packageOf(router);
  if (limits && bandwidth > limits.vcBandwidthMax) {
    const code = String(getPointer(router, "/package/code"));
    fail("invalidProperty", path, `bandwidth ${bandwidth} Mbps exceeds the ${limits.vcBandwidthMax} Mbps per connection of cloud router ${String(router.uuid)}'s ${code} package`, bandwidth);
  }
}

/** A token allows a bandwidth up to its limit, or one of those it lists unless it allows any. */
function checkTokenBandwidth(token: JsonObject, bandwidth: number, path: string): void {
  const limit = getPointer(token, "/connection/bandwidthLimit");
  if (typeof limit === "number" && bandwidth > limit) fail("invalidProperty", path, `service token ${String(token.uuid)} allows up to ${limit} Mbps`, bandwidth);
  const supported = getPointer(token, "/connection/supportedBandwidths");
  if (Array.isArray(supported) && getPointer(token, "/connection/allowCustomBandwidth") !== true && !supported.includes(bandwidth)) {
    fail("notInAllowedList", path, `service token ${String(token.uuid)} allows ${supported.join(", ")} Mbps`, bandwidth);
  }
}

function checkProfileBandwidth(profile: JsonObject, bandwidth: number, path: string): void {
  const config = getPointer(profile, "/accessPointTypeConfigs/0") as JsonObject | undefined;
  if (!config || config.allowCustomBandwidth === true || !Array.isArray(config.supportedBandwidths)) return;
  if (!config.supportedBandwidths.includes(bandwidth)) {
    fail("notInAllowedList", path, `service profile ${String(profile.name)} offers ${config.supportedBandwidths.join(", ")} Mbps`, bandwidth);
  }
}

// ── endpoints ────────────────────────────────────────────────────────────────────────────

/**
 * The link protocol of a COLO endpoint: its type must be the port's encapsulation. An untagged port carries
 * one connection, without tags; a connection of a port-based type may leave its link protocol out there.
 */
function coloLinkProtocol(raw: Json | undefined, encapsulation: string, path: string, portBased: boolean): { body?: JsonObject; outer: number; inner?: number } {
  if (raw === undefined && portBased && encapsulation === "UNTAGGED") return { outer: 0 };
  const lp = asObject(raw, path)!;
  const type = asEnum(lp.type, ["UNTAGGED", "DOT1Q", "QINQ"], `${path}/type`)!;
  if (type !== encapsulation) fail("invalidProperty", `${path}/type`, `the port's encapsulation is ${encapsulation}; the link protocol must be ${encapsulation}`, type);
  switch (type) {
    case "UNTAGGED":
      return { body: { type }, outer: 0 };
    case "DOT1Q": {
      const vlanTag = asInteger(lp.vlanTag, `${path}/vlanTag`, VLAN_MIN, VLAN_MAX)!;
      return { body: { type, vlanTag }, outer: vlanTag };
    }
    case "QINQ": {
      const vlanSTag = asInteger(lp.vlanSTag, `${path}/vlanSTag`, VLAN_MIN, VLAN_MAX)!;
      const vlanCTag = asInteger(lp.vlanCTag, `${path}/vlanCTag`, VLAN_MIN, VLAN_MAX, false);
      return { body: { type, vlanSTag, ...(vlanCTag === undefined ? {} : { vlanCTag }) }, outer: vlanSTag, ...(vlanCTag === undefined ? {} : { inner: vlanCTag }) };
    }
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/** A single tag, or a min/max range in its place (virtual device endpoints). */
function tagOrRange(lp: JsonObject, tag: string, min: string, max: string, path: string, out: JsonObject): void {
  const single = asInteger(lp[tag], `${path}/${tag}`, VLAN_MIN, VLAN_MAX, false);
  if (single !== undefined) {
    out[tag] = single;
    return;
  }
  const low = asInteger(lp[min], `${path}/${min}`, VLAN_MIN, VLAN_MAX)!;
  const high = asInteger(lp[max], `${path}/${max}`, VLAN_MIN, VLAN_MAX)!;
  if (low > high) fail("invalidProperty", `${path}/${min}`, `${min} must not be greater than ${max}`, low);
  out[min] = low;
  out[max] = high;
}

/** The link protocol of a virtual device endpoint (optional; ranges may replace single tags). */
function deviceLinkProtocol(raw: Json | undefined, path: string): JsonObject | undefined {
  const lp = asObject(raw, path, false);
  if (!lp) return undefined;
  const type = asEnum(lp.type, ["UNTAGGED", "DOT1Q", "QINQ"], `${path}/type`)!;
  const out: JsonObject = { type };
  switch (type) {
    case "UNTAGGED":
      break;
    case "DOT1Q":
      tagOrRange(lp, "vlanTag", "vlanTagMin", "vlanTagMax", path, out);
      break;
    case "QINQ":
      out.vlanSTag = asInteger(lp.vlanSTag, `${path}/vlanSTag`, VLAN_MIN, VLAN_MAX)!;
      tagOrRange(lp, "vlanCTag", "vlanCTagMin", "vlanCTagMax", path, out);
      break;
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
  return out;
}

export function resolvePort(ctx: RuleContext, uuid: Json | undefined, path: string): JsonObject {
  const portUuid = asString(uuid, path)!;
  const port = ctx.world.view(referenced(ctx, "ports", portUuid, path));
  if (port.state !== undefined && port.state !== "ACTIVE") fail("invalidProperty", path, `port ${portUuid} is ${String(port.state)}, not ACTIVE`, portUuid);
  return port;
}

export function portReference(port: JsonObject): JsonObject {
  const priority = getPointer(port, "/redundancy/priority");
  return {
    href: `/fabric/v4/ports/${String(port.uuid)}`,
    type: "XF_PORT",
    uuid: port.uuid ?? null,
    ...(typeof port.name === "string" ? { name: port.name } : {}),
    ...(typeof priority === "string" ? { redundancy: { priority } } : {}),
  };
}

/**
 * A port and the VLAN a link protocol takes on it, checked as a connection's COLO end is: the port active,
 * the protocol its encapsulation, the tags in range (`path` is the access point's).
 */
export function claimOnPort(ctx: RuleContext, portUuid: Json | undefined, linkProtocol: Json | undefined, path: string, portBased: boolean): { port: JsonObject; linkProtocol?: JsonObject; claim: VlanClaim } {
  const port = resolvePort(ctx, portUuid, `${path}/port/uuid`);
  const encapsulation = String(getPointer(port, "/encapsulation/type") ?? "DOT1Q");
  const lp = coloLinkProtocol(linkProtocol, encapsulation, `${path}/linkProtocol`, portBased);
  const claim: VlanClaim = { portUuid: String(port.uuid), outer: lp.outer, ...(lp.inner === undefined ? {} : { inner: lp.inner }) };
  return { port, ...(lp.body ? { linkProtocol: lp.body } : {}), claim };
}

function coloSide(ctx: RuleContext, ap: JsonObject, path: string, portBased: boolean): ResolvedSide {
  const portRef = asObject(ap.port, `${path}/port`)!;
  const { port, linkProtocol, claim } = claimOnPort(ctx, portRef.uuid, ap.linkProtocol, path, portBased);
  const metroCode = getPointer(port, "/location/metroCode");
  // A stated location is the port's metro; the port decides, so another metro is a mistake to report.
  const stated = asObject(ap.location, `${path}/location`, false);
  const statedMetro = stated ? asString(stated.metroCode, `${path}/location/metroCode`) : undefined;
  if (statedMetro !== undefined && typeof metroCode === "string" && statedMetro !== metroCode) {
    fail("invalidProperty", `${path}/location/metroCode`, `port ${String(port.uuid)} is in ${metroCode}, not ${statedMetro}`, statedMetro);
  }
  return {
    body: {
      type: "COLO",
      port: portReference(port),
      ...(linkProtocol ? { linkProtocol } : {}),
      ...(typeof metroCode === "string" ? { location: locationOf(metroCode) } : {}),
      account: accountOf(ctx.principal),
    },
    ...(typeof metroCode === "string" ? { metroCode } : {}),
    portUuid: claim.portUuid,
    vlan: claim,
  };
}

/** The virtualDevice and interface of a VD endpoint (also the value of the /aSide/accessPoint patch). */
export function deviceAccessPoint(ctx: RuleContext, ap: JsonObject, path: string): { body: JsonObject; metroCode?: string } {
  const vd = asObject(ap.virtualDevice, `${path}/virtualDevice`)!;
  asEnum(vd.type, ["EDGE"], `${path}/virtualDevice/type`);
  const uuid = asString(vd.uuid, `${path}/virtualDevice/uuid`)!;
  const device = ctx.world.view(referenced(ctx, "devices", uuid, `${path}/virtualDevice/uuid`));
  if (device.status !== undefined && device.status !== "PROVISIONED") {
    fail("invalidProperty", `${path}/virtualDevice/uuid`, `virtual device ${uuid} is ${String(device.status)}, not PROVISIONED`, uuid);
  }
  // The official description requires neither field of the interface; NETWORK is the type it documents.
  const iface = asObject(ap.interface, `${path}/interface`, false);
  const ifaceId = iface ? asInteger(iface.id, `${path}/interface/id`, 0, Number.MAX_SAFE_INTEGER, false) : undefined;
  const ifaceBody: JsonObject | undefined = iface
    ? { type: asEnum(iface.type, ["CLOUD", "NETWORK"], `${path}/interface/type`, false) ?? "NETWORK", ...(ifaceId === undefined ? {} : { id: ifaceId }) }
    : undefined;
  const metroCode = typeof device.metroCode === "string" ? device.metroCode : undefined;
  return {
    body: {
      type: "VD",
      virtualDevice: { href: `/ne/v1/devices/${uuid}`, uuid, type: "EDGE", ...(typeof device.name === "string" ? { name: device.name } : {}) },
      ...(ifaceBody ? { interface: ifaceBody } : {}),
      ...(metroCode ? { location: locationOf(metroCode) } : {}),
      account: accountOf(ctx.principal),
    },
    ...(metroCode ? { metroCode } : {}),
  };
}

function deviceSide(ctx: RuleContext, ap: JsonObject, path: string): ResolvedSide {
  const { body, metroCode } = deviceAccessPoint(ctx, ap, path);
  const lp = deviceLinkProtocol(ap.linkProtocol, `${path}/linkProtocol`);
  return { body: { ...body, ...(lp ? { linkProtocol: lp } : {}) }, ...(metroCode ? { metroCode } : {}) };
}

function profileSide(ctx: RuleContext, ap: JsonObject, path: string): ResolvedSide {
  const p = asObject(ap.profile, `${path}/profile`)!;
  asEnum(p.type, ["L2_PROFILE"], `${path}/profile/type`, false);
  const uuid = asString(p.uuid, `${path}/profile/uuid`)!;
  const profile = ctx.world.view(referenced(ctx, "serviceProfiles", uuid, `${path}/profile/uuid`));
  const location = asObject(ap.location, `${path}/location`)!;
  const metroCode = asString(location.metroCode, `${path}/location/metroCode`)!;
  const served = Array.isArray(profile.metros) ? profile.metros.map((m) => getPointer(m, "/code")) : [];
  if (!served.includes(metroCode)) {
    fail("invalidProperty", `${path}/location/metroCode`, `service profile ${String(profile.name)} is not offered in ${metroCode}; offered in ${served.join(", ")}`, metroCode);
  }
  const lp = ap.linkProtocol === undefined ? undefined : deviceLinkProtocol(ap.linkProtocol, `${path}/linkProtocol`);
  const peeringType = asEnum(ap.peeringType, ["PRIVATE", "MICROSOFT", "PUBLIC", "MANUAL"], `${path}/peeringType`, false);
  const authenticationKey = asString(ap.authenticationKey, `${path}/authenticationKey`, false);
  const sellerRegion = typeof ap.sellerRegion === "string" ? ap.sellerRegion : undefined;
  checkAuthenticationKey(ctx.world, profile, authenticationKey, sellerRegion, `${path}/authenticationKey`);
  return {
    body: {
      type: "SP",
      ...(peeringType === undefined ? {} : { peeringType }),
      profile: { href: `/fabric/v4/serviceProfiles/${uuid}`, type: "L2_PROFILE", uuid, ...(typeof profile.name === "string" ? { name: profile.name } : {}) },
      location: locationOf(metroCode),
      ...(lp ? { linkProtocol: lp } : {}),
      ...(sellerRegion === undefined ? {} : { sellerRegion }),
      ...(authenticationKey === undefined ? {} : { authenticationKey }),
    },
    metroCode,
    profile,
  };
}

function networkSide(ctx: RuleContext, ap: JsonObject, path: string): ResolvedSide {
  const n = asObject(ap.network, `${path}/network`)!;
  const uuid = asString(n.uuid, `${path}/network/uuid`)!;
  const network = ctx.world.view(referenced(ctx, "networks", uuid, `${path}/network/uuid`));
  const status = getPointer(network, "/operation/equinixStatus");
  if (network.state === "DELETED" || (status !== undefined && status !== "PROVISIONED")) {
    fail("invalidProperty", `${path}/network/uuid`, `network ${uuid} is ${String(network.state)} (${String(status)}); connections join it once it is PROVISIONED`, uuid);
  }
  const copy = (key: string) => (typeof network[key] === "string" ? { [key]: network[key] } : {});
  return { body: { type: "NETWORK", network: { href: `/fabric/v4/networks/${uuid}`, uuid, ...copy("name"), ...copy("type"), ...copy("scope") } }, network };
}

function routerSide(ctx: RuleContext, ap: JsonObject, path: string): ResolvedSide {
  const r = asObject(ap.router, `${path}/router`)!;
  const uuid = asString(r.uuid, `${path}/router/uuid`)!;
  const router = ctx.world.view(referenced(ctx, "routers", uuid, `${path}/router/uuid`));
  if (router.state !== undefined && router.state !== "PROVISIONED") fail("invalidProperty", `${path}/router/uuid`, `cloud router ${uuid} is ${String(router.state)}, not PROVISIONED`, uuid);
  const max = packageOf(router)?.vcCountMax;
  if (max !== undefined && liveConnectionsNaming(ctx.world, "/accessPoint/router/uuid", uuid).length >= max) {
    fail("invalidProperty", `${path}/router/uuid`, `cloud router ${uuid} has ${max} connections, the most its ${String(getPointer(router, "/package/code"))} package allows`, uuid);
  }
  const metroCode = getPointer(router, "/location/metroCode");
  return {
    body: {
      type: "CLOUD_ROUTER",
      router: { href: `/fabric/v4/routers/${uuid}`, uuid, ...(typeof router.name === "string" ? { name: router.name } : {}) },
      ...(typeof metroCode === "string" ? { location: locationOf(metroCode) } : {}),
    },
    ...(typeof metroCode === "string" ? { metroCode } : {}),
    router,
  };
}

/**
 * A side through a service token: the token's own access point, reached on the owner's behalf (a token is
 * handed to partners, so whoever holds its uuid may use it, whatever project owns it). The token must be
 * unused, unexpired, and for this side.
 */
function tokenSide(ctx: RuleContext, raw: Json | undefined, path: string, side: "aSide" | "zSide"): ResolvedSide {
  const t = asObject(raw, path)!;
  asEnum(t.type, ["VC_TOKEN", "EPL_TOKEN"], `${path}/type`, false);
  const uuid = asString(t.uuid, `${path}/uuid`)!;
  const obj = ctx.world.get(uuid, "serviceTokens");
  if (!obj) return fail("referenceNotFound", `${path}/uuid`, `service token ${uuid} does not exist`, uuid);
  const token = ctx.world.view(obj);
  if (token.state !== "INACTIVE") {
    const reason = token.state === "ACTIVE" ? `is already used by connection ${String(getPointer(token, "/connection/uuid"))}` : `is ${String(token.state)}`;
    fail("invalidProperty", `${path}/uuid`, `service token ${uuid} ${reason}`, uuid);
  }
  const selector = getPointer(token, `/connection/${side}/accessPointSelectors/0`) as JsonObject | undefined;
  if (!selector) return fail("invalidProperty", `${path}/uuid`, `service token ${uuid} is for the ${side === "aSide" ? "z-side" : "a-side"} of a connection`, uuid);
  const owner: RuleContext = { world: ctx.world, principal: { ...ctx.principal, projectIds: [...ctx.principal.projectIds, ...(obj.projectId ? [obj.projectId] : [])] } };
  const resolved = resolveAccessPoint(owner, asEnum(selector.type, ACCESS_POINT_TYPES, `${path}/uuid`)!, selector, path, false);
  const type = token.type === "EPL_TOKEN" ? "EPL_TOKEN" : "VC_TOKEN";
  return { ...resolved, body: { serviceToken: { href: `/fabric/v4/serviceTokens/${uuid}`, type, uuid }, accessPoint: resolved.body }, token };
}

/** One side of a create request: a service token, or an access point of one of the kinds of section 2.5. */
export function resolveSide(ctx: RuleContext, raw: Json | undefined, path: "/aSide" | "/zSide", type: ConnectionType): ResolvedSide {
  const side = asObject(raw, path)!;
  if (side.serviceToken !== undefined && side.accessPoint === undefined) return tokenSide(ctx, side.serviceToken, `${path}/serviceToken`, path === "/aSide" ? "aSide" : "zSide");
  const apPath = `${path}/accessPoint`;
  const ap = asObject(side.accessPoint, apPath)!;
  const apType = asEnum(ap.type, ACCESS_POINT_TYPES, `${apPath}/type`)!;
  const resolved = resolveAccessPoint(ctx, apType, ap, apPath, PORT_BASED_TYPES.includes(type));
  return { ...resolved, body: { accessPoint: resolved.body } };
}

/** The metro a LOCAL network has settled in: that of the far side of its connections. */
function localMetroOf(world: World, networkUuid: string): string | undefined {
  for (const connection of liveConnectionsNaming(world, "/accessPoint/network/uuid", networkUuid)) {
    for (const side of ["aSide", "zSide"]) {
      const metro = getPointer(connection, `/${side}/accessPoint/location/metroCode`);
      if (getPointer(connection, `/${side}/accessPoint/network/uuid`) !== networkUuid && typeof metro === "string") return metro;
    }
  }
  return undefined;
}

/** A network's scope bounds where the connections joining it may come from. */
function checkNetworkScope(world: World, network: JsonObject, metro: string | undefined, path: string): void {
  if (metro === undefined) return;
  const uuid = String(network.uuid);
  switch (network.scope) {
    case "REGIONAL": {
      const region = getPointer(network, "/location/region");
      if (METRO_BY_CODE.get(metro)?.region !== region) fail("invalidProperty", path, `network ${uuid} is REGIONAL in ${String(region)}; ${metro} is outside it`, uuid);
      return;
    }
    case "LOCAL": {
      const settled = localMetroOf(world, uuid);
      if (settled !== undefined && settled !== metro) fail("invalidProperty", path, `network ${uuid} is LOCAL to ${settled}, where its connections are; this one comes from ${metro}`, uuid);
      return;
    }
    default:
      return;
  }
}

/**
 * What the two ends together must meet, beyond their access point types: a network takes connections of its
 * own type within its scope, and a token fixes the connection's type and,
 * unless it allows remote connections, keeps both ends in one metro.
 */
export function checkEndpoints(world: World, type: string, sides: readonly [ResolvedSide, ResolvedSide]): void {
  const [a, z] = sides;
  for (const [name, side, other] of [["aSide", a, z], ["zSide", z, a]] as const) {
    if (side.network) {
      const expected = `${String(side.network.type)}_VC`;
      if (type !== expected) fail("invalidProperty", "/type", `connections join ${String(side.network.type)} network ${String(side.network.uuid)} as ${expected}`, type);
      checkNetworkScope(world, side.network, other.metroCode, `/${name}/accessPoint/network/uuid`);
    }
    if (side.token) {
      const uuid = String(side.token.uuid);
      const expected = getPointer(side.token, "/connection/type");
      if (typeof expected === "string" && type !== expected) fail("invalidProperty", "/type", `service token ${uuid} is for ${expected} connections`, type);
      const remote = side.metroCode !== undefined && other.metroCode !== undefined && side.metroCode !== other.metroCode;
      if (remote && getPointer(side.token, "/connection/allowRemoteConnection") !== true) {
        fail("invalidProperty", `/${name}/serviceToken/uuid`, `service token ${uuid} allows only connections within ${side.metroCode}, not from ${other.metroCode}`, uuid);
      }
    }
  }
}

export function resolveAccessPoint(ctx: RuleContext, type: AccessPointType, ap: JsonObject, path: string, portBased: boolean): ResolvedSide {
  switch (type) {
    case "COLO":
      return coloSide(ctx, ap, path, portBased);
    case "VD":
      return deviceSide(ctx, ap, path);
    case "SP":
      return profileSide(ctx, ap, path);
    case "NETWORK":
      return networkSide(ctx, ap, path);
    case "CLOUD_ROUTER":
      return routerSide(ctx, ap, path);
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/** Recovers what the rules need from a stored side (for patches, which re-check the whole connection). */
export function storedSide(world: World, side: Json | undefined): ResolvedSide {
  const body = (side ?? {}) as JsonObject;
  const metroCode = getPointer(body, "/accessPoint/location/metroCode");
  const portUuid = getPointer(body, "/accessPoint/port/uuid");
  const viewOf = (pointer: string, kind: string): JsonObject | undefined => {
    const uuid = getPointer(body, pointer);
    const obj = typeof uuid === "string" ? world.get(uuid, kind) : undefined;
    return obj ? world.view(obj) : undefined;
  };
  const profile = viewOf("/accessPoint/profile/uuid", "serviceProfiles");
  const router = viewOf("/accessPoint/router/uuid", "routers");
  const token = viewOf("/serviceToken/uuid", "serviceTokens");
  return {
    body,
    ...(typeof metroCode === "string" ? { metroCode } : {}),
    ...(typeof portUuid === "string" ? { portUuid } : {}),
    ...(profile ? { profile } : {}),
    ...(router ? { router } : {}),
    ...(token ? { token } : {}),
  };
}

/** Billing tier of a bandwidth (the order block's response field). */
export function billingTier(bandwidth: number): string {
  const tiers: Array<[number, string]> = [
    [50, "Up to 50 MB"], [200, "Up to 200 MB"], [500, "Up to 500 MB"], [1000, "Up to 1 GB"],
    [2000, "Up to 2 GB"], [5000, "Up to 5 GB"], [10_000, "Up to 10 GB"], [50_000, "Up to 50 GB"],
  ];
  return tiers.find(([max]) => bandwidth <= max)?.[1] ?? "Above 50 GB";
}
