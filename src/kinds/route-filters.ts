// Route filters (specification 2.3, 3.1, 4.3): named BGP prefix filters, a routing policy as
// routing-policies.ts describes. Their prefixes are rules of their own (route-filter-rules.ts).

import { routingPolicyKind } from "./routing-policies.js";

export const ROUTE_FILTER_TYPES = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"] as const;

export const routeFilters = routingPolicyKind({
  name: "routeFilters",
  typicalSeconds: { create: 5, update: 3, delete: 5 },
  description: "BGP prefix filters, by name",
  noun: "route filter",
  base: "/fabric/v4/routeFilters",
  types: ROUTE_FILTER_TYPES,
  typeDescription: "the prefix family the filter matches",
  attributes: ["href", "uuid", "type", "name", "description", "state", "change", "notMatchedRuleAction", "connectionsCount", "rulesCount", "project", "changeLog"],
});
