// Values inside a plan: the marker for a value not known until apply, walking an object into its leaf
// fields (objects are walked, lists are compared whole), and masking secrets and unknowns for display.

import { hasOwnKeys, isPlainObject, type SecretPaths } from "../config/index.js";
import { UNKNOWN_TEXT } from "./types.js";

/**
 * Stands in for a value not known before apply, inside a spec handed to a kind's pure `desired`. A
 * string passes through every normaliser unchanged, and the control character keeps it from ever
 * equalling a real value.
 */
export const UNKNOWN_MARK = "\u0000(known after apply)";

export const isUnknownValue = (v: unknown): boolean =>
  v === UNKNOWN_MARK || (typeof v === "string" && v.includes(UNKNOWN_MARK)) || (Array.isArray(v) && v.some(isUnknownValue)) || (isPlainObject(v) && Object.values(v).some(isUnknownValue));

/** The leaf fields of an object: dotted path -> value; lists and scalars are leaves. */
export function leaves(body: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  addLeaves(body, prefix, out);
  return out;
}

/** Adds the leaves below `prefix` to `out` in place: one map for the whole walk, not one per level copied into the next. */
function addLeaves(body: Record<string, unknown>, prefix: string, out: Map<string, unknown>): void {
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && hasOwnKeys(value)) addLeaves(value, path, out);
    else out.set(path, value);
  }
}

/** Keyed hashes of the leaves of `body` under any of `prefixes` (a write-only field's value as sent). */
export function hashesUnder(body: Record<string, unknown>, prefixes: readonly string[], hash: (value: unknown) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (prefixes.length === 0) return out;
  for (const [path, value] of leaves(body)) {
    if (prefixes.some((p) => path === p || path.startsWith(`${p}.`))) out[path] = hash(value);
  }
  return out;
}

/** Deep equality of JSON values (key order does not matter; null and absent are the same). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (a == null && b == null)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/** A copy for display: secret leaves become "(sensitive)" and unknown ones "(known after apply)". */
export function masked(body: Record<string, unknown>, secrets: SecretPaths): Record<string, unknown> {
  return secrets.mask(body, { transform: (value) => (isUnknownValue(value) ? UNKNOWN_TEXT : value) });
}
