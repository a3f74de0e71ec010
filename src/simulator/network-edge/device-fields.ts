// Typed readers for the fields of network-edge device requests. Every problem names the property that
// caused it (style B `property`), with nested fields written as dotted paths (`secondary.metroCode`).

import type { Context } from "hono";
import type { SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import type { Json, JsonObject } from "../core/world.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** The nested object at `key`, or undefined when absent; a 400 when it is not an object. */
export function optionalObject(body: JsonObject, key: string, property: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return fail("invalidProperty", property, `${property} must be an object`, JSON.stringify(value));
  return value;
}

export interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternText?: string;
}

function checkString(value: string, property: string, rule: StringRule): string {
  if (rule.min !== undefined && value.length < rule.min) fail("invalidProperty", property, `${property} must be at least ${rule.min} characters`, value);
  if (rule.max !== undefined && value.length > rule.max) fail("invalidProperty", property, `${property} must be at most ${rule.max} characters`, value);
  if (rule.pattern && !rule.pattern.test(value)) fail("invalidProperty", property, `${property} ${rule.patternText ?? `must match ${String(rule.pattern)}`}`, value);
  return value;
}

export function optionalString(body: JsonObject, key: string, property: string, rule: StringRule = {}): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`, JSON.stringify(value));
  return checkString(value, property, rule);
}

export function requiredString(body: JsonObject, key: string, property: string, rule: StringRule = {}): string {
  const value = optionalString(body, key, property, rule);
  if (value === undefined || value === "") return fail("missingProperty", property, `${property} is required`);
  return value;
}

/** A string that may also be sent as a number (account numbers, term lengths). */
export function optionalText(body: JsonObject, key: string, property: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`, JSON.stringify(value));
  return value.trim();
}

export function optionalInteger(body: JsonObject, key: string, property: string, min?: number, max?: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) return fail("invalidProperty", property, `${property} must be an integer`, JSON.stringify(value));
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    fail("invalidProperty", property, `${property} must be between ${min ?? "-"} and ${max ?? "-"}`, value);
  }
  return value;
}

export function optionalBoolean(body: JsonObject, key: string, property: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") return fail("invalidProperty", property, `${property} must be true or false`, JSON.stringify(value));
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], property: string): T {
  if (!(allowed as readonly string[]).includes(value)) return fail("notInAllowedList", property, `${property} must be one of ${allowed.join(", ")}`, value);
  return value as T;
}

/** Notification recipients: an array of `min` to `max` e-mail addresses. */
export function emailList(value: Json | undefined, property: string, min: number, max: number): string[] {
  if (value === undefined || value === null) return fail("missingProperty", property, `${property} is required (${min} to ${max} e-mail addresses)`);
  if (!Array.isArray(value)) return fail("invalidProperty", property, `${property} must be an array of e-mail addresses`, JSON.stringify(value));
  if (value.length < min || value.length > max) {
    fail("invalidProperty", property, `${property} must hold ${min} to ${max} e-mail addresses, got ${value.length}`, value.length);
  }
  return value.map((v, i) => {
    if (typeof v !== "string" || !EMAIL.test(v)) return fail("invalidProperty", `${property}[${i}]`, `${property}[${i}] is not an e-mail address`, JSON.stringify(v));
    return v;
  });
}

/** Refuses body fields the request does not define, so a misspelt field is reported instead of ignored. */
export function rejectUnknownFields(body: JsonObject, allowed: readonly string[], prefix = ""): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) fail("invalidProperty", `${prefix}${key}`, `${prefix}${key} is not a field of this request`);
  }
}

/** An optional boolean query parameter ("true" or "false"). */
export function queryBoolean(c: Context<SimEnv>, name: string): boolean | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  if (raw !== "true" && raw !== "false") return fail("invalidQueryParameter", name, `${name} must be true or false`, raw);
  return raw === "true";
}

/** A required query parameter. */
export function queryRequired(c: Context<SimEnv>, name: string): string {
  const raw = c.req.query(name);
  if (raw === undefined || raw.trim() === "") return fail("missingProperty", name, `query parameter ${name} is required`);
  return raw.trim();
}

/** Every value of a query parameter, whether repeated (`?s=A&s=B`) or comma-separated (`?s=A,B`). */
export function queryList(c: Context<SimEnv>, name: string): string[] {
  return (c.req.queries(name) ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
}

/** An optional integer query parameter. */
export function queryInteger(c: Context<SimEnv>, name: string, min?: number): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) return fail("invalidQueryParameter", name, `${name} must be an integer`, raw);
  const value = Number(raw);
  if (min !== undefined && value < min) fail("invalidQueryParameter", name, `${name} must be ${min} or more`, raw);
  return value;
}
