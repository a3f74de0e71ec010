// Route filters (4.3 create body) and their attachments to connections (4.3 attach body).

import { z } from "zod";
import { project, uuid } from "./schema-common.js";

export const ROUTE_FILTER_TYPES = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"] as const;

export const routeFilterSpec = z.strictObject({
  type: z.enum(ROUTE_FILTER_TYPES).describe("the prefix family the filter matches"),
  name: z.string().min(1).optional().describe("display name; default: the resource name"),
  description: z.string().optional(),
  project: project().optional().describe("default: provider.projectId"),
});

export const ATTACHMENT_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;

export const routeFilterAttachmentSpec = z.strictObject({
  connection: uuid().describe("the connection's uuid, normally ${connections.NAME.uuid}"),
  routeFilter: uuid().describe("the route filter's uuid, normally ${routeFilters.NAME.uuid}"),
  direction: z.enum(ATTACHMENT_DIRECTIONS),
});
