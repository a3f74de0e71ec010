// Cloud events (section 6 of the specification; official: /fabric/v4/cloudevents and
// /fabric/v4/{asset}/{assetId}/cloudevents). The world records an event for every state change of every
// object; this area reads them back in the official CloudEvent shape: per asset (service token, company
// profile, project, organization), by search, and one by one. A caller sees only the events of objects
// it may see (its projects, and objects that belong to no project).

import type { Context } from "hono";
import { CLIENTS, ORG_ID } from "../core/auth.js";
import { iso } from "../core/clock.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { PORTAL_USER } from "../core/control.js";
import { fail } from "../core/errors.js";
import { bodyPage, paginate, pageLink, queryPage, readObject, rejectUnknownQuery, type PageLimits } from "../core/http.js";
import { getPointer, type CloudEventRecord, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

/** The assets the specification serves events for by path; others are reached through search. */
const ASSETS = ["serviceTokens", "companyProfiles", "projects", "organizations"] as const;
type Asset = (typeof ASSETS)[number];

/** The official `limit` parameter of the asset call defaults to 100; pages hold at most 100. */
const ASSET_LIMITS: PageLimits = { defaultLimit: 100, maxLimit: 100 };
const SEARCH_LIMITS: PageLimits = { defaultLimit: 20, maxLimit: 100 };

const DATASCHEMA = "https://equinix.github.io/equinix-cloudevents/jsonschema/equinix/fabric/v1/ChangeEvent.json";
const SYSTEM_ACTOR = "system";

/** Who acted, by user name: the seeded clients' users and the portal user of out-of-band changes. */
const USERS = new Map<string, { fullName: string; email: string }>([
  ...Object.values(CLIENTS).map((client) => [client.principal.userName, client.principal] as const),
  [PORTAL_USER.userName, PORTAL_USER],
]);

const canSeeEvent = (principal: Principal, event: CloudEventRecord) => event.projectId === undefined || principal.projectIds.includes(event.projectId);

// ── rendering ────────────────────────────────────────────────────────────────────────────

/** State events carry the new state in their type, as the official examples do (`...state.provisioned`). */
function eventType(event: CloudEventRecord): string {
  return event.type.endsWith(".state") && event.state ? `${event.type}.${event.state.toLowerCase()}` : event.type;
}

function isFailure(state: string | undefined): boolean {
  return state !== undefined && (state.includes("FAILED") || state.startsWith("NOT_"));
}

function authOf(actor: string): { top: JsonObject; data: JsonObject } {
  if (actor === SYSTEM_ACTOR) return { top: { authtype: "system", authid: "equinix" }, data: { authtype: "system", authid: "equinix" } };
  const user = USERS.get(actor);
  return {
    top: { authtype: "user", authid: actor },
    data: { authtype: "user", ...(user ? { name: user.fullName, email: user.email } : {}) },
  };
}

/** The resource an event is about, as its body names it (an attachment shows its filter's uuid). */
function resourceOf(event: CloudEventRecord, obj: SimObject | undefined): JsonObject {
  const body = obj?.body ?? {};
  return {
    href: event.subject,
    uuid: typeof body.uuid === "string" ? body.uuid : event.assetUuid,
    type: typeof body.type === "string" ? body.type : event.assetKind,
    ...(event.name === undefined ? {} : { name: event.name }),
    ...(event.state === undefined ? {} : { state: event.state }),
  };
}

function renderEvent(event: CloudEventRecord, objects: Map<string, SimObject>): JsonObject {
  const auth = authOf(event.actor);
  const failure = isFailure(event.state);
  const about = event.name === undefined ? `${event.assetKind} ${event.assetUuid}` : `${event.assetKind} named ${event.name}`;
  return {
    specversion: "1.0",
    source: event.source,
    id: event.id,
    type: eventType(event),
    subject: event.subject,
    time: iso(event.time),
    dataschema: DATASCHEMA,
    datacontenttype: "application/json",
    severitynumber: failure ? "17" : "9",
    severitytext: failure ? "ERROR" : "INFO",
    equinixorganization: ORG_ID,
    ...(event.projectId === undefined ? {} : { equinixproject: event.projectId }),
    ...auth.top,
    data: { message: `${about} ${event.message}`, resource: resourceOf(event, objects.get(event.assetUuid)), auth: auth.data },
  };
}

/** The visible events, rendered, oldest first. */
function renderedEvents(world: World, principal: Principal, include: (e: CloudEventRecord) => boolean = () => true): JsonObject[] {
  const objects = new Map(world.allObjects().map((o) => [o.uuid, o]));
  return world
    .visibleEvents()
    .filter((e) => canSeeEvent(principal, e) && include(e))
    .map((e) => renderEvent(e, objects));
}

// ── GET /fabric/v4/{asset}/{assetId}/cloudevents ──────────────────────────────────────────

function readTimestamp(raw: string | undefined, property: string): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) return fail("invalidQueryParameter", property, `${property} must be a date-time such as 2025-03-20T13:13:12Z`, raw);
  return ms;
}

function readAsset(raw: string): Asset {
  if (!(ASSETS as readonly string[]).includes(raw)) {
    return fail("notInAllowedList", "asset", `events are read by asset for ${ASSETS.join(", ")}; search /fabric/v4/cloudevents/search for others`, raw);
  }
  return raw as Asset;
}

/** Which events belong to the asset, once the caller's right to read the asset is checked. */
function assetEvents(world: World, principal: Principal, asset: Asset, assetId: string): (e: CloudEventRecord) => boolean {
  switch (asset) {
    case "projects": {
      if (!world.get(assetId, "projects")) return fail("notFound", "assetId", `project ${assetId} was not found`);
      // Specification 5.4: reading an asset's events needs read permission on the asset.
      if (!principal.projectIds.includes(assetId)) return fail("forbidden", "assetId", `${principal.userName} has no read permission on project ${assetId}`);
      return (e) => e.projectId === assetId;
    }
    case "organizations":
      if (assetId !== principal.orgId) return fail("notFound", "assetId", `organization ${assetId} was not found`);
      return () => true;
    case "serviceTokens":
    case "companyProfiles": {
      const obj = world.get(assetId, asset);
      if (!obj || !canSee(principal, obj)) return fail("notFound", "assetId", `${asset} ${assetId} was not found`);
      return (e) => e.assetUuid === assetId;
    }
    default: {
      const unreachable: never = asset;
      return unreachable;
    }
  }
}

function assetRoute(world: World) {
  return (c: Context<SimEnv>) => {
    rejectUnknownQuery(c, ["fromDateTime", "toDateTime", "offset", "limit"]);
    const asset = readAsset(c.req.param("asset") ?? "");
    const from = readTimestamp(c.req.query("fromDateTime"), "fromDateTime");
    const to = readTimestamp(c.req.query("toDateTime"), "toDateTime");
    if (from !== undefined && to !== undefined && from > to) fail("invalidQueryParameter", "fromDateTime", "fromDateTime must not be later than toDateTime", c.req.query("fromDateTime"));
    const page = queryPage(c, ASSET_LIMITS);
    const principal = c.get("principal");
    const belongs = assetEvents(world, principal, asset, c.req.param("assetId") ?? "");
    const inPeriod = (e: CloudEventRecord) => (from === undefined || e.time >= from) && (to === undefined || e.time <= to);
    const events = renderedEvents(world, principal, (e) => belongs(e) && inPeriod(e));
    return c.json(paginate(events, page, pageLink(c)));
  };
}

// ── POST /fabric/v4/cloudevents/search ────────────────────────────────────────────────────

type Operator = "=" | "!=" | "IN" | "NOT IN" | "BETWEEN" | ">" | ">=" | "<" | "<=";
const TEXT_OPERATORS: readonly Operator[] = ["=", "!=", "IN", "NOT IN"];
const TIME_OPERATORS: readonly Operator[] = ["=", "BETWEEN", ">", ">=", "<", "<="];
const SEARCH_PROPERTIES = ["/id", "/type", "/subject", "/time", "/equinixproject", "/equinixorganization", "/authid", "/authtype", "/severitytext"] as const;

/** A subject must name a first-level resource by uuid: /{service}/{version}/{resources}/{uuid}... */
const SUBJECT_PATTERN = /^\/[^/]+\/v\d+\/[^/]+\/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(\/|\*|$)/;

type Predicate = (event: JsonObject) => boolean;

/** `=`/`IN` on text match exactly, or by prefix when the value ends with `*` (e.g. `equinix.fabric.port.*`). */
function textMatcher(values: string[]): (actual: string) => boolean {
  return (actual) => values.some((v) => (v.endsWith("*") ? actual.startsWith(v.slice(0, -1)) : actual === v));
}

function compileText(property: string, operator: Operator, values: string[], path: string): Predicate {
  if (!TEXT_OPERATORS.includes(operator)) return fail("notInAllowedList", `${path}/operator`, `${property} takes ${TEXT_OPERATORS.join(", ")}`, operator);
  if (property === "/subject") {
    values.forEach((v, i) => {
      if (!SUBJECT_PATTERN.test(v)) fail("invalidProperty", `${path}/values/${i}`, "a subject must carry a first-level resource uuid, e.g. /fabric/v4/connections/{uuid}*", v);
    });
  }
  const matches = textMatcher(values);
  const read = (event: JsonObject) => String(getPointer(event, property) ?? "");
  return operator === "=" || operator === "IN" ? (e) => matches(read(e)) : (e) => !matches(read(e));
}

function compileTime(operator: Operator, values: string[], path: string): Predicate {
  if (!TIME_OPERATORS.includes(operator)) return fail("notInAllowedList", `${path}/operator`, `/time takes ${TIME_OPERATORS.join(", ")}`, operator);
  const times = values.map((v, i) => {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? fail("invalidProperty", `${path}/values/${i}`, "a time must be a date-time such as 2025-03-20T13:13:12Z", v) : ms;
  });
  if (operator === "BETWEEN" && times.length !== 2) fail("invalidProperty", `${path}/values`, "BETWEEN takes exactly two timestamps");
  const [a, b] = times as [number, number];
  const at = (event: JsonObject) => Date.parse(String(event.time));
  switch (operator) {
    case "BETWEEN":
      return (e) => at(e) >= Math.min(a, b) && at(e) <= Math.max(a, b);
    case "=":
      return (e) => times.includes(at(e));
    case ">":
      return (e) => at(e) > a;
    case ">=":
      return (e) => at(e) >= a;
    case "<":
      return (e) => at(e) < a;
    case "<=":
      return (e) => at(e) <= a;
    default:
      return fail("notInAllowedList", `${path}/operator`, `/time takes ${TIME_OPERATORS.join(", ")}`, operator);
  }
}

function compileExpression(raw: Json, path: string): Predicate {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return fail("invalidProperty", path, "each filter must be an object {property, operator, values}");
  const { property, operator, values } = raw;
  if (typeof property !== "string") return fail("missingProperty", `${path}/property`, "property is required");
  if (!(SEARCH_PROPERTIES as readonly string[]).includes(property)) {
    return fail("unsupportedSearchProperty", `${path}/property`, `unsupported search property ${property}; supported: ${SEARCH_PROPERTIES.join(", ")}`, property);
  }
  if (typeof operator !== "string") return fail("missingProperty", `${path}/operator`, "operator is required");
  if (!Array.isArray(values) || values.length === 0) return fail("missingProperty", `${path}/values`, "values must be a non-empty array");
  values.forEach((v, i) => {
    if (typeof v !== "string" && typeof v !== "number") fail("invalidProperty", `${path}/values/${i}`, "values must be strings", JSON.stringify(v));
  });
  const texts = values.map(String);
  return property === "/time" ? compileTime(operator as Operator, texts, path) : compileText(property, operator as Operator, texts, path);
}

function compileSearch(filter: Json | undefined): Predicate {
  if (filter === undefined || filter === null) return fail("missingProperty", "/filter", "filter is required");
  if (typeof filter !== "object" || Array.isArray(filter) || !Array.isArray(filter.and) || filter.and.length === 0) {
    return fail("invalidProperty", "/filter/and", "filter must be {and: [{property, operator, values}, ...]}");
  }
  const parts = filter.and.map((expression, i) => compileExpression(expression, `/filter/and/${i}`));
  return (event) => parts.every((p) => p(event));
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function routes(app: SimApp, world: World): void {
  app.post("/fabric/v4/cloudevents/search", async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const matches = compileSearch(body.filter);
    const page = bodyPage(body.pagination, SEARCH_LIMITS);
    const events = renderedEvents(world, c.get("principal")).filter(matches);
    return c.json(paginate(events, page));
  });

  app.get("/fabric/v4/cloudevents/:cloudEventId", (c) => {
    rejectUnknownQuery(c, []);
    const id = c.req.param("cloudEventId");
    const [event] = renderedEvents(world, c.get("principal"), (e) => e.id === id);
    if (!event) return fail("notFound", "cloudEventId", `cloud event ${id} was not found`);
    return c.json(event);
  });

  app.get("/fabric/v4/:asset/:assetId/cloudevents", assetRoute(world));
}

export const cloudEventsArea: Area = { name: "cloud-events", routes };
