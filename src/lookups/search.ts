// Reading the candidates of many lookups of one kind with few requests: the `where` fields the API filters
// on go into one search (each property with every value asked for), the rest are matched on the answers,
// and each lookup keeps the objects that match all of its own fields.

import { ApiError, listAll, searchAll } from "../api/index.js";
import { readPath } from "../config/index.js";
import type { Body, LookupContext } from "./types.js";

/** One field of a `where`: where its value is in the object the API returns, and the search property that filters on it. */
export interface WhereField {
  /** A dotted path in the returned object ("location.metroCode"). */
  at: string;
  /** The search property ("/location/metroCode"); absent when the API cannot filter on it. */
  property?: string;
  /** When the object holds a list of values (a profile's metros), the path of each item's value. */
  each?: string;
  /** An enumeration the service writes in mixed case (an account's "Active" beside "STAGED"): matched without regard to case. */
  anyCase?: true;
}

export type WhereFields = Readonly<Record<string, WhereField>>;

const text = (v: unknown): string | undefined => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

/** The operators a where field takes besides a plain value (equality), as `{ like: "dc-%" }`. */
export const OPERATORS = ["not", "in", "notIn", "like", "notLike", "gt", "gte", "lt", "lte"] as const;
export type Operator = (typeof OPERATORS)[number];

/** A where field's condition: a plain value (equality) or a mapping of operators, all of which must hold. */
export const isCondition = (v: unknown): v is Partial<Record<Operator, unknown>> => typeof v === "object" && v !== null && !Array.isArray(v);

/** SQL's LIKE as the service's searches read it: `%` any run of characters, `_` one, without regard to case. */
export function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((ch) => (ch === "%" ? ".*" : ch === "_" ? "." : ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "is");
}

/** Orders two values as numbers when both read as numbers, else as text (dates in ISO form order as text). */
export function compareValues(a: unknown, b: unknown): number {
  const x = text(a);
  const y = text(b);
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
  const nx = Number(x);
  const ny = Number(y);
  if (x.trim() !== "" && y.trim() !== "" && Number.isFinite(nx) && Number.isFinite(ny)) return nx - ny;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether one value found meets a condition (a plain value, or operators). */
function meets(found: unknown, wanted: unknown, anyCase: boolean): boolean {
  const same = (v: unknown, w: unknown) => (anyCase ? text(v)?.toUpperCase() === text(w)?.toUpperCase() : text(v) === text(w));
  if (!isCondition(wanted)) return same(found, wanted);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
  return Object.entries(wanted).every(([op, w]) => {
    switch (op as Operator) {
      case "not":
        return !same(found, w);
      case "in":
        return list(w).some((x) => same(found, x));
      case "notIn":
        return !list(w).some((x) => same(found, x));
      case "like":
        return text(found) !== undefined && likePattern(String(w)).test(text(found) as string);
      case "notLike":
        return !(text(found) !== undefined && likePattern(String(w)).test(text(found) as string));
      case "gt":
        return text(found) !== undefined && compareValues(found, w) > 0;
      case "gte":
        return text(found) !== undefined && compareValues(found, w) >= 0;
      case "lt":
        return text(found) !== undefined && compareValues(found, w) < 0;
      case "lte":
        return text(found) !== undefined && compareValues(found, w) <= 0;
      default:
        return false;
    }
  });
}

/** The key of a where that holds OR groups: the object matches the where's other fields and any one group. */
export const OR = "or";

/** Whether an object has every value the where asks for (each field's condition, and one of its OR groups when it has them). */
export function matches(fields: WhereFields, where: Body, body: Body): boolean {
  return Object.entries(where).every(([key, wanted]) => {
    if (key === OR) return Array.isArray(wanted) && wanted.some((group) => matches(fields, group as Body, body));
    const field = fields[key];
    if (!field) return false;
    const found = readPath(body, field.at);
    // An empty `each` is a list of the values themselves (a platform's package codes).
    if (field.each !== undefined) return Array.isArray(found) && found.some((item) => meets(field.each ? readPath(item as Body, field.each) : item, wanted, field.anyCase === true));
    return meets(found, wanted, field.anyCase === true);
  });
}

/** The values of a condition the search can filter on with its `=` (which takes a list and matches any): a plain value, or `in`. */
function searchValues(value: unknown): string[] | undefined {
  if (!isCondition(value)) {
    const v = text(value);
    return v === undefined ? undefined : [v];
  }
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "in" && Array.isArray(value.in)) {
    const vs = value.in.map(text);
    return vs.every((v) => v !== undefined) ? (vs as string[]) : undefined;
  }
  return undefined;
}

/**
 * Groups the wheres by the search properties they filter on with equality (a plain value or `in`): each group
 * is one search. Other operators and OR groups are evaluated on what the search returns.
 */
function groups(fields: WhereFields, wheres: readonly Body[]): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const where of wheres) {
    const key = Object.entries(where).filter(([k, v]) => fields[k]?.property !== undefined && searchValues(v) !== undefined).map(([k]) => k).sort().join(",");
    out.set(key, [...(out.get(key) ?? []), where]);
  }
  return out;
}

/** The search filter for a group: each property with every value asked for (`=` takes a list and matches any). */
function filterOf(fields: WhereFields, wheres: readonly Body[], fixed: readonly Body[]): Body {
  const values = new Map<string, Set<string>>();
  for (const where of wheres) {
    for (const [key, value] of Object.entries(where)) {
      const property = fields[key]?.property;
      const vs = searchValues(value);
      if (property === undefined || vs === undefined) continue;
      const set = values.get(property) ?? new Set<string>();
      for (const v of vs) set.add(v);
      values.set(property, set);
    }
  }
  const and = [...fixed, ...[...values].map(([property, vs]) => ({ property, operator: "=", values: [...vs] }))];
  return { and };
}

const PAGE = 100;

/**
 * How to read every object of a kind whose search takes no empty filter, for a where without a field the
 * search filters on: the kind's GET list, or expressions that hold for every object (each of its types).
 */
export type Unfiltered = { list: string } | { expressions: Body[] };

/** Candidates for each where through a POST search endpoint; `fixed` expressions go in every search (the project). */
export async function searchEach(ctx: LookupContext, path: string, fields: WhereFields, wheres: readonly Body[], fixed: readonly Body[] = [], unfiltered?: Unfiltered): Promise<Body[][]> {
  const found = new Map<Body, Body[]>();
  await Promise.all(
    [...groups(fields, wheres)].map(async ([, group]) => {
      const filter = filterOf(fields, group, fixed);
      const bodies: Body[] = [];
      // Only a where that names no searchable field searches without a filter, paging through everything.
      const empty = (filter.and as Body[]).length === 0;
      if (empty && unfiltered && "list" in unfiltered) bodies.push(...(await listed(ctx, unfiltered.list)));
      else {
        const body = !empty ? { filter } : unfiltered && "expressions" in unfiltered ? { filter: { and: unfiltered.expressions } } : {};
        for await (const item of searchAll<Body>(ctx.api, path, body, { pageSize: PAGE })) bodies.push(item);
      }
      for (const where of group) found.set(where, bodies.filter((b) => matches(fields, where, b)));
    }),
  );
  return wheres.map((w) => found.get(w) ?? []);
}

/**
 * Candidates for each where through reads that take no search body: `request` says which read a where
 * needs (its key) and how to make it; wheres that need the same read share it.
 */
export async function readEach(fields: WhereFields, wheres: readonly Body[], request: (where: Body) => { key: string; read: () => Promise<Body[]> }): Promise<Body[][]> {
  const reads = new Map<string, Promise<Body[]>>();
  return Promise.all(
    wheres.map(async (where) => {
      const { key, read } = request(where);
      let pending = reads.get(key);
      if (!pending) reads.set(key, (pending = read()));
      return (await pending).filter((b) => matches(fields, where, b));
    }),
  );
}

/** Every item of a GET list, paged through. */
export async function listed(ctx: LookupContext, path: string, query: Record<string, string | undefined> = {}): Promise<Body[]> {
  const out: Body[] = [];
  for await (const item of listAll<Body>(ctx.api, path, { query, pageSize: PAGE })) out.push(item);
  return out;
}

/** One object by its GET; none when the service answers 404, or with one of `notFoundCodes` (its own way of saying so). */
export async function one(ctx: LookupContext, path: string, notFoundCodes: readonly string[] = []): Promise<Body[]> {
  try {
    return [await ctx.api.call<Body>("GET", path)];
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.problems.some((p) => notFoundCodes.includes(p.code)))) return [];
    throw e;
  }
}
