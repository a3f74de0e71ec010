// Every field a kind's spec declares is seen by the planner: compared (so a change updates in place or
// forces a replace the plan names), compared by keyed hash with what was last applied (secrets, and what
// the service never returns), or declared write-only by the kind. A field that is none of these would plan
// "No changes" whatever the user changed. The walk probes each leaf with two different values and asks the
// kind's own desired form whether it saw the difference.

import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { KIND_DEFINITIONS } from "../../../src/kinds/index.js";
import type { Body } from "../../../src/kinds/index.js";

type Schema = z.ZodType;
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;

const WRAPPERS = ["optional", "nullable", "default", "readonly", "nonoptional", "prefault", "catch"];
function unwrap(s: Schema): Schema {
  let cur = s;
  while (WRAPPERS.includes(defOf(cur).type)) cur = defOf(cur).innerType as Schema;
  return cur;
}

/** The leaves as plans compare them: objects are walked, lists and scalars are leaves. */
function leavesOf(s: Schema, prefix: string): Map<string, Schema> {
  const inner = unwrap(s);
  const def = defOf(inner);
  if (def.type === "object") {
    const out = new Map<string, Schema>();
    for (const [key, child] of Object.entries(def.shape as Record<string, Schema>)) for (const [p, c] of leavesOf(child, prefix ? `${prefix}.${key}` : key)) out.set(p, c);
    return out;
  }
  if (def.type === "union") return new Map((def.options as Schema[]).flatMap((o) => [...leavesOf(o, prefix)]));
  return new Map([[prefix, inner]]);
}

/** A value of the schema's shape; the two variants differ in every leaf that can differ. */
function sample(s: Schema, variant: 0 | 1): unknown {
  const inner = unwrap(s);
  const def = defOf(inner);
  switch (def.type) {
    case "string":
      return variant === 0 ? "11" : "21";
    case "number":
    case "int":
      return variant + 1;
    case "boolean":
      return variant === 1;
    case "enum": {
      const values = Object.values(def.entries as Record<string, string>);
      return values[variant % values.length];
    }
    case "literal":
      return (def.values as unknown[])[0];
    case "array":
      return [sample(def.element as Schema, variant)];
    case "object":
      return Object.fromEntries(Object.entries(def.shape as Record<string, Schema>).map(([k, c]) => [k, sample(c, variant)]));
    case "union":
      return sample((def.options as Schema[])[0]!, variant);
    default:
      return variant === 0 ? "11" : "21";
  }
}

function withLeaf(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const keys = path.split(".");
  let cur: Body = copy;
  for (const key of keys.slice(0, -1)) cur = (cur[key] = typeof cur[key] === "object" && cur[key] !== null ? cur[key] : {}) as Body;
  cur[keys[keys.length - 1]!] = value;
  return copy;
}

/**
 * The specs to probe from: one sample, and one per value of each top-level choice (a routing protocol's
 * `type` decides which of its fields count).
 */
function basesOf(spec: Schema): Body[] {
  const base = sample(spec, 0) as Body;
  const shape = defOf(unwrap(spec)).shape as Record<string, Schema>;
  const choices = Object.entries(shape).flatMap(([key, s]) => {
    const def = defOf(unwrap(s));
    return def.type === "enum" ? Object.values(def.entries as Record<string, string>).map((value) => ({ ...base, [key]: value })) : [];
  });
  return [base, ...choices];
}

const underAny = (path: string, list: readonly string[]) => list.some((p) => path === p || path.startsWith(`${p}.`));

describe("every declared field is compared, hashed, or declared write-only", () => {
  for (const [name, definition] of KIND_DEFINITIONS) {
    it(`${name}`, () => {
      const writeOnly = definition.writeOnly ?? [];
      const bases = basesOf(definition.spec);
      const unseen: string[] = [];
      const comparedButWriteOnly: string[] = [];
      for (const [path, schema] of leavesOf(definition.spec, "")) {
        if (definition.sensitive.holdsSecret(path)) continue;
        // A field with one possible value cannot change.
        if (JSON.stringify(sample(schema, 0)) === JSON.stringify(sample(schema, 1))) continue;
        const seen = bases.some((base) => {
          try {
            return JSON.stringify(definition.handler.desired(withLeaf(base, path, sample(schema, 1)))) !== JSON.stringify(definition.handler.desired(base));
          } catch {
            return false;
          }
        });
        if (seen && underAny(path, writeOnly)) comparedButWriteOnly.push(path);
        if (!seen && !underAny(path, writeOnly)) unseen.push(path);
      }
      expect(unseen, "fields a change to which no plan would show: compare them, hash them, or declare them write-only").toEqual([]);
      expect(comparedButWriteOnly, "write-only fields the kind does compare: take them off the list").toEqual([]);
    });
  }
});
