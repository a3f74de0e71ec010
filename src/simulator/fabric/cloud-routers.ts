// Cloud routers (official: /fabric/v4/routers and /fabric/v4/routerPackages; limits of specification
// section 8): create, get, search, patch (name, package, notifications, term), delete, and the package
// catalogue; a router's actions, routes, subnet validation and attachment searches are router-operations.ts'. A router provisions on the clock; a package change reprovisions it; a deleted router stays
// readable as DEPROVISIONED and search leaves it out unless the filter asks about /state. The packages'
// limits hold at every step: LAB routers per organisation on create and on a change to LAB, connections per
// router and bandwidth per connection here and when a connection is made or changed (connection-rules.ts),
// routes per router here and when filters are attached or given rules (router-routes.ts).

import type { Context } from "hono";
import { canSee, findVisible, projectFor, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { bodyPage, changeLogUpdate, newChangeLog, paginate, pageLink, queryPage, readArray, readObject, rejectUnknownQuery, sortedPage, type SearchRules } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { ROUTER_PACKAGE_CODES, ROUTER_PACKAGES, isRouterPackageCode, type RouterPackageCode } from "./cloud-router-packages.js";
import { accountOf, asEnum, asInteger, asObject, asString, liveConnectionsNaming, locationOf, readNotifications } from "./connection-rules.js";
import { routerOperationRoutes } from "./router-operations.js";
import { checkRoutesFit } from "./router-routes.js";
import { compileSearch, mentions } from "./search.js";

const KIND = "routers";
const BASE = "/fabric/v4/routers";
const PACKAGES = "/fabric/v4/routerPackages";

/** Simulated durations: a router is software on the provider's platform, up in about a minute. */
const PROVISION_MS = 60_000;
const REPROVISION_MS = 30_000;
const DEPROVISION_MS = 30_000;

/** The provider's ASN on a router's side of its BGP sessions (the official examples' value). */
const EQUINIX_ASN = 30_000;

const NAME_MIN = 3;
const NAME_MAX = 24;
const TERM_LENGTHS = [1, 12, 24, 36];

const TRANSIENT = ["PROVISIONING", "REPROVISIONING", "DEPROVISIONING"];
const GONE = "DEPROVISIONED";

/** The replacements a PATCH may make (the official examples: name, package, notifications, term length). */
const PATCH_PATHS = ["/name", "/package/code", "/notifications", "/order/termLength"] as const;
type PatchPath = (typeof PATCH_PATHS)[number];

const SEARCH_RULES: SearchRules = {
  properties: ["/project/projectId", "/name", "/uuid", "/state", "/location/metroCode", "/location/metroName", "/package/code", "/type", "/connectionsCount", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime"],
  operators: ["=", "!=", ">", ">=", "<", "<=", "BETWEEN", "NOT BETWEEN", "LIKE", "NOT LIKE", "IN", "NOT IN", "ILIKE"],
};
/** The official filter's bounds: up to 8 expressions, an `or` group holding up to 3. */
const MAX_AND = 8;
const MAX_OR = 3;
const SORT_PROPERTIES = ["/name", "/uuid", "/state", "/location/metroCode", "/location/metroName", "/package/code", "/type", "/connectionsCount", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime", "/order/termLength"];
const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];
const PAGE_LIMITS = { defaultLimit: 20, maxLimit: 100 };

const routerHref = (uuid: string) => `${BASE}/${uuid}`;
const packageHref = (code: string) => `${PACKAGES}/${code}`;
const stateOf = (world: World, router: SimObject): string => String(world.view(router).state ?? "");

/** The live connections of a router, from either side. */
const connectionsOf = (world: World, uuid: string): JsonObject[] => liveConnectionsNaming(world, "/accessPoint/router/uuid", uuid);

// ── request fields ───────────────────────────────────────────────────────────────────────

function readName(value: Json | undefined, path: string): string {
  const name = asString(value, path)!;
  if (name.length < NAME_MIN || name.length > NAME_MAX) fail("routerInvalidName", path, `the name must be ${NAME_MIN} to ${NAME_MAX} characters (${name.length} given)`, name);
  return name;
}

function readPackage(value: Json | undefined, path: string): RouterPackageCode {
  const code = asString(value, path)!;
  if (!isRouterPackageCode(code)) return fail("routerPackageNotFound", path, `package must be one of ${ROUTER_PACKAGE_CODES.join(", ")}`, code);
  return code;
}

function readTermLength(value: Json | undefined, path: string): number {
  const term = asInteger(value, path, 1, 36)!;
  if (!TERM_LENGTHS.includes(term)) fail("invalidProperty", path, `the term length is one of ${TERM_LENGTHS.join(", ")} months`, term);
  return term;
}

function readAccount(principal: Principal, value: Json | undefined): number {
  const account = asObject(value, "/account", false);
  if (account?.accountNumber === undefined || account.accountNumber === null) return principal.accountNumbers[0]!;
  const number = Number(account.accountNumber);
  if (!principal.accountNumbers.includes(number)) fail("routerInvalidAccount", "/account/accountNumber", `account ${String(account.accountNumber)} is not one of the caller's accounts`, String(account.accountNumber));
  return number;
}

function readOrder(value: Json | undefined): JsonObject | undefined {
  const order = asObject(value, "/order", false);
  if (!order) return undefined;
  const out: JsonObject = {};
  for (const field of ["purchaseOrderNumber", "customerReferenceNumber"]) {
    const text = asString(order[field], `/order/${field}`, false);
    if (text !== undefined) out[field] = text;
  }
  if (order.termLength !== undefined && order.termLength !== null) out.termLength = readTermLength(order.termLength, "/order/termLength");
  return out;
}

// ── package limits ───────────────────────────────────────────────────────────────────────

/** Routers of a package that count against the organisation's allowance (all but deleted ones). */
function routersWithPackage(world: World, code: RouterPackageCode, exceptUuid?: string): SimObject[] {
  return world.list(KIND).filter((r) => {
    const view = world.view(r);
    return r.uuid !== exceptUuid && view.state !== GONE && getPointer(view, "/package/code") === code;
  });
}

function checkRouterAllowance(world: World, code: RouterPackageCode, path: string, exceptUuid?: string): void {
  const max = ROUTER_PACKAGES[code].crCountMax;
  if (max !== undefined && routersWithPackage(world, code, exceptUuid).length >= max) {
    fail("routerCreateRejected", path, `Only ${max} ${code} Fabric Cloud Routers allowed per Organization`, code);
  }
}

/** A router moving to a smaller package must already fit it. */
function checkConnectionsFit(world: World, router: SimObject, code: RouterPackageCode, path: string): void {
  const limits = ROUTER_PACKAGES[code];
  const connections = connectionsOf(world, router.uuid);
  if (limits.vcCountMax !== undefined && connections.length > limits.vcCountMax) {
    fail("invalidProperty", path, `the ${code} package allows ${limits.vcCountMax} connections; cloud router ${router.uuid} has ${connections.length}`, code);
  }
  const wide = connections.find((c) => typeof c.bandwidth === "number" && c.bandwidth > limits.vcBandwidthMax);
  if (wide) fail("invalidProperty", path, `the ${code} package allows ${limits.vcBandwidthMax} Mbps per connection; connection ${String(wide.uuid)} has ${String(wide.bandwidth)} Mbps`, code);
  for (const family of [4, 6] as const) checkRoutesFit(world, router, 0, family, path, code);
}

// ── create ───────────────────────────────────────────────────────────────────────────────

function buildRouter(world: World, principal: Principal, body: JsonObject): { body: JsonObject; projectId: string } {
  asEnum(body.type, ["XF_ROUTER"], "/type");
  const name = readName(body.name, "/name");
  const location = asObject(body.location, "/location")!;
  const metroCode = asString(location.metroCode, "/location/metroCode")!;
  if (!METRO_BY_CODE.has(metroCode)) fail("invalidProperty", "/location/metroCode", `metro ${metroCode} does not exist`, metroCode);
  const code = readPackage(asObject(body.package, "/package")!.code, "/package/code");
  const project = asObject(body.project, "/project", false);
  const projectId = projectFor(principal, project?.projectId);
  const accountNumber = readAccount(principal, body.account);
  const order = readOrder(body.order);
  const notifications = body.notifications === undefined || body.notifications === null ? undefined : readNotifications(body.notifications, "/notifications");
  checkRouterAllowance(world, code, "/package/code");
  const uuid = world.uuid();
  return {
    projectId,
    body: {
      href: routerHref(uuid),
      uuid,
      type: "XF_ROUTER",
      name,
      state: "PROVISIONING",
      location: locationOf(metroCode),
      package: { href: packageHref(code), type: "ROUTER_PACKAGE", code },
      ...(order ? { order } : {}),
      project: { projectId },
      account: accountOf(principal, accountNumber),
      ...(notifications ? { notifications } : {}),
      equinixAsn: EQUINIX_ASN,
      changeLog: newChangeLog(principal, world.nowIso()),
    },
  };
}

// ── patch ────────────────────────────────────────────────────────────────────────────────

function readOperations(world: World, router: SimObject, ops: Json[]): { set: Record<string, Json>; data: JsonObject[]; packageChange: boolean } {
  if (ops.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
  const set: Record<string, Json> = {};
  const data: JsonObject[] = [];
  let packageChange = false;
  const supported = `Only replace of ${PATCH_PATHS.join(", ")} is supported.`;
  ops.forEach((raw, i) => {
    const op = asObject(raw, `/${i}`)!;
    if (op.op !== "replace") fail("routerInvalidOperation", `/${i}/op`, supported, String(op.op));
    if (!(PATCH_PATHS as readonly Json[]).includes(op.path ?? null)) fail("routerInvalidOperation", `/${i}/path`, supported, String(op.path));
    const path = op.path as PatchPath;
    if (!("value" in op)) fail("missingProperty", `/${i}/value`, `value is required for ${path}`);
    const at = `/${i}/value`;
    let value: Json;
    switch (path) {
      case "/name":
        value = readName(op.value, at);
        break;
      case "/package/code": {
        const code = readPackage(op.value, at);
        const current = (world.view(router).package as JsonObject | undefined)?.code;
        if (code !== current) {
          checkRouterAllowance(world, code, at, router.uuid);
          checkConnectionsFit(world, router, code, at);
          packageChange = true;
          set["/package/href"] = packageHref(code);
        }
        value = code;
        break;
      }
      case "/notifications":
        value = readNotifications(op.value, at);
        break;
      case "/order/termLength":
        value = readTermLength(op.value, at);
        break;
      default: {
        const unreachable: never = path;
        return unreachable;
      }
    }
    set[path] = value;
    data.push({ op: "replace", path, value });
  });
  return { set, data, packageChange };
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function checkFilterShape(filter: Json | undefined): void {
  if (filter === undefined || filter === null) return fail("missingProperty", "/filter", "filter is required, with /project/projectId");
  if (typeof filter !== "object" || Array.isArray(filter) || !Array.isArray(filter.and)) return fail("invalidProperty", "/filter", "filter must be {and: [...]}");
  if (filter.and.length > MAX_AND) fail("invalidProperty", "/filter/and", `a filter holds at most ${MAX_AND} expressions`, filter.and.length);
  filter.and.forEach((item, i) => {
    const or = item !== null && typeof item === "object" && !Array.isArray(item) ? item.or : undefined;
    if (Array.isArray(or) && or.length > MAX_OR) fail("invalidProperty", `/filter/and/${i}/or`, `an or group holds at most ${MAX_OR} expressions`, or.length);
  });
  // The official description marks the project as mandatory in every router search.
  if (!mentions(filter, "/project/projectId")) fail("missingProperty", "/filter/and", "a cloud router search must filter on /project/projectId");
}

function renderPackage(code: RouterPackageCode): JsonObject {
  const { description, vcCountMax, crCountMax, ...limits } = ROUTER_PACKAGES[code];
  return {
    href: packageHref(code),
    type: "ROUTER_PACKAGE",
    code,
    description,
    ...limits,
    routeFilterSupported: true,
    ...(vcCountMax === undefined ? {} : { vcCountMax }),
    ...(crCountMax === undefined ? {} : { crCountMax }),
    changeLog: { createdDateTime: "2022-02-10T00:00:00Z", updatedDateTime: "2024-02-10T00:00:00Z" },
  };
}

function routes(app: SimApp, world: World): void {
  const find = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), KIND, c.req.param("routerId") ?? "", "routerId");

  app.post(BASE, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = c.req.query("dryRun");
    if (dryRun !== undefined && dryRun !== "true" && dryRun !== "false") fail("invalidQueryParameter", "dryRun", "dryRun must be true or false", dryRun);
    const principal = c.get("principal");
    const built = buildRouter(world, principal, await readObject(c));
    if (dryRun === "true") return c.json(built.body, 200);
    const router = world.create(KIND, built.body, { projectId: built.projectId });
    world.transition(router, { "/state": "PROVISIONING" }, [{ afterMs: PROVISION_MS, set: { "/state": "PROVISIONED" } }], { "/state": "NOT_PROVISIONED" });
    // Answered in its transient state, even when a test's fast clock has already moved past it.
    return c.json({ ...world.view(router), state: "PROVISIONING" }, 200);
  });

  app.post(`${BASE}/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    checkFilterShape(body.filter);
    const matches = compileSearch(body.filter, SEARCH_RULES);
    const page = bodyPage(body.pagination, PAGE_LIMITS);
    const withDeleted = mentions(body.filter, "/state");
    const principal = c.get("principal");
    const found = world
      .list(KIND)
      .filter((o) => canSee(principal, o))
      .map((o) => world.view(o))
      .filter((v) => (withDeleted || v.state !== GONE) && matches(v));
    return c.json(sortedPage(found, body.sort ?? DEFAULT_SORT, SORT_PROPERTIES, page));
  });

  app.get(`${BASE}/:routerId`, (c) => {
    rejectUnknownQuery(c, []);
    return c.json(world.view(find(c)));
  });

  app.patch(`${BASE}/:routerId`, async (c) => {
    rejectUnknownQuery(c, []);
    const ops = await readArray(c);
    const router = find(c);
    world.settle(router);
    const state = stateOf(world, router);
    if (state !== "PROVISIONED") fail("invalidProperty", "routerId", `cloud router ${router.uuid} is ${state}; it can be changed only when PROVISIONED`, state);
    const { set, data, packageChange } = readOperations(world, router, ops);
    const principal = c.get("principal");
    const now = world.nowIso();
    const change = { uuid: world.uuid(), type: "ROUTER_UPDATE", status: packageChange ? "REQUESTED" : "COMPLETED", createdDateTime: now, updatedDateTime: now, data };
    const immediate = { ...set, ...changeLogUpdate(principal, now), "/change": change };
    if (!packageChange) {
      world.apply(router, { at: world.now(), set: immediate });
      return c.json(world.view(router), 200);
    }
    const done = new Date(world.now() + world.clock.scale(REPROVISION_MS)).toISOString();
    world.transition(
      router,
      { ...immediate, "/state": "REPROVISIONING" },
      [{ afterMs: REPROVISION_MS, set: { "/state": "PROVISIONED", "/change/status": "COMPLETED", "/change/updatedDateTime": done } }],
      { "/state": "NOT_PROVISIONED", "/change/status": "FAILED", "/change/updatedDateTime": done },
    );
    return c.json({ ...world.view(router), state: "REPROVISIONING" }, 200);
  });

  app.delete(`${BASE}/:routerId`, (c) => {
    rejectUnknownQuery(c, []);
    const router = find(c);
    world.settle(router);
    const state = stateOf(world, router);
    if (TRANSIENT.includes(state)) fail("routerTransientState", "routerId", `cloud router ${router.uuid} is ${state}`, state);
    if (state === GONE) fail("invalidProperty", "routerId", `cloud router ${router.uuid} is already ${GONE}`, state);
    const connections = connectionsOf(world, router.uuid);
    if (connections.length > 0) {
      fail("invalidProperty", "routerId", `cloud router ${router.uuid} still has connection(s) ${connections.map((x) => String(x.uuid)).join(", ")}; delete them first`);
    }
    const principal = c.get("principal");
    world.transition(
      router,
      { "/state": "DEPROVISIONING", ...changeLogUpdate(principal, world.nowIso()), ...changeLogUpdate(principal, world.nowIso(), true) },
      [{ afterMs: DEPROVISION_MS, set: { "/state": GONE } }],
      { "/state": "NOT_DEPROVISIONED" },
    );
    return c.body(null, 204);
  });

  app.get(PACKAGES, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, PAGE_LIMITS);
    return c.json(paginate(ROUTER_PACKAGE_CODES.map(renderPackage), page, pageLink(c)));
  });

  routerOperationRoutes(app, world);

  app.get(`${PACKAGES}/:routerPackageCode`, (c) => {
    rejectUnknownQuery(c, []);
    const code = c.req.param("routerPackageCode");
    if (!isRouterPackageCode(code)) return fail("routerPackageNotFound", "routerPackageCode", `package must be one of ${ROUTER_PACKAGE_CODES.join(", ")}`, code);
    return c.json(renderPackage(code));
  });
}

export const cloudRoutersArea: Area = {
  name: "fabric-cloud-routers",
  define(world) {
    world.defineKind(KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.router",
      subject: (o) => routerHref(o.uuid),
      render: (body, obj, w) => ({ ...body, connectionsCount: connectionsOf(w, obj.uuid).length }),
    });
  },
  routes,
};
