// Route aggregations that exist already, by name, type or state (POST /fabric/v4/routeAggregations/search).

import { z } from "zod";
import { fabricSearchLookup, NAME, STATE } from "./fabric-search.js";

export const routeAggregations = fabricSearchLookup({
  name: "routeAggregation",
  noun: "route aggregation",
  description: "an existing route aggregation, by name, type or state",
  path: "/fabric/v4/routeAggregations/search",
  read: (uuid) => `/fabric/v4/routeAggregations/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.enum(["BGP_IPv4_PREFIX_AGGREGATION", "BGP_IPv6_PREFIX_AGGREGATION"]), field: { at: "type", property: "/type" }, description: "the prefix family" },
    state: STATE,
  },
  unfiltered: { expressions: [{ property: "/type", operator: "IN", values: ["BGP_IPv4_PREFIX_AGGREGATION", "BGP_IPv6_PREFIX_AGGREGATION"] }] },
  attributes: ["uuid", "name", "href", "type", "state", "project"],
});
