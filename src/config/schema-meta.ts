// Meta keys that sit beside the API fields of every resource (dependsOn, lifecycle, import), and the
// top-level blocks that are not resources (provider, variables).

import { z } from "zod";
import { uuid } from "./schema-common.js";

export const META_KEYS = ["dependsOn", "lifecycle", "import"] as const;
export type MetaKey = (typeof META_KEYS)[number];

/** An address of one of these kinds, as dependsOn writes it. */
const addressPattern = (kinds: readonly string[]): RegExp => new RegExp(`^(${kinds.join("|")})\\.[a-z0-9][a-z0-9_-]*$`);

export const lifecycleSchema = z
  .strictObject({
    preventDestroy: z.boolean().optional().describe("refuse any plan that would delete this object"),
    ignoreChanges: z.array(z.string().min(1)).optional().describe("field paths whose differences are not planned, e.g. bgpIpv4.outboundMED"),
    createBeforeDestroy: z.boolean().optional().describe("when replacing, create the new object before deleting the old one"),
  })
  .describe("how changes to this object are planned");

/** The meta keys' schemas, for a configuration of these kinds. */
export const metaShape = (kinds: readonly string[]) => ({
  dependsOn: z
    .array(z.string().regex(addressPattern(kinds), { error: "must be an address kind.name, e.g. connections.dc-to-cloud" }))
    .optional()
    .describe("addresses this object waits for, beside those its references imply"),
  lifecycle: lifecycleSchema.optional(),
  import: uuid().optional().describe("adopt the existing object with this uuid instead of creating one"),
});

const duration = z
  .string()
  .regex(/^(?=\d)(\d+h)?(\d+m)?(\d+s)?$/, { error: "must be a duration such as 90m, 1h30m or 45s" })
  .describe("a duration: hours, minutes, seconds, e.g. 1h30m");

/** The provider block, for a configuration of these kinds (timeouts are per kind). */
export const providerSchema = (kinds: readonly string[]) =>
  z
  .strictObject({
    endpoint: z
      .string()
      .refine((s) => s === "embedded" || /^https?:\/\/[^\s/]+/.test(s), { error: 'must be "embedded" or the service\'s base URL, e.g. https://api.example.net' })
      .optional()
      .describe('"embedded" (the built-in simulator) or the service\'s base URL; NETFORM_ENDPOINT overrides it'),
    projectId: z.string().min(1).optional().describe("default project for kinds that take one"),
    accountNumber: z.union([z.int().min(0), z.string().regex(/^\d+$/)], { error: "accountNumber must be a number" }).optional().describe("default account for devices"),
    parallelism: z.int().min(1, { error: "parallelism must be 1 to 100" }).max(100, { error: "parallelism must be 1 to 100" }).optional().describe("concurrent API operations during apply (default 10)"),
    timeouts: z
      .strictObject(Object.fromEntries(kinds.map((k) => [k, duration.optional()])) as Record<string, z.ZodOptional<typeof duration>>)
      .optional()
      .describe("how long to wait for each kind's objects to become ready"),
    maxRetryAfter: duration.optional().describe("the longest wait a Retry-After header is honoured for (default 60s); NETFORM_MAX_RETRY_AFTER_S overrides it"),
  })
  .describe("where and how netform talks to the service");

export const VARIABLE_TYPES = ["string", "number", "boolean", "list", "map"] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const variableSchema = z
  .strictObject({
    type: z.enum(VARIABLE_TYPES).optional().describe("the value's type; default: the default's type, else string"),
    default: z.unknown().optional().describe("the value when none is given with --var, --var-file or NETFORM_VAR_<NAME>"),
    description: z.string().optional(),
    sensitive: z.boolean().optional().describe("never print the value"),
  })
  .describe("an input variable, used as ${var.NAME}");
