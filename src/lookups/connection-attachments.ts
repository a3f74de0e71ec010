// What is attached to a connection: its route filters and its route aggregation, each as the connection's
// list says (GET /fabric/v4/connections/{connectionId}/routeFilters, .../routeAggregations): the uuid of
// what is attached, its direction, and how far the attachment has gone.

import { z } from "zod";
import { childListLookup } from "./child-list.js";

const STATUS = { schema: z.string().min(1), field: { at: "attachmentStatus" }, description: "ATTACHED, ATTACHING, DETACHING..." };
const TYPE = (examples: string) => ({ schema: z.string().min(1), field: { at: "type" }, description: examples });

export const connectionRouteFilters = childListLookup({
  name: "connectionRouteFilter",
  noun: "route filter attached to a connection",
  description: "a route filter attached to a connection, with its direction and attachment status",
  parent: { field: "connectionId", noun: "connection" },
  list: (id) => `/fabric/v4/connections/${id}/routeFilters`,
  where: {
    direction: { schema: z.enum(["INBOUND", "OUTBOUND"]), field: { at: "direction" }, description: "INBOUND or OUTBOUND" },
    type: TYPE("BGP_IPv4_PREFIX_FILTER, BGP_IPv6_PREFIX_FILTER"),
    attachmentStatus: STATUS,
  },
  attributes: ["uuid", "href", "type", "direction", "attachmentStatus"],
});

export const connectionRouteAggregations = childListLookup({
  name: "connectionRouteAggregation",
  noun: "route aggregation attached to a connection",
  description: "a route aggregation attached to a connection, with its attachment status",
  parent: { field: "connectionId", noun: "connection" },
  list: (id) => `/fabric/v4/connections/${id}/routeAggregations`,
  where: {
    type: TYPE("BGP_IPv4_PREFIX_AGGREGATION, BGP_IPv6_PREFIX_AGGREGATION"),
    attachmentStatus: STATUS,
  },
  attributes: ["uuid", "href", "type", "attachmentStatus"],
});
