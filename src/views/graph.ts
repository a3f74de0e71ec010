// `netform graph`: the configuration's dependency graph as Graphviz DOT or a Mermaid flowchart, one node
// per resource (labelled by address, grouped by kind) and one edge per dependency.
//
// Edges point from the dependent to its dependency (`connections.x -> routeFilters.y` reads "x depends on
// y"), as `terraform graph` draws them, and both renderings lay out right to left (rankdir RL /
// flowchart RL) like Terraform's, so what is created first ends up on the right. The output is sorted
// (kinds in the order netform lists them, nodes and edges by address) so that it can be diffed and kept
// in golden files.

import type { Graph } from "../graph/index.js";
import type { Output } from "./output.js";

export type GraphFormat = "dot" | "mermaid";

/** The kind of each address of the graph (an address without one is drawn outside every group), and the order of the kinds. */
export interface GraphKinds {
  of: ReadonlyMap<string, string>;
  order: readonly string[];
}

interface Layout {
  /** Kinds that have at least one node, in KINDS order, each with its nodes sorted. */
  groups: { kind: string; nodes: string[] }[];
  /** Nodes whose kind is not known. */
  loose: string[];
  /** [dependent, dependency], sorted. */
  edges: [string, string][];
}

function layout(graph: Graph, kinds: GraphKinds): Layout {
  const nodes = [...graph.nodes].sort();
  const groups = kinds.order.map((kind) => ({ kind, nodes: nodes.filter((n) => kinds.of.get(n) === kind) })).filter((g) => g.nodes.length > 0);
  const loose = nodes.filter((n) => kinds.of.get(n) === undefined);
  const edges = nodes.flatMap((n) => graph.dependenciesOf(n).sort().map((d): [string, string] => [n, d]));
  return { groups, loose, edges };
}

/** A DOT double-quoted string: only `"` and `\` need escaping, and newlines would end the statement. */
const dotString = (text: string): string => `"${text.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/\n/g, "\\n")}"`;

/** Graphviz DOT. Each kind is a cluster, so `dot` draws a labelled box around the resources of a kind. */
export function renderGraphDot(graph: Graph, kinds: GraphKinds): string {
  const { groups, loose, edges } = layout(graph, kinds);
  const lines = [
    "// netform dependency graph: an edge A -> B means A depends on B (B is created first and destroyed last).",
    "digraph netform {",
    '  rankdir = "RL";',
    '  node [shape = rect, fontname = "sans-serif"];',
  ];
  for (const { kind, nodes } of groups) {
    lines.push(`  subgraph ${dotString(`cluster_${kind}`)} {`, `    label = ${dotString(kind)};`, '    style = "rounded";');
    for (const n of nodes) lines.push(`    ${dotString(n)};`);
    lines.push("  }");
  }
  for (const n of loose) lines.push(`  ${dotString(n)};`);
  for (const [from, to] of edges) lines.push(`  ${dotString(from)} -> ${dotString(to)};`);
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

/**
 * Mermaid node ids allow fewer characters than addresses have (no dots), so every node gets an id made of
 * its address's safe characters, made unique with a counter should two addresses reduce to the same id.
 */
function mermaidIds(nodes: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const n of nodes) {
    const base = `n_${n.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    ids.set(n, id);
  }
  return ids;
}

/** A Mermaid quoted label: `"` cannot be escaped with a backslash, only as an entity. */
const mermaidLabel = (text: string): string => `"${text.replace(/"/g, "#quot;")}"`;

/** A Mermaid flowchart. Each kind is a subgraph titled with the kind. */
export function renderGraphMermaid(graph: Graph, kinds: GraphKinds): string {
  const { groups, loose, edges } = layout(graph, kinds);
  const ids = mermaidIds([...groups.flatMap((g) => g.nodes), ...loose].sort());
  const id = (n: string): string => ids.get(n)!;
  const lines = ["%% netform dependency graph: an edge A --> B means A depends on B (B is created first and destroyed last).", "flowchart RL"];
  for (const { kind, nodes } of groups) {
    // Subgraph ids are prefixed too, so that a kind can never collide with a node id or a Mermaid keyword.
    lines.push(`  subgraph k_${kind}[${mermaidLabel(kind)}]`);
    for (const n of nodes) lines.push(`    ${id(n)}[${mermaidLabel(n)}]`);
    lines.push("  end");
  }
  for (const n of loose) lines.push(`  ${id(n)}[${mermaidLabel(n)}]`);
  for (const [from, to] of edges) lines.push(`  ${id(from)} --> ${id(to)}`);
  return `${lines.join("\n")}\n`;
}

export function renderGraph(graph: Graph, kinds: GraphKinds, format: GraphFormat): string {
  switch (format) {
    case "dot":
      return renderGraphDot(graph, kinds);
    case "mermaid":
      return renderGraphMermaid(graph, kinds);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown graph format ${String(unreachable)}`);
    }
  }
}

/** Writes the graph to standard output, uncoloured: it is meant to be piped to `dot` or pasted into Markdown. */
export function printGraph(output: Output, graph: Graph, kinds: GraphKinds, format: GraphFormat): void {
  output.out(renderGraph(graph, kinds, format));
}
