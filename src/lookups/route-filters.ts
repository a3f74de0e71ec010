// Route filters that exist already (another team's, or another configuration's), by name, type or state
// (POST /fabric/v4/routeFilters/search).

import { z } from "zod";
import { fabricSearchLookup, NAME, STATE } from "./fabric-search.js";

export const routeFilters = fabricSearchLookup({
  name: "routeFilter",
  noun: "route filter",
  description: "an existing route filter, by name, type or state",
  path: "/fabric/v4/routeFilters/search",
  read: (uuid) => `/fabric/v4/routeFilters/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.enum(["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"]), field: { at: "type", property: "/type" }, description: "the prefix family" },
    state: STATE,
  },
  unfiltered: { expressions: [{ property: "/type", operator: "IN", values: ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"] }] },
  attributes: ["uuid", "name", "href", "type", "state", "project"],
});
