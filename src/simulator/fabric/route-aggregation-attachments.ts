// Route aggregation attachments (official: /fabric/v4/connections/{connectionId}/routeAggregations): a
// route aggregation attached to a connection. Like a route filter attachment, it is named by its
// connection and its aggregation and answers with the aggregation's uuid and type and its own status;
// the simulator keeps one object per attachment with the two ids in its meta, and drops it a while after
// it has been detached. The attach request has no body (the description defines none).
//
// Choices where the description is silent: a connection takes one aggregation at a time; only IPv4
// aggregations attach (the attachment's type enumeration has BGP_IPv4_PREFIX_AGGREGATION alone).

import { fail } from "../core/errors.js";
import { findVisible, type SimApp } from "../core/context.js";
import { changeLogUpdate, newChangeLog, paginate, pageLink, queryPage, rejectUnknownQuery } from "../core/http.js";
import { getPointer, type Json, type SimObject, type World } from "../core/world.js";
import {
  ATTACH_MS,
  DETACH_MS,
  DETACHED_VISIBLE_MS,
  LIST_LIMITS,
  asAccepted,
  connectionInService,
  isLive,
  requireStableConnection,
  visibleConnection,
  type AttachmentStatus,
} from "./route-filter-attachments.js";

export const ROUTE_AGGREGATION_KIND = "routeAggregations";
export const AGGREGATION_ATTACHMENT_KIND = "routeAggregationAttachments";
const ATTACHABLE_TYPE = "BGP_IPv4_PREFIX_AGGREGATION";

const connectionOf = (attachment: SimObject) => String(attachment.meta.connectionUuid);
const aggregationOf = (attachment: SimObject) => String(attachment.meta.routeAggregationUuid);

const statusOf = (world: World, attachment: SimObject): AttachmentStatus => getPointer(world.view(attachment), "/attachmentStatus") as AttachmentStatus;

/** Attachments (in any status) of a connection, or of an aggregation, whose connection is still in service. */
export function aggregationAttachmentsWhere(world: World, match: { connectionUuid?: string; routeAggregationUuid?: string }): SimObject[] {
  return world
    .list(AGGREGATION_ATTACHMENT_KIND)
    .filter((a) => (match.connectionUuid === undefined || connectionOf(a) === match.connectionUuid) && (match.routeAggregationUuid === undefined || aggregationOf(a) === match.routeAggregationUuid))
    .filter((a) => connectionInService(world, connectionOf(a)));
}

/** Attachments that currently bind an aggregation to a connection (they count in `connectionsCount`). */
export const liveAttachmentsOfAggregation = (world: World, routeAggregationUuid: string): SimObject[] =>
  aggregationAttachmentsWhere(world, { routeAggregationUuid }).filter((a) => isLive(statusOf(world, a)));

export function defineAggregationAttachmentKind(world: World): void {
  world.defineKind(AGGREGATION_ATTACHMENT_KIND, {
    statePath: "/attachmentStatus",
    eventType: "equinix.fabric.connection.route_aggregation",
    subject: (o) => `/fabric/v4/connections/${connectionOf(o)}/routeAggregations/${aggregationOf(o)}`,
  });
}

function findAttachment(world: World, connectionUuid: string, routeAggregationUuid: string): SimObject {
  const [attachment] = aggregationAttachmentsWhere(world, { connectionUuid, routeAggregationUuid });
  if (!attachment) return fail("notFound", "routeAggregationId", `route aggregation ${routeAggregationUuid} is not attached to connection ${connectionUuid}`);
  return attachment;
}

/** One aggregation per connection: another one still bound to it must be detached first. */
function requireFreeConnection(world: World, connectionUuid: string, aggregation: SimObject): void {
  for (const existing of aggregationAttachmentsWhere(world, { connectionUuid })) {
    const status = statusOf(world, existing);
    if (!isLive(status)) continue;
    const which = aggregationOf(existing) === aggregation.uuid ? `route aggregation ${aggregation.uuid} is already attached` : `route aggregation ${aggregationOf(existing)} is attached`;
    fail("invalidProperty", "routeAggregationId", `${which} to connection ${connectionUuid} (${status}); a connection takes one route aggregation, detach it first`);
  }
}

export function aggregationAttachmentRoutes(app: SimApp, world: World): void {
  const base = "/fabric/v4/connections/:connectionId/routeAggregations";

  app.get(base, (c) => {
    rejectUnknownQuery(c, ["offset", "limit"]);
    const page = queryPage(c, LIST_LIMITS);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const data = aggregationAttachmentsWhere(world, { connectionUuid: connection.uuid }).map((a) => world.view(a));
    return c.json(paginate(data, page, pageLink(c)));
  });

  app.get(`${base}/:routeAggregationId`, (c) => {
    rejectUnknownQuery(c, []);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    return c.json(world.view(findAttachment(world, connection.uuid, c.req.param("routeAggregationId"))));
  });

  app.put(`${base}/:routeAggregationId`, (c) => {
    rejectUnknownQuery(c, []);
    const principal = c.get("principal");
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const aggregation = findVisible(world, principal, ROUTE_AGGREGATION_KIND, c.req.param("routeAggregationId"), "routeAggregationId");
    requireStableConnection(world, connection, "routeAggregationConnectionTransient");
    const view = world.view(aggregation);
    if (view.state !== "PROVISIONED") {
      fail("invalidProperty", "routeAggregationId", `route aggregation ${aggregation.uuid} is ${String(view.state)}; only PROVISIONED aggregations can be attached`, String(view.state));
    }
    if (view.type !== ATTACHABLE_TYPE) fail("invalidProperty", "routeAggregationId", `route aggregation ${aggregation.uuid} is ${String(view.type)}; only ${ATTACHABLE_TYPE} aggregations attach to connections`, String(view.type));
    requireFreeConnection(world, connection.uuid, aggregation);
    // A detached or failed attachment of the same pair is replaced by the new one.
    for (const stale of aggregationAttachmentsWhere(world, { connectionUuid: connection.uuid, routeAggregationUuid: aggregation.uuid })) world.remove(stale);
    const attachment = world.create(
      AGGREGATION_ATTACHMENT_KIND,
      {
        href: `/fabric/v4/connections/${connection.uuid}/routeAggregations/${aggregation.uuid}`,
        type: ATTACHABLE_TYPE,
        uuid: aggregation.uuid,
        changeLog: newChangeLog(principal, world.nowIso()),
      },
      // The body's uuid is the aggregation's; the attachment object needs its own key in the world.
      { uuid: world.uuid(), ...(connection.projectId === undefined ? {} : { projectId: connection.projectId }), meta: { connectionUuid: connection.uuid, routeAggregationUuid: aggregation.uuid } },
    );
    world.transition(attachment, { "/attachmentStatus": "ATTACHING" }, [{ afterMs: ATTACH_MS, set: { "/attachmentStatus": "ATTACHED" } }], { "/attachmentStatus": "FAILED" });
    return c.json(asAccepted(world, attachment, "ATTACHING"), 202);
  });

  app.delete(`${base}/:routeAggregationId`, (c) => {
    rejectUnknownQuery(c, []);
    const connection = visibleConnection(world, c, c.req.param("connectionId"));
    const attachment = findAttachment(world, connection.uuid, c.req.param("routeAggregationId"));
    const status = statusOf(world, attachment);
    if (status === "DETACHED") fail("notFound", "routeAggregationId", `route aggregation ${aggregationOf(attachment)} is already detached from connection ${connection.uuid}`);
    if (status === "ATTACHING" || status === "DETACHING") {
      fail("invalidProperty", "routeAggregationId", `the attachment is ${status}; retry when the change has completed`, status);
    }
    requireStableConnection(world, connection, "routeAggregationConnectionTransient");
    const stamp: Record<string, Json> = { ...changeLogUpdate(c.get("principal"), world.nowIso()), ...changeLogUpdate(c.get("principal"), world.nowIso(), true) };
    world.transition(attachment, { ...stamp, "/attachmentStatus": "DETACHING" }, [
      { afterMs: DETACH_MS, set: { "/attachmentStatus": "DETACHED" } },
      { afterMs: DETACH_MS + DETACHED_VISIBLE_MS, set: {}, gone: true },
    ]);
    return c.json(asAccepted(world, attachment, "DETACHING"), 202);
  });
}
