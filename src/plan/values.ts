// Values inside a plan: the marker for a value not known until apply, walking an object into its leaf
// fields (objects are walked, lists are compared whole), and masking secrets and unknowns for display.

import { SENSITIVE_TEXT } from "../config/index.js";
import { UNKNOWN_TEXT } from "./types.js";

/**
 * Stands in for a value not known before apply, inside a spec handed to a kind's pure `desired`. A
 * string passes through every normaliser unchanged, and the control character keeps it from ever
 * equalling a real value.
 */
export const UNKNOWN_MARK = "\u0000(known after apply)";

export const isUnknownValue = (v: unknown): boolean =>
  v === UNKNOWN_MARK || (typeof v === "string" && v.includes(UNKNOWN_MARK)) || (Array.isArray(v) && v.some(isUnknownValue)) || (isPlainObject(v) && Object.values(v).some(isUnknownValue));

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The leaf fields of an object: dotted path -> value; lists and scalars are leaves. */
export function leaves(body: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) for (const [p, v] of leaves(value, path)) out.set(p, v);
    else out.set(path, value);
  }
  return out;
}

export function getLeaf(body: unknown, path: string): unknown {
  let cur = body;
  for (const key of path.split(".")) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
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

/**
 * Whether a leaf holds a secret. `secretPaths` are written as the configuration writes paths
 * ("sshUsers[0].sshPassword") or as kinds declare them ("sshUsers[].sshPassword"); a list leaf that holds
 * a secret anywhere inside is secret as a whole.
 */
export function isSecretLeaf(leaf: string, secretPaths: Iterable<string>): boolean {
  for (const raw of secretPaths) {
    const p = raw.replace(/\[\d*\]/g, "");
    if (p === leaf || p.startsWith(`${leaf}.`) || leaf.startsWith(`${p}.`)) return true;
  }
  return false;
}

/** A copy for display: secret leaves become "(sensitive)" and unknown ones "(known after apply)". */
export function masked(body: Record<string, unknown>, secretPaths: Iterable<string>): Record<string, unknown> {
  const secrets = [...secretPaths];
  const walk = (value: unknown, path: string): unknown => {
    if (path && isSecretLeaf(path, secrets) && !isPlainObject(value)) return SENSITIVE_TEXT;
    if (isUnknownValue(value) && !isPlainObject(value)) return UNKNOWN_TEXT;
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
    return value;
  };
  return walk(body, "") as Record<string, unknown>;
}
