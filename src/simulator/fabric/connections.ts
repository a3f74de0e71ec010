// Virtual connections (sections 2.5, 3.3 and 4.5): create, read, patch, delete, actions, search and
// validate under /fabric/v4/connections. A connection is created PENDING_AUTO_APPROVAL and provisions on the
// clock; deletion deprovisions it on the clock and leaves it readable as DEPROVISIONED. The rules
// that a request must meet live in connection-rules.ts, the search in connection-search.ts, the validation
// of one end in connection-validate.ts.

import type { Context } from "hono";
import { iso } from "../core/clock.js";
import { findVisible, projectFor, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { changeLogUpdate, newChangeLog, pageResponse, readArray, readObject, rejectUnknownQuery, viewResponse } from "../core/http.js";
import {
  CONNECTION_TYPES,
  accountOf,
  asEnum,
  asObject,
  asString,
  billingTier,
  checkAdditionalInfo,
  checkBandwidth,
  checkEndpoints,
  checkEndpointTypes,
  checkVlanFree,
  CONNECTION_REFERENCES,
  connectionReferences,
  deviceAccessPoint,
  isLive,
  locationOf,
  portBandwidthUse,
  portReference,
  PORT_BANDWIDTH,
  readBandwidth,
  readNotifications,
  readRedundancy,
  resolvePort,
  resolveSide,
  storedSide,
  TOKEN_VLANS,
  tokenVlanKeys,
  type ResolvedSide,
  type RuleContext,
  type VlanClaim,
} from "./connection-rules.js";
import { defineSearchIndexes, searchConnections } from "./connection-search.js";
import { connectionValidateRoutes } from "./connection-validate.js";
import { cloneJson, getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

const KIND = "connections";
const BASE = "/fabric/v4/connections";

/** Simulated durations: the auto-approval check, provisioning, and deprovisioning. */
const APPROVAL_MS = 10_000;
const PROVISIONING_MS = 45_000;
const DEPROVISIONING_MS = 30_000;

/** States in which the service refuses changes and deletion (EQ-3142510). */
const TRANSIENT_STATES = ["PENDING_AUTO_APPROVAL", "PROVISIONING", "DEPROVISIONING", "REPROVISIONING"];
/** States after which the connection is gone for every purpose but reading. */
const ENDED_STATES = ["DEPROVISIONED", "CANCELLED"];

const DIRECTIONS = ["INTERNAL", "INCOMING", "OUTGOING"] as const;

/** The five patchable paths of section 4.5. */
const PATCH_PATHS = ["/name", "/bandwidth", "/aSide/accessPoint/port/uuid", "/notifications", "/aSide/accessPoint"] as const;
type PatchPath = (typeof PATCH_PATHS)[number];

/** Official ConnectionActionRequest type enumeration (Actions). */
const ACTION_TYPES = [
  "CONNECTION_CREATION_ACCEPTANCE",
  "CONNECTION_CREATION_REJECTION",
  "CONNECTION_UPDATE_ACCEPTANCE",
  "CONNECTION_UPDATE_REJECTION",
  "CONNECTION_DELETION_ACCEPTANCE",
  "CONNECTION_REJECTION_ACCEPTANCE",
  "CONNECTION_UPDATE_REQUEST",
  "MIGRATION_EVPL_VC",
  "CONNECTION_PROVIDER_STATUS_REQUEST",
  "CONNECTION_PROVIDER_BANDWIDTH_REQUEST",
  "ACCEPT_HOSTED_CONNECTION",
  "CANCEL_EVPL_VC_DRAFT_ORDERS",
  "CONNECTION_CREATION_RETRY",
  "CONNECTION_DELETION_RETRY",
] as const;
type ActionType = (typeof ACTION_TYPES)[number];


// ── small helpers ────────────────────────────────────────────────────────────────────────

const ruleContext = (c: Context<SimEnv>, world: World): RuleContext => ({ world, principal: c.get("principal") });

/** The ISO time at which a step `afterMs` (simulated) from now takes effect. */
const isoAfter = (world: World, afterMs: number): string => iso(world.now() + world.clock.scale(afterMs));

function readDryRun(c: Context<SimEnv>): boolean {
  const raw = c.req.query("dryRun");
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  return fail("invalidQueryParameter", "dryRun", "dryRun must be true or false", raw);
}

const stateOf = (view: JsonObject): string => (typeof view.state === "string" ? view.state : "");
const equinixStatusOf = (view: JsonObject): string => String(getPointer(view, "/operation/equinixStatus") ?? "");

function change(world: World, type: string, status: string, data?: JsonObject): JsonObject {
  const now = world.nowIso();
  return { uuid: world.uuid(), type, status, createdDateTime: now, updatedDateTime: now, ...(data ? { data } : {}) };
}

function status(state: string, equinixStatus: string, providerStatus: string): Record<string, Json> {
  return { "/state": state, "/operation/equinixStatus": equinixStatus, "/operation/providerStatus": providerStatus };
}

// ── lifecycle ────────────────────────────────────────────────────────────────────────────

function provisionedSet(world: World, afterMs: number): Record<string, Json> {
  return { ...status("PROVISIONED", "PROVISIONED", "AVAILABLE"), "/change/status": "COMPLETED", "/change/updatedDateTime": isoAfter(world, afterMs) };
}

function failedSet(world: World, afterMs: number, equinixStatus: string): Record<string, Json> {
  return { ...status("FAILED", equinixStatus, "FAILED"), "/change/status": "FAILED", "/change/updatedDateTime": isoAfter(world, afterMs) };
}

/** PENDING_AUTO_APPROVAL, then PROVISIONING, then PROVISIONED (or FAILED under a transition fault). */
function startProvisioning(world: World, obj: SimObject): void {
  const total = APPROVAL_MS + PROVISIONING_MS;
  world.transition(
    obj,
    { ...status("PENDING_AUTO_APPROVAL", "PROVISIONING", "NOT_AVAILABLE"), "/change/status": "REQUESTED", "/change/updatedDateTime": world.nowIso() },
    [
      { afterMs: APPROVAL_MS, set: { ...status("PROVISIONING", "PROVISIONING", "PROVISIONING"), "/change/status": "APPROVED" } },
      { afterMs: total, set: provisionedSet(world, total) },
    ],
    failedSet(world, total, "NOT_PROVISIONED"),
  );
}

/** Provisioning after an explicit approval: no auto-approval step. */
function provisionApproved(world: World, obj: SimObject): void {
  world.transition(
    obj,
    { ...status("PROVISIONING", "PROVISIONING", "PROVISIONING"), "/change/status": "APPROVED", "/change/updatedDateTime": world.nowIso() },
    [{ afterMs: PROVISIONING_MS, set: provisionedSet(world, PROVISIONING_MS) }],
    failedSet(world, PROVISIONING_MS, "NOT_PROVISIONED"),
  );
}

function startDeprovisioning(world: World, obj: SimObject, principal: Principal): void {
  world.transition(
    obj,
    {
      ...status("DEPROVISIONING", "DEPROVISIONING", "DEPROVISIONING"),
      ...changeLogUpdate(principal, world.nowIso(), true),
      "/change": change(world, "CONNECTION_DELETION", "REQUESTED"),
    },
    [
      {
        afterMs: DEPROVISIONING_MS,
        set: { ...status("DEPROVISIONED", "DEPROVISIONED", "DEPROVISIONED"), "/change/status": "COMPLETED", "/change/updatedDateTime": isoAfter(world, DEPROVISIONING_MS) },
      },
    ],
    failedSet(world, DEPROVISIONING_MS, "NOT_DEPROVISIONED"),
  );
}

/** Changes and deletion need a connection that is neither mid-transition nor already gone. */
function requireSettled(view: JsonObject): void {
  const state = stateOf(view);
  if (TRANSIENT_STATES.includes(state)) fail("connectionTransientState", "state", `the connection is ${state}; wait until it settles`, state);
  if (ENDED_STATES.includes(state)) fail("connectionAlreadyDeleted", "uuid", `the connection is ${state}`, String(view.uuid));
}

// ── create ───────────────────────────────────────────────────────────────────────────────

function checkSideVlans(world: World, sides: ResolvedSide[]): void {
  const claims = sides.map((s, i) => ({ claim: s.vlan, path: `/${i === 0 ? "aSide" : "zSide"}/accessPoint/linkProtocol`, token: s.token?.uuid }));
  for (const { claim, path, token } of claims) if (claim) checkVlanFree(world, claim, path, undefined, typeof token === "string" ? token : undefined);
  const [a, z] = claims;
  if (a?.claim && z?.claim && a.claim.portUuid === z.claim.portUuid && a.claim.outer === z.claim.outer) {
    fail("invalidProperty", `${z.path}`, "both sides use the same VLAN on the same port");
  }
}

/** Checks a create request and builds the connection it asks for (not yet stored). */
function buildConnection(ctx: RuleContext, body: JsonObject): { body: JsonObject; projectId: string } {
  const { world, principal } = ctx;
  const type = asEnum(body.type, CONNECTION_TYPES, "/type")!;
  const name = asString(body.name, "/name")!;
  const order = asObject(body.order, "/order")!;
  const purchaseOrderNumber = asString(order.purchaseOrderNumber, "/order/purchaseOrderNumber", false);
  const customerReferenceNumber = asString(order.customerReferenceNumber, "/order/customerReferenceNumber", false);
  const bandwidth = readBandwidth(body.bandwidth);
  const redundancy = readRedundancy(ctx, body.redundancy);
  const notifications = readNotifications(body.notifications, "/notifications");
  checkAdditionalInfo(body.additionalInfo);
  const project = asObject(body.project, "/project", false);
  const projectId = projectFor(principal, project?.projectId);
  const aSide = resolveSide(ctx, body.aSide, "/aSide", type);
  const zSide = resolveSide(ctx, body.zSide, "/zSide", type);
  checkEndpointTypes(type, { aSide: aSide.body, zSide: zSide.body });
  checkEndpoints(world, type, [aSide, zSide]);
  checkSideVlans(world, [aSide, zSide]);
  checkBandwidth(ctx, bandwidth, [aSide, zSide]);
  const uuid = world.uuid();
  const now = world.nowIso();
  return {
    projectId,
    body: {
      href: `${BASE}/${uuid}`,
      type,
      uuid,
      name,
      state: "PENDING_AUTO_APPROVAL",
      operation: { equinixStatus: "PROVISIONING", providerStatus: "NOT_AVAILABLE" },
      order: {
        ...(purchaseOrderNumber === undefined ? {} : { purchaseOrderNumber }),
        ...(customerReferenceNumber === undefined ? {} : { customerReferenceNumber }),
        billingTier: billingTier(bandwidth),
      },
      notifications,
      account: accountOf(principal),
      changeLog: newChangeLog(principal, now),
      change: { uuid: world.uuid(), type: "CONNECTION_CREATION", status: "REQUESTED", createdDateTime: now, updatedDateTime: now },
      bandwidth,
      redundancy,
      // Section 2.5 defines isRemote as "both endpoints in the same location when true".
      isRemote: aSide.metroCode !== undefined && aSide.metroCode === zSide.metroCode,
      direction: "OUTGOING",
      aSide: aSide.body,
      zSide: zSide.body,
      project: { projectId },
    },
  };
}

// ── patch ────────────────────────────────────────────────────────────────────────────────

interface PatchState {
  /** The connection as it will read after the operations so far. */
  next: JsonObject;
  set: Record<string, Json>;
  /** The path whose change requires the bandwidth rules to be checked again. */
  bandwidthPath?: string;
}

function assign(state: PatchState, pointer: string, value: Json): void {
  state.set[pointer] = value;
  const keys = pointer.split("/").slice(1);
  let cur = state.next;
  for (const key of keys.slice(0, -1)) {
    if (cur[key] === null || typeof cur[key] !== "object") cur[key] = {};
    cur = cur[key] as JsonObject;
  }
  cur[keys[keys.length - 1]!] = value;
}

/** Moves one side of a connection to another port, keeping its VLAN tags (patch and update request). */
function migratePort(ctx: RuleContext, state: PatchState, side: "aSide" | "zSide", uuid: Json | undefined, path: string, selfUuid: string): void {
  const ap = getPointer(state.next, `/${side}/accessPoint`) as JsonObject | undefined;
  if (!ap || ap.type !== "COLO") fail("invalidProperty", path, `the ${side} is not a COLO access point; only a port can be migrated`);
  const port = resolvePort(ctx, uuid, path);
  const lp = (ap!.linkProtocol ?? {}) as JsonObject;
  const encapsulation = String(getPointer(port, "/encapsulation/type") ?? "DOT1Q");
  if (lp.type !== undefined && lp.type !== encapsulation) {
    fail("invalidProperty", path, `port ${String(port.uuid)} is ${encapsulation}; the connection's link protocol is ${String(lp.type)}`, String(port.uuid));
  }
  const outer = typeof lp.vlanTag === "number" ? lp.vlanTag : lp.vlanSTag;
  if (typeof outer === "number") {
    const claim: VlanClaim = { portUuid: String(port.uuid), outer, ...(typeof lp.vlanCTag === "number" ? { inner: lp.vlanCTag } : {}) };
    checkVlanFree(ctx.world, claim, path, selfUuid);
  }
  assign(state, `/${side}/accessPoint/port`, portReference(port));
  const metroCode = getPointer(port, "/location/metroCode");
  if (typeof metroCode === "string") assign(state, `/${side}/accessPoint/location`, locationOf(metroCode));
  state.bandwidthPath = path;
}

function applyOperation(ctx: RuleContext, state: PatchState, path: PatchPath, value: Json, selfUuid: string): void {
  switch (path) {
    case "/name":
      assign(state, "/name", asString(value, path)!);
      return;
    case "/bandwidth": {
      const bandwidth = readBandwidth(value, path);
      assign(state, "/bandwidth", bandwidth);
      assign(state, "/order/billingTier", billingTier(bandwidth));
      state.bandwidthPath = path;
      return;
    }
    case "/aSide/accessPoint/port/uuid":
      migratePort(ctx, state, "aSide", value, path, selfUuid);
      return;
    case "/notifications":
      assign(state, "/notifications", readNotifications(value, path));
      return;
    case "/aSide/accessPoint": {
      const current = getPointer(state.next, "/aSide/accessPoint") as JsonObject | undefined;
      if (!current || current.type !== "VD") fail("invalidProperty", path, "the aSide is not a virtual device access point");
      const { body } = deviceAccessPoint(ctx, asObject(value, path)!, path);
      assign(state, path, { ...body, ...(current!.linkProtocol === undefined ? {} : { linkProtocol: current!.linkProtocol }) });
      state.bandwidthPath = path;
      return;
    }
    default: {
      const unreachable: never = path;
      return unreachable;
    }
  }
}

/** One operation of the patch document: op replace on one of the five paths. */
function readOperation(raw: Json, i: number): { path: PatchPath; value: Json } {
  const op = asObject(raw, `/${i}`)!;
  const path = asString(op.path, `/${i}/path`)!;
  if (!(PATCH_PATHS as readonly string[]).includes(path)) {
    fail("notInAllowedList", path, `path ${path} cannot be patched; supported paths: ${PATCH_PATHS.join(", ")}`, path);
  }
  const verb = asString(op.op, `/${i}/op`)!;
  if (verb !== "replace") fail("notInAllowedList", `/${i}/op`, `op ${verb} is not supported on ${path}; only replace is`, verb);
  if (!("value" in op)) fail("missingProperty", `/${i}/value`, `value is required for ${path}`);
  return { path: path as PatchPath, value: op.value ?? null };
}

function patchConnection(ctx: RuleContext, view: JsonObject, ops: Json[]): PatchState {
  if (ops.length === 0) fail("invalidProperty", "body", "the patch document needs at least one operation");
  const state: PatchState = { next: cloneJson(view), set: {} };
  const selfUuid = String(view.uuid);
  let last: { path: PatchPath; value: Json } | undefined;
  ops.forEach((raw, i) => {
    last = readOperation(raw, i);
    applyOperation(ctx, state, last.path, last.value, selfUuid);
  });
  if (state.bandwidthPath && typeof state.next.bandwidth === "number") {
    const sides = [storedSide(ctx.world, state.next.aSide), storedSide(ctx.world, state.next.zSide)];
    checkBandwidth(ctx, state.next.bandwidth, sides, selfUuid, state.bandwidthPath);
  }
  const now = ctx.world.nowIso();
  state.set["/change"] = change(ctx.world, "CONNECTION_UPDATE", "COMPLETED", { op: "replace", path: last!.path, value: last!.value });
  Object.assign(state.set, changeLogUpdate(ctx.principal, now));
  return state;
}

// ── actions ──────────────────────────────────────────────────────────────────────────────

function actionRefused(type: ActionType, view: JsonObject, why: string): never {
  return fail("invalidProperty", "/type", `${type} does not apply: ${why} (state ${stateOf(view)}, equinixStatus ${equinixStatusOf(view)})`, type);
}

const awaitingApproval = (view: JsonObject) =>
  ["PENDING", "PENDING_AUTO_APPROVAL"].includes(stateOf(view)) && ["PENDING_APPROVAL", "PROVISIONING", "PENDING_AUTO_APPROVAL"].includes(equinixStatusOf(view));

function pendingUpdate(view: JsonObject): JsonObject | undefined {
  const c = view.change as JsonObject | undefined;
  return c && c.type === "CONNECTION_UPDATE" && c.status === "SUBMITTED_FOR_APPROVAL" ? c : undefined;
}

/** Applies a bandwidth change that waited for approval. */
function approveUpdate(world: World, obj: SimObject, pending: JsonObject): void {
  const data = (pending.data ?? {}) as JsonObject;
  const set: Record<string, Json> = { "/change/status": "COMPLETED", "/change/updatedDateTime": world.nowIso() };
  if (data.path === "/bandwidth" && typeof data.value === "number") {
    set["/bandwidth"] = data.value;
    set["/order/billingTier"] = billingTier(data.value);
  }
  world.apply(obj, { at: world.now(), set });
}

/** Performs an action; returns the action's `data` for the response. */
function performAction(ctx: RuleContext, obj: SimObject, type: ActionType, data: JsonObject | undefined): JsonObject {
  const { world } = ctx;
  world.settle(obj);
  const view = world.view(obj);
  const state = stateOf(view);
  const echo = data ?? {};
  switch (type) {
    case "CONNECTION_CREATION_ACCEPTANCE":
      if (!awaitingApproval(view)) actionRefused(type, view, "the connection is not waiting for approval");
      provisionApproved(world, obj);
      return echo;
    case "CONNECTION_CREATION_REJECTION":
      if (!awaitingApproval(view)) actionRefused(type, view, "the connection is not waiting for approval");
      world.transition(obj, { ...status("PENDING", "REJECTED", "REJECTED"), "/change/status": "REJECTED", "/change/updatedDateTime": world.nowIso() }, []);
      return echo;
    case "CONNECTION_REJECTION_ACCEPTANCE":
      if (equinixStatusOf(view) !== "REJECTED") actionRefused(type, view, "the connection was not rejected");
      world.transition(obj, status("CANCELLED", "REJECTED_ACK", "REJECTED"), []);
      return echo;
    case "CONNECTION_UPDATE_ACCEPTANCE": {
      const pending = pendingUpdate(view);
      if (!pending) return actionRefused(type, view, "no connection update is waiting for approval");
      approveUpdate(world, obj, pending);
      return echo;
    }
    case "CONNECTION_UPDATE_REJECTION":
      if (!pendingUpdate(view)) actionRefused(type, view, "no connection update is waiting for approval");
      world.apply(obj, { at: world.now(), set: { "/change/status": "REJECTED", "/change/updatedDateTime": world.nowIso() } });
      return echo;
    case "CONNECTION_DELETION_ACCEPTANCE":
      if (state !== "DEPROVISIONING" && equinixStatusOf(view) !== "PENDING_DELETE") actionRefused(type, view, "no deletion is waiting for acceptance");
      world.transition(obj, { ...status("DEPROVISIONED", "DEPROVISIONED", "DEPROVISIONED"), "/change/status": "COMPLETED", "/change/updatedDateTime": world.nowIso() }, []);
      return echo;
    case "CONNECTION_PROVIDER_STATUS_REQUEST":
      if (state !== "PROVISIONED") actionRefused(type, view, "only a provisioned connection can be synchronised with its provider");
      world.apply(obj, { at: world.now(), set: { "/operation/providerStatus": "AVAILABLE", "/change": change(world, "CONNECTION_PROVIDER_STATUS_REQUEST", "COMPLETED") } });
      return echo;
    case "CONNECTION_PROVIDER_BANDWIDTH_REQUEST":
      if (!isLive(view)) actionRefused(type, view, "the connection has no provider bandwidth");
      return { providerBandwidth: typeof view.bandwidth === "number" ? view.bandwidth : 0 };
    case "CONNECTION_CREATION_RETRY":
      if (state !== "FAILED" || getPointer(view, "/change/type") !== "CONNECTION_CREATION") actionRefused(type, view, "only a failed creation can be retried");
      startProvisioning(world, obj);
      return echo;
    case "CONNECTION_DELETION_RETRY":
      if (state !== "FAILED" || getPointer(view, "/change/type") !== "CONNECTION_DELETION") actionRefused(type, view, "only a failed deletion can be retried");
      startDeprovisioning(world, obj, ctx.principal);
      return echo;
    case "CONNECTION_UPDATE_REQUEST":
      return requestZSideMigration(ctx, obj, view, data);
    case "MIGRATION_EVPL_VC":
      return actionRefused(type, view, "the connection is not a legacy EVPL connection");
    case "ACCEPT_HOSTED_CONNECTION":
      return actionRefused(type, view, "the connection is not a hosted connection");
    case "CANCEL_EVPL_VC_DRAFT_ORDERS":
      return actionRefused(type, view, "the connection has no draft orders");
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/** CONNECTION_UPDATE_REQUEST: moves the z-side to the port named in data.zSide.accessPoint.port.uuid. */
function requestZSideMigration(ctx: RuleContext, obj: SimObject, view: JsonObject, data: JsonObject | undefined): JsonObject {
  requireSettled(view);
  const path = "/data/zSide/accessPoint/port/uuid";
  if (!data) return fail("missingProperty", "/data", "data.zSide.accessPoint.port.uuid is required for CONNECTION_UPDATE_REQUEST");
  const state: PatchState = { next: cloneJson(view), set: {} };
  migratePort(ctx, state, "zSide", getPointer(data, "/zSide/accessPoint/port/uuid"), path, obj.uuid);
  checkBandwidth(ctx, Number(view.bandwidth), [storedSide(ctx.world, state.next.aSide), storedSide(ctx.world, state.next.zSide)], obj.uuid, path);
  const changeData: JsonObject = { op: "replace", path: "/zSide/accessPoint/port/uuid", value: String(getPointer(state.next, "/zSide/accessPoint/port/uuid")) };
  ctx.world.apply(obj, { at: ctx.world.now(), set: { ...state.set, "/change": change(ctx.world, "CONNECTION_UPDATE", "COMPLETED", changeData), ...changeLogUpdate(ctx.principal, ctx.world.nowIso()) } });
  return { zSide: state.next.zSide ?? {} };
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

function routes(app: SimApp, world: World): void {
  app.post(BASE, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = readDryRun(c);
    const built = buildConnection(ruleContext(c, world), await readObject(c));
    if (dryRun) return c.json(built.body, 200);
    const made = world.now();
    const obj = world.create(KIND, built.body, { projectId: built.projectId });
    startProvisioning(world, obj);
    return viewResponse(c, world.viewAsOf(obj, made), 201);
  });

  app.post(`${BASE}/search`, async (c) => {
    rejectUnknownQuery(c, []);
    const { page, sort } = searchConnections(world, c.get("principal"), await readObject(c));
    return pageResponse(c, page, { sort });
  });

  connectionValidateRoutes(app, world);

  app.get(`${BASE}/:connectionId`, (c) => {
    rejectUnknownQuery(c, ["direction"]);
    const direction = c.req.query("direction");
    if (direction !== undefined && !(DIRECTIONS as readonly string[]).includes(direction)) {
      fail("invalidQueryParameter", "direction", `direction must be one of ${DIRECTIONS.join(", ")}`, direction);
    }
    const view = world.view(findVisible(world, c.get("principal"), KIND, c.req.param("connectionId"), "connectionId"));
    // The direction is shown from the requester's point of view when it says which that is.
    return direction === undefined ? viewResponse(c, view) : c.json({ ...view, direction });
  });

  app.patch(`${BASE}/:connectionId`, async (c) => {
    rejectUnknownQuery(c, ["dryRun"]);
    const dryRun = readDryRun(c);
    const obj = findVisible(world, c.get("principal"), KIND, c.req.param("connectionId"), "connectionId");
    const ops = await readArray(c);
    world.settle(obj);
    const view = world.view(obj);
    requireSettled(view);
    const patched = patchConnection(ruleContext(c, world), view, ops);
    if (dryRun) return c.json({ ...patched.next, change: patched.set["/change"] ?? null }, 200);
    world.apply(obj, { at: world.now(), set: patched.set });
    return c.json(world.view(obj), 202);
  });

  app.delete(`${BASE}/:connectionId`, (c) => {
    rejectUnknownQuery(c, []);
    const principal = c.get("principal");
    const obj = findVisible(world, principal, KIND, c.req.param("connectionId"), "connectionId");
    world.settle(obj);
    requireSettled(world.view(obj));
    startDeprovisioning(world, obj, principal);
    return c.json(world.view(obj), 200);
  });

  app.post(`${BASE}/:connectionId/actions`, async (c) => {
    rejectUnknownQuery(c, []);
    const ctx = ruleContext(c, world);
    const obj = findVisible(world, ctx.principal, KIND, c.req.param("connectionId"), "connectionId");
    const body = await readObject(c);
    const type = asEnum(body.type, ACTION_TYPES, "/type")!;
    const description = asString(body.description, "/description", false);
    const data = asObject(body.data, "/data", false);
    const result = performAction(ctx, obj, type, data);
    const uuid = world.uuid();
    const now = world.nowIso();
    return c.json(
      {
        href: `${BASE}/${obj.uuid}/actions/${uuid}`,
        type,
        uuid,
        ...(description === undefined ? {} : { description }),
        data: result,
        changeLog: { createdBy: ctx.principal.userName, createdByFullName: ctx.principal.fullName, createdByEmail: ctx.principal.email, createdDateTime: now },
      },
      202,
    );
  });
}

export const connectionsArea: Area = {
  name: "fabric-connections",
  define(world) {
    world.defineKind(KIND, { statePath: "/state", eventType: "equinix.fabric.connection", subject: (o) => `${BASE}/${o.uuid}` });
    world.defineIndex(KIND, CONNECTION_REFERENCES, connectionReferences);
    world.defineIndex("serviceTokens", TOKEN_VLANS, tokenVlanKeys);
    defineSearchIndexes(world);
    world.defineTally(KIND, PORT_BANDWIDTH, portBandwidthUse);
  },
  routes,
};
