// Routing protocol instances on a connection: the schema of their YAML (spec.ts), the rules of each type
// (rules.ts), how the engine manages them (handler.ts), the service's rules across instances
// (service-rules.ts), and its ordering rule that a connection's BGP instance needs its DIRECT instance
// first (and goes before it).

import { identityOf, SecretPaths, type ConfigResource, type OrderingEdge } from "../../config/index.js";
import type { KindDefinition } from "../types.js";
import { handler } from "./handler.js";
import { rules } from "./rules.js";
import { crossRules, preflight } from "./service-rules.js";
import { schema } from "./spec.js";

function ordering(own: readonly ConfigResource[]): OrderingEdge[] {
  const directs = new Map<string, ConfigResource>();
  for (const r of own) {
    const connection = identityOf(r.spec.connection);
    if (r.spec.type === "DIRECT" && connection !== undefined) directs.set(connection, r);
  }
  const edges: OrderingEdge[] = [];
  for (const bgp of own) {
    const connection = identityOf(bgp.spec.connection);
    const direct = bgp.spec.type === "BGP" && connection !== undefined ? directs.get(connection) : undefined;
    if (direct) edges.push({ from: bgp.address, to: direct.address });
  }
  return edges;
}

export const routingProtocols: KindDefinition<"routingProtocols"> = {
  name: "routingProtocols",
  description: "DIRECT and BGP routing protocol instances on connections, by name",
  get spec() {
    return schema();
  },
  rules,
  crossRules,
  ordering,
  preflight,
  sensitive: new SecretPaths(["bgpAuthKey"]),
  attributes: ["href", "uuid", "type", "name", "state", "change", "changeLog", "directIpv4", "directIpv6", "bgpIpv4", "bgpIpv6", "asOverrideEnabled", "customerAsn", "equinixAsn", "bgpAuthKey", "bfd", "connection"],
  serverSet: ["href", "uuid", "state", "change", "changeLog", "changelog", "equinixAsn", "operation"],
  parents: { connection: "connections" },
  timeoutMs: 15 * 60_000,
  typicalSeconds: { create: 45, update: 30, delete: 20 },
  // A DIRECT instance is ready well before a BGP session is established, and BGP waits for it.
  timedVariants: {
    of: (body) => (typeof body.type === "string" ? body.type : undefined),
    seconds: { DIRECT: { create: 20, update: 30, delete: 20 }, BGP: { create: 45, update: 30, delete: 20 } },
  },
  handler,
};
