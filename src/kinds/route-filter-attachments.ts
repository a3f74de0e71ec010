// Route filter attachments (specification 2.3, 3.2, 4.3): a route filter attached to a connection in one
// direction. The service addresses an attachment by its connection and its filter and has no id of its
// own, so the ref's id is the filter's uuid and its parent the connection's. Nothing changes in place:
// another filter, connection or direction is a detach and a new attach. A detached attachment stays
// readable as DETACHED for a while, which counts as gone. Two attachments of one filter to one connection
// would fight over the same object, so the configuration may declare only one.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { identityOf, placeDiagnostic, SecretPaths, uuid, type ConfigResource } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { NetformError } from "../diag/index.js";
import { deleteIdempotently, isNotFound, orGone, readinessFrom, refKey, type StateTable } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

export const ATTACHMENT_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;

const schema = z.strictObject({
  connection: uuid().describe("the connection's uuid, normally ${connections.NAME.uuid}"),
  routeFilter: uuid().describe("the route filter's uuid, normally ${routeFilters.NAME.uuid}"),
  direction: z.enum(ATTACHMENT_DIRECTIONS),
});

function crossRules(own: readonly ConfigResource[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, ConfigResource>();
  for (const r of own) {
    const connection = identityOf(r.spec.connection);
    const filter = identityOf(r.spec.routeFilter);
    if (connection === undefined || filter === undefined) continue;
    const key = `${connection} ${filter}`;
    const first = seen.get(key);
    if (first) {
      diagnostics.push(placeDiagnostic({ address: r.address, positions: r.positions }, { path: ["routeFilter"], code: "rule.attachment-duplicate", message: `attaches the same route filter to the same connection as ${first.address}` }));
    } else seen.set(key, r);
  }
  return diagnostics;
}

/** The largest page of this API family. */
const PAGE = 100;

const STATES: StateTable = {
  // PENDING_BGP_CONFIGURATION (official enumeration): attached, and waiting for a BGP session that is
  // another resource's business; waiting for it here would time out a configuration without BGP.
  done: { create: ["ATTACHED", "PENDING_BGP_CONFIGURATION"], update: ["ATTACHED", "PENDING_BGP_CONFIGURATION"], delete: ["DETACHED"] },
  failed: ["FAILED"],
};

const statusOf = (body: Body): string | undefined => (typeof body.attachmentStatus === "string" ? body.attachmentStatus : undefined);
const isGone = (body: Body): boolean => statusOf(body) === "DETACHED";

const attachmentsOf = (connection: string) => `/fabric/v4/connections/${connection}/routeFilters`;

function parentOf(ref: ObjectRef): string {
  if (ref.parent === undefined) {
    throw new NetformError({ code: "internal.no_parent", source: "internal", message: `route filter attachment ${ref.id} has no connection in its ref` });
  }
  return ref.parent;
}

/** The body carries the filter's uuid; the connection's is only in its href (…/connections/{id}/routeFilters/{id}). */
function connectionOf(body: Body): string | undefined {
  const match = typeof body.href === "string" ? /\/connections\/([^/?#]+)\/routeFilters\//.exec(body.href) : null;
  if (match) return match[1];
  const connection = body.connection;
  if (typeof connection === "string") return connection;
  if (connection !== null && typeof connection === "object" && typeof (connection as Body).uuid === "string") return (connection as Body).uuid as string;
  return undefined;
}

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", `${attachmentsOf(parentOf(ref))}/${ref.id}`));
  return body === undefined || isGone(body) ? undefined : body;
}

function specField(spec: Body, field: "connection" | "routeFilter"): string {
  const value = spec[field];
  if (typeof value !== "string") throw new NetformError({ code: "internal.unresolved", source: "internal", message: `route filter attachment: ${field} is not a resolved uuid` });
  return value;
}

const handler: KindHandler = {
  noun: "route filter attachment",
  parentField: "connection",

  observe,

  /** One list per connection; each attachment is filed under "{connection}/{filter}" (refKey). */
  async observeMany(ctx, refs) {
    const found = new Map<string, Body>();
    const parents = new Map<string, Set<string>>();
    for (const ref of refs) {
      const parent = parentOf(ref);
      parents.set(parent, (parents.get(parent) ?? new Set()).add(ref.id));
    }
    await Promise.all(
      [...parents].map(async ([connection, ids]) => {
        try {
          for await (const body of listAll<Body>(ctx.api, attachmentsOf(connection), { pageSize: PAGE })) {
            const id = body.uuid;
            if (typeof id !== "string" || !ids.has(id) || isGone(body)) continue;
            found.set(refKey({ id, parent: connection }), body);
          }
        } catch (e) {
          // A connection that is gone has no attachments left.
          if (!isNotFound(e)) throw e;
        }
      }),
    );
    return found;
  },

  desired(spec) {
    return { connection: spec.connection, routeFilter: spec.routeFilter, direction: spec.direction };
  },

  observed(body) {
    return { connection: connectionOf(body), routeFilter: body.uuid, direction: body.direction };
  },

  updatable: {},

  async create(ctx, spec) {
    const connection = specField(spec, "connection");
    const routeFilter = specField(spec, "routeFilter");
    const body = await ctx.api.call<Body>("PUT", `${attachmentsOf(connection)}/${routeFilter}`, { body: { direction: spec.direction } });
    return { id: routeFilter, parent: connection, body };
  },

  async update(_ctx, ref, _spec, changed) {
    if (changed.length === 0) return;
    throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `route filter attachment ${ref.id}: ${changed.join(", ")} cannot change in place` });
  },

  // A 404 means already detached, or its connection is gone.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${attachmentsOf(parentOf(ref))}/${ref.id}`),
      () => observe(ctx, ref),
      (now) => statusOf(now) === "DETACHING",
    ),

  readiness(body: Body, operation: Operation): Readiness {
    return readinessFrom(STATES, statusOf(body), operation);
  },

  stateOf: statusOf,

  async lookup(ctx, spec): Promise<Observed | undefined> {
    const ref = { id: specField(spec, "routeFilter"), parent: specField(spec, "connection") };
    const body = await observe(ctx, ref);
    if (body === undefined || statusOf(body) === "DETACHING") return undefined;
    return { ...ref, body };
  },

  eventSubject: (ref) => (ref.parent ? `${attachmentsOf(ref.parent)}/${ref.id}` : undefined),
};

export const routeFilterAttachments: KindDefinition<"routeFilterAttachments"> = {
  name: "routeFilterAttachments",
  description: "route filters attached to connections, by name",
  spec: schema,
  crossRules,
  sensitive: SecretPaths.NONE,
  attributes: ["href", "type", "uuid", "attachmentStatus", "direction", "connection", "routeFilter"],
  serverSet: ["href", "uuid", "state", "change", "changeLog", "changelog", "attachmentStatus", "type"],
  parents: { connection: "connections", routeFilter: "routeFilters" },
  timeoutMs: 10 * 60_000,
  handler,
};
