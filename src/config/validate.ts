// Validation of one resource against the service's rules: the kind's zod schema (field types, limits,
// enumerations, unknown fields) and then the kind's rules across fields. Every problem is reported, each at
// the offending value. Values not known yet (references, unresolved inputs) are skipped; the engine calls
// validateSpec again once they are resolved.

import { z } from "zod";
import type { Diagnostic } from "../diag/index.js";
import { formatPath, type FieldPath } from "./address.js";
import { PARSE_WITHOUT_COMPILING } from "./schema-common.js";
import { isPlainObject } from "./json.js";
import type { KindSchema } from "./catalog.js";
import { spanAt, type PositionIndex, type SourcePosition } from "./positions.js";
import { ruleContext, validationView, valueAt, UNKNOWN, type RuleReport } from "./rules-context.js";
import { METRO_CODES } from "./metros.js";
import { metaShape } from "./schema-meta.js";
import { didYouMean } from "../diag/suggest.js";

const resourceSchemas = new WeakMap<KindSchema, z.ZodObject>();
/** The meta keys' schemas by the list of kind names they were built for: one build for every kind of a load. */
const metaShapes = new WeakMap<readonly string[], ReturnType<typeof metaShape>>();

/** The kind's spec with the meta keys beside it: the shape a resource is written in. */
export function resourceSchema(kind: KindSchema, kindNames: readonly string[]): z.ZodObject {
  let s = resourceSchemas.get(kind);
  if (!s) {
    let meta = metaShapes.get(kindNames);
    if (!meta) {
      meta = metaShape(kindNames);
      metaShapes.set(kindNames, meta);
    }
    s = kind.spec.extend(meta);
    resourceSchemas.set(kind, s);
  }
  return s;
}

export interface SpecLocation {
  address: string;
  /** Positions relative to the resource ("" is the resource's key). */
  positions?: PositionIndex;
  /** Fields filled in by defaults rather than written (the display name, the project). */
  defaulted?: ReadonlySet<string>;
}

/** A problem at a path of a resource, placed at the value (or, for a missing field, at its parent's key). */
export function placeDiagnostic(loc: SpecLocation, p: { path: FieldPath; code: string; message: string; hint?: string | undefined; severity?: "error" | "warning" | undefined; atKey?: boolean | undefined }): Diagnostic {
  const found = loc.positions ? spanAt(loc.positions, p.path) : undefined;
  let where: SourcePosition | undefined;
  if (found) where = found.exact ? (p.atKey ? (found.span.key ?? found.span.value) : found.span.value) : (found.span.key ?? found.span.value);
  const path = formatPath(p.path);
  return {
    severity: p.severity ?? "error",
    code: p.code,
    address: loc.address,
    ...(path ? { path } : {}),
    ...(where ? { file: where.file, line: where.line, column: where.column } : {}),
    message: p.message,
    ...(p.hint ? { hint: p.hint } : {}),
  };
}

const typeName = (v: unknown): string => {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  if (typeof v === "boolean") return "true or false";
  return typeof v;
};

const expectedName = (expected: string): string => {
  switch (expected) {
    case "int":
      return "an integer";
    case "number":
      return "a number";
    case "string":
      return "a string";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "object":
      return "a mapping";
    default:
      return expected;
  }
};

/**
 * The issues of the one branch of a union the value was meant for, in place of the union's "Invalid input":
 * the branches whose type the value has (a where field's plain value, or its mapping of operators).
 */
function unionBranch(issue: z.core.$ZodIssue, view: unknown): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
  const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
  // A mapping is meant for the object branch (which reports its own fields below it), a value for the others.
  const mapping = isPlainObject(valueAt(view, path));
  const misfit = (i: z.core.$ZodIssue) => i.path.length === 0 && (i.code === "invalid_type" || (mapping && i.code === "invalid_value"));
  const fitting = issue.errors.filter((branch) => !branch.some(misfit));
  if (fitting.length !== 1) return [issue];
  return (fitting[0] ?? []).flatMap((i) => unionBranch({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue, view));
}

/** Messages for the issues a schema does not word itself; they never quote a value, which may be secret. */
const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case "invalid_type":
      if (iss.input === undefined) return "is required";
      return `must be ${expectedName(iss.expected)}, not ${typeName(iss.input)}`;
    case "too_small":
      if (iss.origin === "string") return `must be at least ${String(iss.minimum)} characters`;
      if (iss.origin === "array") return `needs at least ${String(iss.minimum)} item${iss.minimum === 1 ? "" : "s"}`;
      return `must be at least ${String(iss.minimum)}`;
    case "too_big":
      if (iss.origin === "string") return `must be at most ${String(iss.maximum)} characters`;
      if (iss.origin === "array") return `takes at most ${String(iss.maximum)} items`;
      return `must be at most ${String(iss.maximum)}`;
    case "invalid_value":
      return iss.values.length <= 20 ? `must be one of ${iss.values.map(String).join(", ")}` : "is not an allowed value";
    case "invalid_format":
      return `must be ${iss.format === "email" ? "an email address" : `in ${iss.format} format`}`;
    case "unrecognized_keys":
      return `unknown field${iss.keys.length > 1 ? "s" : ""} ${iss.keys.join(", ")}`;
    default:
      return undefined;
  }
};

const PARSE_OPTIONS = { error: errorMap, ...PARSE_WITHOUT_COMPILING } as const;

/** The schema of the value at a path, unwrapped; undefined when the path names no field. */
function schemaAt(schema: z.ZodType, path: FieldPath): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const seg of [...path, null]) {
    while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
    if (seg === null) break;
    if (typeof seg === "number" && s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (typeof seg === "string" && s instanceof z.ZodObject) s = s.shape[seg] as z.ZodType | undefined;
    else return undefined;
  }
  return s;
}

/** The keys an object schema declares at a path (for "did you mean"). */
export function keysAt(schema: z.ZodType, path: FieldPath): string[] {
  const s = schemaAt(schema, path);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

/** Whether a kind's spec has a field at this path (ignoreChanges entries). */
export const specHasField = (kind: KindSchema, path: FieldPath): boolean => path.length > 0 && schemaAt(kind.spec, path) !== undefined;

const startsWith = (path: FieldPath, prefix: FieldPath): boolean => prefix.length <= path.length && prefix.every((seg, i) => path[i] === seg);

export interface ValidateOptions extends SpecLocation {
  /** Validate the meta keys too, for a configuration of these kinds (the loader does; the engine's second pass passes the spec alone). */
  withMetaFor?: readonly string[];
}

/**
 * Checks one resource's spec against the kind's schema and rules and returns every problem. Known values are
 * checked; references and unresolved inputs are skipped, so call it again with resolved values (Sensitive
 * values are accepted and never quoted in a message).
 */
export function validateSpec(kind: KindSchema, spec: Record<string, unknown>, options: ValidateOptions): Diagnostic[] {
  const { view, unknown } = validationView(spec);
  const schema = options.withMetaFor ? resourceSchema(kind, options.withMetaFor) : kind.spec;
  const diagnostics: Diagnostic[] = [];
  const result = schema.safeParse(view, PARSE_OPTIONS);
  const defaultedHint = (path: FieldPath): string | undefined => {
    const p = formatPath(path);
    return options.defaulted?.has(p) ? `${p} defaults to the resource name; set ${p} to a valid value` : undefined;
  };
  if (!result.success) {
    for (const issue of result.error.issues.flatMap((i) => unionBranch(i, view))) {
      const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
      if (unknown.some((u) => startsWith(path, u))) continue;
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          const at = [...path, key];
          if (path.length === 0 && kind.serverSet.includes(key)) {
            diagnostics.push(placeDiagnostic(options, { path: at, code: "schema.server-set", message: `${key} is set by the service and cannot be declared`, hint: key === "uuid" ? "to adopt an existing object, write import: <uuid>" : undefined, atKey: true }));
            continue;
          }
          diagnostics.push(placeDiagnostic(options, { path: at, code: "schema.unknown-field", message: `unknown field "${key}"`, hint: didYouMean(key, keysAt(schema, path)), atKey: true }));
        }
        continue;
      }
      const value = valueAt(view, path);
      const missing = value === undefined && issue.code === "invalid_type";
      const field = formatPath(path);
      let hint: string | undefined = defaultedHint(path);
      if (issue.code === "invalid_value" && typeof value === "string") hint = didYouMean(value, issue.values.map(String)) ?? hint;
      if (issue.code === "custom" && typeof value === "string" && issue.message.includes("metro code")) hint = didYouMean(value, METRO_CODES);
      const message = missing ? `required field "${String(path[path.length - 1] ?? field)}" is missing` : issue.message;
      diagnostics.push(placeDiagnostic(options, { path, code: missing ? "schema.required" : `schema.${issue.code.replaceAll("_", "-")}`, message, hint }));
    }
  }
  const reports: RuleReport[] = [];
  kind.rules?.(ruleContext(view as Record<string, unknown>, reports));
  for (const r of reports) {
    if (unknown.some((u) => startsWith(r.path, u)) && valueAt(view, r.path) === UNKNOWN) continue;
    diagnostics.push(placeDiagnostic(options, { ...r, hint: r.hint ?? defaultedHint(r.path) }));
  }
  return diagnostics;
}

