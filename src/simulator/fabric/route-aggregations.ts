// Route aggregations (official: /fabric/v4/routeAggregations): named BGP prefix aggregation policies of a
// project, the same kind of object as a route filter under another path. Create, get, search, patch
// (rename), delete, the change history of each aggregation, the connections it is attached to, its rules
// (prefix-rules.ts) and (in route-aggregation-attachments.ts) attaching it to connections.
//
// As for filters: a deleted aggregation stays readable by GET as DEPROVISIONED, search leaves it out unless
// the filter asks about /state, its rules are deleted with it, and it cannot be deleted while attached.
// The description types aggregation rules IPv4 only: an IPv6 aggregation can be created, as the create
// request allows, but takes no rules and attaches to no connection.

import type { Context } from "hono";
import { canSee, findVisible, type Area, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { bodyPage, changeLogUpdate, compileFilter, newChangeLog, paginate, pageLink, queryPage, readArray, readObject, rejectUnknownQuery, sortedPage } from "../core/http.js";
import type { Json, JsonObject, World } from "../core/world.js";
import { changeOf, changesOf, startChange } from "./change-records.js";
import { connectionSummary, mentionsState, optionalString, readProjectId, readReplacements, readType, requireState } from "./policy-requests.js";
import { prefixRules } from "./prefix-rules.js";
import {
  ROUTE_AGGREGATION_KIND,
  aggregationAttachmentRoutes,
  defineAggregationAttachmentKind,
  liveAttachmentsOfAggregation,
} from "./route-aggregation-attachments.js";
import { LIST_LIMITS } from "./route-filter-attachments.js";

const AGGREGATION_TYPES = ["BGP_IPv4_PREFIX_AGGREGATION", "BGP_IPv6_PREFIX_AGGREGATION"] as const;

/** Simulated durations: like a filter, an aggregation is configuration only. */
const PROVISION_MS = 5_000;
const REPROVISION_MS = 3_000;
const DEPROVISION_MS = 5_000;

const SEARCH_RULES = {
  properties: ["/type", "/name", "/project/projectId", "/uuid", "/state"],
  operators: ["=", "!=", "IN", "NOT IN", "LIKE", "ILIKE"],
} as const;
const SORT_PROPERTIES = ["/type", "/uuid", "/name", "/project/projectId", "/state", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/changeLog/deletedDateTime"] as const;
const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];

const BASE = "/fabric/v4/routeAggregations";

/** The request as the change history shows it: the aggregation's base fields after the change. */
function baseOf(body: JsonObject): JsonObject {
  const base: JsonObject = { type: body.type ?? null, name: body.name ?? null, project: { projectId: (body.project as JsonObject).projectId ?? null } };
  if (typeof body.description === "string") base.description = body.description;
  return base;
}

export const routeAggregationRules = prefixRules({
  kind: "routeAggregationRules",
  parentKind: ROUTE_AGGREGATION_KIND,
  parentBase: BASE,
  segment: "routeAggregationRules",
  parentParam: "routeAggregationId",
  ruleParam: "routeAggregationRuleId",
  noun: "route aggregation rule",
  parentNoun: "route aggregation",
  eventType: "equinix.fabric.route_aggregation_rule",
  prefixMatch: false,
  ruleTypeFor: (type) =>
    type === "BGP_IPv4_PREFIX_AGGREGATION"
      ? { type: "BGP_IPv4_PREFIX_AGGREGATION_RULE", family: 4 }
      : { refused: `route aggregation rules are IPv4 only (BGP_IPv4_PREFIX_AGGREGATION_RULE); this aggregation is ${type}` },
});

function requiredName(body: JsonObject): string {
  const name = optionalString(body, "name");
  if (name === undefined || name.trim() === "") return fail("missingProperty", "name", "name is required");
  return name;
}

function routes(app: SimApp, world: World): void {
  const find = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), ROUTE_AGGREGATION_KIND, c.req.param("routeAggregationId") ?? "", "routeAggregationId");

  app.post(BASE, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const principal = c.get("principal");
    const type = readType(body, AGGREGATION_TYPES);
    const name = requiredName(body);
    const projectId = readProjectId(c, body);
    const description = optionalString(body, "description");
    const uuid = world.uuid();
    const aggregation = world.create(
      ROUTE_AGGREGATION_KIND,
      {
        href: `${BASE}/${uuid}`,
        type,
        uuid,
        name,
        ...(description === undefined ? {} : { description }),
        project: { projectId, href: `/resourceManager/v1/projects/${projectId}` },
        changeLog: newChangeLog(principal, world.nowIso()),
      },
      { uuid, projectId },
    );
    return c.json(startChange(world, aggregation, principal, "CREATION", { op: "add", path: "/" }, {}, PROVISION_MS, baseOf), 202);
  });

  app.post(`${BASE}/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    if (body.filter === undefined || body.filter === null) fail("missingProperty", "/filter", "filter is required");
    const matches = compileFilter(body.filter, SEARCH_RULES);
    const page = bodyPage(body.pagination, LIST_LIMITS);
    const includeDeleted = mentionsState(body.filter);
    const principal = c.get("principal");
    const found = world
      .list(ROUTE_AGGREGATION_KIND)
      .filter((o) => canSee(principal, o))
      .map((o) => world.view(o))
      .filter((v) => (includeDeleted || v.state !== "DEPROVISIONED") && matches(v));
    return c.json(sortedPage(found, body.sort ?? DEFAULT_SORT, SORT_PROPERTIES, page, { link: pageLink(c) }));
  });

  app.get(`${BASE}/:routeAggregationId`, (c) => {
    rejectUnknownQuery(c, []);
    return c.json(world.view(find(c)));
  });

  app.patch(`${BASE}/:routeAggregationId`, async (c) => {
    rejectUnknownQuery(c, []);
    const operations = await readArray(c);
    const aggregation = find(c);
    const replacements = readReplacements(operations);
    requireState(world, aggregation, ["PROVISIONED", "NOT_PROVISIONED"], "changed", "routeAggregationId", "route aggregation");
    const principal = c.get("principal");
    const set = Object.fromEntries(replacements.map((r) => [r.path, r.value]));
    const last = replacements[replacements.length - 1]!;
    return c.json(startChange(world, aggregation, principal, "UPDATE", { op: "replace", path: last.path }, { ...set, ...changeLogUpdate(principal, world.nowIso()) }, REPROVISION_MS, baseOf), 202);
  });

  app.delete(`${BASE}/:routeAggregationId`, (c) => {
    rejectUnknownQuery(c, []);
    const aggregation = find(c);
    requireState(world, aggregation, ["PROVISIONED", "NOT_PROVISIONED", "NOT_DEPROVISIONED"], "deleted", "routeAggregationId", "route aggregation");
    const attached = liveAttachmentsOfAggregation(world, aggregation.uuid);
    if (attached.length > 0) {
      const connections = attached.map((a) => String(a.meta.connectionUuid)).join(", ");
      fail("routeAggregationStillAttached", "routeAggregationId", `route aggregation ${aggregation.uuid} is attached to connection(s) ${connections}; detach it first`);
    }
    const principal = c.get("principal");
    const stamp = { ...changeLogUpdate(principal, world.nowIso()), ...changeLogUpdate(principal, world.nowIso(), true) };
    const accepted = startChange(world, aggregation, principal, "DELETION", { op: "remove", path: "/" }, stamp, DEPROVISION_MS, baseOf);
    routeAggregationRules.deleteRulesWith(world, aggregation, principal);
    return c.json(accepted, 202);
  });

  app.get(`${BASE}/:routeAggregationId/changes`, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    return c.json(paginate(changesOf(world, find(c)), page, pageLink(c)));
  });

  app.get(`${BASE}/:routeAggregationId/changes/:changeId`, (c) => {
    rejectUnknownQuery(c, []);
    return c.json(changeOf(world, find(c), c.req.param("changeId"), "route aggregation"));
  });

  app.get(`${BASE}/:routeAggregationId/connections`, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const aggregation = find(c);
    const connections = liveAttachmentsOfAggregation(world, aggregation.uuid).map((a) => connectionSummary(world, String(a.meta.connectionUuid)));
    return c.json(paginate(connections, page, pageLink(c)));
  });

  aggregationAttachmentRoutes(app, world);
  routeAggregationRules.routes(app, world);
}

export const routeAggregationsArea: Area = {
  name: "fabric-route-aggregations",
  define(world) {
    world.defineKind(ROUTE_AGGREGATION_KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.route_aggregation",
      subject: (o) => `${BASE}/${o.uuid}`,
      render: (body, obj, w) => ({ ...body, connectionsCount: liveAttachmentsOfAggregation(w, obj.uuid).length, rulesCount: routeAggregationRules.liveRulesOf(w, obj.uuid).length }),
    });
    defineAggregationAttachmentKind(world);
    routeAggregationRules.define(world);
  },
  routes,
};
