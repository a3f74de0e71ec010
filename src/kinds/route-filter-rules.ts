// Route filter rules (official: /fabric/v4/routeFilters/{id}/routeFilterRules): the prefixes a route
// filter permits, each with its match (exact, or orlonger), a prefix rule as prefix-rules.ts describes.
// A rule's prefix is of its filter's family.

import { prefixRuleKind } from "./prefix-rules.js";

export const routeFilterRules = prefixRuleKind({
  name: "routeFilterRules",
  typicalSeconds: { create: 3, update: 2, delete: 3 },
  description: "the prefixes a route filter permits, by name",
  noun: "route filter rule",
  parentField: "routeFilter",
  parentKind: "routeFilters",
  parentNoun: "route filter",
  parentBase: "/fabric/v4/routeFilters",
  segment: "routeFilterRules",
  prefixMatch: true,
  familyOf: (type) => (type === "BGP_IPv4_PREFIX_FILTER" ? 4 : type === "BGP_IPv6_PREFIX_FILTER" ? 6 : undefined),
  attributes: ["href", "type", "uuid", "name", "description", "state", "change", "prefix", "prefixMatch", "action", "changeLog"],
});
