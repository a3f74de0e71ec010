// What route filter attachments and route aggregation attachments share: a routing policy attached to a
// connection (`/fabric/v4/connections/{connection}/{segment}/{policy}`). The service addresses an
// attachment by its connection and its policy and has no id of its own, so the ref's id is the policy's
// uuid and its parent the connection's. Nothing changes in place: another policy, connection or setting is
// a detach and a new attach. A detached attachment stays readable as DETACHED for a while, which counts as
// gone. Two attachments of one policy to one connection would fight over the same object, so the
// configuration may declare only one.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { identityOf, lazily, placeDiagnostic, SecretPaths, uuid, type ConfigResource, type OrderingEdge } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { NetformError } from "../diag/index.js";
import { deleteIdempotently, isNotFound, readinessFrom, readUnlessGone, refKey, type StateTable } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness, TypicalSeconds } from "./types.js";

export interface ConnectionAttachmentOptions<Name extends string> {
  typicalSeconds: TypicalSeconds;
  name: Name;
  description: string;
  /** For messages: "route filter attachment". */
  noun: string;
  /** The spec field holding the policy's uuid ("routeFilter"), the policy's kind and noun. */
  policyField: string;
  policyKind: string;
  policyNoun: string;
  /** The policies' segment under a connection: "routeFilters". */
  segment: string;
  /** Settings of the attachment besides its two ends, sent as the attach request's body (a filter's direction). */
  settings: z.ZodRawShape;
  /**
   * The kind of the policy's rules (naming their policy in the same field as the attachment): the service
   * programs a policy on the connection as it is when attached, so its declared rules are created first.
   */
  rulesKind: string;
  /** The service's further rules across the attachments a configuration declares. */
  crossRules?(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[];
  attributes: readonly string[];
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

export function connectionAttachmentKind<Name extends string>(options: ConnectionAttachmentOptions<Name>): KindDefinition<Name> {
  const { noun, policyField } = options;
  const settings = Object.keys(options.settings);
  const attachmentsOf = (connection: string) => `/fabric/v4/connections/${connection}/${options.segment}`;

  const schema = lazily(() =>
    z.strictObject({
      connection: uuid().describe("the connection's uuid, normally ${connections.NAME.uuid}"),
      [policyField]: uuid().describe(`the ${options.policyNoun}'s uuid, normally \${${options.policyKind}.NAME.uuid}`),
      ...options.settings,
    }),
  );

  function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    const seen = new Map<string, ConfigResource>();
    for (const r of own) {
      const connection = identityOf(r.spec.connection);
      const policy = identityOf(r.spec[policyField]);
      if (connection === undefined || policy === undefined) continue;
      const key = `${connection} ${policy}`;
      const first = seen.get(key);
      if (first) {
        diagnostics.push(placeDiagnostic({ address: r.address, positions: r.positions }, { path: [policyField], code: "rule.attachment-duplicate", message: `attaches the same ${options.policyNoun} to the same connection as ${first.address}` }));
      } else seen.set(key, r);
    }
    return [...diagnostics, ...(options.crossRules?.(own, all) ?? [])];
  }

  /** Each attachment waits for the rules of its policy, and goes before them when both are deleted. */
  function ordering(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): OrderingEdge[] {
    const rules = [...all.values()].filter((r) => r.kind === options.rulesKind);
    return own.flatMap((attachment) => {
      const policy = identityOf(attachment.spec[policyField]);
      if (policy === undefined) return [];
      return rules.filter((rule) => identityOf(rule.spec[policyField]) === policy).map((rule) => ({ from: attachment.address, to: rule.address }));
    });
  }

  function parentOf(ref: ObjectRef): string {
    if (ref.parent === undefined) throw new NetformError({ code: "internal.no_parent", source: "internal", message: `${noun} ${ref.id} has no connection in its ref` });
    return ref.parent;
  }

  /** The body carries the policy's uuid; the connection's is only in its href (…/connections/{id}/{segment}/{id}). */
  function connectionOf(body: Body): string | undefined {
    const match = typeof body.href === "string" ? new RegExp(`/connections/([^/?#]+)/${options.segment}/`).exec(body.href) : null;
    if (match) return match[1];
    const connection = body.connection;
    if (typeof connection === "string") return connection;
    if (connection !== null && typeof connection === "object" && typeof (connection as Body).uuid === "string") return (connection as Body).uuid as string;
    return undefined;
  }

  async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
    return readUnlessGone(ctx, `${attachmentsOf(parentOf(ref))}/${ref.id}`, isGone);
  }

  function specField(spec: Body, field: string): string {
    const value = spec[field];
    if (typeof value !== "string") throw new NetformError({ code: "internal.unresolved", source: "internal", message: `${noun}: ${field} is not a resolved uuid` });
    return value;
  }

  const handler: KindHandler = {
    noun,
    parentField: "connection",

    observe,

    /** One list per connection; each attachment is filed under "{connection}/{policy}" (refKey). */
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
      return { connection: spec.connection, [policyField]: spec[policyField], ...Object.fromEntries(settings.map((f) => [f, spec[f]])) };
    },

    observed(body) {
      return { connection: connectionOf(body), [policyField]: body.uuid, ...Object.fromEntries(settings.map((f) => [f, body[f]])) };
    },

    updatable: {},

    async create(ctx, spec) {
      const connection = specField(spec, "connection");
      const policy = specField(spec, policyField);
      const path = `${attachmentsOf(connection)}/${policy}`;
      // An attach without settings has no body (the description defines none for route aggregations).
      const body = await ctx.api.call<Body>("PUT", path, settings.length > 0 ? { body: Object.fromEntries(settings.map((f) => [f, spec[f]])) } : {});
      return { id: policy, parent: connection, body };
    },

    async update(_ctx, ref, _spec, changed) {
      if (changed.length === 0) return;
      throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `${noun} ${ref.id}: ${changed.join(", ")} cannot change in place` });
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

    async lookup(ctx, spec, owned): Promise<Observed | undefined> {
      const ref = { id: specField(spec, policyField), parent: specField(spec, "connection") };
      if (owned?.has(refKey(ref))) return undefined;
      const body = await observe(ctx, ref);
      if (body === undefined || statusOf(body) === "DETACHING" || settings.some((f) => body[f] !== spec[f])) return undefined;
      return { ...ref, body };
    },

    eventSubject: (ref) => (ref.parent ? `${attachmentsOf(ref.parent)}/${ref.id}` : undefined),
  };

  return {
    name: options.name,
    description: options.description,
    get spec() {
      return schema();
    },
    crossRules,
    ordering,
    sensitive: SecretPaths.NONE,
    attributes: options.attributes,
    serverSet: ["href", "uuid", "state", "change", "changeLog", "changelog", "attachmentStatus", "type"],
    parents: { connection: "connections", [policyField]: options.policyKind },
    timeoutMs: 10 * 60_000,
    typicalSeconds: options.typicalSeconds,
    handler,
  };
}
