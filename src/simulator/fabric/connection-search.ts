// Searching virtual connections (POST /fabric/v4/connections/search, section 3.3): the official filter
// properties and operators, sorting and paging. A world may hold thousands of connections, so the common
// searches do not read them all: one for a name or uuid goes through an index; one with no filter, or one
// that asks for a state, takes its total from counts kept per project and state, and when it is sorted by
// last update (the default) reads connections in that order, kept as they change, until its page is full.

import { canSee, type Principal } from "../core/context.js";
import { fail } from "../core/errors.js";
import { allOf, anyOf, asComparable, bodyPage, compileFilter, pageEnvelope, sortedPage, sortText, type PageEnvelope, type PageRequest, type SearchRules } from "../core/http.js";
import { getPointer, pointerReader, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { asEnum, asObject, asString } from "./connection-rules.js";

const KIND = "connections";

/** Official search filter properties (SearchFieldName) and operators (Expression.operator). */
const SEARCH_PROPERTIES = [
  "/isRemote", "/name", "/uuid", "/type", "/geoScope", "/account/orgId",
  "/aSide/accessPoint/account/accountName", "/aSide/accessPoint/account/accountNumber", "/aSide/accessPoint/router/uuid",
  "/aSide/accessPoint/linkProtocol/vlanTagMin", "/aSide/accessPoint/linkProtocol/vlanTagMax",
  "/aSide/accessPoint/location/metroCode", "/aSide/accessPoint/location/metroName", "/aSide/accessPoint/name",
  "/aSide/accessPoint/port/uuid", "/aSide/accessPoint/port/name", "/aSide/accessPoint/type",
  "/aSide/accessPoint/virtualDevice/name", "/aSide/accessPoint/virtualDevice/uuid", "/aSide/serviceToken/uuid",
  "/bandwidth", "/change/status", "/changeLog/createdBy", "/changeLog/createdDateTime", "/changeLog/deletedBy",
  "/changeLog/deletedDateTime", "/changeLog/lastUpdatedBy", "/operation/equinixStatus", "/operation/providerStatus",
  "/operation/maintenanceStatus", "/operation/lockEnabled", "/project/projectId", "/redundancy/group", "/redundancy/priority",
  "/zSide/accessPoint/account/accountName", "/zSide/accessPoint/authenticationKey",
  "/zSide/accessPoint/linkProtocol/vlanTagMin", "/zSide/accessPoint/linkProtocol/vlanTagMax",
  "/zSide/accessPoint/location/metroCode", "/zSide/accessPoint/location/metroName", "/zSide/accessPoint/sellerRegion",
  "/zSide/accessPoint/name", "/zSide/accessPoint/port/uuid", "/zSide/accessPoint/network/uuid", "/zSide/accessPoint/port/name",
  "/zSide/accessPoint/profile/uuid", "/zSide/accessPoint/type", "/zSide/accessPoint/role",
  "/zSide/accessPoint/virtualDevice/name", "/zSide/accessPoint/virtualDevice/uuid", "/zSide/serviceToken/uuid",
  "/zSide/internetAccess/uuid", "/state",
] as const;
const SEARCH_RULES: SearchRules = {
  properties: SEARCH_PROPERTIES,
  operators: ["=", "!=", ">", ">=", "<", "<=", "like", "IN", "BETWEEN"],
  aliases: { "/changeLog/lastUpdatedBy": "/changeLog/updatedBy" },
};
/** Official SortBy enumeration; the default sort is the most recently updated first. */
const SORT_PROPERTIES = [
  "/name", "/direction", "/aSide/accessPoint/name", "/aSide/accessPoint/type", "/aSide/accessPoint/account/accountName",
  "/aSide/accessPoint/location/metroName", "/aSide/accessPoint/location/metroCode", "/aSide/accessPoint/linkProtocol/vlanCTag",
  "/aSide/accessPoint/linkProtocol/vlanSTag", "/zSide/accessPoint/name", "/zSide/accessPoint/type", "/zSide/accessPoint/role",
  "/zSide/accessPoint/account/accountName", "/zSide/accessPoint/location/metroName", "/zSide/accessPoint/location/metroCode",
  "/zSide/accessPoint/linkProtocol/vlanCTag", "/zSide/accessPoint/linkProtocol/vlanSTag", "/zSide/accessPoint/authenticationKey",
  "/bandwidth", "/geoScope", "/uuid", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/operation/equinixStatus",
  "/operation/providerStatus", "/redundancy/priority",
] as const;
const BY_UPDATE_PROPERTY = "/changeLog/updatedDateTime";
const DEFAULT_SORT = { property: BY_UPDATE_PROPERTY, direction: "DESC" } as const;
const SEARCH_PAGE = { defaultLimit: 20, maxLimit: 100 };

type Predicate = (item: JsonObject) => boolean;

/** The official operators compileFilter does not spell the same way: LIKE/ILKE, IS NULL, IS NOT NULL. */
function compileSearch(filter: Json | undefined, path = "/filter"): Predicate {
  if (filter === undefined || filter === null) return () => true;
  const f = asObject(filter, path)!;
  for (const key of ["and", "or"] as const) {
    const parts = f[key];
    if (parts === undefined) continue;
    if (!Array.isArray(parts)) return fail("invalidProperty", `${path}/${key}`, `${key} must be an array of expressions`);
    const compiled = parts.map((p, i) => compileSearch(p, `${path}/${key}/${i}`));
    return key === "and" ? allOf(compiled) : anyOf(compiled);
  }
  const operator = f.operator;
  if (operator === "IS NULL" || operator === "IS NOT NULL") {
    const property = asString(f.property, `${path}/property`)!;
    if (!(SEARCH_PROPERTIES as readonly string[]).includes(property)) fail("unsupportedSearchProperty", `${path}/property`, `unsupported search property ${property}`, property);
    const pointer = SEARCH_RULES.aliases?.[property] ?? property;
    const isNull = (item: JsonObject) => {
      const v = getPointer(item, pointer);
      return v === undefined || v === null;
    };
    return operator === "IS NULL" ? isNull : (item) => !isNull(item);
  }
  const normalised = operator === "LIKE" || operator === "ILKE" ? "like" : operator;
  return compileFilter({ ...f, ...(normalised === undefined ? {} : { operator: normalised }) }, SEARCH_RULES, path);
}

/** Connections by name, so that a search for names need not read every connection. */
const BY_NAME = "name";
/** Connections counted per project, and per project and value of each of COUNTED_PROPERTIES. */
const COUNTS = "searchCounts";
/**
 * The sorts a search reads in an order the world keeps, by property: the default (last update first) and by
 * name, as a portal lists connections. Other sorts read every match.
 */
const ORDERS: ReadonlyMap<string, string> = new Map([
  [BY_UPDATE_PROPERTY, "lastUpdate"],
  ["/name", "byName"],
]);

/**
 * The only connections a filter can match when it requires a name or a uuid (an `=` or `IN` with one value
 * on /name or /uuid at its top level); undefined when it does not, and every connection has to be read.
 */
function candidatesNamed(world: World, filter: Json | undefined): SimObject[] | undefined {
  const f = filter as JsonObject | null | undefined;
  const terms = f && typeof f === "object" && Array.isArray(f.and) ? f.and : [f];
  for (const term of terms) {
    const t = term as JsonObject | null | undefined;
    // One value only: several would have to be merged back into the order a full read gives.
    if (!t || typeof t !== "object" || (t.operator !== "=" && t.operator !== "IN") || !Array.isArray(t.values) || t.values.length !== 1) continue;
    const [value] = t.values;
    if (typeof value !== "string") continue;
    if (t.property === "/name") return world.lookup(KIND, BY_NAME, value);
    if (t.property === "/uuid") return world.get(value, KIND) ? [world.get(value, KIND)!] : [];
  }
  return undefined;
}

function readSort(raw: Json | undefined): JsonObject[] {
  if (raw === undefined || raw === null) return [{ ...DEFAULT_SORT }];
  if (!Array.isArray(raw)) return fail("invalidProperty", "/sort", "sort must be an array of {property, direction}");
  return raw.map((entry, i) => {
    const s = asObject(entry, `/sort/${i}`)!;
    return {
      property: asEnum(s.property, SORT_PROPERTIES, `/sort/${i}/property`, false) ?? DEFAULT_SORT.property,
      direction: s.direction === undefined ? DEFAULT_SORT.direction : (s.direction as Json),
    };
  });
}

/** Properties a search may ask for one value of (or a few) and still take its total from the counts. */
const COUNTED_PROPERTIES = ["/state", "/operation/equinixStatus"] as const;
const COUNTED_READERS = COUNTED_PROPERTIES.map((property) => ({ property, read: pointerReader(property) }));

/** The count a connection adds to: its project's (a connection without a project is visible to every caller)... */
const projectKey = (projectId: string | undefined) => (projectId === undefined ? "*" : `=${projectId}`);
const countKey = (project: string, property?: string, value?: string) => JSON.stringify(property === undefined ? [project] : [project, property, value]);

function* countsOf(body: JsonObject, obj: SimObject): Iterable<readonly [string, number]> {
  const project = projectKey(obj.projectId);
  yield [countKey(project), 1];
  // ...and its project's for the value of each counted property, compared as the filter compares it.
  for (const { property, read } of COUNTED_READERS) {
    const value = asComparable(read(body));
    if (value !== undefined) yield [countKey(project, property, String(value)), 1];
  }
}

/** The filter's expression when it has just one (bare, or the only one in an `and`). */
function soleExpression(filter: JsonObject): JsonObject | undefined {
  if (filter.and === undefined && filter.or === undefined) return filter;
  const parts = filter.or === undefined ? filter.and : undefined;
  return Array.isArray(parts) && parts.length === 1 && parts[0] !== null && typeof parts[0] === "object" && !Array.isArray(parts[0]) ? parts[0] : undefined;
}

/** How many connections the principal sees that the filter matches, when the counts tell; undefined when they do not. */
function countedTotal(world: World, principal: Principal, filter: Json | undefined): number | undefined {
  let keys: Array<[property?: string, value?: string]> = [[]];
  if (filter !== undefined && filter !== null) {
    const term = soleExpression(filter as JsonObject);
    if (!term || (term.operator !== "=" && term.operator !== "IN") || !Array.isArray(term.values)) return undefined;
    const property = term.property;
    if (!(COUNTED_PROPERTIES as readonly Json[]).includes(property ?? null)) return undefined;
    const wanted = new Set(term.values.map((v) => asComparable(v)).filter((v) => v !== undefined).map(String));
    keys = [...wanted].map((value) => [property as string, value]);
  }
  const projects = new Set([...principal.projectIds.map(projectKey), projectKey(undefined)]);
  let total = 0;
  for (const project of projects) for (const [property, value] of keys) total += world.tally(KIND, COUNTS, countKey(project, property, value));
  return total;
}

/**
 * One page of a search whose total the counts give, sorted by one of ORDERS: the connections read in that
 * order until the page is full. Undefined when the search is not one of those.
 */
function pageInOrder(world: World, principal: Principal, body: JsonObject, matches: Predicate, page: PageRequest, sort: JsonObject[]): PageEnvelope<JsonObject> | undefined {
  const [only, ...more] = sort;
  const order = ORDERS.get(String(only?.property));
  if (!only || !order || more.length > 0 || (only.direction !== "ASC" && only.direction !== "DESC")) return undefined;
  const total = countedTotal(world, principal, body.filter);
  const ordered = total === undefined ? undefined : world.inOrder(KIND, order, only.direction);
  if (total === undefined || !ordered) return undefined;
  const data: JsonObject[] = [];
  let skipped = 0;
  for (const obj of ordered) {
    if (data.length === page.limit) break;
    if (!canSee(principal, obj)) continue;
    const view = world.view(obj);
    if (!matches(view)) continue;
    if (skipped < page.offset) skipped++;
    else data.push(view);
  }
  return pageEnvelope(data, total, page);
}

/** The answer to a search request: a page of the connections the principal sees that its filter matches, and the sort applied. */
export function searchConnections(world: World, principal: Principal, body: JsonObject): { page: PageEnvelope<JsonObject>; sort: JsonObject[] } {
  const matches = compileSearch(body.filter);
  const page = bodyPage(body.pagination, SEARCH_PAGE);
  const sort = readSort(body.sort);
  const inOrder = pageInOrder(world, principal, body, matches, page, sort);
  if (inOrder) return { page: inOrder, sort };
  const found: JsonObject[] = [];
  for (const obj of candidatesNamed(world, body.filter) ?? world.list(KIND)) {
    if (!canSee(principal, obj)) continue;
    const view = world.view(obj);
    if (matches(view)) found.push(view);
  }
  return { page: sortedPage(found, sort, SORT_PROPERTIES, page), sort };
}

/** The indexes, counts and order the searches use. */
export function defineSearchIndexes(world: World): void {
  world.defineIndex(KIND, BY_NAME, (body) => (typeof body.name === "string" ? [body.name] : []));
  world.defineTally(KIND, COUNTS, countsOf);
  for (const [property, order] of ORDERS) {
    const read = pointerReader(property);
    world.defineOrder(KIND, order, (body) => sortText(read(body)));
  }
}
