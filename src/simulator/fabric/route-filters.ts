// Route filters (sections 2.3, 3.1, 4.3 and 8 of the specification; official: /fabric/v4/routeFilters):
// create, get, search, patch (rename), delete, the change history of each filter, the connections it is
// attached to, and (in route-filter-attachments.ts) attaching it to connections.
//
// A deleted filter stays readable by GET with state DEPROVISIONED (the official state list has that final
// state and no "gone"); search leaves DEPROVISIONED filters out unless the filter asks about /state.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, findVisible, projectFor, type Area, type SimApp, type SimEnv } from "../core/context.js";
import {
  ROUTE_FILTER_KIND,
  LIST_LIMITS,
  attachmentRoutes,
  defineAttachmentKind,
  liveAttachmentsOfFilter,
} from "./route-filter-attachments.js";
import {
  bodyPage,
  changeLogUpdate,
  compileFilter,
  newChangeLog,
  paginate,
  pageLink,
  queryPage,
  readArray,
  readObject,
  rejectUnknownQuery,
  sortBy,
  type Actor,
} from "../core/http.js";
import { iso } from "../core/clock.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

type FilterType = "BGP_IPv4_PREFIX_FILTER" | "BGP_IPv6_PREFIX_FILTER";
const FILTER_TYPES: readonly FilterType[] = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"];

type FilterState = "PROVISIONING" | "REPROVISIONING" | "DEPROVISIONING" | "PROVISIONED" | "DEPROVISIONED" | "NOT_PROVISIONED" | "NOT_DEPROVISIONED";
type ChangeKind = "CREATION" | "UPDATE" | "DELETION";
type ChangeStatus = "REQUESTED" | "COMPLETED" | "FAILED";

/** Simulated durations: a filter is configuration only, so its changes take seconds. */
const PROVISION_MS = 5_000;
const REPROVISION_MS = 3_000;
const DEPROVISION_MS = 5_000;

/**
 * The fields a PATCH may replace. The official description's example error says "Only replace name
 * operation is supported"; netform's contract (and the service's console) also changes the description
 * in place, so both are accepted, and nothing else.
 */
const PATCHABLE_PATHS = ["/name", "/description"] as const;
type PatchablePath = (typeof PATCHABLE_PATHS)[number];

const SEARCH_RULES = {
  properties: ["/type", "/name", "/project/projectId", "/uuid", "/state"],
  // The specification names = and like; the official examples also use IN.
  operators: ["=", "like", "IN"],
} as const;
const SORT_PROPERTIES = ["/type", "/uuid", "/name", "/project/projectId", "/state", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime"] as const;
const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];

const filterHref = (uuid: string) => `/fabric/v4/routeFilters/${uuid}`;
const changeHref = (uuid: string, changeUuid: string) => `${filterHref(uuid)}/changes/${changeUuid}`;

function stateOf(world: World, filter: SimObject): FilterState {
  return world.view(filter).state as FilterState;
}

/**
 * The states a change moves through: at once to `transient`, on the clock to `done`, or to `failed` when a
 * transition fault is injected (the official state list's NOT_ states).
 */
function statesOf(kind: ChangeKind): { transient: FilterState; done: FilterState; failed: FilterState } {
  switch (kind) {
    case "CREATION":
      return { transient: "PROVISIONING", done: "PROVISIONED", failed: "NOT_PROVISIONED" };
    case "UPDATE":
      return { transient: "REPROVISIONING", done: "PROVISIONED", failed: "NOT_PROVISIONED" };
    case "DELETION":
      return { transient: "DEPROVISIONING", done: "DEPROVISIONED", failed: "NOT_DEPROVISIONED" };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

// ── change records (GET /routeFilters/{id}/changes) ─────────────────────────────────────────

/** What a change record keeps besides its rendered fields: when it completes and whether it fails. */
interface StoredChange extends JsonObject {
  uuid: string;
  type: string;
  completesAt: number;
  failed: boolean;
}

const storedChanges = (filter: SimObject): StoredChange[] => (filter.meta.changes ?? []) as StoredChange[];

/** The request as the change history shows it: the filter's base fields after the change. */
function baseOf(body: JsonObject): JsonObject {
  const base: JsonObject = { type: body.type ?? null, project: { projectId: (body.project as JsonObject).projectId ?? null } };
  if (typeof body.name === "string") base.name = body.name;
  if (typeof body.description === "string") base.description = body.description;
  return base;
}

/**
 * Starts a change of the filter (states per `statesOf`) and keeps a change record that the filter's
 * `change` references. Returns the filter as the service answers the accepted request: in its transient state, even when the
 * fast clock of a test has already moved past it.
 */
function startChange(world: World, filter: SimObject, actor: Actor, kind: ChangeKind, operation: JsonObject, set: Record<string, Json>, durationMs: number): JsonObject {
  const changeUuid = world.uuid();
  const type = `${String(filter.body.type)}_${kind}`;
  const { transient, done, failed } = statesOf(kind);
  world.transition(
    filter,
    { ...set, "/state": transient, "/change": { uuid: changeUuid, type, href: changeHref(filter.uuid, changeUuid) } },
    [{ afterMs: durationMs, set: { "/state": done } }],
    { "/state": failed },
  );
  const last = filter.phases[filter.phases.length - 1];
  const change: StoredChange = {
    uuid: changeUuid,
    type,
    completesAt: last?.at ?? world.now(),
    failed: last?.set["/state"] === failed,
    createdBy: actor.userName,
    createdByFullName: actor.fullName,
    createdByEmail: actor.email,
    createdDateTime: world.nowIso(),
    data: { ...operation, value: baseOf(world.view(filter)) },
  };
  filter.meta.changes = [...storedChanges(filter), change];
  return { ...world.view(filter), state: transient };
}

function renderChange(world: World, filter: SimObject, change: StoredChange): JsonObject {
  const { completesAt, failed, ...fields } = change;
  const finished = completesAt <= world.now();
  const status: ChangeStatus = !finished ? "REQUESTED" : failed ? "FAILED" : "COMPLETED";
  return {
    href: changeHref(filter.uuid, change.uuid),
    ...fields,
    status,
    ...(finished ? { updatedBy: "_system", updatedDateTime: iso(completesAt) } : {}),
  };
}

// ── request validation ───────────────────────────────────────────────────────────────────

function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return fail("invalidProperty", field, `${field} must be a string`, JSON.stringify(value));
  return value;
}

function readType(body: JsonObject): FilterType {
  const type = body.type;
  if (type === undefined || type === null) return fail("missingProperty", "type", `type is required (${FILTER_TYPES.join(", ")})`);
  if (typeof type !== "string" || !(FILTER_TYPES as readonly string[]).includes(type)) {
    return fail("notInAllowedList", "type", `type must be one of ${FILTER_TYPES.join(", ")}`, String(type));
  }
  return type as FilterType;
}

function readProjectId(c: Context<SimEnv>, body: JsonObject): string {
  const project = body.project;
  if (project === undefined || project === null) return fail("missingProperty", "/project/projectId", "project.projectId is required");
  if (typeof project !== "object" || Array.isArray(project)) return fail("invalidProperty", "/project", "project must be an object {projectId}");
  if (project.projectId === undefined || project.projectId === null) return fail("missingProperty", "/project/projectId", "project.projectId is required");
  return projectFor(c.get("principal"), project.projectId);
}

/** The replacements a PATCH body asks for: `replace` of /name (non-empty) or /description, nothing else. */
function readReplacements(operations: Json[]): Array<{ path: PatchablePath; value: string }> {
  if (operations.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
  return operations.map((raw, i) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return fail("invalidProperty", `/${i}`, "each operation must be an object {op, path, value}");
    for (const field of ["op", "path", "value"]) {
      if (raw[field] === undefined || raw[field] === null) fail("missingProperty", `/${i}/${field}`, `${field} is required`);
    }
    const supported = `Only replace of ${PATCHABLE_PATHS.join(" and ")} is supported.`;
    if (raw.op !== "replace") fail("routeFilterInvalidOperation", `/${i}/op`, supported, String(raw.op));
    if (!(PATCHABLE_PATHS as readonly Json[]).includes(raw.path ?? null)) fail("routeFilterInvalidOperation", `/${i}/path`, supported, String(raw.path));
    const path = raw.path as PatchablePath;
    if (typeof raw.value !== "string" || (path === "/name" && raw.value.trim() === "")) {
      fail("invalidProperty", `/${i}/value`, path === "/name" ? "the name must be a non-empty string" : "the description must be a string", JSON.stringify(raw.value));
    }
    return { path, value: raw.value as string };
  });
}

/** Whether a search filter says anything about /state (then DEPROVISIONED filters are not left out). */
function mentionsState(filter: Json | undefined): boolean {
  if (filter === null || typeof filter !== "object") return false;
  if (Array.isArray(filter)) return filter.some(mentionsState);
  return filter.property === "/state" || mentionsState(filter.and) || mentionsState(filter.or);
}

function requireState(world: World, filter: SimObject, allowed: readonly FilterState[], action: string): void {
  const state = stateOf(world, filter);
  if (!allowed.includes(state)) {
    fail("invalidProperty", "routeFilterId", `route filter ${filter.uuid} is ${state}; it can be ${action} only when ${allowed.join(" or ")}`, state);
  }
}

/** A connection as the filter's connection list shows it: href, type, uuid and name, where it has them. */
function connectionSummary(world: World, connectionUuid: string): JsonObject {
  const connection = world.view(world.get(connectionUuid)!);
  const summary: JsonObject = { href: `/fabric/v4/connections/${connectionUuid}`, uuid: connectionUuid };
  for (const field of ["href", "type", "name"]) {
    if (typeof connection[field] === "string") summary[field] = connection[field];
  }
  return summary;
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function routes(app: SimApp, world: World): void {
  const find = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), ROUTE_FILTER_KIND, c.req.param("routeFilterId") ?? "", "routeFilterId");

  app.post("/fabric/v4/routeFilters", async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const principal = c.get("principal");
    const type = readType(body);
    const projectId = readProjectId(c, body);
    const name = optionalString(body, "name");
    const description = optionalString(body, "description");
    const uuid = world.uuid();
    const filter = world.create(
      ROUTE_FILTER_KIND,
      {
        href: filterHref(uuid),
        type,
        uuid,
        ...(name === undefined ? {} : { name }),
        ...(description === undefined ? {} : { description }),
        notMatchedRuleAction: "DENY",
        project: { projectId, href: `/resourceManager/v1/projects/${projectId}` },
        changeLog: newChangeLog(principal, world.nowIso()),
      },
      { uuid, projectId },
    );
    return c.json(startChange(world, filter, principal, "CREATION", { op: "add", path: "/" }, {}, PROVISION_MS), 202);
  });

  app.post("/fabric/v4/routeFilters/search", async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    if (body.filter === undefined || body.filter === null) fail("missingProperty", "/filter", "filter is required");
    const matches = compileFilter(body.filter, SEARCH_RULES);
    const page = bodyPage(body.pagination, LIST_LIMITS);
    const includeDeleted = mentionsState(body.filter);
    const principal = c.get("principal");
    const found = world
      .list(ROUTE_FILTER_KIND)
      .filter((o) => canSee(principal, o))
      .map((o) => world.view(o))
      .filter((v) => (includeDeleted || v.state !== "DEPROVISIONED") && matches(v));
    const sorted = sortBy(found, body.sort ?? DEFAULT_SORT, SORT_PROPERTIES);
    return c.json(paginate(sorted, page, pageLink(c)));
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId", (c) => {
    rejectUnknownQuery(c, []);
    return c.json(world.view(find(c)));
  });

  app.patch("/fabric/v4/routeFilters/:routeFilterId", async (c) => {
    rejectUnknownQuery(c, []);
    const operations = await readArray(c);
    const filter = find(c);
    const replacements = readReplacements(operations);
    requireState(world, filter, ["PROVISIONED", "NOT_PROVISIONED"], "changed");
    const principal = c.get("principal");
    const set = Object.fromEntries(replacements.map((r) => [r.path, r.value]));
    const last = replacements[replacements.length - 1]!;
    const accepted = startChange(world, filter, principal, "UPDATE", { op: "replace", path: last.path }, { ...set, ...changeLogUpdate(principal, world.nowIso()) }, REPROVISION_MS);
    return c.json(accepted, 202);
  });

  app.delete("/fabric/v4/routeFilters/:routeFilterId", (c) => {
    rejectUnknownQuery(c, []);
    const filter = find(c);
    requireState(world, filter, ["PROVISIONED", "NOT_PROVISIONED", "NOT_DEPROVISIONED"], "deleted");
    const attached = liveAttachmentsOfFilter(world, filter.uuid);
    if (attached.length > 0) {
      const connections = attached.map((a) => String(a.meta.connectionUuid)).join(", ");
      fail("routeFilterStillAttached", "routeFilterId", `route filter ${filter.uuid} is attached to connection(s) ${connections}; detach it first`);
    }
    const principal = c.get("principal");
    const stamp = { ...changeLogUpdate(principal, world.nowIso()), ...changeLogUpdate(principal, world.nowIso(), true) };
    return c.json(startChange(world, filter, principal, "DELETION", { op: "remove", path: "/" }, stamp, DEPROVISION_MS), 202);
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/changes", (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const filter = find(c);
    const changes = storedChanges(filter).map((ch) => renderChange(world, filter, ch));
    return c.json(paginate(changes, page, pageLink(c)));
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/changes/:changeId", (c) => {
    rejectUnknownQuery(c, []);
    const filter = find(c);
    const changeId = c.req.param("changeId");
    const change = storedChanges(filter).find((ch) => ch.uuid === changeId);
    if (!change) return fail("notFound", "changeId", `route filter ${filter.uuid} has no change ${changeId}`);
    return c.json(renderChange(world, filter, change));
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/connections", (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const filter = find(c);
    const connections = liveAttachmentsOfFilter(world, filter.uuid).map((a) => connectionSummary(world, String(a.meta.connectionUuid)));
    return c.json(paginate(connections, page, pageLink(c)));
  });

  attachmentRoutes(app, world);
}

export const routeFiltersArea: Area = {
  name: "fabric-route-filters",
  define(world) {
    world.defineKind(ROUTE_FILTER_KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.route_filter",
      subject: (o) => filterHref(o.uuid),
      render: (body, obj, w) => ({ ...body, connectionsCount: liveAttachmentsOfFilter(w, obj.uuid).length }),
    });
    defineAttachmentKind(world);
  },
  routes,
};
