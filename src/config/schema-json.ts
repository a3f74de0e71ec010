// The JSON Schema of a configuration file, generated from the same zod schemas that validate it, for
// editors (the YAML language server validates and completes with it) and for `netform schema`. Every
// constrained value also accepts a `${...}` expression, since a variable or a reference may stand for it.

import { z } from "zod";
import { NAME_PATTERN } from "./address.js";
import type { KindCatalog } from "./catalog.js";
import { LOOKUPS_SECTION, type LookupCatalog } from "./lookups.js";
import { MOVED_SECTION, REMOVED_SECTION } from "./moves.js";
import { OUTPUT_NAME, OUTPUTS_SECTION } from "./outputs.js";
import { backendSchema, providerSchema, VARIABLE_NAME, variableSchema } from "./schema-meta.js";
import { resourceSchema } from "./validate.js";

/** `lookups:`: each entry a kind and the where that kind takes, so that an editor completes both. */
function lookupsSchema(lookups: LookupCatalog) {
  const sortItem = z.union([z.string().describe('an attribute path, "-" first for descending'), z.strictObject({ by: z.string(), direction: z.enum(["ASC", "DESC"]).optional() })]);
  const list = {
    many: z.boolean().optional().describe("true: the list of every object found (none is an empty list), read as ${lookups.NAME}, ${lookups.NAME[0].ATTRIBUTE} and ${lookups.NAME.count}"),
    key: z.string().optional().describe("a list lookup's attribute its objects are keyed by in forEach: ${lookups.NAME}"),
    sort: z.union([sortItem, z.array(sortItem)]).optional().describe("a list lookup's order: attribute paths, each ascending or descending"),
  };
  const entries = [...lookups.values()].map((l) => z.strictObject({ kind: z.literal(l.name).describe(l.description), where: l.where.optional().describe(`what to search by; exactly one ${l.name} must match, unless many: true`), ...list }));
  const [first, ...rest] = entries;
  if (!first) return undefined;
  return z.record(z.string().regex(NAME_PATTERN), z.discriminatedUnion("kind", [first, ...rest])).optional().describe("objects netform does not manage, found by kind and where and read at plan time: ${lookups.NAME.attribute}, or a list with many: true");
}

// Anchored at the start only, so that keyed addresses (KIND.NAME["key"]) pass too.
const address = () => z.string().regex(/^[A-Za-z]+\.[a-z0-9]/).describe("a resource address, KIND.NAME");

const outputsSchema = () =>
  z
    .record(
      z.string().regex(OUTPUT_NAME),
      z.union([
        z
          .strictObject({
            value: z.unknown().describe("a reference (${KIND.NAME.ATTRIBUTE}), a variable, a template or a literal"),
            description: z.string().optional(),
            sensitive: z.boolean().optional().describe("required when the value uses a secret or a sensitive variable: then only `netform output NAME` shows it"),
          })
          .describe("an output in full"),
        z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown())]).describe("an output written as its value alone (a mapping is always the full form)"),
      ]),
    )
    .optional()
    .describe("values apply records for `netform output`, by name");

const movedSchema = () =>
  z
    .array(z.strictObject({ from: address().describe("the address the state records, no longer declared"), to: address().describe("the new address, of the same kind") }))
    .optional()
    .describe("objects renamed: the state moves them to their new address, and the service is not called");

const removedSchema = () =>
  z
    .array(z.strictObject({ from: address().describe("the address the state records, no longer declared"), destroy: z.boolean().describe("false: forget the object and leave it on the service; true: delete it") }))
    .optional()
    .describe("objects netform stops managing");

export function configurationSchema(kinds: KindCatalog, lookups: LookupCatalog = new Map()) {
  const names = [...kinds.keys()];
  const lookupSection = lookupsSchema(lookups);
  return z
    .strictObject({
      netform: z.literal(1).describe("format version"),
      provider: providerSchema(names).optional(),
      backend: backendSchema().optional(),
      variables: z.record(z.string().regex(VARIABLE_NAME), variableSchema()).optional().describe("input variables, by name"),
      ...(lookupSection ? { [LOOKUPS_SECTION]: lookupSection } : {}),
      [OUTPUTS_SECTION]: outputsSchema(),
      [MOVED_SECTION]: movedSchema(),
      [REMOVED_SECTION]: removedSchema(),
      ...Object.fromEntries([...kinds.values()].map((k) => [k.name, z.record(z.string().regex(NAME_PATTERN), resourceSchema(k, names)).optional().describe(k.description)])),
    })
    .describe("a netform configuration file");
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const EXPRESSION_REF = { $ref: "#/definitions/expression" };

/** A leaf a literal ${...} would fail: typed other than string, or a constrained string. */
function constrained(node: { [k: string]: Json }): boolean {
  const t = node.type;
  if (t === "integer" || t === "number" || t === "boolean" || t === "array") return true;
  if (t === "string") return ["pattern", "format", "enum", "minLength", "maxLength"].some((k) => k in node);
  return "enum" in node;
}

function allowExpressions(node: Json, isRoot = false): Json {
  if (Array.isArray(node)) return node.map((n) => allowExpressions(n));
  if (node === null || typeof node !== "object") return node;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "properties" || k === "definitions" || k === "$defs") {
      out[k] = Object.fromEntries(Object.entries(v as { [k: string]: Json }).map(([pk, pv]) => [pk, allowExpressions(pv)]));
    } else if (k === "items" || k === "additionalProperties" || k === "anyOf" || k === "oneOf" || k === "allOf") {
      out[k] = allowExpressions(v);
    } else out[k] = v;
  }
  if (isRoot || !constrained(out)) return out;
  const { description, default: dflt, ...rest } = out;
  return { ...(description !== undefined ? { description } : {}), ...(dflt !== undefined ? { default: dflt } : {}), anyOf: [rest, EXPRESSION_REF] };
}

/** The JSON Schema (draft-07, which the YAML language server supports best) as a value. */
export function configurationJsonSchema(kinds: KindCatalog, lookups?: LookupCatalog): Json {
  const generated = z.toJSONSchema(configurationSchema(kinds, lookups), { target: "draft-7", io: "input", unrepresentable: "any" }) as { [k: string]: Json };
  const { $schema, ...body } = generated;
  const withExpressions = allowExpressions(body, true) as { [k: string]: Json };
  return {
    $schema: $schema ?? "http://json-schema.org/draft-07/schema#",
    $id: "https://netform.dev/schemas/netform.schema.json",
    title: "netform configuration",
    ...withExpressions,
    definitions: {
      ...((withExpressions.definitions as { [k: string]: Json } | undefined) ?? {}),
      expression: { type: "string", pattern: "\\$\\{[^}]+\\}", description: "${var.NAME}, ${env.NAME}, ${secret.NAME}, ${kind.name.attribute} or ${lookups.NAME.attribute}" },
    },
  };
}

/** The schema file's text: stable formatting, trailing newline. */
export const configurationJsonSchemaText = (kinds: KindCatalog, lookups?: LookupCatalog): string => `${JSON.stringify(configurationJsonSchema(kinds, lookups), null, 2)}\n`;
