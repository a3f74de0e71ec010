// The control API under /__sim: health, reset, the request log, fault injection and out-of-band
// changes "made in the portal". No auth, and only for callers on loopback.

import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import type { SimEnv } from "./context.js";
import type { Faults } from "./faults.js";
import { validateFaults } from "./faults.js";
import { mergePatch, nestsDeeperThan, type Json, type JsonObject, type World } from "./world.js";

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The query string without its "?", when the request had one (a dry run's `dryRun=true`). */
  query?: string;
  status: number;
  ms: number;
}

export const CONTROL_KINDS = [
  "routeFilters", "routeFilterAttachments", "connections", "routingProtocols", "devices", "vpns", "ports",
  "serviceProfiles", "deviceBackups", "publicKeys", "sshUsers", "files", "apiKeys", "cloudEvents", "projects", "accounts",
  "ibxNotifications", "networkNotifications", "networks", "routers", "serviceTokens", "legacyConnections",
  "routeFilterRules", "routeAggregations", "routeAggregationRules", "routeAggregationAttachments",
  "aclTemplates", "deviceLinks", "bgpPeerings",
] as const;

export const PORTAL_USER = { userName: "portal-user", fullName: "Portal User", email: "portal.user@example.com" };

interface ControlDeps {
  world: World;
  faults: Faults;
  requests: RequestLogEntry[];
  /** How many of the latest requests the log shows. */
  requestLogSize: number;
  reset(): void;
}

const isLoopback = (address: string | undefined) =>
  address === undefined || address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");

/** Stamps an out-of-band update on the audit fields the object's API family uses. */
function stampPortalUpdate(body: JsonObject, at: string): void {
  if (body.changeLog && typeof body.changeLog === "object") {
    body.changeLog = {
      ...(body.changeLog as JsonObject),
      updatedBy: PORTAL_USER.userName,
      updatedByFullName: PORTAL_USER.fullName,
      updatedByEmail: PORTAL_USER.email,
      updatedDateTime: at,
    };
  } else {
    body.lastUpdatedBy = PORTAL_USER.userName;
    body.lastUpdatedByFullName = PORTAL_USER.fullName;
    body.lastUpdatedByEmail = PORTAL_USER.email;
    body.lastUpdatedDate = at;
  }
}

const MAX_PATCH_DEPTH = 32;

export function controlRoutes(deps: ControlDeps): Hono<SimEnv> {
  const { world, faults, requests, requestLogSize } = deps;
  const control = new Hono<SimEnv>();

  control.use("*", async (c, next) => {
    let address: string | undefined;
    try {
      address = getConnInfo(c).remote.address;
    } catch {
      address = undefined; // in-process requests (app.request) have no socket
    }
    if (!isLoopback(address)) return c.json({ error: "the control API answers only on loopback" }, 403);
    await next();
  });

  control.get("/health", (c) => c.json({ ok: true }));

  control.post("/reset", (c) => {
    deps.reset();
    return c.json({ ok: true });
  });

  control.get("/requests", (c) => c.json(requests.length > requestLogSize ? requests.slice(-requestLogSize) : requests));
  control.delete("/requests", (c) => {
    requests.length = 0;
    return c.json({ ok: true });
  });

  control.get("/faults", (c) => c.json(faults.current()));
  control.post("/faults", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "the body must be a JSON object of fault settings" }, 400);
    }
    try {
      faults.configure(validateFaults(body));
    } catch (e) {
      return c.json({ error: (e as Error).message }, 400);
    }
    return c.json(faults.current());
  });

  control.get("/objects", (c) => {
    const kind = c.req.query("kind");
    if (!kind || !(CONTROL_KINDS as readonly string[]).includes(kind)) {
      return c.json({ error: `query kind must be one of ${CONTROL_KINDS.join(", ")}` }, 400);
    }
    if (kind === "cloudEvents") return c.json({ data: world.visibleEvents() });
    return c.json({ data: world.list(kind).map((o) => world.view(o)) });
  });

  control.patch("/objects/:uuid", async (c) => {
    const obj = world.get(c.req.param("uuid"));
    if (!obj) return c.json({ error: `no object ${c.req.param("uuid")}` }, 404);
    let patch: Json;
    try {
      patch = (await c.req.json()) as Json;
    } catch {
      return c.json({ error: "the body must be a JSON merge patch" }, 400);
    }
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return c.json({ error: "the merge patch must be a JSON object" }, 400);
    // Deeper than any object of the service: merging it would only overflow the stack.
    if (nestsDeeperThan(patch, MAX_PATCH_DEPTH)) return c.json({ error: `the merge patch is nested more than ${MAX_PATCH_DEPTH} levels deep` }, 400);
    world.settle(obj);
    const at = world.now();
    // The merge gives a new top-level object over the stored (frozen) nested ones, which the stamp replaces rather than changes.
    const merged = mergePatch(obj.body, patch) as JsonObject;
    stampPortalUpdate(merged, new Date(at).toISOString());
    world.replace(obj, merged);
    world.runAs(PORTAL_USER.userName, () => world.recordEvent(obj, "updated", at, `updated in the portal: ${Object.keys(patch).join(", ")}`));
    return c.json(world.view(obj));
  });

  control.delete("/objects/:uuid", (c) => {
    const obj = world.get(c.req.param("uuid"));
    if (!obj) return c.json({ error: `no object ${c.req.param("uuid")}` }, 404);
    world.runAs(PORTAL_USER.userName, () => world.remove(obj));
    return c.body(null, 204);
  });

  return control;
}
