// Route filters (sections 2.3, 3.1, 4.3 and 8 of the specification; official: /fabric/v4/routeFilters):
// create, get, search, patch (rename), delete, the change history of each filter, the connections it is
// attached to, its prefix rules (prefix-rules.ts) and (in route-filter-attachments.ts) attaching it to
// connections.
//
// A deleted filter stays readable by GET with state DEPROVISIONED (the official state list has that final
// state and no "gone"); search leaves DEPROVISIONED filters out unless the filter asks about /state.
// Deleting a filter deletes its rules with it.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, findVisible, type Area, type SimApp, type SimEnv } from "../core/context.js";
import {
  ROUTE_FILTER_KIND,
  LIST_LIMITS,
  attachmentRoutes,
  defineAttachmentKind,
  liveAttachmentsOfFilter,
} from "./route-filter-attachments.js";
import { bodyPage, changeLogUpdate, compileFilter, newChangeLog, paginate, pageLink, queryPage, readArray, readObject, rejectUnknownQuery, sortBy, viewResponse } from "../core/http.js";
import type { Json, JsonObject, World } from "../core/world.js";
import { changeOf, changesOf, startChange } from "./change-records.js";
import { connectionSummary, mentionsState, optionalString, readProjectId, readReplacements, readType, requireState } from "./policy-requests.js";
import { prefixRules } from "./prefix-rules.js";
import { checkFilterGrowth } from "./router-routes.js";

type FilterType = "BGP_IPv4_PREFIX_FILTER" | "BGP_IPv6_PREFIX_FILTER";
const FILTER_TYPES: readonly FilterType[] = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"];

/** Simulated durations: a filter is configuration only, so its changes take seconds. */
const PROVISION_MS = 5_000;
const REPROVISION_MS = 3_000;
const DEPROVISION_MS = 5_000;

const SEARCH_RULES = {
  properties: ["/type", "/name", "/project/projectId", "/uuid", "/state"],
  // The specification names = and like; the official examples also use IN.
  operators: ["=", "like", "IN"],
} as const;
const SORT_PROPERTIES = ["/type", "/uuid", "/name", "/project/projectId", "/state", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime"] as const;
const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];

const filterHref = (uuid: string) => `/fabric/v4/routeFilters/${uuid}`;

/** The request as the change history shows it: the filter's base fields after the change. */
function baseOf(body: JsonObject): JsonObject {
  const base: JsonObject = { type: body.type ?? null, project: { projectId: (body.project as JsonObject).projectId ?? null } };
  if (typeof body.name === "string") base.name = body.name;
  if (typeof body.description === "string") base.description = body.description;
  return base;
}

export const routeFilterRules = prefixRules({
  kind: "routeFilterRules",
  parentKind: ROUTE_FILTER_KIND,
  parentBase: "/fabric/v4/routeFilters",
  segment: "routeFilterRules",
  parentParam: "routeFilterId",
  ruleParam: "routeFilterRuleId",
  noun: "route filter rule",
  parentNoun: "route filter",
  eventType: "equinix.fabric.route_filter_rule",
  prefixMatch: true,
  action: "PERMIT",
  checkGrowth: checkFilterGrowth,
  ruleTypeFor: (type) => (type === "BGP_IPv6_PREFIX_FILTER" ? { type: "BGP_IPv6_PREFIX_FILTER_RULE", family: 6 } : { type: "BGP_IPv4_PREFIX_FILTER_RULE", family: 4 }),
});

// ── routes ───────────────────────────────────────────────────────────────────────────────

function routes(app: SimApp, world: World): void {
  const find = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), ROUTE_FILTER_KIND, c.req.param("routeFilterId") ?? "", "routeFilterId");

  app.post("/fabric/v4/routeFilters", async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const principal = c.get("principal");
    const type = readType(body, FILTER_TYPES);
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
    return c.json(startChange(world, filter, principal, "CREATION", { op: "add", path: "/" }, {}, PROVISION_MS, baseOf), 202);
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
    return viewResponse(c, world.view(find(c)));
  });

  app.patch("/fabric/v4/routeFilters/:routeFilterId", async (c) => {
    rejectUnknownQuery(c, []);
    const operations = await readArray(c);
    const filter = find(c);
    const replacements = readReplacements(operations);
    requireState(world, filter, ["PROVISIONED", "NOT_PROVISIONED"], "changed", "routeFilterId", "route filter");
    const principal = c.get("principal");
    const set = Object.fromEntries(replacements.map((r) => [r.path, r.value]));
    const last = replacements[replacements.length - 1]!;
    const accepted = startChange(world, filter, principal, "UPDATE", { op: "replace", path: last.path }, { ...set, ...changeLogUpdate(principal, world.nowIso()) }, REPROVISION_MS, baseOf);
    return c.json(accepted, 202);
  });

  app.delete("/fabric/v4/routeFilters/:routeFilterId", (c) => {
    rejectUnknownQuery(c, []);
    const filter = find(c);
    requireState(world, filter, ["PROVISIONED", "NOT_PROVISIONED", "NOT_DEPROVISIONED"], "deleted", "routeFilterId", "route filter");
    const attached = liveAttachmentsOfFilter(world, filter.uuid);
    if (attached.length > 0) {
      const connections = attached.map((a) => String(a.meta.connectionUuid)).join(", ");
      fail("routeFilterStillAttached", "routeFilterId", `route filter ${filter.uuid} is attached to connection(s) ${connections}; detach it first`);
    }
    const principal = c.get("principal");
    const stamp = { ...changeLogUpdate(principal, world.nowIso()), ...changeLogUpdate(principal, world.nowIso(), true) };
    const accepted = startChange(world, filter, principal, "DELETION", { op: "remove", path: "/" }, stamp, DEPROVISION_MS, baseOf);
    routeFilterRules.deleteRulesWith(world, filter, principal);
    return c.json(accepted, 202);
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/changes", (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const filter = find(c);
    return c.json(paginate(changesOf(world, filter), page, pageLink(c)));
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/changes/:changeId", (c) => {
    rejectUnknownQuery(c, []);
    const filter = find(c);
    return c.json(changeOf(world, filter, c.req.param("changeId"), "route filter"));
  });

  app.get("/fabric/v4/routeFilters/:routeFilterId/connections", (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const filter = find(c);
    const connections = liveAttachmentsOfFilter(world, filter.uuid).map((a) => connectionSummary(world, String(a.meta.connectionUuid)));
    return c.json(paginate(connections, page, pageLink(c)));
  });

  attachmentRoutes(app, world);
  routeFilterRules.routes(app, world);
}

export const routeFiltersArea: Area = {
  name: "fabric-route-filters",
  define(world) {
    world.defineKind(ROUTE_FILTER_KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.route_filter",
      subject: (o) => filterHref(o.uuid),
      render: (body, obj, w) => ({ ...body, connectionsCount: liveAttachmentsOfFilter(w, obj.uuid).length, rulesCount: routeFilterRules.liveRulesOf(w, obj.uuid).length }),
    });
    defineAttachmentKind(world);
    routeFilterRules.define(world);
  },
  routes,
};
