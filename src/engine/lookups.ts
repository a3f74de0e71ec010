// Resolving the configuration's lookups during refresh: every lookup of a kind read together (one search
// where the API allows), each required to match exactly one object, and their values put in place of the
// references to them, so that the planner and the apply see plain values. References read the object found
// whole; the plan and the state carry a part of it (the kind's listed attributes and those the
// configuration reads, secrets masked), with what changed since the last apply recorded it.

import { absentPath, isLookupAddress, isPlainObject, pathSegments, placeDiagnostic, readPath, Reference, Sensitive, Template, validateSpec, type ConfigLookup, type Configuration, type ConfigResource } from "../config/index.js";
import { sortDiagnostics, type Diagnostic } from "../diag/index.js";
import { compareValues, LOOKUP_DEFINITIONS, matches as matchesWhere, type Body, type Candidate, type LookupContext, type LookupDefinition } from "../lookups/index.js";
import { leaves, sameValue, type FieldChange, type ListLookupSummary, type LookupResult } from "../plan/index.js";
import type { LookupState, StateFile } from "../state/index.js";

export interface ResolvedLookups {
  results: LookupResult[];
  diagnostics: Diagnostic[];
  /** Each lookup's object whole, by address, as references read it; neither planned nor stored. */
  objects: ReadonlyMap<string, Body>;
}

/** How many candidates an ambiguous lookup lists before saying how many more there are. */
const LISTED_CANDIDATES = 10;

const whereText = (where: Body): string =>
  Object.entries(where)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ");

const candidateText = (c: Candidate): string => {
  const details = [c.uuid, c.metro].filter((x) => x !== undefined).join(", ");
  return `${c.name ?? "(no name)"}${details ? ` (${details})` : ""}`;
};

/** Each lookup's candidates: those of a where with a uuid by the kind's read (then matched on the rest of the where), the others by its search. */
async function candidates(ctx: LookupContext, kind: LookupDefinition, lookups: readonly ConfigLookup[]): Promise<Body[][]> {
  const searched = lookups.filter((l) => l.where.uuid === undefined);
  const found = searched.length > 0 ? await kind.find(ctx, searched.map((l) => l.where)) : [];
  const bySearch = new Map(searched.map((l, i) => [l, found[i] ?? []]));
  // Lookups of one object (the same uuid, under the same parent) share its read.
  const reads = new Map<string, Promise<Body[]>>();
  const read = (uuid: string, rest: Body): Promise<Body[]> => {
    if (!kind.read) throw new Error(`lookup kind ${kind.name} has no read by uuid`);
    const key = JSON.stringify([uuid, Object.entries(rest).filter(([, v]) => typeof v === "string").sort()]);
    let pending = reads.get(key);
    if (!pending) reads.set(key, (pending = kind.read(ctx, uuid, rest)));
    return pending;
  };
  return Promise.all(
    lookups.map(async (lookup) => {
      const { uuid, ...rest } = lookup.where;
      if (uuid === undefined) return bySearch.get(lookup) ?? [];
      return (await read(String(uuid), rest)).filter((b) => matchesWhere(kind.fields, rest, b));
    }),
  );
}

/** The objects in the lookup's order (each sort path in turn; objects without the attribute last), else as found. */
function sorted(lookup: ConfigLookup, bodies: Body[]): Body[] {
  if (lookup.sort.length === 0) return bodies;
  return [...bodies].sort((a, b) => {
    for (const { by, direction } of lookup.sort) {
      const x = readPath(a, by);
      const y = readPath(b, by);
      if (x === undefined || y === undefined) {
        if (x !== y) return x === undefined ? 1 : -1;
        continue;
      }
      const order = compareValues(x, y);
      if (order !== 0) return direction === "DESC" ? -order : order;
    }
    return 0;
  });
}

/**
 * Reads every lookup; a lookup that matches nothing or several objects is a located error, unless it is a
 * list lookup (many: true), whose value is every object found, none being an empty list. Objects the
 * state records are left out: what this configuration manages is referred to by its address, and an
 * object it makes (a port it orders) must not break a lookup that matched one object before.
 */
export async function resolveLookups(ctx: LookupContext, config: Configuration, state: Pick<StateFile, "lookups" | "resources">): Promise<ResolvedLookups> {
  const managed = new Map<string, string>();
  for (const [address, record] of Object.entries(state.resources)) if (record.id !== undefined) managed.set(record.id, address);
  const byKind = new Map<string, ConfigLookup[]>();
  for (const lookup of config.lookups.values()) byKind.set(lookup.kind, [...(byKind.get(lookup.kind) ?? []), lookup]);
  const results: LookupResult[] = [];
  const diagnostics: Diagnostic[] = [];
  const objects = new Map<string, Body>();
  const read = readAttributes(config);
  await Promise.all(
    [...byKind].map(async ([kindName, lookups]) => {
      const kind = LOOKUP_DEFINITIONS.get(kindName);
      if (!kind) throw new Error(`no lookup kind ${kindName}`);
      const found = await candidates(ctx, kind, lookups);
      lookups.forEach((lookup, i) => {
        const matches: Body[] = [];
        // The addresses of the objects found that this configuration manages, left out.
        const left: string[] = [];
        for (const m of found[i] ?? []) {
          const address = managed.get(kind.describe(m).uuid ?? "");
          if (address === undefined) matches.push(m);
          else left.push(address);
        }
        const loc = { address: lookup.address, positions: lookup.positions };
        const searched = `(where ${whereText(lookup.where)})`;
        const used = read.get(lookup.address) ?? new Set<string>();
        const byUuid = lookup.where.uuid !== undefined;
        if (lookup.many) {
          const items = sorted(lookup, matches).map((m) => kind.valueOf(m, lookup.where));
          if (lookup.key !== undefined) used.add(String(pathSegments(lookup.key)[0]));
          const object = { count: items.length, items };
          const value = { count: items.length, items: items.map((item) => recordedPart(kind, item, used)) };
          objects.set(lookup.address, object);
          const changes = changesSince(state.lookups?.[lookup.address], kind, value, used, true);
          results.push({ address: lookup.address, kind: kindName, value, changes, where: whereText(lookup.where), list: listSummary(config, lookup, kind, items, state.lookups?.[lookup.address]) });
        } else if (matches.length === 1) {
          const object = kind.valueOf(matches[0] as Body, lookup.where);
          const value = recordedPart(kind, object, used);
          objects.set(lookup.address, object);
          results.push({ address: lookup.address, kind: kindName, value, changes: changesSince(state.lookups?.[lookup.address], kind, value, used, false), where: whereText(lookup.where), found: candidateText(kind.describe(matches[0] as Body)) });
        } else if (matches.length === 0) {
          const hint =
            left.length > 0
              ? `it matches only what this configuration manages (${left.join(", ")}), which lookups leave out: refer to it by its address, e.g. \${${left[0]}.uuid}`
              : byUuid
                ? `check the uuid (the service has no ${kind.noun} of it${Object.keys(lookup.where).length > 1 ? ", or it does not match the other fields of where" : ""}), or find the ${kind.noun} by its other fields`
                : "check each field of where against the service (names are exact and case-sensitive), or remove a field to widen the search";
          const message =
            byUuid && left.length === 0
              ? `${lookup.address}: no ${kind.noun} with uuid ${JSON.stringify(lookup.where.uuid)} ${searched}`
              : `${lookup.address} matches no ${kind.noun} ${searched}${left.length > 0 ? " that this configuration does not manage" : ""}`;
          diagnostics.push(placeDiagnostic(loc, { path: byUuid && left.length === 0 ? ["where", "uuid"] : ["where"], code: "lookup.none", message, hint, atKey: true }));
        } else {
          const listed = matches.slice(0, LISTED_CANDIDATES).map((m) => candidateText(kind.describe(m)));
          const more = matches.length > LISTED_CANDIDATES ? `, and ${matches.length - LISTED_CANDIDATES} more` : "";
          diagnostics.push(
            placeDiagnostic(loc, {
              path: ["where"],
              code: "lookup.ambiguous",
              message: `${lookup.address} matches ${matches.length} ${kind.noun}s ${searched} and needs exactly one: ${listed.join("; ")}${more}`,
              hint: `narrow where with more of its fields (${Object.keys(kind.where.shape).join(", ")}), or add many: true for the list of them`,
              atKey: true,
            }),
          );
        }
      });
    }),
  );
  results.sort((a, b) => a.address.localeCompare(b.address));
  return { results, diagnostics: sortDiagnostics(diagnostics), objects };
}

/** How an object of a list is named in plans: its name, else its uuid, else its place. */
const itemName = (kind: LookupDefinition, item: Body, i: number): string => {
  const c = kind.describe(item);
  return c.name ?? c.uuid ?? `[${i}]`;
};

/** What a list lookup found, and (against what the last apply recorded) what appeared and went, with the forEach instances that follow them. */
function listSummary(config: Configuration, lookup: ConfigLookup, kind: LookupDefinition, items: readonly Body[], recorded: LookupState | undefined): ListLookupSummary {
  const names = items.map((item, i) => itemName(kind, item, i));
  const identity = (item: Body, i: number): string => (lookup.key !== undefined ? String(readPath(item, lookup.key) ?? "") : itemName(kind, item, i));
  const then = recorded && recorded.kind === kind.name && Array.isArray(recorded.attributes.items) ? (recorded.attributes.items as Body[]).map(identity) : undefined;
  const now = items.map(identity);
  const appeared = then ? now.filter((k) => !then.includes(k)) : [];
  const disappeared = then ? then.filter((k) => !now.includes(k)) : [];
  const instances: string[] = [];
  if (lookup.key !== undefined) {
    for (const [block, address] of config.forEachLookups) {
      if (address !== lookup.address) continue;
      for (const k of [...appeared, ...disappeared]) instances.push(`${block}[${JSON.stringify(k)}]`);
    }
  }
  return { names, appeared, disappeared, instances };
}

/** The top-level attributes of each lookup that the resources and outputs reference (of each object, for a list lookup). */
function readAttributes(config: Configuration): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const references = [...[...config.resources.values()].flatMap((r) => r.references), ...[...config.outputs.values()].flatMap((o) => o.references)];
  for (const ref of references) {
    if (!isLookupAddress(ref.address)) continue;
    const segments = pathSegments(ref.attribute);
    const many = config.lookups.get(ref.address)?.many === true;
    // A list lookup's reference reads items[N].attribute: what each object keeps is that attribute.
    const first = many ? segments[2] : segments[0];
    const set = out.get(ref.address) ?? new Set<string>();
    if (first !== undefined) set.add(String(first));
    out.set(ref.address, set);
  }
  return out;
}

/**
 * What the plan shows and the state records of an object found: the attributes its kind lists and those the
 * configuration reads, not the whole object, whose counters and timestamps would read as a change at every
 * plan, and with its secrets masked, so that they are never stored nor printed.
 */
function recordedPart(kind: LookupDefinition, object: Body, used: ReadonlySet<string>): Body {
  const kept = Object.fromEntries(Object.entries(object).filter(([k, v]) => v !== undefined && (kind.attributes.includes(k) || used.has(k))));
  return kind.sensitive.mask(kept, { keepAbsent: true });
}

/**
 * What differs from the value the last apply recorded; nothing when none was recorded, or the kind changed.
 * An attribute the configuration reads besides the listed ones is compared only when the last apply recorded
 * it too: starting or stopping to read one is no change of the object.
 */
function changesSince(recorded: LookupState | undefined, kind: LookupDefinition, value: Body, used: ReadonlySet<string>, many: boolean): FieldChange[] {
  if (!recorded || recorded.kind !== kind.name) return [];
  if (many !== Array.isArray(recorded.attributes.items)) return [];
  const recordedItems = many ? (recorded.attributes.items as Body[]) : [recorded.attributes];
  const kept = (body: Body): Body => Object.fromEntries(Object.entries(body).filter(([k]) => kind.attributes.includes(k) || (used.has(k) && recordedItems.some((r) => k in r))));
  const compared = (body: Body): Body => (many ? { count: body.count, items: Array.isArray(body.items) ? (body.items as Body[]).map(kept) : [] } : kept(body));
  const before = leaves(compared(recorded.attributes));
  const after = leaves(compared(value));
  const changes: FieldChange[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(path);
    const b = after.get(path);
    if (!sameValue(a, b)) changes.push({ path, before: a, ...(b === undefined ? {} : { after: b }) });
  }
  return changes;
}

/** The state's record of the lookups, for apply to write. */
export const lookupRecords = (results: readonly LookupResult[]): Record<string, LookupState> => Object.fromEntries(results.map((r) => [r.address, { kind: r.kind, attributes: r.value }]));

/**
 * Puts each lookup's value in place of the references to it, in every resource that has one, and checks
 * those resources again with the values known (a port's uuid where a uuid is expected). Diagnostics for
 * an attribute path the lookup's object does not have, or a value the field does not take.
 */
export function bindLookups(config: Configuration, objects: ReadonlyMap<string, Body>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const resource of config.resources.values()) {
    const own = resource.references.filter((r) => isLookupAddress(r.address));
    if (own.length === 0) continue;
    const loc = { address: resource.address, positions: resource.positions };
    const missing = new Set<Reference>();
    const valueOf = (ref: Reference): unknown => {
      const value = readPath(objects.get(ref.address) ?? {}, ref.attribute);
      if (value === undefined) missing.add(ref);
      return ref.sensitive ? new Sensitive(value) : value;
    };
    const spec = bind(resource.spec, valueOf) as Record<string, unknown>;
    for (const ref of missing) {
      const object = objects.get(ref.address) ?? {};
      const absent = absentPath(object, ref.attribute);
      const noun = LOOKUP_DEFINITIONS.get(config.lookups.get(ref.address)?.kind ?? "")?.noun ?? "object";
      diagnostics.push(
        placeDiagnostic(loc, {
          path: ref.path,
          code: "reference.path",
          message: `${ref.expression}: the ${noun} ${ref.address} found has no ${ref.attribute}${absent ? `: ${absent.reason}` : ""}`,
          hint: `${absent?.closest ? `did you mean ${absent.closest}? ` : ""}reference a path the ${noun} has, as the service returns it`,
        }),
      );
    }
    if (missing.size > 0) continue;
    const bound: ConfigResource = { ...resource, spec, references: resource.references.filter((r) => !isLookupAddress(r.address)) };
    const kind = config.kinds.get(resource.kind);
    if (kind) for (const item of validateSpec(kind, spec, { ...loc, defaulted: resource.defaulted }).filter((d) => d.severity === "error")) diagnostics.push(item);
    config.resources.set(resource.address, bound);
  }
  return diagnostics;
}

function bind(v: unknown, valueOf: (ref: Reference) => unknown): unknown {
  if (v instanceof Reference) return isLookupAddress(v.address) ? valueOf(v) : v;
  if (v instanceof Template) {
    const parts = v.parts.map((p) => {
      if (!(p instanceof Reference && isLookupAddress(p.address))) return p;
      const value = valueOf(p);
      return value instanceof Sensitive ? new Sensitive(String(value.reveal())) : String(value);
    });
    if (parts.some((p) => !(typeof p === "string" || p instanceof Sensitive))) return new Template(parts);
    const text = parts.map((p) => (p instanceof Sensitive ? p.reveal() : p)).join("");
    return parts.some((p) => p instanceof Sensitive) ? new Sensitive(text) : text;
  }
  if (Array.isArray(v)) return v.map((x) => bind(x, valueOf));
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bind(x, valueOf)]));
  return v;
}
