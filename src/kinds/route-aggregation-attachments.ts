// Route aggregation attachments (official: /fabric/v4/connections/{id}/routeAggregations): a route
// aggregation applied to a connection, a connection attachment as connection-attachments.ts describes. The
// service applies one aggregation to a connection at a time, and IPv4 aggregations only.

import { placeDiagnostic, Reference, reveal, type ConfigResource } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { connectionAttachmentKind } from "./connection-attachments.js";

/** One aggregation per connection, of the one family that attaches, where the configuration says so. */
function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byConnection = new Map<string, ConfigResource>();
  for (const r of own) {
    const locate = { address: r.address, positions: r.positions };
    const connection = r.spec.connection;
    const aggregation = r.spec.routeAggregation;
    if (aggregation instanceof Reference && aggregation.kind === "routeAggregations") {
      const type = reveal(all.get(aggregation.address)?.spec.type);
      if (type === "BGP_IPv6_PREFIX_AGGREGATION") {
        diagnostics.push(placeDiagnostic(locate, { path: ["routeAggregation"], code: "rule.aggregation-family", message: `${aggregation.address} is a BGP_IPv6_PREFIX_AGGREGATION; the service attaches IPv4 aggregations only` }));
      }
    }
    if (!(connection instanceof Reference)) continue;
    const first = byConnection.get(connection.address);
    const sameAggregation = first && String(first.spec.routeAggregation) === String(aggregation);
    if (first && !sameAggregation) {
      diagnostics.push(placeDiagnostic(locate, { path: ["connection"], code: "rule.aggregation-per-connection", message: `${connection.address} already takes a route aggregation (${first.address}); the service applies one per connection`, hint: "put the prefixes of both into one route aggregation's rules" }));
    } else if (!first) byConnection.set(connection.address, r);
  }
  return diagnostics;
}

export const routeAggregationAttachments = connectionAttachmentKind({
  name: "routeAggregationAttachments",
  typicalSeconds: { create: 8, update: 8, delete: 6 },
  description: "route aggregations applied to connections, by name",
  noun: "route aggregation attachment",
  policyField: "routeAggregation",
  policyKind: "routeAggregations",
  policyNoun: "route aggregation",
  rulesKind: "routeAggregationRules",
  segment: "routeAggregations",
  settings: {},
  crossRules,
  attributes: ["href", "type", "uuid", "attachmentStatus", "connection", "routeAggregation"],
});
