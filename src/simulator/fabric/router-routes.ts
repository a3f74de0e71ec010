// The routes a cloud router holds, against its package's totalIPv4RoutesMax and totalIPv6RoutesMax
// (specification section 8: LAB 50 and 50, STANDARD 1000 and 100). The simulator runs no BGP, so it takes
// a router's routes to be what its sessions may learn: one route per rule of each route filter attached
// INBOUND to one of the router's connections, counted per family. A request that would take a router past
// its package is refused: an INBOUND attach, a rule added to a filter attached so, a change to a smaller
// package. The same routes, with the subnets of the connections' DIRECT routing protocols, are the router's
// route table (searchCloudRouterRoutes) and each connection's received routes; a connection's advertised
// routes are the others' routes its OUTBOUND filters let through, summarised by its route aggregation. Two
// connections of one router may not have overlapping DIRECT subnets. The objects are read by their world
// kinds, not through the areas that serve them, which import this module.

import { fail } from "../core/errors.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { ROUTER_PACKAGES, isRouterPackageCode, type RouterPackageCode } from "./cloud-router-packages.js";
import { liveConnectionsNaming } from "./connection-rules.js";
import { RULES_BY_PARENT } from "./prefix-rules.js";
import { covers, parsePrefix, type Family } from "./prefixes.js";
import { parseCidr, subnetsOverlap, type AddressFamily, type Cidr } from "./routing-protocol-rules.js";

const ROUTER_KIND = "routers";
const CONNECTION_KIND = "connections";
const FILTER_KIND = "routeFilters";
const RULE_KIND = "routeFilterRules";
const ATTACHMENT_KIND = "routeFilterAttachments";
const PROTOCOL_KIND = "routingProtocols";
const AGGREGATION_ATTACHMENT_KIND = "routeAggregationAttachments";
const AGGREGATION_RULE_KIND = "routeAggregationRules";
const LIVE_ATTACHMENT = ["ATTACHING", "ATTACHED", "DETACHING"];
const ROUTER_POINTER = "/accessPoint/router/uuid";

export type RouteCounts = Record<Family, number>;

const FAMILY_NAME: Record<Family, string> = { 4: "IPv4", 6: "IPv6" };
const maxRoutes = (code: RouterPackageCode, family: Family): number => (family === 4 ? ROUTER_PACKAGES[code].totalIPv4RoutesMax : ROUTER_PACKAGES[code].totalIPv6RoutesMax);

export const familyOfFilter = (world: World, filter: SimObject): Family => (world.view(filter).type === "BGP_IPv6_PREFIX_FILTER" ? 6 : 4);

/** The live rules of a route filter or route aggregation. */
function liveRules(world: World, kind: string, parentUuid: string): SimObject[] {
  return world.lookup(kind, RULES_BY_PARENT, parentUuid).filter((r) => world.view(r).state !== "DEPROVISIONED");
}

const ruleCount = (world: World, filterUuid: string): number => liveRules(world, RULE_KIND, filterUuid).length;

/**
 * The indexes the attachment area files attachments in (it imports this module, so the names are kept here):
 * a router's routes are counted per connection, a filter's growth checked per filter, without a scan.
 */
export const ATTACHMENTS_BY_CONNECTION = "connection";
export const ATTACHMENTS_BY_FILTER = "routeFilter";

/** Attachments filed under `key` that bind a filter in `direction`: being attached, attached or being detached. */
function liveAttachments(world: World, index: typeof ATTACHMENTS_BY_CONNECTION | typeof ATTACHMENTS_BY_FILTER, key: string, direction = "INBOUND"): SimObject[] {
  // Both indexes file an attachment under its metadata, which never changes: what they give matches the key.
  return world.lookup(ATTACHMENT_KIND, index, key).filter((a) => {
    const view = world.view(a);
    return view.direction === direction && LIVE_ATTACHMENT.includes(String(view.attachmentStatus));
  });
}

/** The filters attached to a connection in `direction`. */
function filtersOf(world: World, connectionUuid: string, direction = "INBOUND"): SimObject[] {
  return liveAttachments(world, ATTACHMENTS_BY_CONNECTION, connectionUuid, direction)
    .map((a) => world.get(String(a.meta.routeFilterUuid), FILTER_KIND))
    .filter((f): f is SimObject => f !== undefined);
}

/** The routes a router holds now, per family. */
export function routesOf(world: World, routerUuid: string): RouteCounts {
  const counts: RouteCounts = { 4: 0, 6: 0 };
  for (const connection of liveConnectionsNaming(world, ROUTER_POINTER, routerUuid)) {
    for (const filter of filtersOf(world, String(connection.uuid))) counts[familyOfFilter(world, filter)] += ruleCount(world, filter.uuid);
  }
  return counts;
}

/** The router a connection starts at, if it is a cloud router's connection. */
export function routerOfConnection(world: World, connectionUuid: string): SimObject | undefined {
  const connection = world.get(connectionUuid, CONNECTION_KIND);
  if (!connection) return undefined;
  const view = world.view(connection);
  const uuid = getPointer(view, "/aSide/accessPoint/router/uuid") ?? getPointer(view, "/zSide/accessPoint/router/uuid");
  return typeof uuid === "string" ? world.get(uuid, ROUTER_KIND) : undefined;
}

/** Refuses what would give the router more routes of `family` than `code` (its package, or the one asked for) allows. */
export function checkRoutesFit(world: World, router: SimObject, added: number, family: Family, path: string, code?: RouterPackageCode): void {
  const packageCode = code ?? getPointer(world.view(router), "/package/code");
  if (!isRouterPackageCode(packageCode)) return;
  const max = maxRoutes(packageCode, family);
  const total = routesOf(world, router.uuid)[family] + added;
  if (total > max) {
    fail("invalidProperty", path, `cloud router ${router.uuid} would hold ${total} ${FAMILY_NAME[family]} routes; the ${packageCode} package allows ${max}`, total);
  }
}

/** Refuses `added` rules on a filter when a router it is attached INBOUND to has no room for them. */
export function checkFilterGrowth(world: World, filter: SimObject, added: number, path: string): void {
  const family = familyOfFilter(world, filter);
  const routers = new Map<string, SimObject>();
  for (const attachment of liveAttachments(world, ATTACHMENTS_BY_FILTER, filter.uuid)) {
    const router = routerOfConnection(world, String(attachment.meta.connectionUuid));
    if (router) routers.set(router.uuid, router);
  }
  for (const router of routers.values()) checkRoutesFit(world, router, added, family, path);
}

/** Refuses attaching a filter INBOUND to a router's connection when the router has no room for its rules. */
export function checkAttachFits(world: World, connectionUuid: string, filter: SimObject, path: string): void {
  const router = routerOfConnection(world, connectionUuid);
  if (router) checkRoutesFit(world, router, ruleCount(world, filter.uuid), familyOfFilter(world, filter), path);
}

// ── route tables ─────────────────────────────────────────────────────────────────────────

/** The index routing-protocols.ts files a connection's instances in (named here, as the attachments' are). */
export const PROTOCOLS_BY_CONNECTION = "connection";

const FAMILY_OF: Record<Family, AddressFamily> = { 4: "Ipv4", 6: "Ipv6" };

/** A connection's routing protocol of a type, as it reads now: the instance that is not deleted. */
function protocolOf(world: World, connectionUuid: string, type: "DIRECT" | "BGP"): JsonObject | undefined {
  return world
    .lookup(PROTOCOL_KIND, PROTOCOLS_BY_CONNECTION, connectionUuid)
    .map((o) => world.view(o))
    .find((v) => v.type === type && v.state !== "DEPROVISIONED");
}

const connectionReference = (connection: JsonObject): JsonObject => ({
  uuid: connection.uuid ?? null,
  ...(typeof connection.name === "string" ? { name: connection.name } : {}),
  href: `/fabric/v4/connections/${String(connection.uuid)}`,
});

/** When what a route comes from was made and last changed, as the route's changeLog. */
function stampOf(source: JsonObject): JsonObject {
  const log = (source.changeLog ?? source.changelog ?? {}) as JsonObject;
  return Object.fromEntries(["createdDateTime", "updatedDateTime"].filter((k) => typeof log[k] === "string").map((k) => [k, log[k]!]));
}

/** The subnets of a connection's DIRECT routing protocol, as routes of the router. */
function directRoutes(world: World, connection: JsonObject): JsonObject[] {
  const direct = protocolOf(world, String(connection.uuid), "DIRECT");
  if (!direct) return [];
  return ([4, 6] as const).flatMap((family) => {
    const ip = getPointer(direct, `/direct${FAMILY_OF[family]}/equinixIfaceIp`);
    const prefix = typeof ip === "string" ? parsePrefix(ip) : undefined;
    if (!prefix) return [];
    return [{ type: `IPv${family}_DIRECT_ROUTE`, protocolType: "DIRECT", state: "ACTIVE", prefix: prefix.network ?? prefix.text, connection: connectionReference(connection), changeLog: stampOf(direct) }];
  });
}

/**
 * The BGP routes a router learns from one of its connections (its received routes): one for each rule of each
 * filter attached INBOUND to it, which `routesOf` counts, from the peer of the connection's BGP session of
 * the rule's family.
 */
export function receivedRoutes(world: World, connection: JsonObject): JsonObject[] {
  const bgp = protocolOf(world, String(connection.uuid), "BGP");
  return filtersOf(world, String(connection.uuid)).flatMap((filter) => {
    const family = familyOfFilter(world, filter);
    const session = bgp?.[`bgp${FAMILY_OF[family]}`] as JsonObject | undefined;
    return liveRules(world, RULE_KIND, filter.uuid).map((rule) => {
      const view = world.view(rule);
      return {
        type: `IPv${family}_BGP_ROUTE`,
        protocolType: "BGP",
        state: "ACTIVE",
        prefix: view.prefix ?? null,
        ...(typeof session?.customerPeerIp === "string" ? { nextHop: session.customerPeerIp } : {}),
        ...(typeof session?.inboundMED === "number" ? { MED: session.inboundMED } : {}),
        ...(typeof bgp?.customerAsn === "number" ? { asPath: [String(bgp.customerAsn)] } : {}),
        connection: connectionReference(connection),
        changeLog: stampOf(view),
      };
    });
  });
}

/** The router's route table: the DIRECT subnets of its connections and the BGP routes it learns from them. */
export function routeTable(world: World, routerUuid: string): JsonObject[] {
  return liveConnectionsNaming(world, ROUTER_POINTER, routerUuid).flatMap((connection) => [...directRoutes(world, connection), ...receivedRoutes(world, connection)]);
}

/** The family of a route's prefix. */
const familyOfPrefix = (prefix: Json | undefined): Family | undefined => (typeof prefix === "string" ? parsePrefix(prefix)?.family : undefined);

/** Whether an OUTBOUND filter's rules let a route out: a filter of its family denies what no rule matches. */
function letOut(world: World, filters: SimObject[], route: JsonObject): boolean {
  const family = familyOfPrefix(route.prefix);
  const ofFamily = filters.filter((f) => familyOfFilter(world, f) === family);
  if (ofFamily.length === 0) return true;
  const prefix = String(route.prefix);
  return ofFamily.some((filter) =>
    liveRules(world, RULE_KIND, filter.uuid).some((rule) => {
      const view = world.view(rule);
      return view.prefixMatch === "exact" ? view.prefix === prefix : typeof view.prefix === "string" && covers(view.prefix, prefix);
    }),
  );
}

/** The rules of the route aggregation attached to a connection, if one is. */
function aggregateRules(world: World, connectionUuid: string): JsonObject[] {
  return world
    .list(AGGREGATION_ATTACHMENT_KIND)
    .filter((a) => a.meta.connectionUuid === connectionUuid && LIVE_ATTACHMENT.includes(String(world.view(a).attachmentStatus)))
    .flatMap((a) => liveRules(world, AGGREGATION_RULE_KIND, String(a.meta.routeAggregationUuid)).map((r) => world.view(r)));
}

/** Routes covered by an aggregation rule's prefix give way to one route of that prefix. */
function aggregated(routes: JsonObject[], rules: JsonObject[]): JsonObject[] {
  let out = routes;
  for (const rule of rules) {
    if (typeof rule.prefix !== "string") continue;
    const aggregate = rule.prefix;
    const covered = out.filter((r) => typeof r.prefix === "string" && covers(aggregate, r.prefix));
    if (covered.length === 0) continue;
    out = [...out.filter((r) => !covered.includes(r)), { prefix: aggregate, changeLog: stampOf(rule) }];
  }
  return out;
}

/**
 * What a router advertises to one of its connections' peers: the routes of its other connections that the
 * connection's OUTBOUND filters let out, summarised by its route aggregation, as BGP routes from the
 * router's side of the connection's session.
 */
export function advertisedRoutes(world: World, router: JsonObject, connection: JsonObject): JsonObject[] {
  const uuid = String(connection.uuid);
  const outbound = filtersOf(world, uuid, "OUTBOUND");
  const others = routeTable(world, String(router.uuid)).filter((r) => getPointer(r, "/connection/uuid") !== uuid && letOut(world, outbound, r));
  const bgp = protocolOf(world, uuid, "BGP");
  return aggregated(others, aggregateRules(world, uuid)).flatMap((route) => {
    const family = familyOfPrefix(route.prefix);
    if (family === undefined) return [];
    const session = bgp?.[`bgp${FAMILY_OF[family]}`] as JsonObject | undefined;
    const learnedPath = Array.isArray(route.asPath) ? route.asPath : [];
    return [
      {
        type: `IPv${family}_BGP_ROUTE`,
        protocolType: "BGP",
        state: "ACTIVE",
        prefix: route.prefix ?? null,
        ...(typeof session?.equinixPeerIp === "string" ? { nextHop: session.equinixPeerIp } : {}),
        ...(typeof session?.outboundMED === "number" ? { MED: session.outboundMED } : {}),
        asPath: [...(router.equinixAsn === undefined ? [] : [String(router.equinixAsn)]), ...learnedPath],
        connection: connectionReference(connection),
        changeLog: route.changeLog ?? {},
      },
    ];
  });
}

/**
 * Why `cidr` cannot be the DIRECT subnet of a router's connection: it overlaps the DIRECT subnet of another of
 * the router's connections (validateRoutingProtocol says so before, and the routing protocol's create refuses it).
 */
export function subnetOverlap(world: World, routerUuid: string, exceptConnectionUuid: string | undefined, family: AddressFamily, cidr: Cidr): string | undefined {
  for (const connection of liveConnectionsNaming(world, ROUTER_POINTER, routerUuid)) {
    if (connection.uuid === exceptConnectionUuid) continue;
    const ip = getPointer(protocolOf(world, String(connection.uuid), "DIRECT"), `/direct${family}/equinixIfaceIp`);
    const other = typeof ip === "string" ? parseCidr(ip, family) : undefined;
    if (other && subnetsOverlap(cidr, other)) return `the subnet overlaps ${String(ip)} of connection ${String(connection.uuid)} on the same Fabric Cloud Router`;
  }
  return undefined;
}

