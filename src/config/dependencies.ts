// Reading a loaded configuration: its dependency graph (references, dependsOn and the kinds' ordering
// rules, as the loader collected them into `edges`), the resource at an address read back from the state
// or a graph, and where an address's secrets are.

import { Graph } from "../graph/index.js";
import type { Address } from "./address.js";
import { SecretPaths } from "./secret-paths.js";
import type { ConfigResource, Configuration } from "./types.js";

/** The order the configuration imposes: an edge from each resource to what it waits for. */
export function configGraph(config: Configuration): Graph {
  const graph = new Graph();
  for (const address of config.resources.keys()) graph.addNode(address);
  for (const edge of config.edges) graph.addEdge(edge.from, edge.to);
  return graph;
}

/** The configuration's resource at an address read from the state or a graph (plain strings). */
export const resourceAt = (config: Configuration, address: string): ConfigResource | undefined => config.resources.get(address as Address);

/** The secrets of an address: its resource's when declared, else (gone from the configuration) its kind's. */
export function secretsAt(config: Configuration, address: string, kind: string): SecretPaths {
  return resourceAt(config, address)?.secrets ?? config.kinds.get(kind)?.sensitive ?? SecretPaths.NONE;
}
