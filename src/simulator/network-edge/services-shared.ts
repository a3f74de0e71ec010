// Helpers shared by the network-edge service areas (VPN, backups, images, public keys, files, order
// summary): reading typed fields out of request bodies and queries with style-B problems that name the
// property, finding the caller's devices, and the device-type catalogue they check codes against.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, type Principal, type SimEnv } from "../core/context.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

export { DEVICE_TYPE_BY_CODE, MANAGEMENT_TYPES as DEVICE_MANAGEMENT_TYPES, LICENSE_MODES as LICENSE_TYPES, licenseModeSpelling, managementSpelling } from "./device-catalogue.js";

/** A required, non-empty string field of a body. */
export function requireString(body: JsonObject, key: string, property = key): string {
  const value = body[key];
  if (value === undefined || value === null || value === "") return fail("missingProperty", property, `${property} is required`);
  if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`, value);
  return value;
}

/** An optional string field; undefined when absent. */
export function optionalString(body: JsonObject, key: string, property = key): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`, value);
  return value;
}

/** A value that must be one of `allowed` (EQ-2012025 otherwise). */
export function oneOf<T extends string>(value: string, allowed: readonly T[], property: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    return fail("notInAllowedList", property, `${property} must be one of ${allowed.join(", ")}`, value);
  }
  return value as T;
}

/** Every value of a query parameter, whether repeated (`?s=A&s=B`) or comma-separated (`?s=A,B`). */
export function queryList(c: Context<SimEnv>, name: string): string[] {
  return (c.req.queries(name) ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
}

/** An optional integer query parameter. */
export function queryInt(c: Context<SimEnv>, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) return fail("invalidQueryParameter", name, `${name} must be an integer, got "${raw}"`, raw);
  return Number(raw);
}

/** The device of this uuid when it exists and the caller may see it. */
export function visibleDevice(world: World, principal: Principal, uuid: string): SimObject | undefined {
  const device = world.get(uuid, "devices");
  return device && canSee(principal, device) ? device : undefined;
}

/** A string field of an object's current view, or undefined. */
export function viewString(view: JsonObject, key: string): string | undefined {
  const value: Json | undefined = view[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The audit fields the network-edge service stamps on what it creates (section 2.7). */
export function neCreatedBy(principal: Principal, at: string): JsonObject {
  return {
    createdBy: principal.userName,
    createdByFullName: principal.fullName,
    createdByEmail: principal.email,
    createdDate: at,
    ...neUpdatedBy(principal, at),
  };
}

export function neUpdatedBy(principal: Principal, at: string): Record<string, Json> {
  return {
    lastUpdatedBy: principal.userName,
    lastUpdatedByFullName: principal.fullName,
    lastUpdatedByEmail: principal.email,
    lastUpdatedDate: at,
  };
}
