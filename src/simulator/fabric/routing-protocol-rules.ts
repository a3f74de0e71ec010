// The rules a routing protocol request must follow (sections 2.6, 4.6 and 8 of the specification): the
// shape of DIRECT and BGP bodies, address families, CIDRs and peer addresses, the customer ASN ranges,
// and the limits of MED, AS prepend, BFD and the authentication key. Pure functions over request JSON;
// the routes in routing-protocols.ts add the rules that depend on what the connection already has.

import { isIPv4, isIPv6 } from "node:net";
import { SimError, type ErrorKey, type ProblemDetail } from "../core/errors.js";
import type { Json, JsonObject } from "../core/world.js";

export type RoutingProtocolType = "DIRECT" | "BGP";
export type AddressFamily = "Ipv4" | "Ipv6";
export const FAMILIES: readonly AddressFamily[] = ["Ipv4", "Ipv6"];

export interface DirectFamily {
  equinixIfaceIp: string;
}

export interface BgpFamily {
  customerPeerIp: string;
  enabled: boolean;
  outboundASPrependCount?: number;
  inboundMED?: number;
  outboundMED?: number;
  routesMax?: number;
}

export interface DirectSpec {
  type: "DIRECT";
  name?: string;
  directIpv4?: DirectFamily;
  directIpv6?: DirectFamily;
}

export interface BgpSpec {
  type: "BGP";
  name?: string;
  bgpIpv4?: BgpFamily;
  bgpIpv6?: BgpFamily;
  customerAsn: number;
  asOverrideEnabled: boolean;
  bgpAuthKey?: string;
  bfd: { enabled: boolean; interval?: string };
}

export type RoutingProtocolSpec = DirectSpec | BgpSpec;

/**
 * Every problem of a request, reported at once (DESIGN.md); the response takes the error code of the
 * first problem found and lists all of them.
 */
export class Problems {
  private firstKey: ErrorKey | undefined;
  private readonly details: ProblemDetail[] = [];

  add(key: ErrorKey, property: string, reason: string, value?: unknown): void {
    this.firstKey ??= key;
    this.details.push({ property, reason, ...(value === undefined ? {} : { value }) });
  }

  get empty(): boolean {
    return this.firstKey === undefined;
  }

  throwIfAny(): void {
    if (this.firstKey !== undefined) throw new SimError(this.firstKey, this.details);
  }
}

// ── addresses ──────────────────────────────────────────────────────────────────────────────

const FAMILY_BITS: Record<AddressFamily, number> = { Ipv4: 32, Ipv6: 128 };

export const familyLabel = (family: AddressFamily): string => (family === "Ipv4" ? "IPv4" : "IPv6");

function ipv4Value(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(text: string): bigint {
  let hex = text;
  // An IPv6 address may end in dotted IPv4 notation (::ffff:192.0.2.1): turn it into two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(hex);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]!);
    hex = `${hex.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  let groups: string[];
  if (hex.includes("::")) {
    const [head = "", tail = ""] = hex.split("::");
    const headGroups = head === "" ? [] : head.split(":");
    const tailGroups = tail === "" ? [] : tail.split(":");
    groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  } else {
    groups = hex.split(":");
  }
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** The numeric value of an address of the family, or undefined when the text is not one. */
export function parseAddress(text: string, family: AddressFamily): bigint | undefined {
  switch (family) {
    case "Ipv4":
      return isIPv4(text) ? ipv4Value(text) : undefined;
    case "Ipv6":
      // Zone identifiers (fe80::1%eth0) name a local interface and have no place in a peering address.
      return isIPv6(text) && !text.includes("%") ? ipv6Value(text) : undefined;
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

export interface Cidr {
  family: AddressFamily;
  address: bigint;
  /** The address part as written, e.g. "192.168.100.1" of "192.168.100.1/30". */
  addressText: string;
  prefix: number;
}

/** An address in CIDR notation of the family, or undefined when the text is not one. */
export function parseCidr(text: string, family: AddressFamily): Cidr | undefined {
  const parts = text.split("/");
  if (parts.length !== 2 || !/^\d{1,3}$/.test(parts[1]!)) return undefined;
  const prefix = Number(parts[1]);
  const address = parseAddress(parts[0]!, family);
  if (address === undefined || prefix > FAMILY_BITS[family]) return undefined;
  return { family, address, addressText: parts[0]!, prefix };
}

function hostBits(cidr: Cidr): bigint {
  return (1n << BigInt(FAMILY_BITS[cidr.family] - cidr.prefix)) - 1n;
}

/** Whether two subnets of one family share an address: the shorter prefix's network holds the other's. */
export function subnetsOverlap(a: Cidr, b: Cidr): boolean {
  const shorter = a.prefix <= b.prefix ? a : b;
  const host = hostBits(shorter);
  return (a.address & ~host) === (b.address & ~host);
}

/** Why `peer` cannot be the customer's peering address in the subnet, or undefined when it can. */
export function peerProblem(cidr: Cidr, peer: bigint): string | undefined {
  const host = hostBits(cidr);
  if ((peer & ~host) !== (cidr.address & ~host)) return "is not inside the subnet";
  if (peer === cidr.address) return "is the provider's interface address";
  // Point-to-point IPv4 subnets (/31, /32) have no network and broadcast addresses.
  if (cidr.family === "Ipv4" && cidr.prefix <= 30 && ((peer & host) === 0n || (peer & host) === host)) {
    return "is the subnet's network or broadcast address";
  }
  return undefined;
}

// ── numbers ────────────────────────────────────────────────────────────────────────────────

const MAX_ASN = 4294967294;
/**
 * Customer ASNs the service refuses (4.6), as inclusive ranges. The specification writes the
 * provider-reserved range as "4200000000-42000000002", an evident typo for 4200000000-4200000002.
 */
const EXCLUDED_ASNS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [112, 112],
  [23456, 23456],
  [64000, 64495],
  [64496, 64511],
  [64600, 64600],
  [65535, 65535],
  [65536, 65551],
  [4200000000, 4200000002],
  [4294967295, 4294967295],
];

export function asnProblem(asn: number): string | undefined {
  if (asn < 1 || asn > MAX_ASN) return `must be between 1 and ${MAX_ASN}`;
  const range = EXCLUDED_ASNS.find(([lo, hi]) => asn >= lo && asn <= hi);
  if (range) return range[0] === range[1] ? `${asn} is reserved` : `${asn} is reserved (${range[0]}-${range[1]})`;
  return undefined;
}

const MAX_MED = 4294967295;
const AS_PREPEND_COUNTS = [0, 1, 3, 5] as const;
const MAX_AUTH_KEY_LENGTH = 80;
const BFD_INTERVAL_MS = { min: 100, max: 1000 } as const;

/** Generated clients send null for unset optional fields: null counts as absent (and a required field as missing). */
function withoutNulls(obj: JsonObject): JsonObject {
  const entries = Object.entries(obj).filter(([, v]) => v !== null);
  return Object.fromEntries(entries.map(([k, v]) => [k, isObject(v) ? withoutNulls(v) : v]));
}

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
const isInteger = (v: Json | undefined): v is number => typeof v === "number" && Number.isInteger(v);

// ── request bodies ─────────────────────────────────────────────────────────────────────────

const COMMON_FIELDS = ["type", "name"];
const DIRECT_FIELDS = [...COMMON_FIELDS, "directIpv4", "directIpv6"];
const BGP_FIELDS = [...COMMON_FIELDS, "bgpIpv4", "bgpIpv6", "customerAsn", "asOverrideEnabled", "bgpAuthKey", "bfd"];
/** equinixPeerIp appears in the official request samples; the service assigns it, so its value is ignored. */
const BGP_FAMILY_FIELDS = ["customerPeerIp", "equinixPeerIp", "enabled", "outboundASPrependCount", "inboundMED", "outboundMED", "routesMax"];
const BFD_FIELDS = ["enabled", "interval"];

function rejectUnknownFields(obj: JsonObject, allowed: readonly string[], at: string, problems: Problems, why: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) problems.add("invalidProperty", `${at}/${key}`, `${key} is not a property of ${why}; allowed: ${allowed.join(", ")}`);
  }
}

/**
 * Reads one routing protocol body (a create or replace request, or one item of a bulk request).
 * `at` is the JSON pointer of the body in the request ("" or "/data/0"); problems name properties from it.
 */
export function readRoutingProtocol(request: Json | undefined, at: string, problems: Problems): RoutingProtocolSpec | undefined {
  if (!isObject(request)) {
    problems.add("invalidProperty", at || "body", "a routing protocol must be a JSON object");
    return undefined;
  }
  const body = withoutNulls(request);
  const type = body.type;
  if (type === undefined || type === null) {
    problems.add("missingProperty", `${at}/type`, "type is required: DIRECT or BGP");
    return undefined;
  }
  if (type !== "DIRECT" && type !== "BGP") {
    problems.add("notInAllowedList", `${at}/type`, "type must be one of DIRECT, BGP", typeof type === "string" ? type : JSON.stringify(type));
    return undefined;
  }
  const name = readName(body.name, at, problems);
  switch (type) {
    case "DIRECT":
      return readDirect(body, name, at, problems);
    case "BGP":
      return readBgp(body, name, at, problems);
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

function readName(name: Json | undefined, at: string, problems: Problems): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== "string" || name.trim() === "") {
    problems.add("invalidProperty", `${at}/name`, "name must be a non-empty string");
    return undefined;
  }
  return name;
}

function readDirect(body: JsonObject, name: string | undefined, at: string, problems: Problems): DirectSpec {
  rejectUnknownFields(body, DIRECT_FIELDS, at, problems, "a DIRECT routing protocol");
  const spec: DirectSpec = { type: "DIRECT", ...(name === undefined ? {} : { name }) };
  for (const family of FAMILIES) {
    const field = `direct${family}` as const;
    const value = body[field];
    if (value === undefined) continue;
    const directFamily = readDirectFamily(value, family, `${at}/${field}`, problems);
    if (directFamily) spec[field] = directFamily;
  }
  // The parameter table marks both families required while its own sample sends only IPv4: one is enough.
  if (body.directIpv4 === undefined && body.directIpv6 === undefined) {
    problems.add("missingProperty", `${at}/directIpv4`, "a DIRECT routing protocol needs directIpv4, directIpv6 or both");
  }
  return spec;
}

function readDirectFamily(value: Json, family: AddressFamily, at: string, problems: Problems): DirectFamily | undefined {
  if (!isObject(value)) {
    problems.add("invalidProperty", at, `${at.split("/").pop()} must be an object {equinixIfaceIp}`);
    return undefined;
  }
  rejectUnknownFields(value, ["equinixIfaceIp"], at, problems, `a DIRECT ${familyLabel(family)} block`);
  const ip = value.equinixIfaceIp;
  if (ip === undefined || ip === null) {
    problems.add("missingProperty", `${at}/equinixIfaceIp`, "equinixIfaceIp is required");
    return undefined;
  }
  if (typeof ip !== "string" || !parseCidr(ip, family)) {
    problems.add("invalidProperty", `${at}/equinixIfaceIp`, `equinixIfaceIp must be an ${familyLabel(family)} address in CIDR notation`, typeof ip === "string" ? ip : JSON.stringify(ip));
    return undefined;
  }
  return { equinixIfaceIp: ip };
}

function readBgp(body: JsonObject, name: string | undefined, at: string, problems: Problems): BgpSpec {
  rejectUnknownFields(body, BGP_FIELDS, at, problems, "a BGP routing protocol");
  const spec: BgpSpec = {
    type: "BGP",
    ...(name === undefined ? {} : { name }),
    customerAsn: readCustomerAsn(body.customerAsn, at, problems),
    asOverrideEnabled: readBoolean(body.asOverrideEnabled, `${at}/asOverrideEnabled`, false, problems),
    bfd: readBfd(body.bfd, `${at}/bfd`, problems),
  };
  for (const family of FAMILIES) {
    const field = `bgp${family}` as const;
    const value = body[field];
    if (value === undefined) continue;
    const bgpFamily = readBgpFamily(value, family, `${at}/${field}`, problems);
    if (bgpFamily) spec[field] = bgpFamily;
  }
  if (body.bgpIpv4 === undefined && body.bgpIpv6 === undefined) {
    problems.add("missingProperty", `${at}/bgpIpv4`, "a BGP routing protocol needs bgpIpv4, bgpIpv6 or both");
  }
  const key = body.bgpAuthKey;
  if (key !== undefined) {
    if (typeof key !== "string") problems.add("invalidProperty", `${at}/bgpAuthKey`, "bgpAuthKey must be a string");
    else if (key.length > MAX_AUTH_KEY_LENGTH) problems.add("invalidProperty", `${at}/bgpAuthKey`, `bgpAuthKey must be at most ${MAX_AUTH_KEY_LENGTH} characters`);
    else spec.bgpAuthKey = key;
  }
  return spec;
}

function readCustomerAsn(asn: Json | undefined, at: string, problems: Problems): number {
  const property = `${at}/customerAsn`;
  if (asn === undefined || asn === null) {
    problems.add("missingProperty", property, "customerAsn is required for BGP");
    return 0;
  }
  if (!isInteger(asn)) {
    problems.add("invalidProperty", property, "customerAsn must be an integer", JSON.stringify(asn));
    return 0;
  }
  const problem = asnProblem(asn);
  if (problem) problems.add("invalidProperty", property, `customerAsn ${problem}`, asn);
  return asn;
}

function readBoolean(value: Json | undefined, property: string, fallback: boolean, problems: Problems): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    problems.add("invalidProperty", property, `${property.split("/").pop()} must be true or false`, JSON.stringify(value));
    return fallback;
  }
  return value;
}

function readBgpFamily(value: Json, family: AddressFamily, at: string, problems: Problems): BgpFamily | undefined {
  if (!isObject(value)) {
    problems.add("invalidProperty", at, `${at.split("/").pop()} must be an object`);
    return undefined;
  }
  rejectUnknownFields(value, BGP_FAMILY_FIELDS, at, problems, `a BGP ${familyLabel(family)} block`);
  const peer = value.customerPeerIp;
  let customerPeerIp: string | undefined;
  if (peer === undefined || peer === null) problems.add("missingProperty", `${at}/customerPeerIp`, "customerPeerIp is required");
  else if (typeof peer !== "string" || parseAddress(peer, family) === undefined) {
    problems.add("invalidProperty", `${at}/customerPeerIp`, `customerPeerIp must be an ${familyLabel(family)} address`, typeof peer === "string" ? peer : JSON.stringify(peer));
  } else customerPeerIp = peer;
  if (value.equinixPeerIp !== undefined && typeof value.equinixPeerIp !== "string") {
    problems.add("invalidProperty", `${at}/equinixPeerIp`, "equinixPeerIp must be a string");
  }
  const result: BgpFamily = { customerPeerIp: customerPeerIp ?? "", enabled: readBoolean(value.enabled, `${at}/enabled`, true, problems) };
  const prepend = value.outboundASPrependCount;
  if (prepend !== undefined) {
    if (!isInteger(prepend)) problems.add("invalidProperty", `${at}/outboundASPrependCount`, "outboundASPrependCount must be an integer", JSON.stringify(prepend));
    else if (!(AS_PREPEND_COUNTS as readonly number[]).includes(prepend)) {
      problems.add("notInAllowedList", `${at}/outboundASPrependCount`, `outboundASPrependCount must be one of ${AS_PREPEND_COUNTS.join(", ")}`, prepend);
    } else result.outboundASPrependCount = prepend;
  }
  for (const med of ["inboundMED", "outboundMED"] as const) {
    const v = value[med];
    if (v === undefined) continue;
    if (!isInteger(v) || v < 1 || v > MAX_MED) problems.add("invalidProperty", `${at}/${med}`, `${med} must be an integer from 1 to ${MAX_MED}`, JSON.stringify(v));
    else result[med] = v;
  }
  const routesMax = value.routesMax;
  if (routesMax !== undefined) {
    if (!isInteger(routesMax) || routesMax < 1) problems.add("invalidProperty", `${at}/routesMax`, "routesMax must be a positive integer", JSON.stringify(routesMax));
    else result.routesMax = routesMax;
  }
  return customerPeerIp === undefined ? undefined : result;
}

/**
 * bfd.interval is an integer in the specification and a string in the official schema: both are
 * accepted, and it is returned as the official schema says (a string).
 */
function readBfd(value: Json | undefined, at: string, problems: Problems): BgpSpec["bfd"] {
  if (value === undefined) return { enabled: false };
  if (!isObject(value)) {
    problems.add("invalidProperty", at, "bfd must be an object {enabled, interval}");
    return { enabled: false };
  }
  rejectUnknownFields(value, BFD_FIELDS, at, problems, "bfd");
  const bfd: BgpSpec["bfd"] = { enabled: readBoolean(value.enabled, `${at}/enabled`, false, problems) };
  const interval = value.interval;
  if (interval === undefined) return bfd;
  const ms = typeof interval === "string" && /^\d+$/.test(interval) ? Number(interval) : interval;
  if (!isInteger(ms) || ms < BFD_INTERVAL_MS.min || ms > BFD_INTERVAL_MS.max) {
    problems.add("invalidProperty", `${at}/interval`, `interval must be from ${BFD_INTERVAL_MS.min} to ${BFD_INTERVAL_MS.max} ms`, JSON.stringify(interval));
  } else bfd.interval = String(ms);
  return bfd;
}

// ── BGP against the connection's DIRECT instance ───────────────────────────────────────────

/**
 * A BGP session of a family runs over the DIRECT subnet of the same family: the DIRECT instance must
 * have that family, and the customer's peer address must be a host of that subnet other than the provider's.
 */
export function checkPeersAgainstDirect(bgp: BgpSpec, direct: DirectSpec, at: string, problems: Problems): void {
  for (const family of FAMILIES) {
    const session = bgp[`bgp${family}`];
    if (!session) continue;
    const subnet = direct[`direct${family}`];
    if (!subnet) {
      problems.add("invalidProperty", `${at}/bgp${family}`, `the connection's DIRECT routing protocol has no ${familyLabel(family)} address`);
      continue;
    }
    const cidr = parseCidr(subnet.equinixIfaceIp, family)!;
    const problem = peerProblem(cidr, parseAddress(session.customerPeerIp, family)!);
    if (problem) {
      problems.add("invalidProperty", `${at}/bgp${family}/customerPeerIp`, `customerPeerIp ${session.customerPeerIp} ${problem} ${subnet.equinixIfaceIp}`, session.customerPeerIp);
    }
  }
}

/** The provider's peering address of a family: its interface address in the DIRECT subnet. */
export function equinixPeerIp(direct: DirectSpec, family: AddressFamily): string | undefined {
  const subnet = direct[`direct${family}`];
  return subnet ? parseCidr(subnet.equinixIfaceIp, family)?.addressText : undefined;
}

/** The DIRECT addresses of a stored instance's body. */
export function directOf(body: JsonObject): DirectSpec {
  const spec: DirectSpec = { type: "DIRECT" };
  for (const family of FAMILIES) {
    const block = body[`direct${family}`];
    if (isObject(block) && typeof block.equinixIfaceIp === "string") spec[`direct${family}`] = { equinixIfaceIp: block.equinixIfaceIp };
  }
  return spec;
}

/** The customer peer addresses of a stored BGP instance's body, per family. */
export function bgpPeersOf(body: JsonObject): Partial<Record<AddressFamily, string>> {
  const peers: Partial<Record<AddressFamily, string>> = {};
  for (const family of FAMILIES) {
    const block = body[`bgp${family}`];
    if (isObject(block) && typeof block.customerPeerIp === "string") peers[family] = block.customerPeerIp;
  }
  return peers;
}
