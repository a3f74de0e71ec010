// What a lookup's `where` takes, built alike for every kind from the fields its search has: each optional
// field a plain value (equality) or a mapping of operators (`{ like: "dc-%" }`, `{ in: [A, B] }`,
// `{ gte: 1000 }`), `or:` a list of groups of the same fields (the object matches one of them), and
// `uuid:` where the kind has a read by identifier. A field the kind requires (a metro read by its code)
// takes a plain value only: it names what to read.

import { z } from "zod";
import { OR } from "./search.js";


/** The mapping of operators a field takes, every value checked as the field's own where it names one. */
function operators(field: z.ZodType): z.ZodType {
  const bound = z.union([z.string().min(1), z.number()]);
  return z
    .strictObject({
      not: field.optional().describe("any value but this one"),
      in: z.array(field).min(1).optional().describe("any of these values"),
      notIn: z.array(field).min(1).optional().describe("none of these values"),
      like: z.string().min(1).optional().describe("a pattern: % any run of characters, _ one character, without regard to case"),
      notLike: z.string().min(1).optional().describe("not matching the pattern"),
      gt: bound.optional().describe("greater than (numbers as numbers, else as text: ISO dates order)"),
      gte: bound.optional().describe("greater than or equal to"),
      lt: bound.optional().describe("less than"),
      lte: bound.optional().describe("less than or equal to"),
    })
    .refine((o) => Object.keys(o).length > 0, "an operator mapping needs one of not, in, notIn, like, notLike, gt, gte, lt, lte");
}

/** A field as a where takes it: the value, or operators on it; optional unless the kind requires it. */
function conditionOf(field: z.ZodType): z.ZodType {
  if (!(field instanceof z.ZodOptional)) return field;
  const inner = field.unwrap() as z.ZodType;
  return z.union([inner, operators(inner)]).optional().describe(field.description ?? "");
}

export interface WhereOptions {
  /** The kind finds one object by its identifier (a GET of its read endpoint). */
  uuid?: boolean;
}

/**
 * A lookup kind's where schema, built on the first read of its `where` and kept on the definition: a run
 * builds only those of the kinds its configuration uses. Building all nineteen cost a validate a fifth of
 * its start-up.
 */
export function builtOnce(definition: object, build: () => z.ZodObject): z.ZodObject {
  const schema = build();
  Object.defineProperty(definition, "where", { value: schema, enumerable: true });
  return schema;
}

/** The where schema of a kind from its fields (as z.strictObject shapes: optional fields are those it may omit). */
export function whereSchema(shape: Record<string, z.ZodType>, options: WhereOptions = {}): z.ZodObject {
  const conditions = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, conditionOf(v)]));
  const optional = Object.fromEntries(Object.entries(conditions).filter(([, v]) => v instanceof z.ZodOptional));
  return z.strictObject({
    ...conditions,
    ...(options.uuid ? { uuid: z.string().min(1).optional().describe("the object's identifier: read directly, 404 is no object") } : {}),
    ...(Object.keys(optional).length > 0 ? { [OR]: z.array(z.strictObject(optional)).min(1).optional().describe("groups of the fields above: the object matches one of them (and the other fields of where)") } : {}),
  });
}

