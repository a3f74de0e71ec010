// Building blocks shared by the kinds' schemas: identifiers, addresses, ASNs, VLAN tags, metro codes and
// notification addresses, each carrying the limit of the service specification it enforces and a message
// that names it. Field-level limits live here; rules that involve several fields live in rules-*.ts.

import { z } from "zod";
import { METRO_CODES } from "./metros.js";
import { cidrFamily, ipFamily } from "./network.js";

/**
 * A schema (or any value) built the first time it is read, and kept. The kinds declare their specs this way:
 * a run reads only the kinds its configuration declares, and building every kind's schemas when the kinds
 * are loaded cost each command more than reading a small configuration does.
 */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * How the configuration's schemas parse. Without `jitless`, zod compiles a parser for each object schema the
 * first time it parses one (with `new Function`): that pays for a schema parsed thousands of times, and a
 * command parses each of its schemas a few times, so compiling would be most of the cost of validating.
 */
export const PARSE_WITHOUT_COMPILING = { jitless: true } as const;

/** Any 8-4-4-4-12 hex identifier: the service's own identifiers do not all carry an RFC 4122 version. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const uuid = () => z.string().regex(UUID_PATTERN, { error: "must be a UUID (8-4-4-4-12 hexadecimal digits) or a reference such as ${connections.NAME.uuid}" });

export const email = () => z.email({ error: "must be an email address" });

export const metroCode = () =>
  z.string().refine((s) => METRO_CODES.includes(s), { error: "is not a metro code of the service's catalogue" }).meta({ enum: [...METRO_CODES] });

export const ipv4 = (what = "an IPv4 address") => z.string().refine((s) => ipFamily(s) === 4, { error: `must be ${what}, e.g. 192.168.100.2` });
export const ipv6 = (what = "an IPv6 address") => z.string().refine((s) => ipFamily(s) === 6, { error: `must be ${what}, e.g. 2001:db8::2` });
export const ipAddress = () => z.string().refine((s) => ipFamily(s) !== undefined, { error: "must be an IPv4 or IPv6 address" });
export const cidr4 = () => z.string().refine((s) => cidrFamily(s) === 4, { error: "must be an IPv4 address in CIDR notation, e.g. 192.168.100.1/30" });
export const cidr6 = () => z.string().refine((s) => cidrFamily(s) === 6, { error: "must be an IPv6 address in CIDR notation, e.g. 2001:db8::1/126" });
export const cidr = () => z.string().refine((s) => cidrFamily(s) !== undefined, { error: "must be an address in CIDR notation, e.g. 169.254.10.1/30" });

/** VLAN tags (DOT1Q tag, QINQ S-tag and C-tag, and the bounds of tag ranges). */
export const vlanTag = () => z.int().min(2, { error: "must be 2 to 4094 (VLAN tag)" }).max(4094, { error: "must be 2 to 4094 (VLAN tag)" });

/** A text of a bounded length. */
export const text = (min: number, max: number, what: string) =>
  z
    .string()
    .min(min, { error: `${what} must be ${min} to ${max} characters` })
    .max(max, { error: `${what} must be ${min} to ${max} characters` });

const MAX_ASN = 4294967295;

function checkAsn(value: number, excluded: readonly (number | readonly [number, number])[], ctx: z.core.$RefinementCtx<number>, what: string): void {
  if (value < 1 || value > MAX_ASN - 1) {
    ctx.addIssue({ code: "custom", message: `${what} must be 1 to 4294967294` });
    return;
  }
  for (const e of excluded) {
    const [lo, hi] = typeof e === "number" ? [e, e] : e;
    if (value >= lo && value <= hi) {
      ctx.addIssue({ code: "custom", message: lo === hi ? `${what} ${value} is reserved and not allowed` : `${what} ${value} is in the reserved range ${lo}-${hi} and not allowed` });
      return;
    }
  }
}

/** Routing protocol customerAsn (4.6): 1-4294967294 without the excluded values and the provider's own. */
export const CUSTOMER_ASN_EXCLUDED = [0, 112, 23456, [64000, 64495], [64496, 64511], 65535, [65536, 65551], MAX_ASN] as const;
/** The specification writes the reserved range "4200000000-42000000002"; read as 4200000000-4200000002. */
export const PROVIDER_RESERVED_ASNS = [64600, [4200000000, 4200000002]] as const;

export const customerAsn = () =>
  z.int().superRefine((v, ctx) => {
    checkAsn(v, CUSTOMER_ASN_EXCLUDED, ctx, "ASN");
    for (const e of PROVIDER_RESERVED_ASNS) {
      const [lo, hi] = typeof e === "number" ? [e, e] : e;
      if (v >= lo && v <= hi) ctx.addIssue({ code: "custom", message: `ASN ${v} is reserved by the provider and not allowed` });
    }
  });

/** VPN remoteAsn and localAsn (4.7). */
export const VPN_ASN_EXCLUDED = [0, 23456, [64496, 64511], 65535, [65552, 131071], MAX_ASN] as const;

/** The VPN body spells remoteAsn as a string and localAsn as an integer; both forms are accepted for either. */
export const vpnAsn = () =>
  z
    .union([z.int(), z.string().regex(/^\d+$/)], { error: "must be an ASN (an integer)" })
    .superRefine((v, ctx) => checkAsn(Number(v), VPN_ASN_EXCLUDED, ctx as unknown as z.core.$RefinementCtx<number>, "ASN"));

export const med = () => z.int().min(1, { error: "MED must be 1 to 4294967295" }).max(MAX_ASN, { error: "MED must be 1 to 4294967295" });

/** Integers that some bodies spell as strings (account numbers, term lengths). */
export const digits = (what: string) => z.union([z.int().min(0), z.string().regex(/^\d+$/)], { error: `${what} must be a number` });

/** The project a route filter or connection belongs to. */
export const project = () => z.strictObject({ projectId: z.string().min(1, { error: "projectId must not be empty" }) });
