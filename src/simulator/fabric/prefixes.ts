// IP prefixes as route filter and route aggregation rules take them: an address and a prefix length in
// CIDR notation. The service keeps one spelling of each prefix (IPv6 lowercase and compressed, as RFC 5952
// writes it), so that two spellings of one prefix are one rule, and refuses a prefix with host bits set,
// whose meaning would be ambiguous (192.168.0.1/24).

import { isIPv4, isIPv6 } from "node:net";

export type Family = 4 | 6;

export interface Prefix {
  family: Family;
  /** The service's spelling. */
  text: string;
  /** The spelling with the host bits cleared, when the prefix has some set; undefined otherwise. */
  network?: string;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

function ipv4Value(address: string): bigint {
  return address.split(".").reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
}

/** RFC 5952 form: the URL parser writes an IPv6 host exactly so (lowercase, longest zero run compressed). */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

function ipv6Value(address: string): bigint {
  const [head = "", tail] = canonicalIpv6(address).split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function ipv6Text(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(16 * (7 - i))) & 0xffffn).toString(16));
  return canonicalIpv6(groups.join(":"));
}

/**
 * Whether prefix `outer` holds prefix `inner` (of one family, no longer than it, with the same leading bits):
 * what a rule matching "orlonger", or an aggregate, takes in.
 */
export function covers(outer: string, inner: string): boolean {
  const a = parseBits(outer);
  const b = parseBits(inner);
  if (!a || !b || a.family !== b.family || a.length > b.length) return false;
  const hostBits = BigInt(BITS[a.family] - a.length);
  return a.value >> hostBits === b.value >> hostBits;
}

function parseBits(text: string): { family: Family; value: bigint; length: number } | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  const [, address = "", length = ""] = match;
  if (isIPv4(address)) return { family: 4, value: ipv4Value(address), length: Number(length) };
  if (isIPv6(address)) return { family: 6, value: ipv6Value(address), length: Number(length) };
  return undefined;
}

/** The prefix written as `text`, or undefined when it is not an address and a prefix length of one family. */
export function parsePrefix(text: string): Prefix | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  const [, address = "", lengthText = ""] = match;
  const family: Family | undefined = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  if (family === undefined) return undefined;
  const length = Number(lengthText);
  if (length > BITS[family]) return undefined;
  const value = family === 4 ? ipv4Value(address) : ipv6Value(address);
  const hostBits = BigInt(BITS[family] - length);
  const networkValue = (value >> hostBits) << hostBits;
  const write = (v: bigint) => `${family === 4 ? ipv4Text(v) : ipv6Text(v)}/${length}`;
  return { family, text: write(value), ...(networkValue === value ? {} : { network: write(networkValue) }) };
}
