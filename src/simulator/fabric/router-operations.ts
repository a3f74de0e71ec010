// What a cloud router serves besides itself (official operations of the tags Cloud Routers, Route Filters,
// Route Aggregations and Routing Protocols under /fabric/v4/routers/{routerId}): its route table actions
// (createCloudRouterAction and their reads and search), its route table (searchCloudRouterRoutes), a
// connection's advertised and received routes (searchConnectionAdvertisedRoutes, ...ReceivedRoutes), the
// validation of a DIRECT subnet (validateRoutingProtocol) and the searches of the route filters and
// aggregations attached to its connections. The routes are those router-routes.ts derives from the world,
// read when asked; an action takes the counts of the moment it is asked for and succeeds on the clock.

import type { Context } from "hono";
import { iso } from "../core/clock.js";
import { canSee, findVisible, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { SimError, fail } from "../core/errors.js";
import { bodyPage, readObject, rejectUnknownQuery, sortedPage, type SearchRules } from "../core/http.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { asEnum, asObject, asString, liveConnectionsNaming } from "./connection-rules.js";
import { aggregationAttachmentsWhere } from "./route-aggregation-attachments.js";
import { attachmentsWhere } from "./route-filter-attachments.js";
import { advertisedRoutes, receivedRoutes, routeTable, routerOfConnection, subnetOverlap } from "./router-routes.js";
import { parseCidr, type AddressFamily } from "./routing-protocol-rules.js";
import { compileSearch } from "./search.js";

const BASE = "/fabric/v4/routers/:routerId";
const ROUTER_POINTER = "/accessPoint/router/uuid";

/** The official CloudRouterActionType and CloudRouterActionState. */
const ACTION_TYPES = ["BGP_SESSION_STATUS_UPDATE", "ROUTE_TABLE_ENTRY_UPDATE", "RECEIVED_ROUTE_ENTRY_UPDATE", "ADVERTISED_ROUTE_ENTRY_UPDATE"] as const;
type ActionType = (typeof ACTION_TYPES)[number];
const ACTION_STATES = ["SUCCEEDED", "FAILED", "PENDING"] as const;

/** Simulated time an action takes: the router reads its tables or sessions from the routing engine. */
const ACTION_MS = 10_000;

/** The operators the official search expressions of these operations list (`~*`: case-insensitive like). */
const OPERATORS = ["=", "!=", ">", ">=", "<", "<=", "BETWEEN", "NOT BETWEEN", "LIKE", "NOT LIKE", "IN", "NOT IN", "~*"];
const PAGE_LIMITS = { defaultLimit: 20, maxLimit: 100 };
/** The official filters' bounds: up to 8 expressions, an `or` group holding up to 3 (8 in the attachment searches). */
const MAX_AND = 8;

const ACTION_SEARCH: SearchRules = { properties: ["/type", "/state", "/connection/uuid", "/*"], operators: OPERATORS };
const ACTION_SORT = ["/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/connection/name", "/type"];
const ROUTE_SEARCH: SearchRules = { properties: ["/type", "/prefix", "/nextHop", "/state", "/MED", "/*"], operators: OPERATORS };
const ROUTE_SORT = ["/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/prefix", "/nextHop", "/connection/name", "/type", "/MED"];
const CONNECTION_ROUTE_SEARCH: SearchRules = { properties: ["/type", "/state", "/prefix", "/nextHop", "/*"], operators: OPERATORS };
/** ConnectionRouteEntrySortBy spells the MED `/med`; the entries carry it as `MED`. */
const CONNECTION_ROUTE_SORT = ["/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/MED", "/connection/name", "/type", "/prefix", "/nextHop"];
const FILTER_ATTACHMENT_SEARCH: SearchRules = { properties: ["/type", "/direction", "/attachmentStatus", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"], operators: OPERATORS };
const FILTER_ATTACHMENT_SORT = ["/type", "/uuid", "/direction", "/attachmentStatus", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"];
const AGGREGATION_ATTACHMENT_SEARCH: SearchRules = { properties: ["/type", "/attachmentStatus", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"], operators: OPERATORS };
const AGGREGATION_ATTACHMENT_SORT = ["/type", "/uuid", "/attachmentStatus", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"];
const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];

type Ctx = Context<SimEnv>;

const routerHref = (uuid: string) => `/fabric/v4/routers/${uuid}`;
const connectionHref = (uuid: string) => `/fabric/v4/connections/${uuid}`;

// ── searches ─────────────────────────────────────────────────────────────────────────────

/**
 * Answers a search of `items` by the body's filter (within the operation's properties and bounds), sort
 * (`aliases` spell a sort property as the items carry it) and page.
 */
async function search(c: Ctx, items: JsonObject[], rules: SearchRules, sortable: readonly string[], maxOr = 3, aliases: Record<string, string> = {}): Promise<Response> {
  const body = await readObject(c);
  for (const key of Object.keys(body)) if (!["filter", "pagination", "sort"].includes(key)) fail("invalidProperty", `/${key}`, "the search body takes filter, pagination and sort");
  const and = getPointer(body.filter, "/and");
  if (Array.isArray(and) && and.length > MAX_AND) fail("invalidProperty", "/filter/and", `a filter holds at most ${MAX_AND} expressions`, and.length);
  (Array.isArray(and) ? and : []).forEach((item, i) => {
    const or = getPointer(item, "/or");
    if (Array.isArray(or) && or.length > maxOr) fail("invalidProperty", `/filter/and/${i}/or`, `an or group holds at most ${maxOr} expressions`, or.length);
  });
  const matches = compileSearch(body.filter, rules);
  const page = bodyPage(body.pagination, PAGE_LIMITS);
  const sort = body.sort === undefined || body.sort === null ? DEFAULT_SORT : body.sort;
  if (Array.isArray(sort) && sort.length > 3) fail("invalidProperty", "/sort", "sort takes at most 3 criteria", sort.length);
  const spelled = Array.isArray(sort) ? sort.map((s) => (s !== null && typeof s === "object" && !Array.isArray(s) && typeof s.property === "string" && aliases[s.property] ? { ...s, property: aliases[s.property]! } : s)) : sort;
  return c.json(sortedPage(items.filter(matches), spelled, sortable, page), 200);
}

// ── the router and its connections ───────────────────────────────────────────────────────

function routerOf(c: Ctx, world: World): SimObject {
  return findVisible(world, c.get("principal"), "routers", c.req.param("routerId") ?? "", "routerId");
}

/** One of the router's live connections, named at `path` in a request. */
function connectionOfRouter(world: World, router: SimObject, uuid: string, path: string): JsonObject {
  const connection = liveConnectionsNaming(world, ROUTER_POINTER, router.uuid).find((c) => c.uuid === uuid);
  if (!connection) return fail("invalidProperty", path, `connection ${uuid} is not a live connection of cloud router ${router.uuid}`, uuid);
  return connection;
}

/** The connection of a routes search, which must be a cloud router's. */
function routedConnection(c: Ctx, world: World): { router: JsonObject; connection: JsonObject } {
  const uuid = c.req.param("connectionId") ?? "";
  const obj = findVisible(world, c.get("principal"), "connections", uuid, "connectionId");
  const router = routerOfConnection(world, obj.uuid);
  if (!router) return fail("invalidProperty", "connectionId", `connection ${uuid} is not a Fabric Cloud Router connection: it has no routes of the router's`, uuid);
  return { router: world.view(router), connection: world.view(obj) };
}

// ── actions ──────────────────────────────────────────────────────────────────────────────

/** An action as kept in the router's meta: its counts are those of the moment it was asked for. */
interface ActionRecord {
  uuid: string;
  type: ActionType;
  createdBy: string;
  createdAt: number;
  doneAt: number;
  /** The connection or router the action read, with what it counted (`operation`). */
  connection?: JsonObject;
  router?: JsonObject;
}

const actionsOf = (router: SimObject): ActionRecord[] => (router.meta.actions ?? []) as unknown as ActionRecord[];

/** The official Operation counts of a set of routes. */
function counted(routes: JsonObject[]): JsonObject {
  const ofFamily = (family: 4 | 6) => routes.filter((r) => String(r.type).startsWith(`IPv${family}_`));
  const bgp = (family: 4 | 6) => ofFamily(family).filter((r) => r.protocolType === "BGP").length;
  const distinct = (family: 4 | 6) => new Set(ofFamily(family).map((r) => String(r.prefix))).size;
  return { bgpIpv4RoutesCount: bgp(4), bgpIpv6RoutesCount: bgp(6), distinctIpv4PrefixesCount: distinct(4), distinctIpv6PrefixesCount: distinct(6) };
}

/** The action as it is at `at`: now, or for the answer to its POST, when it was made (however fast a test's clock moved on meanwhile). */
function renderAction(world: World, router: SimObject, action: ActionRecord, at = world.now()): JsonObject {
  const state = at >= action.doneAt ? "SUCCEEDED" : "PENDING";
  // The counts are the action's result: the description's examples show them once it has SUCCEEDED.
  const reference = (ref: JsonObject | undefined) => {
    if (!ref) return undefined;
    const { operation, ...rest } = ref;
    return state === "SUCCEEDED" && operation !== undefined ? ref : rest;
  };
  const connection = reference(action.connection);
  const routerRef = reference(action.router);
  return {
    href: `${routerHref(router.uuid)}/actions/${action.uuid}`,
    uuid: action.uuid,
    type: action.type,
    state,
    ...(connection ? { connection } : {}),
    ...(routerRef ? { router: routerRef } : {}),
    changeLog: { createdBy: action.createdBy, createdDateTime: iso(action.createdAt), ...(state === "SUCCEEDED" ? { updatedDateTime: iso(action.doneAt) } : {}) },
  };
}

/** What an action reads: the router's table, one of its connections' received or advertised routes, or BGP session states. */
function actionTarget(world: World, router: SimObject, type: ActionType, connectionUuid: string | undefined): Pick<ActionRecord, "connection" | "router"> {
  const routerRef = { uuid: router.uuid, href: routerHref(router.uuid), type: "XF_ROUTER" };
  const connection = connectionUuid === undefined ? undefined : connectionOfRouter(world, router, connectionUuid, "/connection/uuid");
  const connectionRef = connection && { uuid: String(connection.uuid), href: connectionHref(String(connection.uuid)), ...(typeof connection.type === "string" ? { type: connection.type } : {}) };
  switch (type) {
    case "ROUTE_TABLE_ENTRY_UPDATE":
      if (connection) fail("invalidProperty", "/connection", "a route table update reads the whole router's table; it names no connection");
      return { router: { ...routerRef, operation: counted(routeTable(world, router.uuid)) } };
    case "RECEIVED_ROUTE_ENTRY_UPDATE":
      if (!connection) return fail("missingProperty", "/connection/uuid", "name the connection whose received routes to read");
      return { connection: { ...connectionRef!, operation: counted(receivedRoutes(world, connection)) } };
    case "ADVERTISED_ROUTE_ENTRY_UPDATE":
      if (!connection) return fail("missingProperty", "/connection/uuid", "name the connection whose advertised routes to read");
      return { connection: { ...connectionRef!, operation: counted(advertisedRoutes(world, world.view(router), connection)) } };
    case "BGP_SESSION_STATUS_UPDATE":
      return connectionRef ? { connection: connectionRef } : { router: routerRef };
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

function createAction(world: World, principal: Principal, router: SimObject, body: JsonObject): ActionRecord {
  for (const key of Object.keys(body)) if (key !== "type" && key !== "connection") fail("invalidProperty", `/${key}`, "an action takes its type and, for a connection's routes, the connection");
  const type = asEnum(body.type, ACTION_TYPES, "/type")!;
  const connection = asObject(body.connection, "/connection", false);
  const connectionUuid = connection ? asString(connection.uuid, "/connection/uuid") : undefined;
  const state = String(world.view(router).state);
  if (state !== "PROVISIONED") fail("invalidProperty", "routerId", `cloud router ${router.uuid} is ${state}; route table actions need it PROVISIONED`, state);
  const target = actionTarget(world, router, type, connectionUuid);
  const now = world.now();
  const action: ActionRecord = { uuid: world.uuid(), type, createdBy: principal.userName, createdAt: now, doneAt: now + world.clock.scale(ACTION_MS), ...target };
  world.setMeta(router, "actions", [...actionsOf(router), action] as unknown as Json);
  return action;
}

function readState(c: Ctx): string | undefined {
  const state = c.req.query("state");
  if (state !== undefined && !(ACTION_STATES as readonly string[]).includes(state)) fail("invalidQueryParameter", "state", `state must be one of ${ACTION_STATES.join(", ")}`, state);
  return state;
}

// ── DIRECT subnet validation ─────────────────────────────────────────────────────────────

const SUBNET_PROPERTIES: Record<string, AddressFamily> = { "/directIpv4/equinixIfaceIp": "Ipv4", "/directIpv6/equinixIfaceIp": "Ipv6" };

/**
 * validateRoutingProtocol: whether a DIRECT subnet (of the connection named, if one is) overlaps the DIRECT
 * subnet of another of the router's connections, the rule a routing protocol's create applies. The operation
 * documents 200 and 400 only: an unknown router is a property not found (section 7.2).
 */
function validateSubnet(world: World, principal: Principal, routerUuid: string, body: JsonObject): JsonObject {
  const router = world.get(routerUuid, "routers");
  if (!router || !canSee(principal, router)) return fail("referenceNotFound", "routerId", `cloud router ${routerUuid} does not exist or is not accessible`, routerUuid);
  const and = getPointer(body, "/filter/and");
  if (!Array.isArray(and) || and.length === 0) return fail("missingProperty", "/filter/and", "filter.and must name the subnet: /directIpv4/equinixIfaceIp or /directIpv6/equinixIfaceIp");
  let subnet: { family: AddressFamily; text: string; at: string } | undefined;
  let connectionUuid: string | undefined;
  and.forEach((raw, i) => {
    const at = `/filter/and/${i}`;
    const expression = (raw ?? {}) as JsonObject;
    const property = asString(expression.property, `${at}/property`)!;
    if (expression.operator !== "=") fail("notInAllowedList", `${at}/operator`, "the operator is =", JSON.stringify(expression.operator ?? null));
    const values = expression.values;
    if (!Array.isArray(values) || values.length !== 1 || typeof values[0] !== "string") return fail("invalidProperty", `${at}/values`, "values must hold one string");
    const family = SUBNET_PROPERTIES[property];
    if (family && !subnet) subnet = { family, text: values[0], at: `${at}/values/0` };
    else if (property === "/connection/uuid" && connectionUuid === undefined) connectionUuid = values[0];
    else fail("unsupportedSearchProperty", `${at}/property`, `validation reads one of ${Object.keys(SUBNET_PROPERTIES).join(", ")}, and /connection/uuid`, property);
  });
  if (!subnet) return fail("missingProperty", "/filter/and", "name the subnet: /directIpv4/equinixIfaceIp or /directIpv6/equinixIfaceIp");
  const cidr = parseCidr(subnet.text, subnet.family);
  if (!cidr) return fail("routerSubnetInvalid", subnet.at, `${subnet.text} is not an ${subnet.family === "Ipv4" ? "IPv4" : "IPv6"} address in CIDR notation`, subnet.text);
  if (connectionUuid !== undefined) connectionOfRouter(world, router, connectionUuid, "/connection/uuid");
  const overlap = subnetOverlap(world, router.uuid, connectionUuid, subnet.family, cidr);
  if (overlap) throw new SimError("routerSubnetOverlap", [{ property: subnet.at, reason: overlap, value: subnet.text }]);
  return { additionalInfo: [{ key: "message", value: "The provided subnet is valid." }] };
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

export function routerOperationRoutes(app: SimApp, world: World): void {
  app.get(`${BASE}/actions`, (c) => {
    rejectUnknownQuery(c, ["state"]);
    const state = readState(c);
    const router = routerOf(c, world);
    const data = [...actionsOf(router)]
      .reverse()
      .map((a) => renderAction(world, router, a))
      .filter((a) => state === undefined || a.state === state);
    return c.json({ pagination: { offset: 0, limit: data.length, total: data.length }, data }, 200);
  });

  app.post(`${BASE}/actions`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const router = routerOf(c, world);
    const action = createAction(world, c.get("principal"), router, body);
    return c.json(renderAction(world, router, action, action.createdAt), 202);
  });

  app.post(`${BASE}/actions/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const router = routerOf(c, world);
    return search(c, actionsOf(router).map((a) => renderAction(world, router, a)), ACTION_SEARCH, ACTION_SORT);
  });

  app.get(`${BASE}/actions/:actionId`, (c) => {
    rejectUnknownQuery(c, ["state"]);
    const state = readState(c);
    const router = routerOf(c, world);
    const actionId = c.req.param("actionId");
    const action = actionsOf(router).find((a) => a.uuid === actionId);
    const rendered = action && renderAction(world, router, action);
    if (!rendered || (state !== undefined && rendered.state !== state)) return fail("notFound", "actionId", `cloud router ${router.uuid} has no action ${actionId}${state ? ` in state ${state}` : ""}`, actionId);
    return c.json(rendered, 200);
  });

  app.post(`${BASE}/routes/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const router = routerOf(c, world);
    return search(c, routeTable(world, router.uuid), ROUTE_SEARCH, ROUTE_SORT);
  });

  app.post(`${BASE}/validate`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    return c.json(validateSubnet(world, c.get("principal"), c.req.param("routerId") ?? "", body), 200);
  });

  app.post(`${BASE}/routeFilters/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const router = routerOf(c, world);
    const attached = liveConnectionsNaming(world, ROUTER_POINTER, router.uuid).flatMap((conn) => attachmentsWhere(world, { connectionUuid: String(conn.uuid) }).map((a) => world.view(a)));
    return search(c, attached, FILTER_ATTACHMENT_SEARCH, FILTER_ATTACHMENT_SORT, MAX_AND);
  });

  app.post(`${BASE}/routeAggregations/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const router = routerOf(c, world);
    const attached = liveConnectionsNaming(world, ROUTER_POINTER, router.uuid).flatMap((conn) => aggregationAttachmentsWhere(world, { connectionUuid: String(conn.uuid) }).map((a) => world.view(a)));
    return search(c, attached, AGGREGATION_ATTACHMENT_SEARCH, AGGREGATION_ATTACHMENT_SORT, MAX_AND);
  });

  for (const [segment, routes] of [
    ["advertisedRoutes", (router: JsonObject, connection: JsonObject) => advertisedRoutes(world, router, connection)],
    ["receivedRoutes", (_router: JsonObject, connection: JsonObject) => receivedRoutes(world, connection)],
  ] as const) {
    app.post(`/fabric/v4/connections/:connectionId/${segment}/search`, async (c) => {
      rejectUnknownQuery(c, []);
      const { router, connection } = routedConnection(c, world);
      return search(c, routes(router, connection), CONNECTION_ROUTE_SEARCH, CONNECTION_ROUTE_SORT, 3, { "/med": "/MED" });
    });
  }
}
