// Address forms the service accepts: IPv4 and IPv6 addresses, interface addresses in CIDR notation, and route prefixes.

import { isIPv4, isIPv6 } from "node:net";

export type Family = 4 | 6;

export function ipFamily(text: string): Family | undefined {
  if (isIPv4(text)) return 4;
  if (isIPv6(text)) return 6;
  return undefined;
}

/** `192.168.100.1/30`, `2001:db8::1/126`: an address and a prefix length valid for its family. */
export function cidrFamily(text: string): Family | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const family = ipFamily(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  if (family === undefined || !/^\d{1,3}$/.test(prefix)) return undefined;
  return Number(prefix) <= (family === 4 ? 32 : 128) ? family : undefined;
}

export interface Prefix {
  family: Family;
  /** The service's spelling: IPv6 in RFC 5952 form (lowercase, the longest run of zeros compressed). */
  text: string;
  /** The prefix with its host bits cleared, when `text` has some set (192.168.0.1/24 -> 192.168.0.0/24). */
  network?: string;
}

const ADDRESS_BITS: Record<Family, number> = { 4: 32, 6: 128 };

/** The URL parser writes an IPv6 host in RFC 5952 form. */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

function addressValue(address: string, family: Family): bigint {
  if (family === 4) return address.split(".").reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
  const [head = "", tail] = canonicalIpv6(address).split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function addressText(value: bigint, family: Family): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
  return canonicalIpv6(Array.from({ length: 8 }, (_, i) => ((value >> BigInt(16 * (7 - i))) & 0xffffn).toString(16)).join(":"));
}

/**
 * An IPv4 prefix in 32-bit arithmetic: a filter's hundreds of rules are read on every plan, and the
 * BigInt path the 128-bit family needs takes about ten times as long.
 */
function ipv4Prefix(address: string, length: number): Prefix {
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  const value = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  const network = length === 0 ? 0 : (value & (-1 << (32 - length))) >>> 0;
  const write = (v: number) => `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}/${length}`;
  return { family: 4, text: write(value), ...(network === value ? {} : { network: write(network) }) };
}

/** A route prefix (`192.168.0.0/24`, `2001:db8::/32`), or undefined when `text` is not an address and a prefix length of one family. */
export function parsePrefix(text: string): Prefix | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  const family = ipFamily(match[1]!);
  const length = Number(match[2]);
  if (family === undefined || length > ADDRESS_BITS[family]) return undefined;
  if (family === 4) return ipv4Prefix(match[1]!, length);
  const value = addressValue(match[1]!, family);
  const hostBits = BigInt(ADDRESS_BITS[family] - length);
  const network = (value >> hostBits) << hostBits;
  const write = (v: bigint) => `${addressText(v, family)}/${length}`;
  return { family, text: write(value), ...(network === value ? {} : { network: write(network) }) };
}
