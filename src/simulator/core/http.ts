// Request helpers shared by every area: JSON bodies, query pagination, search filters and sorting,
// list envelopes, and the audit blocks (changeLog) the service stamps on what it stores.

import type { Context } from "hono";
import { SimError, fail } from "./errors.js";
import { pointerReader, type Json, type JsonObject } from "./world.js";
import { requestHeader, type SimEnv } from "./context.js";
import { readBodyText } from "./body.js";

/** Parses a JSON request body; 415 for another content type, 400 for malformed JSON. */
export async function readJson(c: Context<SimEnv>): Promise<Json> {
  const type = requestHeader(c, "content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new SimError("unsupportedMediaType", [{ property: "Content-Type", reason: `expected application/json, got ${type || "nothing"}` }]);
  }
  const text = await readBodyText(c);
  if (text.trim() === "") fail("missingProperty", "body", "a JSON request body is required");
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    return fail("malformedJson", "body", (e as Error).message);
  }
}

/** Parses a JSON body that must be an object. */
export async function readObject(c: Context<SimEnv>): Promise<JsonObject> {
  const body = await readJson(c);
  if (body === null || typeof body !== "object" || Array.isArray(body)) fail("invalidProperty", "body", "the request body must be a JSON object");
  return body as JsonObject;
}

/**
 * A JSON object body that the operation does not require: undefined when the request carries none, which
 * clients also say by a Content-Type with an empty body (their default header on every call).
 */
export async function readOptionalObject(c: Context<SimEnv>): Promise<JsonObject | undefined> {
  if (!requestHeader(c, "content-type")) return undefined;
  if ((await readBodyText(c)).trim() === "") return undefined;
  return readObject(c);
}

/** Parses a JSON body that must be an array (PATCH operation lists). */
export async function readArray(c: Context<SimEnv>): Promise<Json[]> {
  const body = await readJson(c);
  if (!Array.isArray(body)) fail("invalidProperty", "body", "the request body must be a JSON array of operations");
  return body as Json[];
}

/** Refuses query parameters the endpoint does not define (section 7.2: EQ-2010010). */
export function rejectUnknownQuery(c: Context<SimEnv>, allowed: readonly string[]): void {
  for (const name of Object.keys(c.req.queries())) {
    if (!allowed.includes(name)) fail("invalidQueryParameter", name, `unknown query parameter ${name}; allowed: ${allowed.join(", ") || "none"}`);
  }
}

export interface PageLimits {
  defaultLimit: number;
  maxLimit?: number;
  minLimit?: number;
}

export interface PageRequest {
  offset: number;
  limit: number;
}

function parseIntParam(raw: string | undefined, property: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) fail("invalidQueryParameter", property, `${property} must be an integer, got "${raw}"`);
  return Number(raw);
}

/** offset/limit from the query string, checked against the endpoint's limits. */
export function queryPage(c: Context<SimEnv>, limits: PageLimits): PageRequest {
  return checkPage(
    parseIntParam(c.req.query("offset"), "offset"),
    parseIntParam(c.req.query("limit"), "limit"),
    limits,
    "",
  );
}

/** offset/limit from a search body's pagination object. */
export function bodyPage(pagination: Json | undefined, limits: PageLimits): PageRequest {
  if (pagination === undefined || pagination === null) return checkPage(undefined, undefined, limits, "/pagination/");
  if (typeof pagination !== "object" || Array.isArray(pagination)) fail("invalidProperty", "/pagination", "pagination must be an object");
  const p = pagination as JsonObject;
  for (const key of ["offset", "limit"] as const) {
    if (p[key] !== undefined && (typeof p[key] !== "number" || !Number.isInteger(p[key]))) {
      fail("invalidProperty", `/pagination/${key}`, `${key} must be an integer`);
    }
  }
  return checkPage(p.offset as number | undefined, p.limit as number | undefined, limits, "/pagination/");
}

function checkPage(offset: number | undefined, limit: number | undefined, limits: PageLimits, prefix: string): PageRequest {
  const min = limits.minLimit ?? 1;
  const o = offset ?? 0;
  const l = limit ?? limits.defaultLimit;
  if (o < 0) fail("invalidProperty", `${prefix}offset`, "offset must be 0 or more", o);
  if (l < min || (limits.maxLimit !== undefined && l > limits.maxLimit)) {
    fail("invalidProperty", `${prefix}limit`, `limit must be between ${min} and ${limits.maxLimit ?? "any"}`, l);
  }
  return { offset: o, limit: l };
}

export interface PageEnvelope<T> {
  pagination: { offset: number; limit: number; total: number; next?: string; previous?: string };
  data: T[];
}

/**
 * One page of `items`. `link` builds the next/previous reference (a URL for GET lists, omitted for
 * search bodies, where the client sends the next offset itself).
 */
export function paginate<T>(items: T[], page: PageRequest, link?: (offset: number, limit: number) => string): PageEnvelope<T> {
  return pageEnvelope(items.slice(page.offset, page.offset + page.limit), items.length, page, link);
}

/** The envelope of a page already cut: `data` is the page of `total` items that `page` asked for. */
export function pageEnvelope<T>(data: T[], total: number, page: PageRequest, link?: (offset: number, limit: number) => string): PageEnvelope<T> {
  const { offset, limit } = page;
  const hasNext = offset + limit < total;
  const hasPrevious = offset > 0;
  return {
    pagination: {
      offset,
      limit,
      total,
      // The official Pagination schema types the links as strings: absent, not null, when there is none.
      ...(link && hasNext ? { next: link(offset + limit, limit) } : {}),
      ...(link && hasPrevious ? { previous: link(Math.max(0, offset - limit), limit) } : {}),
    },
    data,
  };
}

/** The JSON text of each frozen view, written once: a view is shared until its object changes, and read often. */
const viewTexts = new WeakMap<JsonObject, string>();

function viewText(view: JsonObject): string {
  if (!Object.isFrozen(view)) return JSON.stringify(view);
  let text = viewTexts.get(view);
  if (text === undefined) viewTexts.set(view, (text = JSON.stringify(view)));
  return text;
}

/**
 * Answers `c.json({ ...envelope, ...after })` (`after` holds fields other than pagination and data), writing
 * the page's views from the text kept for each: the page is most of the work of answering a large search.
 */
export function pageResponse(c: Context<SimEnv>, envelope: PageEnvelope<JsonObject>, after: JsonObject = {}): Response {
  const rest = Object.keys(after).length === 0 ? "" : `,${JSON.stringify(after).slice(1, -1)}`;
  const text = `{"pagination":${JSON.stringify(envelope.pagination)},"data":[${envelope.data.map(viewText).join(",")}]${rest}}`;
  return c.body(text, 200, { "Content-Type": "application/json" });
}

/** Answers `c.json(view, status)` from the text kept for a frozen view: a client polls an object until it settles, and gets the same view each time. */
export function viewResponse(c: Context<SimEnv>, view: JsonObject, status: 200 | 201 | 202 = 200): Response {
  return c.body(viewText(view), status, { "Content-Type": "application/json" });
}

/** A next/previous link for a GET list: the same path and query with another offset. */
export function pageLink(c: Context<SimEnv>): (offset: number, limit: number) => string {
  return (offset, limit) => {
    const url = new URL(c.req.url);
    url.searchParams.set("offset", String(offset));
    url.searchParams.set("limit", String(limit));
    return `${url.pathname}${url.search}`;
  };
}

// ── search filters (`{filter: {and: [{property, operator, values}]}}`) ──────────────────────

export interface SearchRules {
  /** Properties the endpoint can filter on (JSON pointers into the returned object). */
  properties: readonly string[];
  operators: readonly string[];
  /** Where a filter property is spelled differently from where its value sits in the object. */
  aliases?: Record<string, string>;
}

type Predicate = (item: JsonObject) => boolean;

function likeToRegExp(pattern: string, caseSensitive = false): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".");
  return new RegExp(`^${escaped}$`, caseSensitive ? "" : "i");
}

/** A value as searches compare it: numbers and strings as they are, booleans as text; undefined for anything else. */
export function asComparable(v: Json | undefined): string | number | undefined {
  if (typeof v === "number" || typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  return undefined;
}

/** Predicates that are true when all of `parts` are: without a closure per item, as searches test thousands. */
export function allOf(parts: Predicate[]): Predicate {
  if (parts.length === 1) return parts[0]!;
  return (item) => {
    for (const part of parts) if (!part(item)) return false;
    return true;
  };
}

/** Predicates that are true when any of `parts` is. */
export function anyOf(parts: Predicate[]): Predicate {
  if (parts.length === 1) return parts[0]!;
  return (item) => {
    for (const part of parts) if (part(item)) return true;
    return false;
  };
}

/** Compiles a search filter into a predicate, refusing properties and operators the endpoint does not support. */
export function compileFilter(filter: Json | undefined, rules: SearchRules, path = "/filter"): Predicate {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== "object" || Array.isArray(filter)) return fail("invalidProperty", path, "filter must be an object");
  const f = filter as JsonObject;
  if (Array.isArray(f.and) || Array.isArray(f.or)) {
    const key = Array.isArray(f.and) ? "and" : "or";
    const parts = (f[key] as Json[]).map((sub, i) => compileFilter(sub, rules, `${path}/${key}/${i}`));
    return key === "and" ? allOf(parts) : anyOf(parts);
  }
  const property = f.property;
  const operator = f.operator;
  const values = f.values;
  if (typeof property !== "string") return fail("missingProperty", `${path}/property`, "property is required");
  if (!rules.properties.includes(property)) {
    return fail("unsupportedSearchProperty", `${path}/property`, `unsupported search property ${property}; supported: ${rules.properties.join(", ")}`);
  }
  if (typeof operator !== "string") return fail("missingProperty", `${path}/operator`, "operator is required");
  if (!rules.operators.includes(operator)) {
    return fail("notInAllowedList", `${path}/operator`, `operator ${operator} is not supported; allowed: ${rules.operators.join(", ")}`);
  }
  if (!Array.isArray(values) || values.length === 0) return fail("missingProperty", `${path}/values`, "values must be a non-empty array");
  const pointer = rules.aliases?.[property] ?? property;
  const wanted = values.map((v) => asComparable(v)).filter((v): v is string | number => v !== undefined);
  const readPointer = pointerReader(pointer);
  const read = (item: JsonObject) => asComparable(readPointer(item));
  const wantedTexts = wanted.map(String);
  const isWanted = (item: JsonObject) => {
    const v = read(item);
    return v !== undefined && wantedTexts.includes(String(v));
  };
  switch (operator) {
    case "=":
    case "IN":
      return isWanted;
    case "!=":
    case "NOT IN":
      return (item) => !isWanted(item);
    // The specification's `like` and the newer descriptions' `ILIKE` ignore case; their `LIKE` does not.
    case "like":
    case "ILIKE":
    case "LIKE":
    case "NOT LIKE": {
      const patterns = wanted.map((w) => likeToRegExp(String(w), operator === "LIKE" || operator === "NOT LIKE"));
      const like = (item: JsonObject) => {
        const v = read(item);
        return v !== undefined && patterns.some((p) => p.test(String(v)));
      };
      return operator === "NOT LIKE" ? (item) => !like(item) : like;
    }
    case ">":
    case ">=":
    case "<":
    case "<=": {
      const w = wanted[0]!;
      return (item) => {
        const v = read(item);
        if (v === undefined) return false;
        const cmp = compare(v, w);
        return operator === ">" ? cmp > 0 : operator === ">=" ? cmp >= 0 : operator === "<" ? cmp < 0 : cmp <= 0;
      };
    }
    case "BETWEEN": {
      if (wanted.length !== 2) fail("invalidProperty", `${path}/values`, "BETWEEN takes exactly two values");
      const [lo, hi] = wanted as [string | number, string | number];
      return (item) => {
        const v = read(item);
        return v !== undefined && compare(v, lo) >= 0 && compare(v, hi) <= 0;
      };
    }
    default:
      return fail("notInAllowedList", `${path}/operator`, `operator ${operator} is not supported`);
  }
}

/** A value to sort by, with the number it reads as (NaN if none), as `compare` would convert it. */
interface SortValue {
  text: string;
  number: number;
}

function sortValue(v: string | number): SortValue {
  return { text: String(v), number: sortNumber(v) };
}

function sortNumber(v: string | number): number {
  return typeof v === "number" ? v : v === "" ? Number.NaN : Number(v);
}

/**
 * The text a value sorts by, when it sorts as text among others (no value sorts first, as ""); undefined
 * for one that reads as a number, which sorts as a number against another.
 */
export function sortText(v: Json | undefined): string | undefined {
  const value = asComparable(v) ?? "";
  return value === "" || Number.isNaN(sortNumber(value)) ? String(value) : undefined;
}

/** `compare` over values converted beforehand. */
function compareSortValues(a: SortValue, b: SortValue): number {
  if (!Number.isNaN(a.number) && !Number.isNaN(b.number)) return a.number - b.number;
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

interface SortKey {
  read: (item: JsonObject) => Json | undefined;
  /** 1 ascending, -1 descending. */
  sign: number;
}

function compare(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const na = Number(a);
  const nb = Number(b);
  if (a !== "" && b !== "" && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The keys of a `[{property, direction}]` sort, checked; undefined when there is no sort. */
function sortKeys(sort: Json | undefined, allowed: readonly string[], defaultDirection: "ASC" | "DESC"): SortKey[] | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!Array.isArray(sort)) return fail("invalidProperty", "/sort", "sort must be an array of {property, direction}");
  return sort.map((s, i) => {
    const entry = (s ?? {}) as JsonObject;
    const property = entry.property ?? allowed[0];
    const direction = entry.direction ?? defaultDirection;
    if (typeof property !== "string" || !allowed.includes(property)) {
      fail("invalidProperty", `/sort/${i}/property`, `sort property must be one of ${allowed.join(", ")}`);
    }
    if (direction !== "ASC" && direction !== "DESC") fail("unsupportedSortDirection", `/sort/${i}/direction`, "direction must be ASC or DESC");
    return { read: pointerReader(property as string), sign: direction === "ASC" ? 1 : -1 };
  });
}

/** Sorts by `[{property, direction}]`; directions ASC and DESC. */
export function sortBy(items: JsonObject[], sort: Json | undefined, allowed: readonly string[], defaultDirection: "ASC" | "DESC" = "DESC"): JsonObject[] {
  const keys = sortKeys(sort, allowed, defaultDirection);
  return keys ? sortAll(items, keys) : items;
}

function sortAll(items: JsonObject[], keys: SortKey[]): JsonObject[] {
  // Each item's sort values are read (and converted) once, not at each of the sort's n log n comparisons.
  const decorated = items.map((item) => ({ item, values: keys.map((k) => sortValue(asComparable(k.read(item)) ?? "")) }));
  decorated.sort((x, y) => {
    for (const [i, k] of keys.entries()) {
      const cmp = compareSortValues(x.values[i]!, y.values[i]!);
      if (cmp !== 0) return cmp * k.sign;
    }
    return 0;
  });
  return decorated.map((d) => d.item);
}

/**
 * What `paginate(sortBy(items, sort, allowed), page, link)` gives, without ordering the items that fall
 * after the page: a search that matches thousands of objects orders only the first offset + limit.
 */
export function sortedPage(
  items: JsonObject[],
  sort: Json | undefined,
  allowed: readonly string[],
  page: PageRequest,
  options: { defaultDirection?: "ASC" | "DESC"; link?: (offset: number, limit: number) => string } = {},
): PageEnvelope<JsonObject> {
  const keys = sortKeys(sort, allowed, options.defaultDirection ?? "DESC");
  if (!keys) return paginate(items, page, options.link);
  const first = page.offset + page.limit < items.length ? firstInOrder(items, keys, page.offset + page.limit) : undefined;
  return first ? pageEnvelope(first.slice(page.offset), items.length, page, options.link) : paginate(sortAll(items, keys), page, options.link);
}

/** An item with its sort values, and its position among the items, which breaks ties as a stable sort does. */
interface Ranked {
  item: JsonObject;
  texts: string[];
  numbers: number[];
  position: number;
}

/** Kinds of sort values a key has met: `compare` orders numbers as numbers and the rest as text. */
const AS_NUMBER = 1;
const AS_TEXT = 2;

/**
 * The first `count` of `items` in the order `sortAll` gives, kept in a heap whose root is the last of them
 * (so that most items are turned away after one comparison, without allocating); undefined when a key mixes
 * numbers with text, which `compare` does not order consistently: only the full sort then gives its result.
 */
function firstInOrder(items: JsonObject[], keys: SortKey[], count: number): JsonObject[] | undefined {
  const heap: Ranked[] = [];
  const texts: string[] = keys.map(() => "");
  const numbers: number[] = keys.map(() => Number.NaN);
  const kinds: number[] = keys.map(() => 0);
  const after = (aTexts: string[], aNumbers: number[], aPosition: number, b: Ranked): boolean => {
    for (let i = 0; i < keys.length; i++) {
      const an = aNumbers[i]!;
      const bn = b.numbers[i]!;
      const cmp = !Number.isNaN(an) && !Number.isNaN(bn) ? an - bn : aTexts[i]! < b.texts[i]! ? -1 : aTexts[i]! > b.texts[i]! ? 1 : 0;
      if (cmp !== 0) return cmp * keys[i]!.sign > 0;
    }
    return aPosition > b.position;
  };
  const ranksAfter = (a: Ranked, b: Ranked) => after(a.texts, a.numbers, a.position, b);
  for (let position = 0; position < items.length; position++) {
    const item = items[position]!;
    for (let i = 0; i < keys.length; i++) {
      const value = asComparable(keys[i]!.read(item)) ?? "";
      const number = sortNumber(value);
      texts[i] = String(value);
      numbers[i] = number;
      // The empty text (no value) comes first under both orders, so it does not mix them.
      if (value !== "") kinds[i]! |= Number.isNaN(number) ? AS_TEXT : Number.isFinite(number) ? AS_NUMBER : AS_NUMBER | AS_TEXT;
    }
    if (heap.length === count && after(texts, numbers, position, heap[0]!)) continue;
    const ranked: Ranked = { item, texts: [...texts], numbers: [...numbers], position };
    if (heap.length < count) {
      heap.push(ranked);
      siftUp(heap, heap.length - 1, ranksAfter);
    } else {
      heap[0] = ranked;
      siftDown(heap, 0, ranksAfter);
    }
  }
  if (kinds.some((k) => k === (AS_NUMBER | AS_TEXT))) return undefined;
  return heap.sort((a, b) => (ranksAfter(a, b) ? 1 : -1)).map((r) => r.item);
}

/** Max-heap moves: the root is the entry that ranks after all the others. */
function siftUp<T>(heap: T[], at: number, ranksAfter: (a: T, b: T) => boolean): void {
  let child = at;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!ranksAfter(heap[child]!, heap[parent]!)) return;
    swap(heap, child, parent);
    child = parent;
  }
}

function siftDown<T>(heap: T[], at: number, ranksAfter: (a: T, b: T) => boolean): void {
  let parent = at;
  for (;;) {
    const left = 2 * parent + 1;
    let last = parent;
    if (left < heap.length && ranksAfter(heap[left]!, heap[last]!)) last = left;
    if (left + 1 < heap.length && ranksAfter(heap[left + 1]!, heap[last]!)) last = left + 1;
    if (last === parent) return;
    swap(heap, last, parent);
    parent = last;
  }
}

function swap<T>(items: T[], i: number, j: number): void {
  const kept = items[i]!;
  items[i] = items[j]!;
  items[j] = kept;
}

// ── audit ────────────────────────────────────────────────────────────────────────────────

export interface Actor {
  userName: string;
  fullName: string;
  email: string;
}

/** A Fabric changeLog block for a new object. */
export function newChangeLog(actor: Actor, at: string): JsonObject {
  return {
    createdBy: actor.userName,
    createdByFullName: actor.fullName,
    createdByEmail: actor.email,
    createdDateTime: at,
    updatedBy: actor.userName,
    updatedByFullName: actor.fullName,
    updatedByEmail: actor.email,
    updatedDateTime: at,
  };
}

/** Pointer -> value entries that stamp an update (or a deletion) on a Fabric changeLog. */
export function changeLogUpdate(actor: Actor, at: string, deleted = false): Record<string, Json> {
  const who = deleted ? "deleted" : "updated";
  return {
    [`/changeLog/${who}By`]: actor.userName,
    [`/changeLog/${who}ByFullName`]: actor.fullName,
    [`/changeLog/${who}ByEmail`]: actor.email,
    [`/changeLog/${who}DateTime`]: at,
  };
}
