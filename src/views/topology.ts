// The network as a Mermaid flowchart (which GitHub and GitLab draw in a comment): ports, devices, cloud
// routers, networks, service profiles and service tokens as nodes, each shaped by what it is;
// connections and device links as edges labelled with their name, bandwidth and VLANs. What a plan adds,
// changes or removes is coloured, drawn thick or dashed, and said in the label with +, ~ or -, for
// whoever cannot tell the colours apart. `netform graph --topology` prints the whole network; the plan's
// comment draws what the plan touches, bounded so that a large plan still renders.

import type { NodeRole, Topology, TopologyEdge, TopologyNode, TopologyStatus } from "../plan/topology.js";

const CLASSES: Record<TopologyStatus, string> = {
  added: "fill:#dafbe1,stroke:#1a7f37,color:#1f2328,stroke-width:2px",
  changed: "fill:#fff8c5,stroke:#9a6700,color:#1f2328,stroke-width:2px",
  removed: "fill:#ffebe9,stroke:#cf222e,color:#1f2328,stroke-dasharray:5 3",
  unchanged: "fill:#f6f8fa,stroke:#8c959f,color:#1f2328",
};

const EDGE_COLOURS: Record<TopologyStatus, string> = { added: "#1a7f37", changed: "#9a6700", removed: "#cf222e", unchanged: "#8c959f" };

const MARKS: Record<TopologyStatus, string> = { added: "+ ", changed: "~ ", removed: "- ", unchanged: "" };

const STATUS_ORDER: readonly TopologyStatus[] = ["added", "changed", "removed", "unchanged"];

/** Each role its shape, so that a port never looks like a router. */
const SHAPES: Record<NodeRole, [string, string]> = {
  port: ["[", "]"],
  device: ["[[", "]]"],
  "cloud router": ["{{", "}}"],
  network: ["((", "))"],
  "service profile": ["[/", "/]"],
  "service token": [">", "]"],
};

/**
 * A Mermaid label: inside quotes only the entity forms are safe for `"`, `<`, `>` and `#`; line breaks
 * and backquotes (which start markdown strings) become spaces and quotes.
 */
export const mermaidText = (text: string): string => `"${text.replace(/#/g, "#35;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;").replace(/`/g, "#39;").replace(/[\r\n]+/g, " ")}"`;

export interface TopologyDrawing {
  lines: string[];
  /** What the bound left out. */
  leftOut: { nodes: number; edges: number };
}

/**
 * The flowchart, at most `maxNodes` nodes and `maxEdges` edges (Mermaid refuses more than 500 edges, and
 * GitHub diagrams over 50,000 characters): what changes is kept first, then the endpoints of the edges
 * kept; the rest is counted in `leftOut`.
 */
export function drawTopology(topology: Topology, bounds: { maxNodes?: number; maxEdges?: number } = {}): TopologyDrawing {
  const { nodes, edges } = bounded(topology, bounds.maxNodes ?? Infinity, bounds.maxEdges ?? Infinity);
  const ids = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = ["flowchart LR"];
  for (const n of nodes) {
    const [open, close] = SHAPES[n.role];
    lines.push(`  ${ids.get(n.id)}${open}${mermaidText(`${MARKS[n.status]}${n.label} (${n.role})`)}${close}:::${n.status}`);
  }
  edges.forEach((e) => {
    const arrow = e.status === "removed" ? "-.->" : e.status === "unchanged" ? "-->" : "==>";
    lines.push(`  ${ids.get(e.from)} ${arrow}|${mermaidText(`${MARKS[e.status]}${e.label}`)}| ${ids.get(e.to)}`);
  });
  for (const status of STATUS_ORDER) {
    const indexes = edges.flatMap((e, i) => (e.status === status ? [i] : []));
    if (indexes.length > 0 && status !== "unchanged") lines.push(`  linkStyle ${indexes.join(",")} stroke:${EDGE_COLOURS[status]},stroke-width:2px`);
  }
  for (const status of STATUS_ORDER) if (nodes.some((n) => n.status === status)) lines.push(`  classDef ${status} ${CLASSES[status]}`);
  return { lines, leftOut: { nodes: topology.nodes.length - nodes.length, edges: topology.edges.length - edges.length } };
}

function bounded(topology: Topology, maxNodes: number, maxEdges: number): Topology {
  if (topology.nodes.length <= maxNodes && topology.edges.length <= maxEdges) return topology;
  const rank = (s: TopologyStatus): number => STATUS_ORDER.indexOf(s);
  // Changed edges first, in their (natural) order; an edge is kept only with both its ends.
  const byStatus = <T extends TopologyNode | TopologyEdge>(items: readonly T[]): T[] => items.map((item, i) => ({ item, i })).sort((a, b) => rank(a.item.status) - rank(b.item.status) || a.i - b.i).map(({ item }) => item);
  const kept = new Set<string>();
  const edges: TopologyEdge[] = [];
  for (const e of byStatus(topology.edges)) {
    if (edges.length >= maxEdges) break;
    const extra = [e.from, e.to].filter((id) => !kept.has(id));
    if (kept.size + new Set(extra).size > maxNodes) continue;
    for (const id of extra) kept.add(id);
    edges.push(e);
  }
  for (const n of byStatus(topology.nodes)) {
    if (kept.size >= maxNodes) break;
    if (n.status !== "unchanged") kept.add(n.id);
  }
  const order = new Map(topology.edges.map((e, i) => [e, i]));
  return { nodes: topology.nodes.filter((n) => kept.has(n.id)), edges: edges.sort((a, b) => order.get(a)! - order.get(b)!) };
}

/** `netform graph --topology`: the whole network, unbounded. */
export const renderTopologyMermaid = (topology: Topology): string => `${["%% netform topology: nodes are ports, devices, cloud routers, networks, service profiles and tokens; edges are connections and device links.", ...drawTopology(topology).lines].join("\n")}\n`;
