// The plan as one versioned JSON document, for `plan --format json`, `show --format json` and the
// `planned_change` event: what pipelines and policy checks read. The zod schema below is the contract;
// its JSON Schema is published as schemas/plan.schema.json (a test fails when that file is stale).
//
// Actions are spelled as Terraform spells them (`["delete", "create"]` for a replace) so that tooling
// written for `terraform show -json` needs little change. Values are masked exactly as the text plan
// masks them (values.ts): a secret is "(sensitive)" even when the plan wrongly carries it in clear.

import { z } from "zod";
import { REASON_CODES, type Action, type Plan, type ResourceChange } from "../plan/types.js";
import { planCostDocument, planCostSchema } from "./plan-cost.js";
import { afterIsUnknown, Masks, segments, sensitivePathsOf, SENSITIVE_TEXT, toJson, UNKNOWN_TEXT, type JsonValue } from "./values.js";
import { durationPhrase } from "./plan-duration.js";

// Declared rather than z.json(), which is built lazily and comes out of z.toJSONSchema wrapped twice.
const jsonValue: z.ZodType<JsonValue> = z
  .lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]))
  .meta({ id: "jsonValue", description: "any JSON value" });
const jsonObject = z.record(z.string(), jsonValue);

const one = <A extends string>(a: A) => z.tuple([z.literal(a)]);
const two = <A extends string, B extends string>(a: A, b: B) => z.tuple([z.literal(a), z.literal(b)]);

export const actionsSchema = z
  .union([one("create"), one("update"), two("delete", "create"), two("create", "delete"), one("delete"), one("import"), two("import", "update"), one("forget"), one("no-op")])
  .describe('what apply will do, in order: a replace is ["delete","create"], or ["create","delete"] when the new object is created first; "forget" removes the object from the state and leaves it on the service');

export const fieldChangeDocumentSchema = z
  .object({
    path: z.string().describe('dotted path in the desired form: "bgpIpv4.enabled"'),
    before: jsonValue.describe("the value now; null when absent"),
    after: jsonValue.describe("the value after apply; null when removed, and when unknown until apply (then `unknown` is true)"),
    unknown: z.boolean().describe("the value after apply is not known before apply"),
    sensitive: z.boolean().describe(`the value is secret: before and after are "${SENSITIVE_TEXT}"`),
    forcesReplacement: z.boolean().describe("this change cannot be made in place"),
  })
  .describe("one field that changes");

export const resourceChangeDocumentSchema = z
  .object({
    address: z.string().describe('"kind.name"'),
    previousAddress: z.string().optional().describe("a moved block moves the object from this address to `address`, in the state only"),
    kind: z.string(),
    actions: actionsSchema,
    reason: z.string().nullable().describe("why, in words; null when there is nothing to explain"),
    reasonCode: z.enum(REASON_CODES).describe("why, as one of a fixed set of codes to match on; reason says it in words"),
    before: jsonObject.nullable().describe(`the object as it is, masked; null when it does not exist yet`),
    after: jsonObject.nullable().describe("the object as it will be, masked, without the values unknown until apply (afterUnknown lists them); null when it will be deleted"),
    afterUnknown: z.array(z.string()).describe("dotted paths whose values are unknown until apply: absent from after"),
    sensitivePaths: z.array(z.string()).describe(`dotted paths whose values are secret, shown as "${SENSITIVE_TEXT}"`),
    notCompared: z
      .array(z.string())
      .optional()
      .describe("secret fields the service does not return: not readable, so not compared with the service; only the declared value with the hash of what netform last sent"),
    notReturned: z
      .array(z.string())
      .optional()
      .describe("declared fields the service's answer leaves out, so not compared: absent there means the service's default or what was sent"),
    changes: z.array(fieldChangeDocumentSchema),
    id: z.string().optional().describe("the existing object's id"),
    importId: z.string().optional().describe("import: the uuid adopted"),
    awaiting: z.enum(["create", "update", "delete"]).optional().describe("the object is still in a transition started by an earlier run; apply waits for it"),
  })
  .describe("what will happen to one resource");

export const planDocumentSchema = z
  .object({
    formatVersion: z.literal(1),
    mode: z.enum(["normal", "destroy", "refresh-only"]),
    lineage: z.string().describe("the state the plan was made from; a saved plan applies only to the same lineage and serial"),
    serial: z.number().int().nonnegative(),
    configHash: z.string().describe("a hash of the configuration and variables the plan was made from"),
    workspace: z.string().optional().describe("the workspace whose state the plan was made from; absent for the default workspace"),
    resourceChanges: z.array(resourceChangeDocumentSchema).describe("every resource, in the order apply takes them, no-ops included"),
    summary: z.object({
      add: z.number().int().nonnegative(),
      change: z.number().int().nonnegative(),
      replace: z.number().int().nonnegative(),
      destroy: z.number().int().nonnegative(),
      import: z.number().int().nonnegative(),
    }),
    requestCount: z.number().int().nonnegative().describe("API requests the refresh made"),
    drifted: z.array(z.string()).optional().describe("refresh-only: addresses whose recorded attributes differ from the service"),
    unchecked: z
      .array(z.object({ address: z.string(), why: z.string() }))
      .optional()
      .describe("changes the service could not check before apply (a value known only after apply, a check it did not answer, --refresh=false): apply may still be refused"),
    outputChanges: z
      .array(
        z.object({
          name: z.string(),
          actions: z.union([one("create"), one("update"), one("delete"), one("no-op")]),
          before: jsonValue.describe("the value the state records; null when none, or when sensitive"),
          after: jsonValue.describe("the value apply will record; null when removed, unknown until apply (afterUnknown), or sensitive"),
          afterUnknown: z.boolean().describe("the value is not known until apply"),
          sensitive: z.boolean().describe("the output is sensitive: its values are never in a plan"),
        }),
      )
      .optional()
      .describe("the outputs apply will record; absent when neither the configuration nor the state has any"),
    estimatedDuration: z
      .object({
        seconds: z.number().int().nonnegative().describe("the longest chain of steps, each weighed by its kind's typical transition time (learned from this state's applies, else the kind's default)"),
        chain: z.array(z.string()).describe("the addresses along that chain, first to last"),
        text: z.string().describe('the same in words: "about 9 min: devices.edge, then connections.edge-to-dc"'),
      })
      .optional()
      .describe("how long the apply should take; absent when no step waits for the service"),
    lookups: z
      .array(
        z.object({
          address: z.string().describe('"lookups.NAME"'),
          kind: z.string().describe("the lookup kind"),
          value: jsonObject.describe("the attributes of the one object found; a list lookup's (many: true) is { count, items }"),
          changes: z.array(z.object({ path: z.string(), before: jsonValue, after: jsonValue })).describe("what differs from the value the last apply recorded; empty when nothing does or none was recorded"),
          list: z
            .object({
              names: z.array(z.string()).describe("each object found, by its name (else its uuid), in the lookup's order"),
              appeared: z.array(z.string()).describe("the objects found that the last apply's list did not have"),
              disappeared: z.array(z.string()).describe("the objects of the last apply's list no longer found"),
              instances: z.array(z.string()).describe("the forEach instances over the lookup that appear or disappear with them"),
            })
            .optional()
            .describe("a list lookup's summary: what it found and what changed since the last apply; absent for a lookup of one object"),
        }),
      )
      .optional()
      .describe("the lookups the plan resolved"),
    cost: planCostSchema.optional(),
    risks: z
      .array(
        z.object({
          kind: z.enum(["downtime", "maintenance"]).describe("downtime: the network-edge downtime notification; maintenance: a notice of provider.maintenanceNotices"),
          severity: z.enum(["warning"]),
          message: z.string().describe("the service's own words: its additional message, or the notice's summary"),
          window: z.object({ start: z.string(), end: z.string().nullable().describe("null when the service gives no end") }).describe("when, as the service gives it"),
          impacts: z.array(z.string()).describe("the impacted services, or the notice's IBXs in metros the plan changes something in"),
          notice: z.object({ id: z.string(), number: z.string().optional(), type: z.string().optional() }).optional().describe("maintenance: the notice"),
        }),
      )
      .optional()
      .describe("downtime and maintenance in progress where the plan changes something: apply refuses while they last, unless --ignore-downtime; absent when there are none"),
  })
  .describe("a netform plan");

export type PlanActions = z.infer<typeof actionsSchema>;
export type FieldChangeDocument = z.infer<typeof fieldChangeDocumentSchema>;
export type ResourceChangeDocument = z.infer<typeof resourceChangeDocumentSchema>;
export type PlanDocument = z.infer<typeof planDocumentSchema>;

export function planDocument(plan: Plan): PlanDocument {
  return {
    formatVersion: plan.formatVersion,
    mode: plan.mode,
    lineage: plan.lineage,
    serial: plan.serial,
    configHash: plan.configHash,
    ...(plan.workspace !== undefined ? { workspace: plan.workspace } : {}),
    resourceChanges: plan.changes.map(resourceChangeDocument),
    summary: { ...plan.summary },
    requestCount: plan.requestCount,
    ...(plan.drifted !== undefined ? { drifted: [...plan.drifted] } : {}),
    ...(plan.unchecked !== undefined ? { unchecked: plan.unchecked.map((u) => ({ ...u })) } : {}),
    ...(plan.outputChanges !== undefined
      ? { outputChanges: plan.outputChanges.map((o) => ({ name: o.name, actions: [o.action], before: toJson(o.before ?? null), after: toJson(o.after ?? null), afterUnknown: o.afterUnknown, sensitive: o.sensitive })) }
      : {}),
    ...(plan.estimatedDuration ? { estimatedDuration: { seconds: plan.estimatedDuration.seconds, chain: [...plan.estimatedDuration.chain], text: durationPhrase(plan.estimatedDuration) } } : {}),
    ...(plan.lookups !== undefined
      ? {
          lookups: plan.lookups.map((l) => ({
            address: l.address,
            kind: l.kind,
            value: toJson(l.value) as { [k: string]: JsonValue },
            changes: l.changes.map((fc) => ({ path: fc.path, before: toJson(fc.before ?? null), after: toJson(fc.after ?? null) })),
            ...(l.list ? { list: { names: [...l.list.names], appeared: [...l.list.appeared], disappeared: [...l.list.disappeared], instances: [...l.list.instances] } } : {}),
          })),
        }
      : {}),
    ...(plan.cost !== undefined ? { cost: planCostDocument(plan.cost) } : {}),
    ...(plan.risks !== undefined ? { risks: plan.risks.map((r) => ({ ...r, window: { ...r.window }, impacts: [...r.impacts], ...(r.notice ? { notice: { ...r.notice } } : {}) })) } : {}),
  };
}

export function resourceChangeDocument(rc: ResourceChange): ResourceChangeDocument {
  const masks = Masks.of(rc);
  return {
    address: rc.address,
    ...(rc.previousAddress !== undefined ? { previousAddress: rc.previousAddress } : {}),
    kind: rc.kind,
    actions: planActions(rc),
    reason: rc.reason ?? null,
    reasonCode: rc.reasonCode,
    before: rc.before === undefined ? null : maskedObject(masks.mask(rc.before, [], false)),
    after: rc.after === undefined ? null : withoutUnknowns(maskedObject(masks.mask(rc.after, [], true)), rc.unknown),
    afterUnknown: [...rc.unknown],
    sensitivePaths: sensitivePathsOf(rc.kind, rc.sensitive),
    ...(rc.notCompared?.length ? { notCompared: [...rc.notCompared] } : {}),
    ...(rc.notReturned?.length ? { notReturned: [...rc.notReturned] } : {}),
    changes: rc.changes.map((fc) => {
      const segs = segments(fc.path);
      const sensitive = fc.sensitive === true || masks.isSensitive(segs);
      const unknown = afterIsUnknown(fc, masks);
      return {
        path: fc.path,
        before: toJson(masks.maskChangeValue(fc.before, segs, sensitive, false)),
        after: unknown ? null : toJson(masks.maskChangeValue(fc.after, segs, sensitive, true)),
        unknown,
        sensitive,
        forcesReplacement: fc.forcesReplacement === true,
      };
    }),
    ...(rc.id !== undefined ? { id: rc.id } : {}),
    ...(rc.importId !== undefined ? { importId: rc.importId } : {}),
    ...(rc.awaiting !== undefined ? { awaiting: rc.awaiting } : {}),
  };
}

export function planActions(rc: Pick<ResourceChange, "action" | "changes" | "createBeforeDestroy">): PlanActions {
  const action: Action = rc.action;
  switch (action) {
    case "create":
      return ["create"];
    case "update":
      return ["update"];
    case "replace":
      return rc.createBeforeDestroy ? ["create", "delete"] : ["delete", "create"];
    case "delete":
      return ["delete"];
    case "import":
      return rc.changes.length > 0 ? ["import", "update"] : ["import"];
    case "forget":
      return ["forget"];
    case "no-op":
      return ["no-op"];
    default: {
      const unreachable: never = action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

function maskedObject(masked: unknown): Record<string, JsonValue> {
  const json = toJson(masked);
  // Only a secret covering the whole object masks it to a non-object; then nothing of it may show.
  return json !== null && typeof json === "object" && !Array.isArray(json) ? json : {};
}

/**
 * `after` with the values unknown until apply left out, as Terraform's JSON plan leaves them: typed policy
 * code reading `after` never meets a placeholder. A placeholder the plan carries at a path it did not list
 * goes too (in a list, it becomes null, keeping the other items' positions).
 */
function withoutUnknowns(after: Record<string, JsonValue>, unknown: readonly string[]): Record<string, JsonValue> {
  const listed = new Set(unknown);
  const walk = (value: JsonValue, path: string): JsonValue | undefined => {
    if (listed.has(path) || value === UNKNOWN_TEXT) return undefined;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}.${i}`) ?? null);
    if (value !== null && typeof value === "object") {
      const kept = Object.entries(value).flatMap(([key, v]) => {
        const w = walk(v, path ? `${path}.${key}` : key);
        return w === undefined ? [] : [[key, w] as const];
      });
      return Object.fromEntries(kept);
    }
    return value;
  };
  return walk(after, "") as Record<string, JsonValue>;
}

/** The JSON Schema of the plan document (draft-07, like the configuration's). */
export function planJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(planDocumentSchema, { target: "draft-7" });
  return {
    $schema: $schema ?? "http://json-schema.org/draft-07/schema#",
    $id: "https://netform.dev/schemas/plan.schema.json",
    title: "netform plan document",
    ...body,
  };
}

/** The schema file's text: stable formatting, trailing newline. */
export const planJsonSchemaText = (): string => `${JSON.stringify(planJsonSchema(), null, 2)}\n`;

/** The document's text as `plan --format json` prints it. */
export const planDocumentText = (plan: Plan): string => `${JSON.stringify(planDocument(plan), null, 2)}\n`;
