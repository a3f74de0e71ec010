// Service tokens (official: /fabric/v4/serviceTokens): an authorisation an owner hands to a partner, who
// creates one connection with it to or from the owner's port, virtual device or network without seeing the
// owner's project. Create, get, list, search, patch (name, description, expiry, notifications, bandwidth),
// delete, and the resend action. A token is INACTIVE until a connection uses it, ACTIVE while that
// connection lives (it authorises one connection at a time), EXPIRED once its expiry passes unused, and
// DELETED after a delete, which only an unused token takes; a deleted token stays readable and search
// leaves it out unless the filter asks about /state. An unknown token is a 400 "Token not found", as the
// official description answers it. What a connection made with a token must meet lives in
// connection-rules.ts.

import type { Context } from "hono";
import { canSee, projectFor, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { bodyPage, changeLogUpdate, newChangeLog, paginate, pageLink, queryPage, readArray, readObject, rejectUnknownQuery, type SearchRules } from "../core/http.js";
import { cloneJson, setPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import {
  MAX_REQUEST_BANDWIDTH,
  accountOf,
  asEnum,
  asInteger,
  asObject,
  asString,
  checkVlanFree,
  liveConnectionsNaming,
  readNotifications,
  resolveAccessPoint,
  type AccessPointType,
  type RuleContext,
} from "./connection-rules.js";
import { compileSearch, mentions } from "./search.js";

const KIND = "serviceTokens";
const BASE = "/fabric/v4/serviceTokens";

const TOKEN_TYPES = ["VC_TOKEN", "EPL_TOKEN"] as const;
const CONNECTION_TYPES = ["EVPL_VC", "EPL_VC", "EVPLAN_VC", "EPLAN_VC", "IPWAN_VC", "IP_VC", "EVPTREE_VC", "EPTREE_VC"] as const;
type Side = "aSide" | "zSide";
/** An a-side token starts a connection at the owner's asset; a network is only ever a destination. */
const SELECTOR_TYPES: Readonly<Record<Side, readonly AccessPointType[]>> = { aSide: ["COLO", "VD"], zSide: ["COLO", "VD", "NETWORK"] };

const PATCH_PATHS = ["/name", "/description", "/expirationDateTime", "/notifications", "/notifications/emails", "/connection/bandwidthLimit", "/connection/supportedBandwidths"] as const;
type PatchPath = (typeof PATCH_PATHS)[number];

const SEARCH_RULES: SearchRules = {
  properties: ["/uuid", "/state", "/name", "/project/projectId", "/type", "/expirationDateTime", "/changeLog/createdDateTime", "/changeLog/updatedDateTime", "/connection/aSide/accessPointSelectors/port/uuid", "/connection/zSide/accessPointSelectors/port/uuid"],
  operators: ["=", "!=", "LIKE", "ILIKE", "<", ">", "<=", ">=", "IN", "NOT IN", "BETWEEN", "NOT BETWEEN"],
  // A token has one selector: the official property names the list, the value sits in its first item.
  aliases: {
    "/connection/aSide/accessPointSelectors/port/uuid": "/connection/aSide/accessPointSelectors/0/port/uuid",
    "/connection/zSide/accessPointSelectors/port/uuid": "/connection/zSide/accessPointSelectors/0/port/uuid",
  },
};
const PAGE_LIMITS = { defaultLimit: 20, maxLimit: 100 };

const tokenHref = (uuid: string) => `${BASE}/${uuid}`;

/** The live connection made with a token, if any. */
const connectionOf = (world: World, uuid: string): JsonObject | undefined => liveConnectionsNaming(world, "/serviceToken/uuid", uuid)[0];

/** The token, when the caller may manage it (its owner's projects). */
function ownToken(world: World, principal: Principal, uuid: string): SimObject {
  const token = world.get(uuid, KIND);
  if (!token || !canSee(principal, token)) return fail("serviceTokenNotFound", "serviceTokenId", `service token ${uuid} was not found`, uuid);
  return token;
}

// ── request fields ───────────────────────────────────────────────────────────────────────

function readExpiry(world: World, value: Json | undefined, path: string): string {
  const text = asString(value, path)!;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) return fail("invalidProperty", path, "must be a date-time such as 2030-01-31T00:00:00Z", text);
  if (at <= world.now()) fail("invalidFutureDate", path, "the expiry must be in the future", text);
  return new Date(at).toISOString();
}

function readBandwidths(value: Json | undefined, path: string): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) return fail("invalidProperty", path, "must be a non-empty array of bandwidths (Mbps)");
  return value.map((v, i) => asInteger(v, `${path}/${i}`, 1, MAX_REQUEST_BANDWIDTH)!);
}

function readBoolean(value: Json | undefined, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") return fail("invalidProperty", path, "must be true or false", JSON.stringify(value));
  return value;
}

/** The one access point selector of a token's side, resolved against the objects it names. */
function readSelector(ctx: RuleContext, raw: Json | undefined, side: Side, connectionType: string, tokenType: string): JsonObject {
  const path = `/connection/${side}/accessPointSelectors`;
  if (!Array.isArray(raw) || raw.length !== 1) return fail("invalidProperty", path, "a token's side takes exactly one access point selector");
  const selector = asObject(raw[0], `${path}/0`)!;
  const at = `${path}/0`;
  const type = asEnum(selector.type, SELECTOR_TYPES[side], `${at}/type`)!;
  const resolved = resolveAccessPoint(ctx, type, selector, at, false);
  const expected = type === "NETWORK" ? `${String((resolved.body.network as JsonObject).type)}_VC` : tokenType === "EPL_TOKEN" ? "EPL_VC" : "EVPL_VC";
  if (connectionType !== expected) fail("invalidProperty", "/connection/type", `a ${tokenType} on ${type === "NETWORK" ? `a ${String((resolved.body.network as JsonObject).type)} network` : `a ${type} access point`} is for ${expected} connections`, connectionType);
  if (resolved.vlan) checkVlanFree(ctx.world, resolved.vlan, `${at}/linkProtocol`);
  const pick = (fields: string[]): JsonObject => Object.fromEntries(fields.filter((f) => resolved.body[f] !== undefined).map((f) => [f, resolved.body[f]!]));
  const body = { type, ...pick(["port", "linkProtocol", "virtualDevice", "interface", "network"]) };
  return typeof selector.hideAssetInfo === "boolean" ? { ...body, hideAssetInfo: selector.hideAssetInfo } : body;
}

function readConnection(ctx: RuleContext, raw: Json | undefined, tokenType: string): JsonObject {
  const connection = asObject(raw, "/connection")!;
  const type = asEnum(connection.type, CONNECTION_TYPES, "/connection/type")!;
  const bandwidthLimit = asInteger(connection.bandwidthLimit, "/connection/bandwidthLimit", 1, MAX_REQUEST_BANDWIDTH, false);
  const supportedBandwidths = readBandwidths(connection.supportedBandwidths, "/connection/supportedBandwidths");
  if (bandwidthLimit === undefined && supportedBandwidths === undefined) {
    fail("missingProperty", "/connection/bandwidthLimit", "a token needs bandwidthLimit or supportedBandwidths: what its connection may use");
  }
  const sides = (["aSide", "zSide"] as const).filter((s) => connection[s] !== undefined && connection[s] !== null);
  if (sides.length !== 1) return fail(sides.length === 0 ? "missingProperty" : "invalidProperty", "/connection/zSide", "a token is for one side of a connection: aSide or zSide");
  const side = sides[0]!;
  const selectors = asObject(connection[side], `/connection/${side}`)!.accessPointSelectors;
  return {
    type,
    allowRemoteConnection: readBoolean(connection.allowRemoteConnection, "/connection/allowRemoteConnection"),
    allowCustomBandwidth: readBoolean(connection.allowCustomBandwidth, "/connection/allowCustomBandwidth"),
    ...(bandwidthLimit === undefined ? {} : { bandwidthLimit }),
    ...(supportedBandwidths === undefined ? {} : { supportedBandwidths }),
    [side]: { accessPointSelectors: [readSelector(ctx, selectors, side, type, tokenType)] },
  };
}

function buildToken(ctx: RuleContext, body: JsonObject): { body: JsonObject; projectId: string } {
  const { world, principal } = ctx;
  const type = asEnum(body.type, TOKEN_TYPES, "/type")!;
  const name = asString(body.name, "/name", false);
  const description = asString(body.description, "/description", false);
  const expirationDateTime = readExpiry(world, body.expirationDateTime, "/expirationDateTime");
  const project = asObject(body.project, "/project", false);
  const projectId = projectFor(principal, project?.projectId);
  const connection = readConnection(ctx, body.connection, type);
  const notifications = readNotifications(body.notifications, "/notifications");
  const uuid = world.uuid();
  return {
    projectId,
    body: {
      href: tokenHref(uuid),
      type,
      uuid,
      ...(name === undefined ? {} : { name }),
      ...(description === undefined ? {} : { description }),
      state: "INACTIVE",
      expirationDateTime,
      connection,
      notifications,
      account: accountOf(principal),
      changeLog: newChangeLog(principal, world.nowIso()),
      project: { projectId },
    },
  };
}

// ── patch ────────────────────────────────────────────────────────────────────────────────

function readOperations(world: World, view: JsonObject, ops: Json[]): Record<string, Json> {
  if (ops.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
  const set: Record<string, Json> = {};
  const supported = `only replace of ${PATCH_PATHS.join(", ")} is supported`;
  ops.forEach((raw, i) => {
    const op = asObject(raw, `/${i}`)!;
    if (op.op !== "replace") fail("notInAllowedList", `/${i}/op`, supported, String(op.op));
    if (!(PATCH_PATHS as readonly Json[]).includes(op.path ?? null)) fail("notInAllowedList", `/${i}/path`, supported, String(op.path));
    const path = op.path as PatchPath;
    const at = `/${i}/value`;
    switch (path) {
      case "/name":
      case "/description":
        set[path] = asString(op.value, at, path === "/name")!;
        return;
      case "/expirationDateTime":
        set[path] = readExpiry(world, op.value, at);
        return;
      case "/notifications":
        set[path] = readNotifications(op.value, at);
        return;
      case "/notifications/emails": {
        // The official example replaces the addresses of every notification the token has.
        const current = Array.isArray(view.notifications) ? (view.notifications as JsonObject[]) : [];
        set["/notifications"] = readNotifications(current.map((n) => ({ ...n, emails: op.value ?? null })), at);
        return;
      }
      case "/connection/bandwidthLimit":
        set[path] = asInteger(op.value, at, 1, MAX_REQUEST_BANDWIDTH)!;
        return;
      case "/connection/supportedBandwidths":
        set[path] = readBandwidths(op.value ?? [], at)!;
        return;
      default: {
        const unreachable: never = path;
        return unreachable;
      }
    }
  });
  return set;
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function readDryRun(c: Context<SimEnv>): boolean {
  const raw = c.req.query("dryRun");
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  return fail("invalidQueryParameter", "dryRun", "dryRun must be true or false", raw);
}

function requireUsable(view: JsonObject, action: string): void {
  if (view.state === "DELETED") fail("invalidProperty", "serviceTokenId", `service token ${String(view.uuid)} is DELETED; it cannot be ${action}`, "DELETED");
}

function routes(app: SimApp, world: World): void {
  const ctxOf = (c: Context<SimEnv>): RuleContext => ({ world, principal: c.get("principal") });
  const own = (c: Context<SimEnv>) => ownToken(world, c.get("principal"), c.req.param("serviceTokenId") ?? "");
  const visible = (c: Context<SimEnv>) => world.list(KIND).filter((o) => canSee(c.get("principal"), o)).map((o) => world.view(o));

  app.post(BASE, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = readDryRun(c);
    const built = buildToken(ctxOf(c), await readObject(c));
    if (dryRun) {
      const { href: _href, uuid: _uuid, state: _state, ...request } = built.body;
      return c.json(request, 200);
    }
    const token = world.create(KIND, built.body, { projectId: built.projectId });
    world.apply(token, { at: world.now(), set: { "/state": "INACTIVE" } });
    return c.json(world.view(token), 201);
  });

  app.get(BASE, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, PAGE_LIMITS);
    return c.json(paginate(visible(c).filter((v) => v.state !== "DELETED"), page, pageLink(c)));
  });

  app.post(`${BASE}/search`, async (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const body = await readObject(c);
    const matches = compileSearch(body.filter, SEARCH_RULES);
    const page = body.pagination === undefined ? queryPage(c, PAGE_LIMITS) : bodyPage(body.pagination, PAGE_LIMITS);
    const withDeleted = mentions(body.filter, "/state");
    return c.json(paginate(visible(c).filter((v) => (withDeleted || v.state !== "DELETED") && matches(v)), page));
  });

  app.get(`${BASE}/:serviceTokenId`, (c) => {
    rejectUnknownQuery(c, []);
    return c.json(world.view(own(c)));
  });

  app.patch(`${BASE}/:serviceTokenId`, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = readDryRun(c);
    const ops = await readArray(c);
    const token = own(c);
    const view = world.view(token);
    requireUsable(view, "changed");
    const set = { ...readOperations(world, view, ops), ...changeLogUpdate(c.get("principal"), world.nowIso()) };
    if (dryRun) {
      const preview = cloneJson(view);
      for (const [pointer, value] of Object.entries(set)) setPointer(preview, pointer, value);
      return c.json(preview, 200);
    }
    world.apply(token, { at: world.now(), set });
    return c.json(world.view(token), 200);
  });

  app.delete(`${BASE}/:serviceTokenId`, (c) => {
    rejectUnknownQuery(c, []);
    const token = own(c);
    const view = world.view(token);
    requireUsable(view, "deleted");
    const connection = connectionOf(world, token.uuid);
    if (connection) fail("invalidProperty", "serviceTokenId", `service token ${token.uuid} is ACTIVE: connection ${String(connection.uuid)} uses it; delete the connection first`, "ACTIVE");
    const principal = c.get("principal");
    const now = world.nowIso();
    world.apply(token, { at: world.now(), set: { "/state": "DELETED", ...changeLogUpdate(principal, now), ...changeLogUpdate(principal, now, true) } });
    return c.json(world.view(token), 200);
  });

  app.post(`${BASE}/:serviceTokenId/actions`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const token = own(c);
    asEnum(body.type, ["RESEND_EMAIL_NOTIFICATION"], "/type");
    const view = world.view(token);
    requireUsable(view, "sent again");
    if (view.state === "EXPIRED") fail("invalidProperty", "serviceTokenId", `service token ${token.uuid} has expired; extend its expirationDateTime first`, "EXPIRED");
    return c.json(view, 202);
  });
}

export const serviceTokensArea: Area = {
  name: "fabric-service-tokens",
  define(world) {
    world.defineKind(KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.service_token",
      subject: (o) => tokenHref(o.uuid),
      render: (body, obj, w) => {
        if (body.state === "DELETED") return body;
        const used = connectionOf(w, obj.uuid);
        if (used) return { ...body, state: "ACTIVE", connection: { ...(body.connection as JsonObject), uuid: String(used.uuid), href: `/fabric/v4/connections/${String(used.uuid)}` } };
        const expiry = Date.parse(String(body.expirationDateTime));
        return !Number.isNaN(expiry) && expiry <= w.now() ? { ...body, state: "EXPIRED" } : body;
      },
    });
  },
  routes,
};
