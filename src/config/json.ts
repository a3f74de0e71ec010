// Plain JSON values as every layer handles them: a mapping test that lists and wrapped values (a
// Sensitive, a Reference) fail, one reader of attribute paths ("bgpIpv4.enabled",
// "accessPointTypeConfigs[0].type"), and what to say when a path is not there.

import { formatPath } from "./address.js";
import { closest } from "../diag/suggest.js";

/** A plain mapping: not a list, not null, not an instance of a class. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of a mapping with each value replaced by `f` of it: what Object.fromEntries of its mapped entries
 * gives (a "__proto__" key stays a field), without the pair arrays, which every walk of every resource's spec
 * would allocate and drop.
 */
export function mapValues(v: Record<string, unknown>, f: (value: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const value = f(v[key], key);
    if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

/** Whether an object has a field of its own (what Object.keys(v).length > 0 says, without listing them). */
export function hasOwnKeys(v: object): boolean {
  for (const key in v) if (Object.hasOwn(v, key)) return true;
  return false;
}

const INDEXED = /^([^[\]]*)((?:\[\d+\])+)$/;

/**
 * The segments of a path as formatPath writes it: fields joined by dots, `[N]` after a field an index into
 * the list it holds ("notifications[0].emails" -> ["notifications", 0, "emails"]). A field is always a
 * field: "a.0" reads the key "0", never a list item.
 */
export function pathSegments(path: string): (string | number)[] {
  // Most paths have no index: they are split, as they always were, without a pattern per segment.
  if (!path.includes("[")) return path.split(".");
  const out: (string | number)[] = [];
  for (const part of path.split(".")) {
    const m = INDEXED.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? "").matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/**
 * The value at a path: as formatPath writes it ("bgpIpv4.enabled", "accessPointTypeConfigs[0].type"), or as
 * segments where a number indexes a list (["notifications", 0, "emails"]). Undefined where the path leaves
 * plain mappings and lists.
 */
export function readPath(body: unknown, path: string | readonly (string | number)[]): unknown {
  let cur = body;
  for (const seg of typeof path === "string" ? pathSegments(path) : path) {
    if (typeof seg === "number" && Array.isArray(cur)) cur = cur[seg];
    else if (isPlainObject(cur)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

/** How many fields a message lists before saying how many more there are. */
const LISTED_FIELDS = 20;

function fieldsText(fields: readonly string[]): string {
  const shown = fields.slice(0, LISTED_FIELDS).join(", ");
  return fields.length > LISTED_FIELDS ? `${shown} and ${fields.length - LISTED_FIELDS} more` : shown;
}

function scalarText(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
  return `${typeof v === "number" ? "the number" : typeof v === "boolean" ? "the boolean" : "the value"} ${String(v)}`;
}

export interface AbsentPath {
  /** Where the path stops and what is there instead: a mapping's fields, a list's length, a scalar. */
  reason: string;
  /** A field of the mapping where the path stops, close to the one asked for. */
  closest?: string;
}

/**
 * Why `path` is not in `body`; undefined when it is (a field present with a null value is there). Said from
 * the deepest level the path reaches, so that a user sees what to write instead.
 */
export function absentPath(body: unknown, path: string | readonly (string | number)[]): AbsentPath | undefined {
  const segs = typeof path === "string" ? pathSegments(path) : path;
  let cur = body;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] as string | number;
    const here = i === 0 ? "the object" : formatPath(segs.slice(0, i));
    const asked = typeof seg === "number" ? `[${seg}]` : `"${seg}"`;
    if (Array.isArray(cur)) {
      if (typeof seg !== "number") return { reason: `${here} is a list of ${cur.length} item${cur.length === 1 ? "" : "s"}, not a mapping with a field ${asked}: read one item with [N], e.g. ${formatPath([...segs.slice(0, i), 0, seg])}` };
      if (seg >= cur.length) return { reason: cur.length === 0 ? `${here} is an empty list, so it has no item [${seg}]` : `${here} holds ${cur.length} item${cur.length === 1 ? "" : "s"} ([0]${cur.length > 1 ? ` to [${cur.length - 1}]` : ""}), so [${seg}] is out of range` };
      cur = cur[seg];
    } else if (isPlainObject(cur)) {
      const mapping = cur;
      if (mapping[seg] === undefined) {
        const fields = Object.keys(mapping).filter((k) => mapping[k] !== undefined);
        const near = typeof seg === "string" ? closest(seg, fields) : undefined;
        const what = typeof seg === "number" ? `is a mapping, not a list, so it has no item ${asked}` : `has no field ${asked}`;
        return { reason: `${here} ${what}; ${fields.length === 0 ? "it is an empty mapping" : `its fields are ${fieldsText(fields)}`}`, ...(near ? { closest: formatPath([...segs.slice(0, i), near]) } : {}) };
      }
      cur = mapping[seg];
    } else {
      return { reason: `${here} is ${scalarText(cur)}, so it has no ${typeof seg === "number" ? "item" : "field"} ${asked}` };
    }
  }
  return undefined;
}
