// Networks (official: /fabric/v4/networks): EVPLAN, EPLAN, IPWAN, EVPTREE and EPTREE networks that
// connections join, with a scope: GLOBAL, REGIONAL (one region, named at create) or LOCAL (one metro, the
// first joined connection's). Create, get, search, patch (name, notifications), delete, the connections of a
// network and its change history. A new network is INACTIVE while it provisions and ACTIVE once provisioned
// (operation.equinixStatus says which step it is at); a deleted one deprovisions on the clock and stays
// readable as DELETED, which search leaves out unless the filter asks about /state. A network with live
// connections cannot be deleted.

import type { Context } from "hono";
import { iso } from "../core/clock.js";
import { canSee, findVisible, projectFor, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { bodyPage, changeLogUpdate, newChangeLog, paginate, readArray, readObject, rejectUnknownQuery, sortedPage, type Actor, type SearchRules } from "../core/http.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { accountOf, asEnum, asObject, asString, liveConnectionsNaming, readNotifications } from "./connection-rules.js";
import { compileSearch, mentions } from "./search.js";

const KIND = "networks";
const BASE = "/fabric/v4/networks";

export const NETWORK_TYPES = ["EVPLAN", "EPLAN", "IPWAN", "EVPTREE", "EPTREE"] as const;
const SCOPES = ["REGIONAL", "GLOBAL", "LOCAL"] as const;
const REGIONS = ["AMER", "EMEA", "APAC"] as const;

type ChangeType = "NETWORK_CREATION" | "NETWORK_UPDATE" | "NETWORK_DELETION";

/** Simulated durations: a network is configuration on the provider's platform. */
const PROVISION_MS = 20_000;
const DEPROVISION_MS = 20_000;

const PATCH_PATHS = ["/name", "/notifications"] as const;
type PatchPath = (typeof PATCH_PATHS)[number];

const SEARCH_RULES: SearchRules = {
  properties: ["/name", "/uuid", "/scope", "/type", "/state", "/operation/equinixStatus", "/location/region", "/location/metroCode", "/connectionsCount", "/project/projectId", "/account/globalCustId", "/account/orgId", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime"],
  operators: ["=", "!=", ">", ">=", "<", "<=", "BETWEEN", "NOT BETWEEN", "LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE", "IN", "NOT IN"],
};
const SORT_PROPERTIES = ["/name", "/uuid", "/scope", "/operation/equinixStatus", "/location/region", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"];
const DEFAULT_SORT: JsonObject[] = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];
const PAGE_LIMITS = { defaultLimit: 20, maxLimit: 100 };

const networkHref = (uuid: string) => `${BASE}/${uuid}`;
const changeHref = (uuid: string, change: string) => `${networkHref(uuid)}/changes/${change}`;

/** The live connections joined to a network. */
export const connectionsOf = (world: World, uuid: string): JsonObject[] => liveConnectionsNaming(world, "/accessPoint/network/uuid", uuid);

const equinixStatusOf = (view: JsonObject): string => String(getPointer(view, "/operation/equinixStatus") ?? "");

// ── change records ───────────────────────────────────────────────────────────────────────

interface StoredChange extends JsonObject {
  uuid: string;
  type: ChangeType;
  createdDateTime: string;
  completesAt: number;
  failed: boolean;
  data: JsonObject[];
}

const storedChanges = (network: SimObject): StoredChange[] => (network.meta.changes ?? []) as StoredChange[];

function renderChange(world: World, network: SimObject, change: StoredChange): JsonObject {
  const finished = change.completesAt <= world.now();
  return {
    href: changeHref(network.uuid, change.uuid),
    uuid: change.uuid,
    type: change.type,
    status: !finished ? "REQUESTED" : change.failed ? "FAILED" : "COMPLETED",
    createdDateTime: change.createdDateTime,
    updatedDateTime: finished ? iso(change.completesAt) : change.createdDateTime,
    ...(change.data.length > 0 ? { data: change.data } : {}),
  };
}

/**
 * Starts a change: `immediate` now, `done` after `durationMs` (or `failed` under an injected transition
 * failure), with a change record that the network's `change` names. Returns the network as the service
 * answers the accepted request: in its transient step, even when a fast test clock has moved past it.
 */
function startChange(
  world: World,
  network: SimObject,
  type: ChangeType,
  data: JsonObject[],
  steps: { immediate: Record<string, Json>; done?: Record<string, Json>; failed?: Record<string, Json>; durationMs?: number },
): JsonObject {
  const uuid = world.uuid();
  const immediate = { ...steps.immediate, "/change": { href: changeHref(network.uuid, uuid), uuid, type } };
  if (steps.done && steps.durationMs !== undefined) world.transition(network, immediate, [{ afterMs: steps.durationMs, set: steps.done }], steps.failed);
  else world.apply(network, { at: world.now(), set: immediate });
  const last = network.phases[network.phases.length - 1];
  const failed = steps.failed !== undefined && last !== undefined && last.set["/operation/equinixStatus"] === steps.failed["/operation/equinixStatus"];
  const change: StoredChange = { uuid, type, createdDateTime: world.nowIso(), completesAt: last?.at ?? world.now(), failed, data };
  world.setMeta(network, "changes", [...storedChanges(network), change]);
  const view = { ...world.view(network) };
  for (const [pointer, value] of Object.entries(steps.immediate)) {
    if (pointer === "/state") view.state = value;
    if (pointer === "/operation/equinixStatus") view.operation = { ...(view.operation as JsonObject), equinixStatus: value };
  }
  return view;
}

// ── create ───────────────────────────────────────────────────────────────────────────────

function readLocation(value: Json | undefined, scope: (typeof SCOPES)[number]): JsonObject | undefined {
  const location = asObject(value, "/location", false);
  switch (scope) {
    case "REGIONAL": {
      if (!location) return fail("missingProperty", "/location/region", "a REGIONAL network needs location.region");
      return { region: asEnum(location.region, REGIONS, "/location/region")! };
    }
    case "LOCAL":
    case "GLOBAL":
      if (location && Object.keys(location).length > 0) fail("invalidProperty", "/location", `a ${scope} network takes no location: ${scope === "LOCAL" ? "its metro is that of its first connection" : "it spans every metro"}`);
      return undefined;
    default: {
      const unreachable: never = scope;
      return unreachable;
    }
  }
}

function buildNetwork(world: World, principal: Principal, body: JsonObject): { body: JsonObject; projectId: string } {
  const type = asEnum(body.type, NETWORK_TYPES, "/type")!;
  const name = asString(body.name, "/name")!;
  const scope = asEnum(body.scope, SCOPES, "/scope")!;
  const location = readLocation(body.location, scope);
  const project = asObject(body.project, "/project", false);
  const projectId = projectFor(principal, project?.projectId);
  const notifications = readNotifications(body.notifications, "/notifications");
  const uuid = world.uuid();
  return {
    projectId,
    body: {
      href: networkHref(uuid),
      uuid,
      type,
      name,
      scope,
      ...(location ? { location } : {}),
      state: "INACTIVE",
      operation: { equinixStatus: "PROVISIONING" },
      account: accountOf(principal),
      project: { projectId },
      notifications,
      changeLog: newChangeLog(principal, world.nowIso()),
      links: [{ href: `${networkHref(uuid)}/connections`, rel: "getConnectionsByNetworkUuid", method: "GET", contentType: "application/json", authenticate: true }],
    },
  };
}

// ── patch ────────────────────────────────────────────────────────────────────────────────

function readOperations(ops: Json[]): { set: Record<string, Json>; data: JsonObject[] } {
  if (ops.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
  const set: Record<string, Json> = {};
  const data: JsonObject[] = [];
  ops.forEach((raw, i) => {
    const op = asObject(raw, `/${i}`)!;
    const supported = `only replace of ${PATCH_PATHS.join(" and ")} is supported`;
    if (op.op !== "replace") fail("notInAllowedList", `/${i}/op`, supported, String(op.op));
    if (!(PATCH_PATHS as readonly Json[]).includes(op.path ?? null)) fail("notInAllowedList", `/${i}/path`, supported, String(op.path));
    const path = op.path as PatchPath;
    let value: Json;
    switch (path) {
      case "/name":
        value = asString(op.value, `/${i}/value`)!;
        break;
      case "/notifications":
        value = readNotifications(op.value, `/${i}/value`);
        break;
      default: {
        const unreachable: never = path;
        return unreachable;
      }
    }
    set[path] = value;
    data.push({ op: "replace", path, value });
  });
  return { set, data };
}

/** A change needs a provisioned network; a deletion may also retry a failed step. */
const SETTLED = { changed: ["PROVISIONED"], deleted: ["PROVISIONED", "NOT_PROVISIONED", "NOT_DEPROVISIONED"] } as const;

function requireSettled(view: JsonObject, action: keyof typeof SETTLED): void {
  const status = equinixStatusOf(view);
  const allowed: readonly string[] = SETTLED[action];
  if (view.state === "DELETED" || !allowed.includes(status)) {
    fail("invalidProperty", "networkId", `network ${String(view.uuid)} is ${String(view.state)} (${status}); it can be ${action} only when ${allowed.join(" or ")}`, status);
  }
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function routes(app: SimApp, world: World): void {
  const find = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), KIND, c.req.param("networkId") ?? "", "networkId");
  /** The lists under a network answer an unknown one with a 400, as the official description documents. */
  const findForList = (c: Context<SimEnv>): SimObject => {
    const uuid = c.req.param("networkId") ?? "";
    const network = world.get(uuid, KIND);
    if (!network || !canSee(c.get("principal"), network)) return fail("networkNotFound", "networkId", `network ${uuid} does not exist`, uuid);
    return network;
  };
  const actor = (c: Context<SimEnv>): Actor => c.get("principal");

  app.post(BASE, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = c.req.query("dryRun");
    if (dryRun !== undefined && dryRun !== "true" && dryRun !== "false") fail("invalidQueryParameter", "dryRun", "dryRun must be true or false", dryRun);
    const built = buildNetwork(world, c.get("principal"), await readObject(c));
    if (dryRun === "true") return c.json(built.body, 201);
    const network = world.create(KIND, built.body, { projectId: built.projectId });
    const accepted = startChange(world, network, "NETWORK_CREATION", [], {
      immediate: { "/state": "INACTIVE", "/operation/equinixStatus": "PROVISIONING" },
      done: { "/state": "ACTIVE", "/operation/equinixStatus": "PROVISIONED" },
      failed: { "/state": "INACTIVE", "/operation/equinixStatus": "NOT_PROVISIONED" },
      durationMs: PROVISION_MS,
    });
    return c.json(accepted, 201);
  });

  app.post(`${BASE}/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const matches = compileSearch(body.filter, SEARCH_RULES);
    const page = bodyPage(body.pagination, PAGE_LIMITS);
    const sort = (body.sort ?? DEFAULT_SORT) as Json;
    const withDeleted = mentions(body.filter, "/state");
    const principal = c.get("principal");
    const found = world
      .list(KIND)
      .filter((o) => canSee(principal, o))
      .map((o) => world.view(o))
      .filter((v) => (withDeleted || v.state !== "DELETED") && matches(v));
    return c.json({ ...sortedPage(found, sort, SORT_PROPERTIES, page), sort });
  });

  app.get(`${BASE}/:networkId`, (c) => {
    rejectUnknownQuery(c, []);
    return c.json(world.view(find(c)));
  });

  app.patch(`${BASE}/:networkId`, async (c) => {
    rejectUnknownQuery(c, []);
    const ops = await readArray(c);
    const network = find(c);
    world.settle(network);
    requireSettled(world.view(network), "changed");
    const { set, data } = readOperations(ops);
    const accepted = startChange(world, network, "NETWORK_UPDATE", data, { immediate: { ...set, ...changeLogUpdate(actor(c), world.nowIso()) } });
    return c.json(accepted, 200);
  });

  app.delete(`${BASE}/:networkId`, (c) => {
    rejectUnknownQuery(c, []);
    const network = find(c);
    world.settle(network);
    requireSettled(world.view(network), "deleted");
    const joined = connectionsOf(world, network.uuid);
    if (joined.length > 0) {
      fail("invalidProperty", "networkId", `network ${network.uuid} still has connection(s) ${joined.map((x) => String(x.uuid)).join(", ")}; delete them first`);
    }
    const now = world.nowIso();
    const accepted = startChange(world, network, "NETWORK_DELETION", [], {
      immediate: { "/state": "INACTIVE", "/operation/equinixStatus": "DEPROVISIONING", ...changeLogUpdate(actor(c), now), ...changeLogUpdate(actor(c), now, true) },
      done: { "/state": "DELETED", "/operation/equinixStatus": "DEPROVISIONED" },
      failed: { "/state": "ACTIVE", "/operation/equinixStatus": "NOT_DEPROVISIONED" },
      durationMs: DEPROVISION_MS,
    });
    return c.json(accepted, 202);
  });

  app.get(`${BASE}/:networkId/connections`, (c) => {
    rejectUnknownQuery(c, []);
    const network = findForList(c);
    const joined = connectionsOf(world, network.uuid);
    return c.json(paginate(joined, { offset: 0, limit: Math.max(joined.length, PAGE_LIMITS.defaultLimit) }));
  });

  app.get(`${BASE}/:networkId/changes`, (c) => {
    rejectUnknownQuery(c, []);
    const network = findForList(c);
    const changes = storedChanges(network).map((ch) => renderChange(world, network, ch));
    return c.json(paginate(changes, { offset: 0, limit: Math.max(changes.length, PAGE_LIMITS.defaultLimit) }));
  });

  app.get(`${BASE}/:networkId/changes/:changeId`, (c) => {
    rejectUnknownQuery(c, []);
    const network = find(c);
    const changeId = c.req.param("changeId");
    const change = storedChanges(network).find((ch) => ch.uuid === changeId);
    if (!change) return fail("notFound", "changeId", `network ${network.uuid} has no change ${changeId}`);
    return c.json(renderChange(world, network, change));
  });
}

export const networksArea: Area = {
  name: "fabric-networks",
  define(world) {
    world.defineKind(KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.network",
      subject: (o) => networkHref(o.uuid),
      render: (body, obj, w) => ({ ...body, connectionsCount: connectionsOf(w, obj.uuid).length }),
    });
  },
  routes,
};
