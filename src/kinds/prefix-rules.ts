// What route filter rules and route aggregation rules share: one prefix of a policy, nested under it
// (`{policy}/{id}/{segment}/{ruleId}`; the ref's parent is the policy's uuid). Every field but the policy
// changes in place through the service's PATCH, a new prefix included. A policy's new rules are created
// in one bulk request, refreshed and polled with one list per policy, and deleted with their policy when
// it goes too. The service keeps one rule per prefix in a policy, in its own spelling (IPv6 compressed),
// and refuses a prefix with host bits set, so the configuration is checked for both before any call.

import { z } from "zod";
import { listAll, OutcomeUnknownError, searchAll } from "../api/index.js";
import { lazily, parsePrefix, placeDiagnostic, Reference, reveal, SecretPaths, uuid, type ConfigResource, type Prefix } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { NetformError } from "../diag/index.js";
import { compact, deleteIdempotently, isNotFound, readinessFrom, readUnlessGone, refKey, type StateTable, uuidOf } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness, UpdateMethod, TypicalSeconds } from "./types.js";

export const PREFIX_MATCHES = ["exact", "orlonger"] as const;
/** The service's default: the prefix and every longer one within it. */
const DEFAULT_PREFIX_MATCH = "orlonger";
/** The most rules the service keeps in one policy. */
export const MAX_RULES = 1000;
/** The largest page of this API family. */
const PAGE = 100;

type Family = Prefix["family"];
const FAMILY_NAME: Record<Family, string> = { 4: "IPv4", 6: "IPv6" };

export interface PrefixRuleOptions<Name extends string> {
  typicalSeconds: TypicalSeconds;
  name: Name;
  description: string;
  /** For messages: "route filter rule". */
  noun: string;
  /** The spec field holding the policy's uuid: "routeFilter". */
  parentField: string;
  /** The policy's kind ("routeFilters"), its noun, and its collection path. */
  parentKind: string;
  parentNoun: string;
  parentBase: string;
  /** The rules' segment under a policy: "routeFilterRules". */
  segment: string;
  /** Whether rules carry prefixMatch (filter rules do, aggregation rules do not). */
  prefixMatch: boolean;
  /** The family of prefixes a policy of this declared type takes, or why it takes no rules; undefined for a type the service does not know. */
  familyOf(policyType: string): Family | { refused: string } | undefined;
  /** A family every rule of this kind must have, whatever its policy (aggregation rules: IPv4). */
  onlyFamily?: Family;
  attributes: readonly string[];
}

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["NOT_PROVISIONED", "NOT_DEPROVISIONED"],
};
const DELETING = ["DEPROVISIONING", "DEPROVISIONED", "NOT_DEPROVISIONED"];

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => stateOf(body) === "DEPROVISIONED";

/** A prefix as the service spells it; a value that is not one is left as it is, for validation to report. */
const canonicalPrefix = (value: unknown): unknown => (typeof value === "string" ? (parsePrefix(value)?.text ?? value) : value);

/** A prefix in CIDR notation without host bits, of one family when `only` says so. */
function prefixSchema(only: Family | undefined) {
  return z.string().superRefine((text, ctx) => {
    const prefix = parsePrefix(text);
    if (!prefix) {
      ctx.addIssue({ code: "custom", message: `must be ${only ? `an ${FAMILY_NAME[only]}` : "an IPv4 or IPv6"} prefix in CIDR notation, e.g. ${only === 6 ? "2001:db8::/32" : "192.168.0.0/24"}` });
    } else if (only !== undefined && prefix.family !== only) {
      ctx.addIssue({ code: "custom", message: `must be an ${FAMILY_NAME[only]} prefix; the service takes no ${FAMILY_NAME[prefix.family]} rules here` });
    } else if (prefix.network) {
      ctx.addIssue({ code: "custom", message: `has host bits set, which the service refuses; write ${prefix.network}` });
    }
  });
}

export function prefixRuleKind<Name extends string>(options: PrefixRuleOptions<Name>): KindDefinition<Name> {
  const { noun, parentField } = options;
  const rulesOf = (policy: string) => `${options.parentBase}/${policy}/${options.segment}`;
  const ruleHref = (ref: ObjectRef) => `${rulesOf(parentOf(ref))}/${ref.id}`;
  const fields = ["prefix", ...(options.prefixMatch ? ["prefixMatch"] : []), "name", "description"] as const;

  const schema = lazily(() =>
    z.strictObject({
      [parentField]: uuid().describe(`the ${options.parentNoun}'s uuid, normally \${${options.parentKind}.NAME.uuid}`),
      prefix: prefixSchema(options.onlyFamily).describe(
        options.onlyFamily ? `${FAMILY_NAME[options.onlyFamily]} prefix in CIDR notation, e.g. 192.168.0.0/24` : `prefix in CIDR notation, of the ${options.parentNoun}'s family, e.g. 192.168.0.0/24 or 2001:db8::/32`,
      ),
      ...(options.prefixMatch ? { prefixMatch: z.enum(PREFIX_MATCHES).optional().describe("exact: the prefix only; orlonger (default): the prefix and the longer ones within it") } : {}),
      name: z.string().min(1).optional().describe("display name; default: the resource name"),
      description: z.string().optional(),
    }),
  );

  function parentOf(ref: ObjectRef): string {
    if (ref.parent === undefined) throw new NetformError({ code: "internal.no_parent", source: "internal", message: `${noun} ${ref.id} has no ${options.parentNoun} in its ref` });
    return ref.parent;
  }

  function policyOf(spec: Body): string {
    const value = spec[parentField];
    if (typeof value !== "string") throw new NetformError({ code: "internal.unresolved", source: "internal", message: `${noun}: ${parentField} is not a resolved uuid` });
    return value;
  }

  /** The policy's uuid, from the href a rule is served with (…/{policies}/{id}/{segment}/{ruleId}). */
  function policyInHref(body: Body): string | undefined {
    if (typeof body.href !== "string") return undefined;
    const at = body.href.indexOf(`/${options.segment}/`);
    return at < 0 ? undefined : body.href.slice(0, at).split("/").pop();
  }

  /**
   * The comparable form. An absent description reads as "" (removing it is a change, sent as an empty
   * description), an absent prefixMatch as the service's default, and the prefix in the service's spelling.
   */
  function comparable(policy: unknown, body: Body): Body {
    return compact({
      [parentField]: policy,
      prefix: canonicalPrefix(body.prefix),
      ...(options.prefixMatch ? { prefixMatch: body.prefixMatch ?? DEFAULT_PREFIX_MATCH } : {}),
      name: body.name,
      description: typeof body.description === "string" ? body.description : "",
    }) as Body;
  }

  /** The request fields of a spec, for a create or one item of a bulk create. */
  const requestBody = (spec: Body): Body => compact(Object.fromEntries(fields.map((f) => [f, f === "prefix" ? canonicalPrefix(spec.prefix) : spec[f]]))) as Body;

  async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
    return readUnlessGone(ctx, ruleHref(ref), isGone);
  }

  const handler: KindHandler = {
    noun,
    parentField,

    observe,

    /** One list per policy; each rule is filed under "{policy}/{rule}" (refKey). */
    async observeMany(ctx, refs) {
      const found = new Map<string, Body>();
      const policies = new Map<string, Set<string>>();
      for (const ref of refs) policies.set(parentOf(ref), (policies.get(parentOf(ref)) ?? new Set()).add(ref.id));
      await Promise.all(
        [...policies].map(async ([policy, ids]) => {
          try {
            for await (const body of listAll<Body>(ctx.api, rulesOf(policy), { pageSize: PAGE })) {
              if (typeof body.uuid === "string" && ids.has(body.uuid) && !isGone(body)) found.set(refKey({ id: body.uuid, parent: policy }), body);
            }
          } catch (e) {
            // A policy that is gone has no rules left.
            if (!isNotFound(e)) throw e;
          }
        }),
      );
      return found;
    },

    desired: (spec) => comparable(spec[parentField], spec),
    observed: (body) => comparable(policyInHref(body), body),

    updatable: Object.fromEntries(fields.map((f) => [f, { via: "patch", path: `/${f}` } satisfies UpdateMethod])),

    async create(ctx, spec) {
      const policy = policyOf(spec);
      const body = await ctx.api.call<Body>("POST", rulesOf(policy), { body: requestBody(spec) });
      return { id: uuidOf(body, `create ${noun}`), parent: policy, body };
    },

    bulkCreate: {
      key: policyOf,
      async create(ctx, specs) {
        const policy = policyOf(specs[0]!);
        const path = `${rulesOf(policy)}/bulk`;
        const answer = await ctx.api.call<{ data?: Body[] }>("POST", path, { body: { data: specs.map(requestBody) } });
        const made = answer.data ?? [];
        // The rules were made, but which object is which address cannot be told: each is looked up.
        if (made.length !== specs.length) throw new OutcomeUnknownError("POST", path, new Error(`the answer holds ${made.length} rules for the ${specs.length} sent`));
        return made.map((body) => ({ id: uuidOf(body, `bulk create ${noun}`), parent: policy, body }));
      },
    },

    async update(ctx, ref, spec, changed) {
      const covered = (f: string) => changed.some((path) => path === f);
      const uncovered = changed.filter((path) => !(fields as readonly string[]).includes(path));
      if (uncovered.length > 0) throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `${noun} ${ref.id}: ${uncovered.join(", ")} cannot change in place` });
      const desired = comparable(spec[parentField], spec);
      const operations = fields.filter(covered).map((f) => ({ op: "replace", path: `/${f}`, value: desired[f] }));
      if (operations.length > 0) await ctx.api.call("PATCH", ruleHref(ref), { body: operations });
    },

    delete: (ctx, ref) =>
      deleteIdempotently(
        () => ctx.api.call("DELETE", ruleHref(ref)),
        () => observe(ctx, ref),
        (now) => DELETING.includes(stateOf(now) ?? ""),
      ),

    deletedWithParent: true,

    readiness(body: Body, operation: Operation): Readiness {
      return readinessFrom(STATES, stateOf(body), operation);
    },

    stateOf,

    /** The policy's rule with this prefix (one per prefix), when every other field matches too. */
    async lookup(ctx, spec, owned): Promise<Observed | undefined> {
      const policy = policyOf(spec);
      const want = comparable(policy, spec);
      const filter = { and: [{ property: "/prefix", operator: "=", values: [String(want.prefix)] }] };
      try {
        for await (const body of searchAll<Body>(ctx.api, `${rulesOf(policy)}/search`, { filter }, { pageSize: PAGE })) {
          if (DELETING.includes(stateOf(body) ?? "") || owned?.has(refKey({ id: String(body.uuid), parent: policy }))) continue;
          const found = comparable(policy, body);
          if (fields.every((f) => found[f] === want[f])) return { id: uuidOf(body, `${noun} search`), parent: policy, body };
        }
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      return undefined;
    },

    eventSubject: (ref) => (ref.parent ? ruleHref(ref) : undefined),
  };

  return {
    name: options.name,
    description: options.description,
    get spec() {
      return schema();
    },
    displayName: "name",
    crossRules: (own, all) => crossRules(options, own, all),
    sensitive: SecretPaths.NONE,
    attributes: options.attributes,
    serverSet: [...options.attributes.filter((a) => !fields.includes(a as (typeof fields)[number])), "changelog"],
    parents: { [parentField]: options.parentKind },
    timeoutMs: 10 * 60_000,
    typicalSeconds: options.typicalSeconds,
    handler,
  };
}

/**
 * The service's rules across a policy's rules, where the configuration declares the policy: prefixes of
 * the policy's family, one rule per prefix, at most MAX_RULES rules.
 */
function crossRules(options: PrefixRuleOptions<string>, own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = (r: ConfigResource, path: string, code: string, message: string, hint?: string) =>
    diagnostics.push(placeDiagnostic({ address: r.address, positions: r.positions }, { path: [path], code, message, ...(hint ? { hint } : {}) }));
  const byPolicy = new Map<string, ConfigResource[]>();
  for (const r of own) {
    const ref = r.spec[options.parentField];
    if (!(ref instanceof Reference) || ref.kind !== options.parentKind) continue;
    byPolicy.set(ref.address, [...(byPolicy.get(ref.address) ?? []), r]);
  }
  for (const [address, rules] of byPolicy) {
    const type = reveal(all.get(address)?.spec.type);
    const family = typeof type === "string" ? options.familyOf(type) : undefined;
    const seen = new Map<string, ConfigResource>();
    for (const r of rules) {
      if (typeof family === "object") {
        report(r, options.parentField, "rule.prefix-family", `${address} is a ${String(type)}: ${family.refused}`, `refer to a ${options.parentNoun} that takes rules`);
        continue;
      }
      const written = reveal(r.spec.prefix);
      const prefix = typeof written === "string" ? parsePrefix(written) : undefined;
      // A prefix the schema refuses already has its diagnostic.
      if (!prefix || (options.onlyFamily !== undefined && prefix.family !== options.onlyFamily)) continue;
      if (family !== undefined && prefix.family !== family) {
        report(r, "prefix", "rule.prefix-family", `${written as string} is an ${FAMILY_NAME[prefix.family]} prefix, but ${address} is a ${String(type)}, which takes ${FAMILY_NAME[family]} prefixes only`, `write an ${FAMILY_NAME[family]} prefix, or refer to a ${options.parentNoun} of the other family`);
      }
      const first = seen.get(prefix.text);
      if (first) report(r, "prefix", "rule.prefix-duplicate", `${prefix.text} is also the prefix of ${first.address} in ${address}; the service keeps one rule per prefix`, "remove one of the two, or merge them");
      else seen.set(prefix.text, r);
    }
    if (rules.length > MAX_RULES) {
      report(rules[MAX_RULES]!, options.parentField, "rule.rules-count", `${address} has ${rules.length} rules; the service keeps at most ${MAX_RULES} in one ${options.parentNoun}`, `split the prefixes over several ${options.parentNoun}s`);
    }
  }
  return diagnostics;
}
