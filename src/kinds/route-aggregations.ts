// Route aggregations (official: /fabric/v4/routeAggregations): named BGP prefix aggregation policies, a
// routing policy as routing-policies.ts describes. Their prefixes are rules of their own
// (route-aggregation-rules.ts); the service takes rules for IPv4 aggregations only.

import { routingPolicyKind } from "./routing-policies.js";

export const ROUTE_AGGREGATION_TYPES = ["BGP_IPv4_PREFIX_AGGREGATION", "BGP_IPv6_PREFIX_AGGREGATION"] as const;

export const routeAggregations = routingPolicyKind({
  name: "routeAggregations",
  typicalSeconds: { create: 5, update: 3, delete: 5 },
  description: "BGP prefix aggregation policies, by name",
  noun: "route aggregation",
  base: "/fabric/v4/routeAggregations",
  types: ROUTE_AGGREGATION_TYPES,
  typeDescription: "the prefix family the aggregation summarises (rules and attachments take IPv4 only)",
  attributes: ["href", "uuid", "type", "name", "description", "state", "change", "connectionsCount", "rulesCount", "project", "changeLog"],
});
