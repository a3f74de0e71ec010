// Route aggregation rules (official: /fabric/v4/routeAggregations/{id}/routeAggregationRules): the
// prefixes a route aggregation summarises routes into, a prefix rule as prefix-rules.ts describes. The
// description types them IPv4 only, and the service takes none for an IPv6 aggregation.

import { prefixRuleKind } from "./prefix-rules.js";

export const routeAggregationRules = prefixRuleKind({
  name: "routeAggregationRules",
  typicalSeconds: { create: 3, update: 2, delete: 3 },
  description: "the prefixes a route aggregation summarises into, by name",
  noun: "route aggregation rule",
  parentField: "routeAggregation",
  parentKind: "routeAggregations",
  parentNoun: "route aggregation",
  parentBase: "/fabric/v4/routeAggregations",
  segment: "routeAggregationRules",
  prefixMatch: false,
  onlyFamily: 4,
  familyOf: (type) =>
    type === "BGP_IPv4_PREFIX_AGGREGATION" ? 4 : type === "BGP_IPv6_PREFIX_AGGREGATION" ? { refused: "the service takes rules for IPv4 aggregations only" } : undefined,
  attributes: ["href", "type", "uuid", "name", "description", "state", "change", "prefix", "changeLog"],
});
