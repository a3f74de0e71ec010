// The rules of a route filter and of a route aggregation (GET /fabric/v4/routeFilters/{id}/routeFilterRules,
// /fabric/v4/routeAggregations/{id}/routeAggregationRules): by name, prefix, type or state.

import { z } from "zod";
import { childListLookup } from "./child-list.js";
import { NAME, STATE } from "./fabric-search.js";

const PREFIX = { schema: z.string().min(1), field: { at: "prefix" }, description: "the prefix (10.0.0.0/8)" };
const LOCAL_NAME = { ...NAME, field: { at: "name" } };
const LOCAL_STATE = { ...STATE, field: { at: "state" } };

export const routeFilterRules = childListLookup({
  name: "routeFilterRule",
  noun: "route filter rule",
  description: "a rule of a route filter, by name, prefix, prefix match or state",
  parent: { field: "routeFilterId", noun: "route filter" },
  list: (id) => `/fabric/v4/routeFilters/${id}/routeFilterRules`,
  where: {
    name: LOCAL_NAME,
    prefix: PREFIX,
    prefixMatch: { schema: z.enum(["exact", "orlonger"]), field: { at: "prefixMatch" }, description: "exact or orlonger" },
    type: { schema: z.string().min(1), field: { at: "type" }, description: "BGP_IPv4_PREFIX_FILTER_RULE, BGP_IPv6_PREFIX_FILTER_RULE" },
    state: LOCAL_STATE,
  },
  attributes: ["uuid", "name", "href", "type", "prefix", "prefixMatch", "description", "state"],
});

export const routeAggregationRules = childListLookup({
  name: "routeAggregationRule",
  noun: "route aggregation rule",
  description: "a rule of a route aggregation, by name, prefix or state",
  parent: { field: "routeAggregationId", noun: "route aggregation" },
  list: (id) => `/fabric/v4/routeAggregations/${id}/routeAggregationRules`,
  where: {
    name: LOCAL_NAME,
    prefix: PREFIX,
    type: { schema: z.string().min(1), field: { at: "type" }, description: "BGP_IPv4_PREFIX_AGGREGATION_RULE, BGP_IPv6_PREFIX_AGGREGATION_RULE" },
    state: LOCAL_STATE,
  },
  attributes: ["uuid", "name", "href", "type", "prefix", "description", "state"],
});
