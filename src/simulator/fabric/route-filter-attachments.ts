// Route filter attachments (sections 2.3, 3.2 and 4.3 of the specification): a route filter attached to a
// connection in one direction. The official description identifies an attachment by its connection and
// filter (`/connections/{connectionId}/routeFilters/{routeFilterId}`) and returns the filter's uuid and
// type with the attachment's own status; the simulator keeps one object per attachment, with the two ids
// in its meta, and drops it a while after it has been detached.

import type { Context } from "hono";
import { fail, type ErrorKey } from "../core/errors.js";
import { canSee, findVisible, type SimApp, type SimEnv } from "../core/context.js";
import { changeLogUpdate, newChangeLog, paginate, pageLink, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";
import { ATTACHMENTS_BY_CONNECTION as BY_CONNECTION, ATTACHMENTS_BY_FILTER as BY_FILTER, checkAttachFits } from "./router-routes.js";

export const ROUTE_FILTER_KIND = "routeFilters";
export const ATTACHMENT_KIND = "routeFilterAttachments";
const CONNECTION_KIND = "connections";

export type AttachmentStatus = "ATTACHING" | "ATTACHED" | "DETACHING" | "DETACHED" | "FAILED";
export type Direction = "INBOUND" | "OUTBOUND";
const DIRECTIONS: readonly Direction[] = ["INBOUND", "OUTBOUND"];

/** Simulated durations: attaching programs the filter (or aggregation) on the connection's BGP sessions. */
export const ATTACH_MS = 8_000;
export const DETACH_MS = 6_000;
/** How long a detached attachment stays readable (as DETACHED) before it is gone. */
export const DETACHED_VISIBLE_MS = 120_000;

/** Connection states in which the service refuses to attach or detach (EQ-3044008). */
const TRANSIENT_CONNECTION_STATES = new Set(["PROVISIONING", "REPROVISIONING", "DEPROVISIONING", "PENDING", "PENDING_INTERFACE_CONFIGURATION"]);

/** Lists of this family page with a default of 20 and at most 100 (the official Pagination description). */
export const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;

const stringAt = (body: JsonObject, pointer: string): string | undefined => {
  const value = getPointer(body, pointer);
  return typeof value === "string" ? value : undefined;
};

export const attachmentStatusOf = (world: World, attachment: SimObject): AttachmentStatus =>
  stringAt(world.view(attachment), "/attachmentStatus") as AttachmentStatus;

/** An attachment that binds its filter to its connection: being attached, attached, or being detached. */
export function isLive(status: AttachmentStatus): boolean {
  switch (status) {
    case "ATTACHING":
    case "ATTACHED":
    case "DETACHING":
      return true;
    case "DETACHED":
    case "FAILED":
      return false;
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

const connectionOf = (attachment: SimObject) => String(attachment.meta.connectionUuid);
const filterOf = (attachment: SimObject) => String(attachment.meta.routeFilterUuid);

/** A deleted connection uses no filter any more, whether it is gone or still readable as DEPROVISIONED. */
export function connectionInService(world: World, connectionUuid: string): boolean {
  const connection = world.get(connectionUuid, CONNECTION_KIND);
  return connection !== undefined && stringAt(world.view(connection), "/state") !== "DEPROVISIONED";
}

/** Attachments (in any status) of a connection, or of a filter, whose connection is still in service. */
export function attachmentsWhere(world: World, match: { connectionUuid?: string; routeFilterUuid?: string }): SimObject[] {
  const candidates =
    match.connectionUuid !== undefined
      ? world.lookup(ATTACHMENT_KIND, BY_CONNECTION, match.connectionUuid)
      : match.routeFilterUuid !== undefined
        ? world.lookup(ATTACHMENT_KIND, BY_FILTER, match.routeFilterUuid)
        : world.list(ATTACHMENT_KIND);
  return candidates
    .filter((a) => (match.connectionUuid === undefined || connectionOf(a) === match.connectionUuid) && (match.routeFilterUuid === undefined || filterOf(a) === match.routeFilterUuid))
    .filter((a) => connectionInService(world, connectionOf(a)));
}

/** Attachments that currently bind a filter to a connection (they count in `connectionsCount`). */
export const liveAttachmentsOfFilter = (world: World, routeFilterUuid: string): SimObject[] =>
  attachmentsWhere(world, { routeFilterUuid }).filter((a) => isLive(attachmentStatusOf(world, a)));

export function defineAttachmentKind(world: World): void {
  world.defineKind(ATTACHMENT_KIND, {
    statePath: "/attachmentStatus",
    eventType: "equinix.fabric.connection.route_filter",
    subject: (o) => `/fabric/v4/connections/${connectionOf(o)}/routeFilters/${filterOf(o)}`,
  });
  // Attaching, listing and counting ask by connection or by filter (the names are router-routes.ts's).
  world.defineIndex(ATTACHMENT_KIND, BY_CONNECTION, (_body, obj) => [connectionOf(obj)]);
  world.defineIndex(ATTACHMENT_KIND, BY_FILTER, (_body, obj) => [filterOf(obj)]);
}

// ── checks ───────────────────────────────────────────────────────────────────────────────

export function visibleConnection(world: World, c: Context<SimEnv>, connectionUuid: string): SimObject {
  const connection = world.get(connectionUuid, CONNECTION_KIND);
  if (!connection || !canSee(c.get("principal"), connection)) {
    return fail("routeFilterConnectionNotFound", "connectionId", `connection ${connectionUuid} was not found`, connectionUuid);
  }
  return connection;
}

/**
 * Attach and detach need a connection that is provisioned and not in the middle of a change; `transient`
 * is the refusal of the policy's family (EQ-3044008 names route filters or route aggregations).
 */
export function requireStableConnection(world: World, connection: SimObject, transient: ErrorKey = "routeFilterConnectionTransient"): void {
  const state = stringAt(world.view(connection), "/state") ?? "UNKNOWN";
  if (TRANSIENT_CONNECTION_STATES.has(state)) {
    fail(transient, "connectionId", `connection ${connection.uuid} is ${state}; retry when it is PROVISIONED`, state);
  }
  if (state !== "PROVISIONED") fail("invalidProperty", "connectionId", `connection ${connection.uuid} is ${state}; routing policies attach only to PROVISIONED connections`, state);
}

function readDirection(body: JsonObject): Direction {
  const direction = body.direction;
  if (direction === undefined || direction === null) return fail("missingProperty", "direction", "direction is required (INBOUND or OUTBOUND)");
  if (typeof direction !== "string" || !(DIRECTIONS as readonly string[]).includes(direction)) {
    return fail("routeFilterInvalidDirection", "direction", `direction must be one of ${DIRECTIONS.join(", ")}`, String(direction));
  }
  return direction as Direction;
}

/** One filter per connection, and one filter of a type per direction (the official list shows one of each). */
function requireFreeSlot(world: World, connectionUuid: string, filter: SimObject, filterType: string, direction: Direction): void {
  for (const existing of attachmentsWhere(world, { connectionUuid })) {
    const view = world.view(existing);
    const status = view.attachmentStatus as AttachmentStatus;
    if (!isLive(status)) continue;
    if (filterOf(existing) === filter.uuid) {
      fail("invalidProperty", "routeFilterId", `route filter ${filter.uuid} is already attached to connection ${connectionUuid} (${status} ${String(view.direction)})`);
    }
    if (view.type === filterType && view.direction === direction) {
      fail("invalidProperty", "direction", `connection ${connectionUuid} already has a ${filterType} filter ${direction} (${filterOf(existing)}); detach it first`, direction);
    }
  }
}

// ── routes ───────────────────────────────────────────────────────────────────────────────

export function attachmentRoutes(app: SimApp, world: World): void {
  const base = "/fabric/v4/connections/:connectionId/routeFilters";

  app.get(base, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const data = attachmentsWhere(world, { connectionUuid: connection.uuid }).map((a) => world.view(a));
    return c.json(paginate(data, page, pageLink(c)));
  });

  app.get(`${base}/:routeFilterId`, (c) => {
    rejectUnknownQuery(c, []);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    return c.json(world.view(findAttachment(world, connection.uuid, c.req.param("routeFilterId"))));
  });

  app.put(`${base}/:routeFilterId`, async (c) => {
    rejectUnknownQuery(c, []);
    const body = await readObject(c);
    const principal = c.get("principal");
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const filter = findVisible(world, principal, ROUTE_FILTER_KIND, c.req.param("routeFilterId"), "routeFilterId");
    const direction = readDirection(body);
    requireStableConnection(world, connection);
    const filterView = world.view(filter);
    if (filterView.state !== "PROVISIONED") {
      fail("invalidProperty", "routeFilterId", `route filter ${filter.uuid} is ${String(filterView.state)}; only PROVISIONED filters can be attached`, String(filterView.state));
    }
    const filterType = String(filterView.type);
    requireFreeSlot(world, connection.uuid, filter, filterType, direction);
    if (direction === "INBOUND") checkAttachFits(world, connection.uuid, filter, "routeFilterId");
    // A detached or failed attachment of the same pair is replaced by the new one.
    for (const stale of attachmentsWhere(world, { connectionUuid: connection.uuid, routeFilterUuid: filter.uuid })) world.remove(stale);
    const attachment = world.create(
      ATTACHMENT_KIND,
      {
        href: `/fabric/v4/connections/${connection.uuid}/routeFilters/${filter.uuid}`,
        type: filterType,
        uuid: filter.uuid,
        direction,
        changeLog: newChangeLog(principal, world.nowIso()),
      },
      // The body's uuid is the filter's; the attachment object needs its own key in the world.
      { uuid: world.uuid(), ...(connection.projectId === undefined ? {} : { projectId: connection.projectId }), meta: { connectionUuid: connection.uuid, routeFilterUuid: filter.uuid } },
    );
    world.transition(attachment, { "/attachmentStatus": "ATTACHING" }, [{ afterMs: ATTACH_MS, set: { "/attachmentStatus": "ATTACHED" } }], { "/attachmentStatus": "FAILED" });
    return c.json(asAccepted(world, attachment, "ATTACHING"), 202);
  });

  app.delete(`${base}/:routeFilterId`, (c) => {
    rejectUnknownQuery(c, []);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const attachment = findAttachment(world, connection.uuid, c.req.param("routeFilterId"));
    const status = attachmentStatusOf(world, attachment);
    if (status === "DETACHED") fail("notFound", "routeFilterId", `route filter ${filterOf(attachment)} is already detached from connection ${connection.uuid}`);
    if (status === "ATTACHING" || status === "DETACHING") {
      fail("invalidProperty", "routeFilterId", `the attachment is ${status}; retry when the change has completed`, status);
    }
    requireStableConnection(world, connection);
    const stamp: Record<string, Json> = { ...changeLogUpdate(c.get("principal"), world.nowIso()), ...changeLogUpdate(c.get("principal"), world.nowIso(), true) };
    world.transition(attachment, { ...stamp, "/attachmentStatus": "DETACHING" }, [
      { afterMs: DETACH_MS, set: { "/attachmentStatus": "DETACHED" } },
      { afterMs: DETACH_MS + DETACHED_VISIBLE_MS, set: {}, gone: true },
    ]);
    return c.json(asAccepted(world, attachment, "DETACHING"), 202);
  });
}

/** The attachment as the service answers the accepted request, even when a fast test clock has moved on. */
export function asAccepted(world: World, attachment: SimObject, status: AttachmentStatus): JsonObject {
  return { ...world.view(attachment), attachmentStatus: status };
}

function findAttachment(world: World, connectionUuid: string, routeFilterUuid: string): SimObject {
  const [attachment] = attachmentsWhere(world, { connectionUuid, routeFilterUuid });
  if (!attachment) return fail("notFound", "routeFilterId", `route filter ${routeFilterUuid} is not attached to connection ${connectionUuid}`);
  return attachment;
}
