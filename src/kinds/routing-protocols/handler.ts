// Routing protocol instances (sections 2.6, 3.4, 4.6): one DIRECT and one BGP instance per connection,
// nested under it. The enabled flag of a BGP session changes through the service's JSON patch; every
// other field through a PUT of the whole instance; the type, the connection and a DIRECT instance's
// addresses cannot change.

import { isPlainObject, readPath, SecretPaths } from "../../config/index.js";
import { listAll } from "../../api/index.js";
import { NetformError } from "../../diag/index.js";
import { asNumber, compact, deleteIdempotently, isNotFound, orGone, readinessFrom, refKey, type StateTable } from "../common.js";
import type { Body, KindContext, ObjectRef, Observed, Readiness, KindHandler, UpdateMethod } from "../types.js";

type RoutingProtocolType = "DIRECT" | "BGP";
type Family = "bgpIpv4" | "bgpIpv6";

const FAMILIES: readonly Family[] = ["bgpIpv4", "bgpIpv6"];
/** The fields of a BGP session that the customer sets; equinixPeerIp and operation are the service's. */
const SESSION_FIELDS = ["customerPeerIp", "enabled", "outboundASPrependCount", "inboundMED", "outboundMED", "routesMax"] as const;
/** States after which the instance no longer counts as existing (3.4; DEPROVISIONED stays readable a while). */
const DELETED_STATES: readonly string[] = ["DEPROVISIONING", "DEPROVISIONED"];
const PAGE_SIZE = 100;

const TABLE: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED"],
};

const collection = (connection: string) => `/fabric/v4/connections/${encodeURIComponent(connection)}/routingProtocols`;
const instancePath = (ref: ObjectRef) => `${collection(parentOf(ref))}/${encodeURIComponent(ref.id)}`;
const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isDeleted = (body: Body): boolean => DELETED_STATES.includes(stateOf(body) ?? "");

function parentOf(ref: ObjectRef): string {
  if (ref.parent) return ref.parent;
  throw new NetformError({
    code: "resource.missing_parent",
    message: `routing protocol ${ref.id} has no connection recorded; routing protocols live under a connection`,
    source: "internal",
  });
}

// ── the comparable forms ───────────────────────────────────────────────────────────────────

/**
 * A BGP session with the service's default (enabled true, 4.6) filled in: in the spec, and in an answer that
 * leaves the flag out (BGPConnectionIpv4 marks it optional), which means the service's default too.
 */
function session(v: unknown): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Body = { enabled: true };
  for (const f of SESSION_FIELDS) if (v[f] !== undefined && v[f] !== null) out[f] = f === "customerPeerIp" || f === "enabled" ? v[f] : asNumber(v[f]);
  return out;
}

function directFamily(v: unknown): Body | undefined {
  return isPlainObject(v) && v.equinixIfaceIp !== undefined ? { equinixIfaceIp: v.equinixIfaceIp } : undefined;
}

/**
 * The customer's fields, the same for a spec and an answer. The service's defaults are filled in on both
 * sides: the official description's answers leave out what is at its default (RoutingProtocolGetAll's BGP
 * instance has no bfd), and absent there means the default, as it does in the spec.
 */
function comparable(source: Body, connection: unknown): Body {
  const type = source.type as RoutingProtocolType;
  // Each type's fields are assigned after these, not written after a spread of them, which V8 adds one by
  // one on its slowest path: this runs for every instance a plan makes or compares.
  const common: Body = { connection, type, name: source.name };
  switch (type) {
    case "DIRECT":
      return compact(Object.assign(common, { directIpv4: directFamily(source.directIpv4), directIpv6: directFamily(source.directIpv6) })) as Body;
    case "BGP": {
      const bfd = isPlainObject(source.bfd) ? source.bfd : {};
      for (const f of FAMILIES) common[f] = session(source[f]);
      return compact(
        Object.assign(common, {
          customerAsn: asNumber(source.customerAsn),
          // 4.6: asOverrideEnabled and bfd.enabled default to false, so removing them from the file is a change.
          asOverrideEnabled: source.asOverrideEnabled ?? false,
          // The service returns bfd.interval as a string (2.6).
          bfd: { enabled: bfd.enabled ?? false, interval: asNumber(bfd.interval) },
        }),
      ) as Body;
    }
    default: {
      // A type the configuration did not validate: compared as far as the common fields go.
      const unknownType: never = type;
      return compact(Object.assign(common, { type: unknownType })) as Body;
    }
  }
}

function desired(spec: Body): Body {
  return comparable(spec, spec.connection);
}

/**
 * The connection an instance is on: `connection.uuid` where the answer has it (RoutingProtocolData), else its
 * href (…/connections/{id}/routingProtocols/{id}), which is all the official description's examples give.
 */
function connectionOf(body: Body): unknown {
  const uuid = readPath(body, "connection.uuid");
  if (uuid !== undefined) return uuid;
  return typeof body.href === "string" ? /\/connections\/([^/?#]+)\/routingProtocols\//.exec(body.href)?.[1] : undefined;
}

/** The request body of a create or a PUT: the spec without the parent, which is in the path. */
function requestBody(spec: Body): Body {
  const { connection: _connection, ...fields } = spec;
  return compact(fields) as Body;
}

// ── reading ────────────────────────────────────────────────────────────────────────────────

/** Every instance of a connection, deprovisioned ones included; empty when the connection is gone. */
async function listOf(ctx: KindContext, connection: string): Promise<Body[]> {
  try {
    const out: Body[] = [];
    for await (const item of listAll<Body>(ctx.api, collection(connection), { pageSize: PAGE_SIZE })) out.push(item);
    return out;
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}

/** The service's reason for a FAILED instance (operation.errors of the failed change). */
function failureReason(body: Body): string | undefined {
  const errors = readPath(body, "operation.errors");
  if (!Array.isArray(errors)) return undefined;
  const texts = errors.filter(isPlainObject).map((e) => [e.errorCode, e.errorMessage].filter((x) => typeof x === "string" && x !== "").join(" "));
  return texts.filter(Boolean).join("; ") || undefined;
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

// ── the kind ───────────────────────────────────────────────────────────────────────────────

const PUT: UpdateMethod = { via: "put" };

/** Only the enabled flags have a patch path (4.6); every other field is sent again with the whole instance. */
const PATCHES: Readonly<Record<string, Extract<UpdateMethod, { via: "patch" }>>> = {
  "bgpIpv4.enabled": { via: "patch", path: "/bgpIpv4/enabled" },
  "bgpIpv6.enabled": { via: "patch", path: "/bgpIpv6/enabled" },
};

const UPDATABLE: Readonly<Record<string, UpdateMethod>> = {
  ...PATCHES,
  // The other session fields are listed one by one so that no prefix shadows the enabled flags.
  ...Object.fromEntries(FAMILIES.flatMap((f) => SESSION_FIELDS.filter((s) => s !== "enabled").map((s) => [`${f}.${s}`, PUT]))),
  name: PUT,
  // directIpv4 and directIpv6 are left out on purpose: the service keeps a BGP session inside its DIRECT
  // subnet at every step, so a PUT of a DIRECT instance to a subnet without the BGP peer is refused, and
  // a BGP peer moved first is refused too. As a replace, the planner takes the BGP instance down with it
  // (BGP, DIRECT deleted; DIRECT, BGP created), which is the one order the service accepts.
  customerAsn: PUT,
  asOverrideEnabled: PUT,
  // A secret the engine compares by hash: a new key is sent with the whole instance.
  bgpAuthKey: PUT,
  bfd: PUT,
};

export const handler: KindHandler = {
  noun: "routing protocol",
  parentField: "connection",
  // 2.6: a BGP instance's answer carries its bgpAuthKey.
  returnedSecrets: new SecretPaths(["bgpAuthKey"]),

  async observe(ctx, ref) {
    const body = await orGone(() => ctx.api.call<Body>("GET", instancePath(ref)));
    return body === undefined || stateOf(body) === "DEPROVISIONED" ? undefined : body;
  },

  async observeMany(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.id));
    const parents = [...new Set(refs.map(parentOf))];
    const found = new Map<string, Body>();
    await eachLimited(parents, ctx.provider.parallelism, async (connection) => {
      for (const body of await listOf(ctx, connection)) {
        const id = typeof body.uuid === "string" ? body.uuid : undefined;
        if (id && wanted.has(id) && stateOf(body) !== "DEPROVISIONED") found.set(refKey({ id, parent: connection }), body);
      }
    });
    return found;
  },

  desired,

  observed(body) {
    return comparable(body, connectionOf(body));
  },

  updatable: UPDATABLE,

  async create(ctx, spec) {
    const connection = String(spec.connection);
    const response = await ctx.api.call<Body>("POST", collection(connection), { body: requestBody(spec) });
    // A sample of 4.6 answers in list style ({pagination, data}); the instance is its only item.
    const created = Array.isArray(response.data) && isPlainObject(response.data[0]) ? response.data[0] : response;
    return { id: String(created.uuid), parent: connection, body: created };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.length === 0) return;
    const path = instancePath(ref);
    if (changed.every((p) => p in PATCHES)) {
      const want = desired(spec);
      const ops = changed.map((p) => ({ op: "replace", path: PATCHES[p]!.path, value: readPath(want, p) }));
      await ctx.api.call("PATCH", path, { body: ops });
      return;
    }
    // The PUT carries the enabled flags too, so a mixed change is one request.
    await ctx.api.call("PUT", path, { body: requestBody(spec) });
  },

  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", instancePath(ref)),
      () => orGone(() => ctx.api.call<Body>("GET", instancePath(ref))),
      isDeleted,
    ),

  readiness(body, operation): Readiness {
    return readinessFrom(TABLE, stateOf(body), operation, failureReason(body));
  },

  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const connection = String(spec.connection);
    // A connection holds one instance of each type (4.6), so the type identifies it.
    const match = (await listOf(ctx, connection)).find((b) => b.type === spec.type && !isDeleted(b) && !owned?.has(refKey({ id: String(b.uuid), parent: connection })));
    return match ? { id: String(match.uuid), parent: connection, body: match } : undefined;
  },

  eventSubject: (ref) => (ref.parent ? `/fabric/v4/connections/${ref.parent}/routingProtocols/${ref.id}` : undefined),
};
