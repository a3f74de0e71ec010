// The routes a cloud router holds, against its package's totalIPv4RoutesMax and totalIPv6RoutesMax
// (specification section 8: LAB 50 and 50, STANDARD 1000 and 100). The simulator runs no BGP, so it takes
// a router's routes to be what its sessions may learn: one route per rule of each route filter attached
// INBOUND to one of the router's connections, counted per family. A request that would take a router past
// its package is refused: an INBOUND attach, a rule added to a filter attached so, a change to a smaller
// package. The objects are read by their world kinds, not through the areas that serve them, which import
// this module.

import { fail } from "../core/errors.js";
import { getPointer, type SimObject, type World } from "../core/world.js";
import { ROUTER_PACKAGES, isRouterPackageCode, type RouterPackageCode } from "./cloud-router-packages.js";
import { liveConnectionsNaming } from "./connection-rules.js";
import { RULES_BY_PARENT } from "./prefix-rules.js";
import type { Family } from "./prefixes.js";

const ROUTER_KIND = "routers";
const CONNECTION_KIND = "connections";
const FILTER_KIND = "routeFilters";
const RULE_KIND = "routeFilterRules";
const ATTACHMENT_KIND = "routeFilterAttachments";
const LIVE_ATTACHMENT = ["ATTACHING", "ATTACHED", "DETACHING"];

export type RouteCounts = Record<Family, number>;

const FAMILY_NAME: Record<Family, string> = { 4: "IPv4", 6: "IPv6" };
const maxRoutes = (code: RouterPackageCode, family: Family): number => (family === 4 ? ROUTER_PACKAGES[code].totalIPv4RoutesMax : ROUTER_PACKAGES[code].totalIPv6RoutesMax);

export const familyOfFilter = (world: World, filter: SimObject): Family => (world.view(filter).type === "BGP_IPv6_PREFIX_FILTER" ? 6 : 4);

/** The live rules of a filter. */
function ruleCount(world: World, filterUuid: string): number {
  return world.lookup(RULE_KIND, RULES_BY_PARENT, filterUuid).filter((r) => world.view(r).state !== "DEPROVISIONED").length;
}

/**
 * The indexes the attachment area files attachments in (it imports this module, so the names are kept here):
 * a router's routes are counted per connection, a filter's growth checked per filter, without a scan.
 */
export const ATTACHMENTS_BY_CONNECTION = "connection";
export const ATTACHMENTS_BY_FILTER = "routeFilter";

/** Attachments filed under `key` that bind a filter INBOUND: being attached, attached or being detached. */
function liveInbound(world: World, index: typeof ATTACHMENTS_BY_CONNECTION | typeof ATTACHMENTS_BY_FILTER, key: string): SimObject[] {
  // Both indexes file an attachment under its metadata, which never changes: what they give matches the key.
  return world.lookup(ATTACHMENT_KIND, index, key).filter((a) => {
    const view = world.view(a);
    return view.direction === "INBOUND" && LIVE_ATTACHMENT.includes(String(view.attachmentStatus));
  });
}

/** The filters attached INBOUND to a connection. */
function inboundFilters(world: World, connectionUuid: string): SimObject[] {
  return liveInbound(world, ATTACHMENTS_BY_CONNECTION, connectionUuid)
    .map((a) => world.get(String(a.meta.routeFilterUuid), FILTER_KIND))
    .filter((f): f is SimObject => f !== undefined);
}

/** The routes a router holds now, per family. */
export function routesOf(world: World, routerUuid: string): RouteCounts {
  const counts: RouteCounts = { 4: 0, 6: 0 };
  for (const connection of liveConnectionsNaming(world, "/accessPoint/router/uuid", routerUuid)) {
    for (const filter of inboundFilters(world, String(connection.uuid))) counts[familyOfFilter(world, filter)] += ruleCount(world, filter.uuid);
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
  for (const attachment of liveInbound(world, ATTACHMENTS_BY_FILTER, filter.uuid)) {
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
