// The `lookups:` section: objects netform does not manage but names (a port, a service profile, a metro's
// account), each found by a `where` of a lookup kind and read-only. The loader checks each `where` against
// its kind's schema and lets resources reference `${lookups.NAME.attribute}` (any attribute path of the
// object found); the engine resolves them at plan time. Like the kinds, the lookup kinds are supplied from
// above as a catalog.

import type { z } from "zod";
import type { Diagnostic } from "../diag/index.js";
import { address as makeAddress, NAME_PATTERN, type Address } from "./address.js";
import { isPlainObject } from "./json.js";
import { interpolate, newResult, type InterpolationScope } from "./interpolate.js";
import type { NodeSpan, ParsedFile, PositionIndex, SourcePosition } from "./positions.js";
import { SecretPaths } from "./secret-paths.js";
import { didYouMean } from "../diag/suggest.js";
import { placeDiagnostic, validateSpec } from "./validate.js";

/** The section's key, and the head of a lookup's address and references: `${lookups.NAME.uuid}`. */
export const LOOKUPS_SECTION = "lookups";

export const isLookupAddress = (address: string): boolean => address.startsWith(`${LOOKUPS_SECTION}.`);

/** What the configuration layer needs to know about a lookup kind. */
export interface LookupSchema {
  /** What `kind:` names: "port". */
  name: string;
  /** For the JSON Schema and messages. */
  description: string;
  /** The fields `where` takes; each narrows the search. */
  where: z.ZodObject;
  /**
   * The attributes the documentation lists, which the state records and later plans compare. References
   * are not limited to them: they may read any attribute path of the object found.
   */
  attributes: readonly string[];
  /** Paths of the object found that hold secrets: references to them are sensitive, and the state never keeps them. */
  sensitive: SecretPaths;
  /** Set on a declared lookup's schema when it is a list lookup (`many: true`): references read its items. */
  many?: boolean;
}

/** One order of a list lookup's objects: by an attribute path, ascending unless said otherwise. */
export interface LookupSort {
  by: string;
  direction: "ASC" | "DESC";
}

export type LookupCatalog = ReadonlyMap<string, LookupSchema>;

export interface ConfigLookup {
  name: string;
  address: Address;
  kind: string;
  /** The search, variables and environment values resolved. */
  where: Record<string, unknown>;
  file: string;
  position: SourcePosition;
  /** Where every written value is, relative to the lookup ("" is its key). */
  positions: PositionIndex;
  /** A list lookup (`many: true`): every object found, none being a value, not an error. */
  many: boolean;
  /** A list lookup's attribute whose value keys each object in a forEach (`key: name`). */
  key?: string;
  /** The order of the objects found, first order first; the service's order when absent. */
  sort: LookupSort[];
}

/** The fields a lookup takes. */
const LOOKUP_FIELDS = ["kind", "where", "many", "key", "sort"];

/** An attribute path as a list lookup's key or sort names it: fields by dots, list items by [N]. */
const ATTRIBUTE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*)*$/;

interface RawLookup {
  name: string;
  body: unknown;
  file: string;
  span: NodeSpan;
  positions: PositionIndex;
}

/** The lookups a file declares, before they are checked; a name declared twice is reported here. */
export function collectLookups(file: ParsedFile, value: unknown, raws: Map<Address, RawLookup>, diagnostics: Diagnostic[]): void {
  if (value === null) return;
  const span = file.index.root.get(LOOKUPS_SECTION) as NodeSpan;
  if (!isPlainObject(value)) {
    diagnostics.push({ severity: "error", code: "config.shape", file: file.file, line: span.value.line, column: span.value.column, path: LOOKUPS_SECTION, message: "lookups is a mapping of names to { kind, where }" });
    return;
  }
  for (const [name, body] of Object.entries(value)) {
    const rspan = file.index.root.get(`${LOOKUPS_SECTION}.${name}`) as NodeSpan;
    const key = rspan.key ?? rspan.value;
    const addr = makeAddress(LOOKUPS_SECTION, name);
    if (!NAME_PATTERN.test(name)) {
      diagnostics.push({ severity: "error", code: "config.name", address: addr, file: key.file, line: key.line, column: key.column, message: `lookup name "${name}" must be lowercase letters, digits, "-" and "_", starting with a letter or digit` });
    }
    const first = raws.get(addr);
    if (first) {
      const at = (s: NodeSpan) => `${(s.key ?? s.value).file}:${(s.key ?? s.value).line}:${(s.key ?? s.value).column}`;
      diagnostics.push({ severity: "error", code: "config.duplicate", address: addr, file: key.file, line: key.line, column: key.column, message: `${addr} is declared twice: ${at(first.span)} and ${at(rspan)}`, hint: "rename one of them" });
      continue;
    }
    raws.set(addr, { name, body, file: file.file, span: rspan, positions: file.index.scopes.get(`${LOOKUPS_SECTION}.${name}`) ?? new Map([["", rspan]]) });
  }
}

/** Checks one lookup: a known kind, a `where` its kind takes, no references (a lookup is read before anything is made). */
export function buildLookup(addr: Address, raw: RawLookup, catalog: LookupCatalog, scope: InterpolationScope, diagnostics: Diagnostic[]): ConfigLookup | undefined {
  const loc = { address: addr, positions: raw.positions };
  const problem = (path: (string | number)[], code: string, message: string, hint?: string, atKey = true) => diagnostics.push(placeDiagnostic(loc, { path, code, message, hint, atKey }));
  const body = raw.body;
  if (!isPlainObject(body)) {
    problem([], "config.shape", `${addr} must be a mapping of kind and where`, "e.g. { kind: port, where: { name: ... } }");
    return undefined;
  }
  for (const key of Object.keys(body)) if (!LOOKUP_FIELDS.includes(key)) problem([key], "schema.unknown-field", `unknown field "${key}"`, didYouMean(key, LOOKUP_FIELDS) ?? `a lookup has ${LOOKUP_FIELDS.join(", ")}`);
  const kindName = body.kind;
  const kind = typeof kindName === "string" ? catalog.get(kindName) : undefined;
  if (!kind) {
    const kinds = [...catalog.keys()];
    const hint = (typeof kindName === "string" ? didYouMean(kindName, kinds) : undefined) ?? `lookup kinds: ${kinds.join(", ")}`;
    if (kindName === undefined) problem([], "schema.required", 'required field "kind" is missing', hint);
    else problem(["kind"], "lookup.kind", `unknown lookup kind ${JSON.stringify(kindName)}`, hint, false);
    return undefined;
  }
  if (body.many !== undefined && typeof body.many !== "boolean") problem(["many"], "lookup.many", "many is true (a list of every object found) or false (exactly one)", "e.g. many: true", false);
  const many = body.many === true;
  let key: string | undefined;
  if (body.key !== undefined) {
    if (!many) problem(["key"], "lookup.key", "key names the attribute a list lookup's objects are keyed by in a forEach: it needs many: true", "add many: true, or remove key");
    else if (typeof body.key !== "string" || !ATTRIBUTE_PATH.test(body.key)) problem(["key"], "lookup.key", "key is an attribute path of the objects found (name, location.metroCode)", "e.g. key: name", false);
    else key = body.key;
  }
  const sort = lookupSort(body.sort, (path, message, hint) => problem(path, "lookup.sort", message, hint, false));
  if (body.sort !== undefined && !many) problem(["sort"], "lookup.sort", "sort orders a list lookup's objects: it needs many: true", "add many: true, or remove sort");
  const whereAbsent = body.where === undefined || body.where === null;
  if (!(many && whereAbsent) && (!isPlainObject(body.where) || Object.keys(body.where).length === 0)) {
    problem(whereAbsent ? [] : ["where"], "lookup.where", `${addr} needs a where: what to search by`, `${kind.name} lookups search by ${Object.keys(kind.where.shape).join(", ")}${many ? "" : " (a list lookup, many: true, may list every object without one)"}`);
    return undefined;
  }
  if (!whereAbsent && !isPlainObject(body.where)) {
    problem(["where"], "lookup.where", `${addr}'s where is a mapping of fields to values`, `${kind.name} lookups search by ${Object.keys(kind.where.shape).join(", ")}`, false);
    return undefined;
  }
  const out = newResult();
  const where = interpolate(body.where ?? {}, ["where"], { ...scope, addresses: undefined }, out) as Record<string, unknown>;
  for (const p of out.problems) diagnostics.push(placeDiagnostic(loc, p.code === "reference.not-allowed" ? { ...p, message: `a lookup's where cannot reference a resource or another lookup: it is read before anything is made` } : p));
  const schema = { name: kind.name, description: kind.description, spec: kind.where, sensitive: SecretPaths.NONE, attributes: kind.attributes, serverSet: [], parents: {}, timeoutMs: 0 };
  const positions: PositionIndex = new Map([...raw.positions].filter(([k]) => k.startsWith("where.") || k === "where").map(([k, v]) => [k.slice("where.".length), v]));
  for (const item of validateSpec(schema, where, { address: addr, positions }).map((d) => ({ ...d, ...(d.path ? { path: `where.${d.path}` } : {}) }))) diagnostics.push(item);
  return { name: raw.name, address: addr, kind: kind.name, where, file: raw.file, position: raw.span.key ?? raw.span.value, positions: raw.positions, many, ...(key !== undefined ? { key } : {}), sort };
}

/** `sort: name`, `sort: [-versionDate, name]` (a leading "-" descending) or `sort: [{ by: name, direction: DESC }]`. */
function lookupSort(value: unknown, problem: (path: (string | number)[], message: string, hint?: string) => void): LookupSort[] {
  if (value === undefined || value === null) return [];
  const HINT = 'e.g. sort: name, sort: [-versionDate, name] ("-" for descending) or sort: [{ by: name, direction: DESC }]';
  const out: LookupSort[] = [];
  for (const [i, item] of (Array.isArray(value) ? value : [value]).entries()) {
    const at = Array.isArray(value) ? ["sort", i] : ["sort"];
    if (typeof item === "string") {
      const desc = item.startsWith("-");
      const by = desc ? item.slice(1) : item;
      if (!ATTRIBUTE_PATH.test(by)) problem(at, `sort ${JSON.stringify(item)} is not an attribute path`, HINT);
      else out.push({ by, direction: desc ? "DESC" : "ASC" });
    } else if (isPlainObject(item) && typeof item.by === "string" && ATTRIBUTE_PATH.test(item.by) && (item.direction === undefined || item.direction === "ASC" || item.direction === "DESC") && Object.keys(item).every((k) => k === "by" || k === "direction")) {
      out.push({ by: item.by, direction: (item.direction as "ASC" | "DESC" | undefined) ?? "ASC" });
    } else {
      problem(at, "sort takes attribute paths, each ascending or descending", HINT);
    }
  }
  return out;
}

export type { RawLookup };
