// Request checks that route filters and route aggregations share: the two are the same kind of object
// (a named routing policy in a project, renamed by PATCH, attached to connections) under two paths.

import type { Context } from "hono";
import { projectFor, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";
import { stateOf, type PolicyState } from "./change-records.js";

/**
 * The fields a PATCH may replace. The official description's example error says "Only replace name
 * operation is supported"; netform's contract (and the service's console) also changes the description
 * in place, so both are accepted, and nothing else.
 */
export const PATCHABLE_PATHS = ["/name", "/description"] as const;
export type PatchablePath = (typeof PATCHABLE_PATHS)[number];

export function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return fail("invalidProperty", field, `${field} must be a string`, JSON.stringify(value));
  return value;
}

export function readType<T extends string>(body: JsonObject, types: readonly T[]): T {
  const type = body.type;
  if (type === undefined || type === null) return fail("missingProperty", "type", `type is required (${types.join(", ")})`);
  if (typeof type !== "string" || !(types as readonly string[]).includes(type)) {
    return fail("notInAllowedList", "type", `type must be one of ${types.join(", ")}`, String(type));
  }
  return type as T;
}

export function readProjectId(c: Context<SimEnv>, body: JsonObject): string {
  const project = body.project;
  if (project === undefined || project === null) return fail("missingProperty", "/project/projectId", "project.projectId is required");
  if (typeof project !== "object" || Array.isArray(project)) return fail("invalidProperty", "/project", "project must be an object {projectId}");
  if (project.projectId === undefined || project.projectId === null) return fail("missingProperty", "/project/projectId", "project.projectId is required");
  return projectFor(c.get("principal"), project.projectId);
}

/** The replacements a PATCH body asks for: `replace` of /name (non-empty) or /description, nothing else. */
export function readReplacements(operations: Json[]): Array<{ path: PatchablePath; value: string }> {
  if (operations.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
  return operations.map((raw, i) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return fail("invalidProperty", `/${i}`, "each operation must be an object {op, path, value}");
    for (const field of ["op", "path", "value"]) {
      if (raw[field] === undefined || raw[field] === null) fail("missingProperty", `/${i}/${field}`, `${field} is required`);
    }
    const supported = `Only replace of ${PATCHABLE_PATHS.join(" and ")} is supported.`;
    if (raw.op !== "replace") fail("routeFilterInvalidOperation", `/${i}/op`, supported, String(raw.op));
    if (!(PATCHABLE_PATHS as readonly Json[]).includes(raw.path ?? null)) fail("routeFilterInvalidOperation", `/${i}/path`, supported, String(raw.path));
    const path = raw.path as PatchablePath;
    if (typeof raw.value !== "string" || (path === "/name" && raw.value.trim() === "")) {
      fail("invalidProperty", `/${i}/value`, path === "/name" ? "the name must be a non-empty string" : "the description must be a string", JSON.stringify(raw.value));
    }
    return { path, value: raw.value as string };
  });
}

/** Whether a search filter says anything about /state (then deleted objects are not left out). */
export function mentionsState(filter: Json | undefined): boolean {
  if (filter === null || typeof filter !== "object") return false;
  if (Array.isArray(filter)) return filter.some(mentionsState);
  return filter.property === "/state" || mentionsState(filter.and) || mentionsState(filter.or);
}

/** Refuses an action on a policy whose state does not allow it; `param` names its path parameter. */
export function requireState(world: World, obj: SimObject, allowed: readonly PolicyState[], action: string, param: string, noun: string): void {
  const state = stateOf(world, obj);
  if (!allowed.includes(state)) {
    fail("invalidProperty", param, `${noun} ${obj.uuid} is ${state}; it can be ${action} only when ${allowed.join(" or ")}`, state);
  }
}

/** A connection as a policy's connection list shows it: href, type, uuid and name, where it has them. */
export function connectionSummary(world: World, connectionUuid: string): JsonObject {
  const connection = world.view(world.get(connectionUuid)!);
  const summary: JsonObject = { href: `/fabric/v4/connections/${connectionUuid}`, uuid: connectionUuid };
  for (const field of ["href", "type", "name"]) {
    if (typeof connection[field] === "string") summary[field] = connection[field];
  }
  return summary;
}
