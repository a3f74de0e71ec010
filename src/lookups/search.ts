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

/** Whether an object has every value the where asks for. */
export function matches(fields: WhereFields, where: Body, body: Body): boolean {
  return Object.entries(where).every(([key, wanted]) => {
    const field = fields[key];
    if (!field) return false;
    const found = readPath(body, field.at);
    const same = (v: unknown) => (field.anyCase ? text(v)?.toUpperCase() === text(wanted)?.toUpperCase() : text(v) === text(wanted));
    if (field.each !== undefined) return Array.isArray(found) && found.some((item) => same(readPath(item as Body, field.each as string)));
    return same(found);
  });
}

/** Groups the wheres by the search properties they use: each group is one search. */
function groups(fields: WhereFields, wheres: readonly Body[]): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const where of wheres) {
    const key = Object.keys(where).filter((k) => fields[k]?.property !== undefined).sort().join(",");
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
      const v = text(value);
      if (property === undefined || v === undefined) continue;
      values.set(property, (values.get(property) ?? new Set()).add(v));
    }
  }
  const and = [...fixed, ...[...values].map(([property, vs]) => ({ property, operator: "=", values: [...vs] }))];
  return { and };
}

const PAGE = 100;

/** Candidates for each where through a POST search endpoint; `fixed` expressions go in every search (the project). */
export async function searchEach(ctx: LookupContext, path: string, fields: WhereFields, wheres: readonly Body[], fixed: readonly Body[] = []): Promise<Body[][]> {
  const found = new Map<Body, Body[]>();
  await Promise.all(
    [...groups(fields, wheres)].map(async ([, group]) => {
      const filter = filterOf(fields, group, fixed);
      const bodies: Body[] = [];
      // Only a where that names no searchable field searches without a filter, paging through everything.
      for await (const item of searchAll<Body>(ctx.api, path, (filter.and as Body[]).length > 0 ? { filter } : {}, { pageSize: PAGE })) bodies.push(item);
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
