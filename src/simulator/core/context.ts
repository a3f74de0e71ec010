// What every area of the simulator shares: the hono environment, who is calling, the area contract,
// and the visibility rules that keep one client's objects out of another's reach.

import type { IncomingMessage } from "node:http";
import type { Context, Hono } from "hono";
import { fail } from "./errors.js";
import type { Actor } from "./http.js";
import type { SimObject, World } from "./world.js";

export type Permission = "IBX_SERVICES_NOTIFICATIONS";

/** The caller of a request, resolved from its bearer token (or bare-metal API key). */
export interface Principal extends Actor {
  clientId: string;
  orgId: string;
  /** Projects the caller can see; objects of other projects do not exist for it. */
  projectIds: string[];
  accountNumbers: number[];
  permissions: Permission[];
  /** For bare-metal API keys: the key itself. */
  apiKeyId?: string;
  readOnly?: boolean;
}

/**
 * `injectedFault` marks a response that fault injection produced, not the service's rules; `answerLost`, one
 * to a request the service carried out before fault injection replaced its answer.
 */
export type SimEnv = { Variables: { principal: Principal; correlationId: string; injectedFault: boolean; answerLost: boolean } };
export type SimApp = Hono<SimEnv>;

/** The Node request behind `c` when the simulator serves over HTTP; none for a request made in process (`app.request`). */
export function incomingMessage(c: Context<SimEnv>): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * A request header (`name` in lower case), as `c.req.header(name)` gives it: repeated values joined with
 * ", " (Node's parser drops the whitespace around each). Read from the Node request when there is one, as
 * `c.req.header` first builds a web Headers of every header of the request.
 */
export function requestHeader(c: Context<SimEnv>, name: string): string | undefined {
  const incoming = incomingMessage(c);
  if (!incoming) return c.req.header(name);
  return incoming.headersDistinct[name]?.join(", ");
}

/** One area of the service (route filters, connections, devices...): its kinds, seed data and routes. */
export interface Area {
  name: string;
  /** Registers kind definitions (state field, event type, derived fields). Runs on every start. */
  define?(world: World): void;
  /** Adds the area's seeded objects to an empty world. */
  seed?(world: World): void;
  /** Mounts the area's routes. Paths are absolute (e.g. "/fabric/v4/routeFilters"). */
  routes?(app: SimApp, world: World): void;
}

export function canSee(principal: Principal, obj: SimObject): boolean {
  return obj.projectId === undefined || principal.projectIds.includes(obj.projectId);
}

/** The object of this kind, if it exists and the caller may see it; otherwise the kind's 404. */
export function findVisible(world: World, principal: Principal, kind: string, uuid: string, property = "uuid"): SimObject {
  const obj = world.get(uuid, kind);
  if (!obj || !canSee(principal, obj)) return fail("notFound", property, `${kind} ${uuid} was not found`);
  return obj;
}

/** The project a new object goes to: the one asked for (which the caller must have), else the caller's first. */
export function projectFor(principal: Principal, requested: unknown, property = "/project/projectId"): string {
  if (requested === undefined || requested === null) return principal.projectIds[0]!;
  if (typeof requested !== "string" && typeof requested !== "number") return fail("invalidProperty", property, "projectId must be a string");
  const id = String(requested);
  if (!principal.projectIds.includes(id)) fail("forbidden", property, `project ${id} is not accessible to ${principal.userName}`);
  return id;
}
