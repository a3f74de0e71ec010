// Repetition: a resource with `forEach:` is one block in the file and one instance per key in the
// configuration, addressed `kind.name["key"]`. Keys are known when the file is read (a list or mapping
// written in it, or a variable), never from a reference: a plan must know which objects it speaks of.
// A list of strings gives each string as both key and value; a mapping gives its keys, with their values.

import type { Diagnostic } from "../diag/index.js";
import { address as makeAddress, blockOf, type Address } from "./address.js";
import type { KindSchema } from "./catalog.js";
import { interpolate, newResult, type InterpolationScope } from "./interpolate.js";
import { isPlainObject, readPath } from "./json.js";
import { LOOKUPS_SECTION, type ConfigLookup } from "./lookups.js";
import type { SecretPaths } from "./secret-paths.js";
import type { NodeSpan, PositionIndex } from "./positions.js";
import { isSensitive } from "./sensitive.js";
import { placeDiagnostic } from "./validate.js";
import { Invalid, Unresolved } from "./values.js";

export const FOR_EACH = "forEach";

/** The warning that a forEach over a list lookup has its instances only once the lookup is read. */
export const FOR_EACH_LOOKUP_UNKNOWN = "for-each.lookup-unknown";

/** A resource as written, before its values are resolved; an instance of a forEach block carries its key and value. */
export interface RawResource {
  kind: KindSchema;
  name: string;
  body: unknown;
  file: string;
  span: NodeSpan;
  positions: PositionIndex;
  each?: { key: string; value: unknown };
}

/**
 * The list lookups a forEach may iterate (`forEach: ${lookups.dc-ports}`), and what they found once the
 * engine has read them: each lookup's value, `{ count, items }`. Without values their instances are not
 * known yet (validate, or the first reading of a run before the service is read).
 */
export interface ForEachLookups {
  lookups: ReadonlyMap<string, ConfigLookup>;
  /** Each lookup kind's secret paths, masked in each.value. */
  sensitive: (kind: string) => SecretPaths | undefined;
  values?: ReadonlyMap<string, unknown>;
}

/** `${lookups.NAME}` as a whole forEach value: the lookup it names. */
const LOOKUP_LIST = new RegExp(`^\\$\\{\\s*${LOOKUPS_SECTION}\\.([A-Za-z0-9][A-Za-z0-9_-]*)\\s*\\}$`);

export interface Expansion {
  /** Resources without forEach as they are, and every instance of those with it, by address. */
  resources: ReadonlyMap<Address, RawResource>;
  /** The blocks whose keys are a list lookup's objects, with that lookup's address. */
  fromLookups: Map<Address, string>;
  /** The keys of each forEach block, by block address (see InterpolationScope.forEach). */
  keys: Map<string, readonly string[] | Unresolved | Invalid>;
}

/**
 * The service name an instance gets unless its body sets one: the resource name and the key, with every run
 * of characters other than letters, digits, "-", "_" and "." in the key made one "-" (`vlan-1001`), so that
 * a key such as "eu west/1" still gives a name the portal and the service's events show plainly.
 */
export const instanceName = (name: string, key: string): string => `${name}-${key.replace(/[^A-Za-z0-9_.-]+/g, "-")}`;

const describe = (v: unknown): string => {
  if (v === null || v === undefined) return "nothing";
  if (typeof v === "string") return `a string (${JSON.stringify(v)})`;
  if (typeof v === "number" || typeof v === "boolean") return `${typeof v === "number" ? "a number" : "a boolean"} (${String(v)})`;
  return "a value of another type";
};

const hasForEach = (raw: RawResource): raw is RawResource & { body: Record<string, unknown> } => isPlainObject(raw.body) && FOR_EACH in raw.body;

/** Expands every forEach block of `raws`; a block whose forEach is in error gives no instance, and is reported once. */
export function expandForEach(raws: ReadonlyMap<Address, RawResource>, scope: InterpolationScope, diagnostics: Diagnostic[], lists?: ForEachLookups): Expansion {
  const fromLookups = new Map<Address, string>();
  const keys = new Map<string, readonly string[] | Unresolved | Invalid>();
  // Without a forEach (most configurations) there is nothing to expand, and no copy of thousands of entries to make.
  if (![...raws.values()].some(hasForEach)) return { resources: raws, keys, fromLookups };
  const resources = new Map<Address, RawResource>();
  for (const [addr, raw] of raws) {
    if (!hasForEach(raw)) {
      resources.set(addr, raw);
      continue;
    }
    const { [FOR_EACH]: written, ...body } = raw.body;
    const named = typeof written === "string" ? LOOKUP_LIST.exec(written)?.[1] : undefined;
    if (named !== undefined) fromLookups.set(addr, `${LOOKUPS_SECTION}.${named}`);
    const entries = named !== undefined ? lookupEntries(addr, raw, named, lists, diagnostics) : forEachEntries(addr, raw, written, scope, diagnostics);
    keys.set(addr, Array.isArray(entries) ? entries.map(([k]) => k) : entries);
    if (!Array.isArray(entries)) continue;
    for (const [key, value] of entries) resources.set(makeAddress(raw.kind.name, raw.name, key), { ...raw, body, each: { key, value } });
  }
  return { resources, keys, fromLookups };
}

/**
 * The keys and values of a forEach over a list lookup: each object found, keyed by its `key` attribute, its
 * value the object (secrets masked); Unresolved until the lookup is read.
 */
function lookupEntries(addr: Address, raw: RawResource, name: string, lists: ForEachLookups | undefined, diagnostics: Diagnostic[]): [string, unknown][] | Unresolved | Invalid {
  const loc = { address: addr, positions: raw.positions };
  const lookupAddress = `${LOOKUPS_SECTION}.${name}`;
  const report = (code: string, message: string, hint?: string, path: (string | number)[] = [FOR_EACH]): Invalid => {
    diagnostics.push(placeDiagnostic(loc, { path, code, message, ...(hint ? { hint } : {}) }));
    return new Invalid(FOR_EACH);
  };
  const lookup = lists?.lookups.get(lookupAddress);
  if (!lists || !lookup) {
    if (lists && !lists.lookups.has(lookupAddress)) return report("reference.undeclared", `forEach names undeclared ${lookupAddress}`, `declare ${name} under ${LOOKUPS_SECTION}, with many: true and key:`);
    return new Invalid(FOR_EACH);
  }
  if (!lookup.many) return report("for-each.lookup", `forEach over ${lookupAddress} needs a list lookup: it finds exactly one object`, `add many: true and key: (the attribute each object is keyed by) to ${lookupAddress}`);
  if (lookup.key === undefined) return report("for-each.lookup", `forEach over ${lookupAddress} needs the attribute its objects are keyed by`, `add key: to ${lookupAddress}, e.g. key: name (each instance is then ${addr}["NAME"])`);
  const value = lists.values?.get(lookupAddress);
  if (value === undefined) {
    diagnostics.push(placeDiagnostic(loc, { path: [FOR_EACH], code: FOR_EACH_LOOKUP_UNKNOWN, severity: "warning", message: `the instances of ${addr} are the objects ${lookupAddress} finds: they are known at plan time` }));
    return new Unresolved("lookup", lookupAddress);
  }
  const items = isPlainObject(value) && Array.isArray(value.items) ? (value.items as unknown[]) : [];
  const secrets = lists.sensitive(lookup.kind);
  const entries: [string, unknown][] = [];
  const firstIndex = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const k = readPath(item, lookup.key);
    const name = isPlainObject(item) && typeof item.name === "string" ? ` (${item.name})` : "";
    if (typeof k !== "string" && typeof k !== "number") {
      return report("for-each.key", `${lookupAddress}[${i}]${name} has no ${lookup.key} to key an instance of ${addr} by (it is ${k === undefined ? "absent" : "not a string"})`, `key ${lookupAddress} by an attribute every object has, e.g. key: uuid`);
    }
    const key = String(k);
    if (key === "") return report("for-each.key", `${lookupAddress}[${i}]${name} has an empty ${lookup.key}: every instance of ${addr} needs a key`, "key the lookup by an attribute every object has, e.g. key: uuid");
    const first = firstIndex.get(key);
    if (first !== undefined) return report("for-each.duplicate-key", `${lookupAddress}[${i}] and [${first}] share the ${lookup.key} ${JSON.stringify(key)}, which keys the instances of ${addr}`, "key the lookup by an attribute each object has its own of, e.g. key: uuid, or narrow its where");
    firstIndex.set(key, i);
    entries.push([key, isPlainObject(item) && secrets ? secrets.mask(item, { keepAbsent: true }) : item]);
  }
  const clash = nameClash(raw, entries.map(([k]) => k));
  if (clash) return report("for-each.name-clash", `the keys ${JSON.stringify(clash[0])} and ${JSON.stringify(clash[1])} both give the service name "${instanceName(raw.name, clash[0])}"`, `set ${raw.kind.displayName ?? "the name"} in the body, e.g. "${raw.name}-\${each.key}"`);
  return entries;
}

/** The keys and values of one block's forEach, or why there are none to build. */
function forEachEntries(addr: Address, raw: RawResource, written: unknown, scope: InterpolationScope, diagnostics: Diagnostic[]): [string, unknown][] | Unresolved | Invalid {
  const loc = { address: addr, positions: raw.positions };
  const report = (path: (string | number)[], code: string, message: string, hint?: string): Invalid => {
    diagnostics.push(placeDiagnostic(loc, { path, code, message, hint }));
    return new Invalid(FOR_EACH);
  };
  const out = newResult();
  // Keys name objects in plans and state: they cannot wait for an object to exist.
  const value = interpolate(written, [FOR_EACH], { ...scope, addresses: undefined, lookups: undefined, each: undefined }, out);
  for (const p of out.problems) {
    const fromObject = p.code === "reference.not-allowed" || p.code === "expression.unknown";
    diagnostics.push(placeDiagnostic(loc, fromObject ? { ...p, message: `forEach cannot use another object's attributes: ${p.message}`, hint: "its keys must be known before anything is created: write a list or mapping, or use a variable" } : p));
  }
  if (out.problems.some((p) => p.severity !== "warning")) return new Invalid(FOR_EACH);
  if (value instanceof Unresolved) {
    diagnostics.push(placeDiagnostic(loc, { path: [FOR_EACH], code: "for-each.unknown", severity: "warning", message: `the instances of ${addr} are not known while ${value.expression} has no value; they are checked at plan time` }));
    return value;
  }
  if (isSensitive(value) || out.sensitive.size > 0) return report([FOR_EACH], "for-each.sensitive", "forEach cannot use a sensitive value: its keys are shown in every address", "use a variable that is not sensitive for the keys, and read the secrets in the body");

  let entries: [string, unknown][];
  if (Array.isArray(value)) {
    entries = [];
    const firstIndex = new Map<string, number>();
    for (const [i, element] of value.entries()) {
      if (element instanceof Unresolved) return element;
      if (element instanceof Invalid) return element;
      if (typeof element !== "string") {
        return report([FOR_EACH, i], "for-each.key", `forEach[${i}] is ${describe(element)}; a list in forEach holds strings, the keys`, typeof element === "number" ? `quote it: "${element}"` : "write the keys as strings, or use a mapping of key to value");
      }
      const first = firstIndex.get(element);
      if (first !== undefined) return report([FOR_EACH, i], "for-each.duplicate-key", `forEach[${i}] repeats the key ${JSON.stringify(element)} of forEach[${first}]`, "each key names one instance: remove the repeated one");
      firstIndex.set(element, i);
      entries.push([element, element]);
    }
  } else if (isPlainObject(value)) {
    entries = Object.entries(value);
  } else {
    return report([FOR_EACH], "for-each.type", `forEach takes a list of strings or a mapping, not ${describe(value)}`, 'e.g. forEach: ["1001", "1002"], or a mapping of key to value: { "1001": { vlan: 1001 } }');
  }
  const empty = entries.findIndex(([k]) => k === "");
  if (empty >= 0) return report(Array.isArray(value) ? [FOR_EACH, empty] : [FOR_EACH], "for-each.key", "a forEach key is an empty string; every instance needs a key to be addressed by", "remove it, or give it a name");
  const clash = nameClash(raw, entries.map(([k]) => k));
  if (clash) return report([FOR_EACH], "for-each.name-clash", `the keys ${JSON.stringify(clash[0])} and ${JSON.stringify(clash[1])} both give the service name "${instanceName(raw.name, clash[0])}"`, `set ${raw.kind.displayName ?? "the name"} in the body, e.g. "${raw.name}-\${each.key}", or make the keys differ in letters or digits`);
  return entries;
}

/** Two keys whose instances would get the same service name by default (see instanceName); undefined when none do. */
function nameClash(raw: RawResource, keys: readonly string[]): [string, string] | undefined {
  const field = raw.kind.displayName;
  if (!field || (isPlainObject(raw.body) && field in raw.body)) return undefined;
  const byName = new Map<string, string>();
  for (const k of keys) {
    const name = instanceName(raw.name, k);
    const other = byName.get(name);
    if (other !== undefined) return [other, k];
    byName.set(name, k);
  }
  return undefined;
}

/**
 * One diagnostic for what is wrong alike in many instances of one block (the same place, the same words):
 * a mistake in the block of a thousand VLANs is one mistake, said once with how many instances share it.
 */
export function collapseInstanceDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, { diagnostic: Diagnostic; block: string; count: number }>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (!d.address?.includes("[")) {
      out.push(d);
      continue;
    }
    const block = blockOf(d.address);
    const group = JSON.stringify([block, d.severity, d.code, d.file, d.line, d.column, d.path, d.message, d.hint]);
    const first = groups.get(group);
    if (first) {
      first.count++;
      continue;
    }
    const entry = { diagnostic: { ...d }, block, count: 1 };
    groups.set(group, entry);
    out.push(entry.diagnostic);
  }
  for (const { diagnostic, block, count } of groups.values()) {
    if (count > 1) diagnostic.message += ` (and in ${count - 1} more instance${count > 2 ? "s" : ""} of ${block})`;
  }
  return out;
}
