// Routing protocol instances of a connection (sections 2.6, 3.4 and 4.6): one DIRECT instance (the
// provider's interface addresses) and one BGP instance (sessions over the DIRECT subnets) per connection,
// created singly or in bulk, patched (BGP sessions enabled or disabled), replaced and deleted, each
// operation recorded as a change request, and the BGP actions (clear, reset) of a BGP instance. Every
// operation is asynchronous: the instance answers in a transitional state and settles on the clock. On a
// cloud router's connection, a DIRECT subnet may not overlap another connection's of the router.

import type { Context } from "hono";
import { iso } from "../core/clock.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { changeLogUpdate, newChangeLog, pageLink, paginate, queryPage, readArray, readObject, rejectUnknownQuery, viewResponse } from "../core/http.js";
import {
  FAMILIES,
  Problems,
  bgpPeersOf,
  checkPeersAgainstDirect,
  directOf,
  equinixPeerIp,
  familyLabel,
  parseAddress,
  parseCidr,
  peerProblem,
  readRoutingProtocol,
  type AddressFamily,
  type BgpSpec,
  type DirectSpec,
  type RoutingProtocolSpec,
  type RoutingProtocolType,
} from "./routing-protocol-rules.js";
import { cloneJson, getPointer, setPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { PROTOCOLS_BY_CONNECTION as BY_CONNECTION, routerOfConnection, subnetOverlap } from "./router-routes.js";

const KIND = "routingProtocols";

type RoutingProtocolState = "PROVISIONING" | "PROVISIONED" | "REPROVISIONING" | "DEPROVISIONING" | "DEPROVISIONED" | "FAILED";
type ChangeType = "ROUTING_PROTOCOL_CREATION" | "ROUTING_PROTOCOL_UPDATE" | "ROUTING_PROTOCOL_DELETION";
type ChangeStatus = "REQUESTED" | "COMPLETED" | "FAILED";

/** No instance of the connection may be created or deleted while one of them is in one of these states. */
const TRANSIENT_STATES: readonly string[] = ["PROVISIONING", "REPROVISIONING", "DEPROVISIONING"] satisfies RoutingProtocolState[];

/** Simulated durations: a DIRECT interface is configured in seconds, BGP sessions take a little longer. */
const DURATION_MS = {
  createDirect: 20_000,
  createBgp: 45_000,
  update: 30_000,
  deprovision: 20_000,
  /** A DEPROVISIONED instance stays readable for a minute before it disappears. */
  forget: 60_000,
} as const;

/**
 * The provider's ASN on every BGP session: the one that 4.6 reserves for the provider (customers may
 * not use it), so that it never collides with a customer ASN.
 */
const EQUINIX_ASN = 64600;

/** Fields of the instance that a change request's data.value carries (the routing protocol itself). */
const PROTOCOL_FIELDS = ["type", "name", "directIpv4", "directIpv6", "bgpIpv4", "bgpIpv6", "customerAsn", "equinixAsn", "asOverrideEnabled", "bgpAuthKey", "bfd"];

const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;
const ROUTE = "/fabric/v4/connections/:connectionId/routingProtocols";

// ── change requests ────────────────────────────────────────────────────────────────────────

/** A change request as stored in the instance's meta; its status is computed on read until it is frozen. */
interface ChangeRecord {
  uuid: string;
  type: ChangeType;
  createdBy: string;
  createdAt: number;
  /** When the operation's outcome (PROVISIONED, FAILED, DEPROVISIONED) is due. */
  doneAt: number;
  data: { op: "add" | "replace" | "remove"; path: string; value: JsonObject };
  /** Set once a later change supersedes this one, so that its outcome no longer follows the instance's state. */
  status?: ChangeStatus;
}

const changesOf = (obj: SimObject): ChangeRecord[] => (obj.meta.changes ?? []) as unknown as ChangeRecord[];
const connectionUuidOf = (obj: SimObject): string => String(obj.meta.connectionUuid);
const protocolHref = (connectionUuid: string, uuid: string) => `/fabric/v4/connections/${connectionUuid}/routingProtocols/${uuid}`;
const changeHref = (obj: SimObject, changeUuid: string) => `${protocolHref(connectionUuidOf(obj), obj.uuid)}/changes/${changeUuid}`;

function changeStatus(world: World, obj: SimObject, change: ChangeRecord): ChangeStatus {
  if (change.status) return change.status;
  if (world.now() < change.doneAt) return "REQUESTED";
  return world.stateOf(obj) === "FAILED" ? "FAILED" : "COMPLETED";
}

function renderChange(world: World, obj: SimObject, change: ChangeRecord): JsonObject {
  const status = changeStatus(world, obj, change);
  return {
    href: changeHref(obj, change.uuid),
    type: change.type,
    uuid: change.uuid,
    status,
    createdBy: change.createdBy,
    createdDateTime: iso(change.createdAt),
    updatedBy: change.createdBy,
    updatedDateTime: iso(status === "REQUESTED" ? change.createdAt : change.doneAt),
    data: change.data as unknown as JsonObject,
  };
}

function protocolValue(body: JsonObject): JsonObject {
  return Object.fromEntries(PROTOCOL_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]!]));
}

interface Operation {
  type: ChangeType;
  op: ChangeRecord["data"]["op"];
  /** The state the instance answers with at once. */
  pending: RoutingProtocolState;
  /** Further body changes made at once (the change block and state are added here). */
  immediate: Record<string, Json>;
  steps: Array<{ afterMs: number; set: Record<string, Json>; gone?: boolean }>;
  /** How long after now the operation's outcome is due. */
  doneAfterMs: number;
  failure?: Record<string, Json>;
}

/**
 * Starts an operation on an instance: records its change request and its timed transition. Returns the
 * instant it started, which the answer shows the instance as of: at a test's speed the clock may pass the
 * first transition while the request is still being answered.
 */
function startOperation(world: World, actor: Principal, obj: SimObject, operation: Operation): number {
  const earlierChanges = changesOf(obj).map((earlier) => {
    // With the transient-state rules an earlier change has always finished here; one that has not was superseded.
    const status = changeStatus(world, obj, earlier);
    return { ...earlier, status: status === "REQUESTED" ? "FAILED" : status };
  });
  // The errors of an earlier failed operation describe that operation only.
  world.settle(obj);
  world.edit(obj, (stored) => delete stored.operation);
  const uuid = world.uuid();
  const change = { uuid, type: operation.type, href: changeHref(obj, uuid) };
  const now = world.now();
  world.transition(obj, { ...operation.immediate, "/state": operation.pending, "/change": change }, operation.steps, operation.failure);
  const record: ChangeRecord = {
    uuid,
    type: operation.type,
    createdBy: actor.userName,
    createdAt: now,
    doneAt: now + world.clock.scale(operation.doneAfterMs),
    data: { op: operation.op, path: "/", value: protocolValue(world.viewAsOf(obj, now)) },
  };
  world.setMeta(obj, "changes", [...earlierChanges, record] as unknown as Json);
  return now;
}

/** What the instance reads once an operation has succeeded: PROVISIONED, with its BGP sessions up or down. */
function provisionedSet(world: World, body: JsonObject, afterMs: number): Record<string, Json> {
  const set: Record<string, Json> = { "/state": "PROVISIONED" };
  const at = iso(world.now() + world.clock.scale(afterMs));
  for (const family of FAMILIES) {
    const session = body[`bgp${family}`];
    if (session && typeof session === "object" && !Array.isArray(session)) {
      set[`/bgp${family}/operation`] = { operationalStatus: session.enabled === false ? "DOWN" : "UP", opStatusChangedAt: at };
    }
  }
  return set;
}

const FAILED_SET: Record<string, Json> = {
  "/state": "FAILED",
  "/operation": { errors: [{ errorCode: "EQ-3041012", errorMessage: "The system is unable to process your request." }] },
};

// ── the instance body ──────────────────────────────────────────────────────────────────────

/** The routing protocol fields of a request as the service stores them (defaults applied, provider fields added). */
function protocolFields(spec: RoutingProtocolSpec, direct: DirectSpec | undefined): JsonObject {
  switch (spec.type) {
    case "DIRECT":
      return {
        ...(spec.directIpv4 ? { directIpv4: { ...spec.directIpv4 } } : {}),
        ...(spec.directIpv6 ? { directIpv6: { ...spec.directIpv6 } } : {}),
      };
    case "BGP":
      return bgpFields(spec, direct);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function bgpFields(spec: BgpSpec, direct: DirectSpec | undefined): JsonObject {
  const fields: JsonObject = {};
  for (const family of FAMILIES) {
    const session = spec[`bgp${family}`];
    if (!session) continue;
    const providerIp = direct ? equinixPeerIp(direct, family) : undefined;
    fields[`bgp${family}`] = {
      ...session,
      ...(providerIp === undefined ? {} : { equinixPeerIp: providerIp }),
      operation: { operationalStatus: "UNKNOWN" },
    } as unknown as JsonObject;
  }
  return {
    ...fields,
    customerAsn: spec.customerAsn,
    equinixAsn: EQUINIX_ASN,
    asOverrideEnabled: spec.asOverrideEnabled,
    ...(spec.bgpAuthKey === undefined ? {} : { bgpAuthKey: spec.bgpAuthKey }),
    bfd: { ...spec.bfd },
  };
}

/** Fields a replace request rewrites; everything else (identity, audit, project) stays. */
const REPLACEABLE_FIELDS = PROTOCOL_FIELDS.filter((f) => f !== "type" && f !== "name");

/**
 * The body as the official schema spells it: the audit block is `changelog` there. It is stored as
 * `changeLog` so that the control API's out-of-band updates stamp it like every other Fabric object's.
 */
function renderProtocol(body: JsonObject): JsonObject {
  const { changeLog, ...rest } = body;
  return changeLog === undefined ? body : { ...rest, changelog: changeLog };
}

// ── lookups and rules that depend on the connection ────────────────────────────────────────

const stateOf = (world: World, obj: SimObject) => world.stateOf(obj) as RoutingProtocolState | undefined;

/** The connection of the path, if the caller may see it; otherwise the 404 of the official description. */
function findConnection(world: World, principal: Principal, uuid: string): SimObject {
  const connection = world.get(uuid, "connections");
  if (!connection || !canSee(principal, connection)) {
    return fail("routingProtocolConnectionNotFound", "connectionId", `connection ${uuid} was not found or was already deleted`, uuid);
  }
  return connection;
}

/** Routing protocols can be changed only on a provisioned connection. */
function requireProvisioned(world: World, connection: SimObject): void {
  const state = getPointer(world.view(connection), "/state");
  if (state !== "PROVISIONED") {
    fail("routingProtocolConnectionTransient", "connectionId", `the connection is ${String(state)}; routing protocols can be changed once it is PROVISIONED`);
  }
}

/** The connection's instances that have not been deprovisioned, oldest first. */
function protocolsOf(world: World, connectionUuid: string): SimObject[] {
  return world.lookup(KIND, BY_CONNECTION, connectionUuid).filter((o) => stateOf(world, o) !== "DEPROVISIONED");
}

function protocolOfType(world: World, connectionUuid: string, type: RoutingProtocolType): SimObject | undefined {
  return protocolsOf(world, connectionUuid).find((o) => o.body.type === type);
}

/** The instance of the path (any state while it is readable). */
function findProtocol(world: World, connection: SimObject, uuid: string): SimObject {
  const obj = world.get(uuid, KIND);
  if (!obj || connectionUuidOf(obj) !== connection.uuid) return fail("notFound", "routingProtocolId", `routing protocol ${uuid} was not found on connection ${connection.uuid}`, uuid);
  return obj;
}

/** The instance of the path, refusing one that is already deprovisioned (as good as deleted). */
function findLiveProtocol(world: World, connection: SimObject, uuid: string): SimObject {
  const obj = findProtocol(world, connection, uuid);
  if (stateOf(world, obj) === "DEPROVISIONED") return fail("notFound", "routingProtocolId", `routing protocol ${uuid} was already deleted`, uuid);
  return obj;
}

function refuseTransient(world: World, objs: SimObject[]): void {
  const busy = objs.find((o) => TRANSIENT_STATES.includes(stateOf(world, o) ?? ""));
  if (busy) {
    fail(
      "routingProtocolTransient",
      "routingProtocolId",
      `The routing protocol associated with this Connection is in the transient state (${busy.body.type} ${busy.uuid} is ${stateOf(world, busy)}).`,
      busy.uuid,
    );
  }
}

interface NewProtocol {
  spec: RoutingProtocolSpec;
  /** JSON pointer of the item in the request, for problems. */
  at: string;
}

/** A cloud router keeps its connections' DIRECT subnets apart (the rule validateRoutingProtocol checks). */
function checkSubnetsApart(world: World, connection: SimObject, direct: DirectSpec, at: string, problems: Problems): void {
  const router = routerOfConnection(world, connection.uuid);
  if (!router) return;
  for (const family of FAMILIES) {
    const ip = direct[`direct${family}`]?.equinixIfaceIp;
    const cidr = ip === undefined ? undefined : parseCidr(ip, family);
    const overlap = cidr && subnetOverlap(world, router.uuid, connection.uuid, family, cidr);
    if (overlap) problems.add("routerSubnetOverlap", `${at}/direct${family}/equinixIfaceIp`, overlap, ip);
  }
}

/**
 * Checks a set of new instances against what the connection has: one DIRECT and one BGP per
 * connection, and BGP only over a DIRECT instance (existing and provisioned, or created by the same
 * request). Returns the DIRECT addresses the BGP sessions will use.
 */
function checkNewProtocols(world: World, connection: SimObject, items: NewProtocol[], problems: Problems): DirectSpec | undefined {
  const existingDirect = protocolOfType(world, connection.uuid, "DIRECT");
  const existingBgp = protocolOfType(world, connection.uuid, "BGP");
  let direct = existingDirect ? directOf(world.view(existingDirect)) : undefined;
  const newDirects = items.filter((i) => i.spec.type === "DIRECT");
  const newBgps = items.filter((i) => i.spec.type === "BGP");
  for (const [n, item] of newDirects.entries()) {
    if (existingDirect || n > 0) problems.add("invalidProperty", `${item.at}/type`, "the connection already has a DIRECT routing protocol; it takes one DIRECT and one BGP instance");
    else {
      direct = item.spec as DirectSpec;
      checkSubnetsApart(world, connection, direct, item.at, problems);
    }
  }
  for (const [n, item] of newBgps.entries()) {
    if (existingBgp || n > 0) {
      problems.add("invalidProperty", `${item.at}/type`, "the connection already has a BGP routing protocol; it takes one DIRECT and one BGP instance");
    } else if (!direct) {
      problems.add("invalidProperty", `${item.at}/type`, "a BGP routing protocol needs the connection's DIRECT routing protocol first");
    } else if (existingDirect && newDirects.length === 0 && stateOf(world, existingDirect) !== "PROVISIONED") {
      problems.add("invalidProperty", `${item.at}/type`, `the connection's DIRECT routing protocol is ${stateOf(world, existingDirect)}; BGP needs it PROVISIONED`);
    } else {
      checkPeersAgainstDirect(item.spec as BgpSpec, direct, item.at, problems);
    }
  }
  return direct;
}

/** Creates an instance and starts its provisioning; returns the instance as the answer shows it. */
function createProtocol(world: World, actor: Principal, connection: SimObject, spec: RoutingProtocolSpec, direct: DirectSpec | undefined): JsonObject {
  const uuid = world.uuid();
  const fields = protocolFields(spec, direct);
  const obj = world.create(
    KIND,
    {
      href: protocolHref(connection.uuid, uuid),
      uuid,
      type: spec.type,
      name: spec.name ?? `${spec.type.toLowerCase()}-route-${uuid.slice(0, 8)}`,
      ...fields,
      project: { projectId: connection.projectId ?? "" },
      connection: { uuid: connection.uuid },
      changeLog: newChangeLog(actor, world.nowIso()),
    },
    { uuid, ...(connection.projectId === undefined ? {} : { projectId: connection.projectId }), meta: { connectionUuid: connection.uuid, changes: [] } },
  );
  const afterMs = spec.type === "DIRECT" ? DURATION_MS.createDirect : DURATION_MS.createBgp;
  const started = startOperation(world, actor, obj, {
    type: "ROUTING_PROTOCOL_CREATION",
    op: "add",
    pending: "PROVISIONING",
    immediate: {},
    steps: [{ afterMs, set: provisionedSet(world, fields, afterMs) }],
    doneAfterMs: afterMs,
    failure: FAILED_SET,
  });
  return world.viewAsOf(obj, started);
}

// ── handlers ───────────────────────────────────────────────────────────────────────────────

type Ctx = Context<SimEnv>;

function connectionOf(c: Ctx, world: World): SimObject {
  return findConnection(world, c.get("principal"), c.req.param("connectionId") ?? "");
}

function createOne(world: World) {
  return async (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const body = await readObject(c);
    requireProvisioned(world, connection);
    const problems = new Problems();
    const spec = readRoutingProtocol(body, "", problems);
    problems.throwIfAny();
    refuseTransient(world, protocolsOf(world, connection.uuid));
    const direct = checkNewProtocols(world, connection, [{ spec: spec!, at: "" }], problems);
    problems.throwIfAny();
    return c.json(createProtocol(world, c.get("principal"), connection, spec!, direct), 202);
  };
}

function createBulk(world: World) {
  return async (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const body = await readObject(c);
    requireProvisioned(world, connection);
    const data = body.data;
    if (!Array.isArray(data) || data.length === 0) return fail("missingProperty", "/data", "data must be a non-empty array of routing protocols");
    const problems = new Problems();
    const items = data.flatMap((item, i): NewProtocol[] => {
      const spec = readRoutingProtocol(item, `/data/${i}`, problems);
      return spec ? [{ spec, at: `/data/${i}` }] : [];
    });
    problems.throwIfAny();
    refuseTransient(world, protocolsOf(world, connection.uuid));
    const direct = checkNewProtocols(world, connection, items, problems);
    problems.throwIfAny();
    // All items are valid together: create DIRECT first so that the BGP sessions settle after their subnet.
    const ordered = [...items].sort((a, b) => (a.spec.type === b.spec.type ? 0 : a.spec.type === "DIRECT" ? -1 : 1));
    const created = new Map(ordered.map((item) => [item, createProtocol(world, c.get("principal"), connection, item.spec, direct)]));
    const views = items.map((item) => created.get(item)!);
    return c.json({ pagination: { offset: 0, limit: views.length, total: views.length }, data: views }, 202);
  };
}

function list(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const request = queryPage(c, LIST_LIMITS);
    const connection = connectionOf(c, world);
    const items = world.lookup(KIND, BY_CONNECTION, connection.uuid).map((o) => world.view(o));
    return c.json(paginate(items, request, pageLink(c)), 200);
  };
}

function getOne(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    return viewResponse(c, world.view(findProtocol(world, connection, c.req.param("routingProtocolId") ?? "")));
  };
}

const PATCHABLE_PATHS: Record<string, AddressFamily> = { "/bgpIpv4/enabled": "Ipv4", "/bgpIpv6/enabled": "Ipv6" };

/** Reads a PATCH operation list: only `replace` of a BGP session's `enabled` flag. */
function readPatch(ops: Json[], body: JsonObject, problems: Problems): Record<string, Json> {
  const set: Record<string, Json> = {};
  if (ops.length === 0) problems.add("missingProperty", "body", "the patch needs at least one operation");
  for (const [i, op] of ops.entries()) {
    if (op === null || typeof op !== "object" || Array.isArray(op)) {
      problems.add("invalidProperty", `/${i}`, "an operation must be an object {op, path, value}");
      continue;
    }
    for (const key of ["op", "path", "value"]) if (op[key] === undefined) problems.add("missingProperty", `/${i}/${key}`, `${key} is required`);
    if (op.op !== undefined && op.op !== "replace") problems.add("notInAllowedList", `/${i}/op`, "only the replace operation is supported", JSON.stringify(op.op));
    if (op.path === undefined) continue;
    const family = typeof op.path === "string" ? PATCHABLE_PATHS[op.path] : undefined;
    if (!family) {
      problems.add("notInAllowedList", `/${i}/path`, `path must be one of ${Object.keys(PATCHABLE_PATHS).join(", ")}`, JSON.stringify(op.path));
    } else if (body.type !== "BGP") {
      problems.add("invalidProperty", `/${i}/path`, `${String(op.path)} applies to a BGP routing protocol; this one is ${String(body.type)}`);
    } else if (body[`bgp${family}`] === undefined) {
      problems.add("invalidProperty", `/${i}/path`, `this BGP routing protocol has no ${familyLabel(family)} session`);
    } else if (op.value !== undefined && typeof op.value !== "boolean") {
      problems.add("invalidProperty", `/${i}/value`, "value must be true or false", JSON.stringify(op.value));
    } else if (typeof op.value === "boolean") {
      set[`/bgp${family}/enabled`] = op.value;
    }
  }
  return set;
}

function patch(world: World) {
  return async (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const obj = findLiveProtocol(world, connection, c.req.param("routingProtocolId") ?? "");
    const ops = await readArray(c);
    requireProvisioned(world, connection);
    const problems = new Problems();
    const set = readPatch(ops, world.view(obj), problems);
    problems.throwIfAny();
    refuseTransient(world, [obj]);
    const actor = c.get("principal");
    const updated = cloneJson(world.view(obj));
    for (const [pointer, value] of Object.entries(set)) setPointer(updated, pointer, value);
    const started = startOperation(world, actor, obj, {
      type: "ROUTING_PROTOCOL_UPDATE",
      op: "replace",
      pending: "REPROVISIONING",
      immediate: { ...set, ...changeLogUpdate(actor, world.nowIso()) },
      steps: [{ afterMs: DURATION_MS.update, set: provisionedSet(world, updated, DURATION_MS.update) }],
      doneAfterMs: DURATION_MS.update,
      failure: FAILED_SET,
    });
    return c.json(world.viewAsOf(obj, started), 202);
  };
}

/**
 * A DIRECT replacement must keep the subnets the connection's BGP sessions run over; the BGP instance
 * follows the provider's new interface address.
 */
function checkDirectAgainstBgp(world: World, connection: SimObject, direct: DirectSpec, problems: Problems): SimObject | undefined {
  const bgp = protocolOfType(world, connection.uuid, "BGP");
  if (!bgp) return undefined;
  for (const [family, peer] of Object.entries(bgpPeersOf(world.view(bgp))) as Array<[AddressFamily, string]>) {
    const subnet = direct[`direct${family}`];
    if (!subnet) {
      problems.add("missingProperty", `/direct${family}`, `the connection's BGP routing protocol has an ${familyLabel(family)} session over this subnet`);
      continue;
    }
    const problem = peerProblem(parseCidr(subnet.equinixIfaceIp, family)!, parseAddress(peer, family)!);
    if (problem) problems.add("invalidProperty", `/direct${family}/equinixIfaceIp`, `the BGP session's customerPeerIp ${peer} ${problem} ${subnet.equinixIfaceIp}`);
  }
  return bgp;
}

function replace(world: World) {
  return async (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const obj = findLiveProtocol(world, connection, c.req.param("routingProtocolId") ?? "");
    const body = await readObject(c);
    requireProvisioned(world, connection);
    const problems = new Problems();
    const spec = readRoutingProtocol(body, "", problems);
    problems.throwIfAny();
    if (spec!.type !== obj.body.type) fail("invalidProperty", "/type", `the type of a routing protocol cannot change (it is ${String(obj.body.type)})`, spec!.type);
    refuseTransient(world, [obj]);
    let direct: DirectSpec | undefined;
    let bgpToFollow: SimObject | undefined;
    if (spec!.type === "BGP") {
      const existing = protocolOfType(world, connection.uuid, "DIRECT");
      direct = existing ? directOf(world.view(existing)) : undefined;
      if (direct) checkPeersAgainstDirect(spec!, direct, "", problems);
      else problems.add("invalidProperty", "/type", "a BGP routing protocol needs the connection's DIRECT routing protocol");
    } else {
      direct = spec!;
      checkSubnetsApart(world, connection, direct, "", problems);
      bgpToFollow = checkDirectAgainstBgp(world, connection, spec!, problems);
    }
    problems.throwIfAny();
    const actor = c.get("principal");
    world.settle(obj);
    const fields = protocolFields(spec!, direct);
    world.edit(obj, (stored) => {
      for (const field of REPLACEABLE_FIELDS) delete stored[field];
      Object.assign(stored, fields, spec!.name === undefined ? {} : { name: spec!.name });
    });
    if (bgpToFollow) followDirect(world, bgpToFollow, spec as DirectSpec);
    const started = startOperation(world, actor, obj, {
      type: "ROUTING_PROTOCOL_UPDATE",
      op: "replace",
      pending: "REPROVISIONING",
      immediate: changeLogUpdate(actor, world.nowIso()),
      steps: [{ afterMs: DURATION_MS.update, set: provisionedSet(world, fields, DURATION_MS.update) }],
      doneAfterMs: DURATION_MS.update,
      failure: FAILED_SET,
    });
    return c.json(world.viewAsOf(obj, started), 202);
  };
}

/** Points the BGP sessions at the provider's interface addresses of a replaced DIRECT instance. */
function followDirect(world: World, bgp: SimObject, direct: DirectSpec): void {
  const set: Record<string, Json> = {};
  for (const family of Object.keys(bgpPeersOf(world.view(bgp))) as AddressFamily[]) {
    const ip = equinixPeerIp(direct, family);
    if (ip !== undefined) set[`/bgp${family}/equinixPeerIp`] = ip;
  }
  world.apply(bgp, { at: world.now(), set });
}

function remove(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const obj = findLiveProtocol(world, connection, c.req.param("routingProtocolId") ?? "");
    requireProvisioned(world, connection);
    refuseTransient(world, protocolsOf(world, connection.uuid));
    if (obj.body.type === "DIRECT" && protocolOfType(world, connection.uuid, "BGP")) {
      fail("routingProtocolBgpBeforeDirect", "routingProtocolId", "The BGP routing protocol should be deleted before deleting the DIRECT routing protocol for the same Connection.", obj.uuid);
    }
    const actor = c.get("principal");
    const started = startOperation(world, actor, obj, {
      type: "ROUTING_PROTOCOL_DELETION",
      op: "remove",
      pending: "DEPROVISIONING",
      immediate: { ...changeLogUpdate(actor, world.nowIso()), ...changeLogUpdate(actor, world.nowIso(), true) },
      steps: [
        { afterMs: DURATION_MS.deprovision, set: { "/state": "DEPROVISIONED" } },
        { afterMs: DURATION_MS.deprovision + DURATION_MS.forget, set: {}, gone: true },
      ],
      doneAfterMs: DURATION_MS.deprovision,
    });
    return c.json(world.viewAsOf(obj, started), 202);
  };
}

function listChanges(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const request = queryPage(c, LIST_LIMITS);
    const obj = findProtocol(world, connectionOf(c, world), c.req.param("routingProtocolId") ?? "");
    const newestFirst = [...changesOf(obj)].reverse().map((change) => renderChange(world, obj, change));
    return c.json(paginate(newestFirst, request, pageLink(c)), 200);
  };
}

function getChange(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const obj = findProtocol(world, connectionOf(c, world), c.req.param("routingProtocolId") ?? "");
    const changeId = c.req.param("changeId") ?? "";
    const change = changesOf(obj).find((ch) => ch.uuid === changeId);
    if (!change) return fail("notFound", "changeId", `change ${changeId} was not found on routing protocol ${obj.uuid}`, changeId);
    return c.json(renderChange(world, obj, change), 200);
  };
}

// ── BGP actions (postConnectionRoutingProtocolBgpActionByUuid and the reads of them) ─────────────

/** Official BGPActions: a soft clear of a session's routes (both ways, or inbound only), or a hard reset of the session. */
const BGP_ACTIONS = ["CLEAR_BGPIPV4", "CLEAR_BGPIPV6", "CLEAR_BGPIPV4_INBOUND", "CLEAR_BGPIPV6_INBOUND", "RESET_BGPIPV4", "RESET_BGPIPV6"] as const;
type BgpAction = (typeof BGP_ACTIONS)[number];

/** Simulated time a clear or reset takes: the session re-exchanges its routes. */
const BGP_ACTION_MS = 10_000;

/** An action as stored in the instance's meta; its state is PENDING until it is done. */
interface BgpActionRecord {
  uuid: string;
  type: BgpAction;
  createdBy: string;
  createdAt: number;
  doneAt: number;
}

const bgpActionsOf = (obj: SimObject): BgpActionRecord[] => (obj.meta.bgpActions ?? []) as unknown as BgpActionRecord[];
const familyOfAction = (type: BgpAction): AddressFamily => (type.includes("IPV6") ? "Ipv6" : "Ipv4");

function renderBgpAction(world: World, obj: SimObject, action: BgpActionRecord): JsonObject {
  const done = world.now() >= action.doneAt;
  return {
    href: `${protocolHref(connectionUuidOf(obj), obj.uuid)}/actions/${action.uuid}`,
    uuid: action.uuid,
    type: action.type,
    state: done ? "SUCCEEDED" : "PENDING",
    changelog: { createdBy: action.createdBy, createdDateTime: iso(action.createdAt), ...(done ? { updatedBy: action.createdBy, updatedDateTime: iso(action.doneAt) } : {}) },
  };
}

function readBgpAction(body: JsonObject): BgpAction {
  const type = body.type;
  if (type === undefined || type === null) return fail("missingProperty", "/type", `type is required: one of ${BGP_ACTIONS.join(", ")}`);
  if (typeof type !== "string" || !(BGP_ACTIONS as readonly string[]).includes(type)) return fail("notInAllowedList", "/type", `type must be one of ${BGP_ACTIONS.join(", ")}`, JSON.stringify(type));
  for (const key of Object.keys(body)) if (key !== "type") fail("invalidProperty", `/${key}`, "a BGP action takes its type only");
  return type as BgpAction;
}

/**
 * Clears or resets one of a BGP instance's sessions. A clear re-exchanges its routes and leaves it up; a
 * reset takes an enabled session down and brings it up again when the action is done.
 */
function startBgpAction(world: World, actor: Principal, obj: SimObject, type: BgpAction): BgpActionRecord {
  const view = world.view(obj);
  const family = familyOfAction(type);
  if (view.type !== "BGP") fail("invalidProperty", "routingProtocolId", `BGP actions apply to a BGP routing protocol; this one is ${String(view.type)}`);
  const session = view[`bgp${family}`] as JsonObject | undefined;
  if (!session) fail("invalidProperty", "/type", `this BGP routing protocol has no ${familyLabel(family)} session`, type);
  refuseTransient(world, [obj]);
  const state = stateOf(world, obj);
  if (state !== "PROVISIONED") fail("invalidProperty", "routingProtocolId", `routing protocol ${obj.uuid} is ${String(state)}; BGP actions apply to a PROVISIONED one`);
  const now = world.now();
  const action: BgpActionRecord = { uuid: world.uuid(), type, createdBy: actor.userName, createdAt: now, doneAt: now + world.clock.scale(BGP_ACTION_MS) };
  if (type.startsWith("RESET") && session!.enabled !== false) {
    const pointer = `/bgp${family}/operation`;
    world.transition(obj, { [pointer]: { operationalStatus: "DOWN", opStatusChangedAt: iso(now) } }, [
      { afterMs: BGP_ACTION_MS, set: { [pointer]: { operationalStatus: "UP", opStatusChangedAt: iso(action.doneAt) } } },
    ]);
  }
  world.setMeta(obj, "bgpActions", [...bgpActionsOf(obj), action] as unknown as Json);
  return action;
}

function listBgpActions(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const request = queryPage(c, LIST_LIMITS);
    const obj = findProtocol(world, connectionOf(c, world), c.req.param("routingProtocolId") ?? "");
    const newestFirst = [...bgpActionsOf(obj)].reverse().map((a) => renderBgpAction(world, obj, a));
    return c.json(paginate(newestFirst, request, pageLink(c)), 200);
  };
}

function postBgpAction(world: World) {
  return async (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const connection = connectionOf(c, world);
    const obj = findLiveProtocol(world, connection, c.req.param("routingProtocolId") ?? "");
    const type = readBgpAction(await readObject(c));
    requireProvisioned(world, connection);
    const action = startBgpAction(world, c.get("principal"), obj, type);
    return c.json(renderBgpAction(world, obj, action), 202);
  };
}

function getBgpAction(world: World) {
  return (c: Ctx) => {
    rejectUnknownQuery(c, []);
    const obj = findProtocol(world, connectionOf(c, world), c.req.param("routingProtocolId") ?? "");
    const actionId = c.req.param("actionId") ?? "";
    const action = bgpActionsOf(obj).find((a) => a.uuid === actionId);
    if (!action) return fail("notFound", "actionId", `action ${actionId} was not found on routing protocol ${obj.uuid}`, actionId);
    return c.json(renderBgpAction(world, obj, action), 200);
  };
}

export const routingProtocolsArea: Area = {
  name: "fabric-routing-protocols",
  define(world) {
    world.defineKind(KIND, {
      statePath: "/state",
      eventType: "equinix.fabric.connection.routing_protocol",
      subject: (obj) => protocolHref(connectionUuidOf(obj), obj.uuid),
      render: (body) => renderProtocol(body),
    });
    world.defineIndex(KIND, BY_CONNECTION, (_body, obj) => [connectionUuidOf(obj)]);
  },
  routes(app: SimApp, world) {
    app.get(ROUTE, list(world));
    app.post(ROUTE, createOne(world));
    app.post(`${ROUTE}/bulk`, createBulk(world));
    app.get(`${ROUTE}/:routingProtocolId`, getOne(world));
    app.put(`${ROUTE}/:routingProtocolId`, replace(world));
    app.patch(`${ROUTE}/:routingProtocolId`, patch(world));
    app.delete(`${ROUTE}/:routingProtocolId`, remove(world));
    app.get(`${ROUTE}/:routingProtocolId/changes`, listChanges(world));
    app.get(`${ROUTE}/:routingProtocolId/changes/:changeId`, getChange(world));
    app.get(`${ROUTE}/:routingProtocolId/actions`, listBgpActions(world));
    app.post(`${ROUTE}/:routingProtocolId/actions`, postBgpAction(world));
    app.get(`${ROUTE}/:routingProtocolId/actions/:actionId`, getBgpAction(world));
  },
};
