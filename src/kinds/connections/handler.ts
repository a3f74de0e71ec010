// Virtual connections (specification 2.5, 3.3, 4.5) between two endpoints: a colocation port, a virtual
// device, a service profile in a metro, a network, a cloud router, or a service token. Exactly the five
// PATCH paths of 4.5 change in place (name, bandwidth, the a-side port, notifications, the a-side virtual
// device and interface); anything else is a new connection. A deleted connection stays readable as
// DEPROVISIONED, a rejected one as CANCELLED: both count as gone.

import { isPlainObject, readPath, SecretPaths } from "../../config/index.js";
import { NetformError } from "../../diag/index.js";
import { asNumber, compact, deleteIdempotently, orGone, projectIdOf, readinessFrom, sameNameAndType, searchByUuid, uuidOf, type StateTable } from "../common.js";
import { sortedNotifications } from "../notifications.js";
import type { Body, KindContext, ObjectRef, Observed, Operation, Readiness, KindHandler, UpdateMethod } from "../types.js";

const BASE = "/fabric/v4/connections";
/** The largest search page, also used as the number of uuids per search. */

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED"],
};
/** Final states: the connection is gone for every purpose but reading. */
const ENDED = ["DEPROVISIONED", "CANCELLED"];
/** States of a connection that is being or has been deleted: never the one a create just made. */
const DELETING = ["DEPROVISIONING", ...ENDED];

/** The five patchable paths of 4.5, in the order a PATCH sends them. */
type PatchPath = "/name" | "/bandwidth" | "/aSide/accessPoint/port/uuid" | "/notifications" | "/aSide/accessPoint";
const PATCH_PATHS: readonly PatchPath[] = ["/name", "/bandwidth", "/aSide/accessPoint/port/uuid", "/notifications", "/aSide/accessPoint"];

const UPDATABLE: Readonly<Record<string, UpdateMethod & { via: "patch"; path: PatchPath }>> = {
  name: { via: "patch", path: "/name" },
  bandwidth: { via: "patch", path: "/bandwidth" },
  "aSide.accessPoint.port.uuid": { via: "patch", path: "/aSide/accessPoint/port/uuid" },
  notifications: { via: "patch", path: "/notifications" },
  "aSide.accessPoint.virtualDevice": { via: "patch", path: "/aSide/accessPoint" },
  "aSide.accessPoint.interface": { via: "patch", path: "/aSide/accessPoint" },
};

// ── the comparable form ──────────────────────────────────────────────────────────────────


/** Integer fields the API may send as strings. */
const NUMERIC = new Set(["bandwidth", "vlanTag", "vlanSTag", "vlanCTag", "vlanTagMin", "vlanTagMax", "vlanCTagMin", "vlanCTagMax", "vni", "id"]);

/** The named fields of an object, numbers sent as strings normalised. */
function fields(v: unknown, names: readonly string[]): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Body = {};
  for (const n of names) if (v[n] !== undefined && v[n] !== null) out[n] = NUMERIC.has(n) ? asNumber(v[n]) : v[n];
  return out;
}

/**
 * What a spec can say about an access point, by nested object. Responses add more (href, names, the
 * port's type XF_PORT, location names, account): left out, like authenticationKey, which is secret and
 * compared by the engine itself.
 */
const ACCESS_POINT_OBJECTS: Readonly<Record<string, readonly string[]>> = {
  port: ["uuid"],
  linkProtocol: ["type", "vlanTag", "vlanSTag", "vlanCTag", "vlanTagMin", "vlanTagMax", "vlanCTagMin", "vlanCTagMax", "vni"],
  virtualDevice: ["type", "uuid"],
  interface: ["type", "id"],
  profile: ["type", "uuid"],
  location: ["metroCode"],
  network: ["uuid"],
  router: ["uuid"],
};
const ACCESS_POINT_VALUES = ["type", "sellerRegion", "peeringType"];

function accessPoint(v: unknown, withDefaults: boolean): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Body = fields(v, ACCESS_POINT_VALUES) ?? {};
  for (const [name, inner] of Object.entries(ACCESS_POINT_OBJECTS)) {
    const value = fields(v[name], inner);
    if (value !== undefined) out[name] = value;
  }
  // EDGE is the only virtual device type (the service fills it in); other types the service derives
  // from the object referred to (a profile's, a token's), so an absent one is left uncompared.
  if (withDefaults && isPlainObject(out.virtualDevice) && out.virtualDevice.type === undefined) out.virtualDevice = { ...out.virtualDevice, type: "EDGE" };
  return out;
}

function side(v: unknown, withDefaults: boolean): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  return compact({ serviceToken: fields(v.serviceToken, ["type", "uuid"]), accessPoint: accessPoint(v.accessPoint, withDefaults) }) as Body;
}

/**
 * The comparable form of a spec (withDefaults) or of a response. A connection without redundancy is the
 * PRIMARY of a group the service names, so a spec without one expects priority PRIMARY and any group.
 */
function comparable(body: Body, withDefaults: boolean): Body {
  const projectId = projectIdOf(body.project);
  const redundancy = fields(body.redundancy, ["group", "priority"]) ?? (withDefaults ? { priority: "PRIMARY" } : undefined);
  return compact({
    type: body.type,
    name: body.name,
    bandwidth: asNumber(body.bandwidth),
    // The response adds billingTier.
    order: fields(body.order, ["purchaseOrderNumber", "customerReferenceNumber"]),
    redundancy,
    aSide: side(body.aSide, withDefaults),
    zSide: side(body.zSide, withDefaults),
    project: projectId === undefined ? undefined : { projectId },
    notifications: sortedNotifications(body.notifications),
  }) as Body;
}

// ── states ───────────────────────────────────────────────────────────────────────────────

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => ENDED.includes(stateOf(body) ?? "");

/** The service's reason for a failure: operation.errors where it gives them, else the operation statuses. */
function reasonOf(body: Body): string | undefined {
  const errors = readPath(body, "operation.errors");
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.map((e) => (isPlainObject(e) ? String(e.errorMessage ?? e.details ?? e.errorCode ?? "") : String(e))).filter(Boolean).join("; ");
  }
  const statuses = ["equinixStatus", "providerStatus"].flatMap((s) => {
    const v = readPath(body, `operation.${s}`);
    return typeof v === "string" ? [`${s} ${v}`] : [];
  });
  return statuses.length > 0 ? statuses.join(", ") : undefined;
}

/** The latest change when it is a connection update: a bandwidth change may wait for the provider's approval. */
function updateStatus(body: Body): string | undefined {
  const change = body.change;
  if (!isPlainObject(change) || change.type !== "CONNECTION_UPDATE") return undefined;
  return typeof change.status === "string" ? change.status : undefined;
}

function readiness(body: Body, operation: Operation): Readiness {
  const state = stateOf(body);
  switch (operation) {
    case "create":
      // A provider's rejection leaves the connection PENDING (then CANCELLED): it will never provision.
      if (readPath(body, "operation.equinixStatus") === "REJECTED" || state === "CANCELLED") return { failed: `${state ?? "REJECTED"}: rejected by the provider` };
      return readinessFrom(STATES, state, operation, reasonOf(body));
    case "update":
      if (state === "PROVISIONED") {
        const status = updateStatus(body);
        if (status === "REJECTED" || status === "FAILED") return { failed: `the update was ${status}` };
        if (status === "REQUESTED" || status === "SUBMITTED_FOR_APPROVAL") return "pending";
      }
      return readinessFrom(STATES, state, operation, reasonOf(body));
    case "delete":
      return readinessFrom(STATES, state, operation, reasonOf(body));
    default: {
      const unreachable: never = operation;
      return unreachable;
    }
  }
}

// ── requests ─────────────────────────────────────────────────────────────────────────────

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", `${BASE}/${ref.id}`));
  return body === undefined || isGone(body) ? undefined : body;
}

const covering = (path: string): string | undefined => Object.keys(UPDATABLE).find((f) => path === f || path.startsWith(`${f}.`));

/** The value a PATCH operation sends, from the spec. */
function patchValue(spec: Body, path: PatchPath): unknown {
  switch (path) {
    case "/name":
      return spec.name;
    case "/bandwidth":
      return spec.bandwidth;
    case "/aSide/accessPoint/port/uuid":
      return readPath(spec, "aSide.accessPoint.port.uuid");
    case "/notifications":
      return spec.notifications;
    case "/aSide/accessPoint": {
      // 4.5: an object with virtualDevice {type, uuid} and interface {type, id}; the link protocol stays.
      const vd = readPath(spec, "aSide.accessPoint.virtualDevice");
      return compact({ virtualDevice: isPlainObject(vd) ? { type: "EDGE", ...vd } : vd, interface: readPath(spec, "aSide.accessPoint.interface") });
    }
    default: {
      const unreachable: never = path;
      return unreachable;
    }
  }
}

/** A side with its virtual device's type filled in: EDGE is the only one, and the service asks for it. */
function withDeviceType(side: unknown): unknown {
  const vd = readPath(side, "accessPoint.virtualDevice");
  if (!isPlainObject(side) || !isPlainObject(side.accessPoint) || !isPlainObject(vd) || vd.type !== undefined) return side;
  return { ...side, accessPoint: { ...side.accessPoint, virtualDevice: { type: "EDGE", ...vd } } };
}

/** Identifies the endpoint a side names: its token, or its access point's type and the object it refers to. */
function endpointOf(side: unknown): string {
  if (!isPlainObject(side)) return "";
  const token = readPath(side, "serviceToken.uuid");
  if (typeof token === "string") return `token:${token}`;
  const ap = side.accessPoint;
  if (!isPlainObject(ap)) return "";
  const target = ["port", "virtualDevice", "profile", "network", "router"].map((f) => readPath(ap, `${f}.uuid`)).find((u) => typeof u === "string");
  // A service profile is met in a metro: the same profile elsewhere is another connection.
  const metro = ap.type === "SP" ? readPath(ap, "location.metroCode") : undefined;
  return `${String(ap.type)}:${String(target ?? "")}:${String(metro ?? "")}`;
}

/**
 * What tells apart connections of one name, type and endpoints (a redundant pair is often named alike):
 * each side's tags and device interface, and the redundancy. Only what the spec sets is compared.
 */
function identityOf(comparableBody: Body): Body {
  const sideIdentity = (s: unknown) => {
    const ap = readPath(s, "accessPoint");
    return isPlainObject(ap) ? compact({ linkProtocol: ap.linkProtocol, interface: ap.interface }) : undefined;
  };
  return compact({ redundancy: comparableBody.redundancy, aSide: sideIdentity(comparableBody.aSide), zSide: sideIdentity(comparableBody.zSide) }) as Body;
}

/** Every value `want` sets is the same in `have`. */
function agrees(want: unknown, have: unknown): boolean {
  if (isPlainObject(want)) return Object.entries(want).every(([k, v]) => v === undefined || agrees(v, isPlainObject(have) ? have[k] : undefined));
  return want === have;
}

/** The create request: the spec with its project and the order the API requires even when empty. */
function createRequest(ctx: KindContext, spec: Body): Body {
  const project = spec.project ?? (ctx.provider.projectId ? { projectId: ctx.provider.projectId } : undefined);
  const request: Body = { ...spec, order: spec.order ?? {}, project };
  for (const s of ["aSide", "zSide"] as const) request[s] = withDeviceType(spec[s]);
  return compact(request) as Body;
}

/** The JSON patch that makes the changed fields so; a change no patch path covers is a defect of the plan. */
function patchOperations(ref: ObjectRef, spec: Body, changed: readonly string[]): Body[] {
  const paths = new Set<PatchPath>();
  const uncovered: string[] = [];
  for (const path of changed) {
    const field = covering(path);
    if (field === undefined) uncovered.push(path);
    else paths.add(UPDATABLE[field]!.path);
  }
  if (uncovered.length > 0) {
    throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `connection ${ref.id}: ${uncovered.join(", ")} cannot change in place` });
  }
  return PATCH_PATHS.filter((p) => paths.has(p)).map((path) => ({ op: "replace", path, value: patchValue(spec, path) }));
}

export const handler: KindHandler = {
  noun: "connection",

  observe,

  observeMany: (ctx, refs) => searchByUuid(ctx, `${BASE}/search`, refs, isGone),

  desired: (spec) => comparable(spec, true),
  observed: (body) => comparable(body, false),

  updatable: UPDATABLE,
  // The service returns a side's authorisation key as given (the provider's account or service key): a
  // key that differs is found, not passed over because it is secret.
  returnedSecrets: new SecretPaths(["aSide.accessPoint.authenticationKey", "zSide.accessPoint.authenticationKey"]),

  async create(ctx, spec) {
    const body = await ctx.api.call<Body>("POST", BASE, { body: createRequest(ctx, spec) });
    return { id: uuidOf(body, "create connection"), body };
  },

  async update(ctx, ref, spec, changed) {
    const operations = patchOperations(ref, spec, changed);
    if (operations.length > 0) await ctx.api.call("PATCH", `${BASE}/${ref.id}`, { body: operations });
  },

  // The create and the update take dryRun (the official description): the service checks the VLANs, the
  // bandwidth left on the ports and the profile's offer, and makes nothing.
  dryRun: {
    async create(ctx, spec) {
      await ctx.api.call("POST", BASE, { query: { dryRun: true }, body: createRequest(ctx, spec), readOnly: true });
    },
    async update(ctx, ref, spec, changed) {
      const operations = patchOperations(ref, spec, changed);
      if (operations.length > 0) await ctx.api.call("PATCH", `${BASE}/${ref.id}`, { query: { dryRun: true }, body: operations, readOnly: true });
    },
  },

  // A DEPROVISIONED connection (the service's EQ-3041120 refusal) reads as gone.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${BASE}/${ref.id}`),
      () => observe(ctx, ref),
      (now) => stateOf(now) === "DEPROVISIONING",
    ),

  readiness,
  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const wanted = [endpointOf(spec.aSide), endpointOf(spec.zSide)];
    const identity = identityOf(comparable(spec, true));
    for await (const body of sameNameAndType(ctx, `${BASE}/search`, spec)) {
      if (DELETING.includes(stateOf(body) ?? "") || owned?.has(String(body.uuid))) continue;
      if (endpointOf(body.aSide) !== wanted[0] || endpointOf(body.zSide) !== wanted[1]) continue;
      if (!agrees(identity, identityOf(comparable(body, false)))) continue;
      return { id: uuidOf(body, "connection search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};
