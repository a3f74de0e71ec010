// Dependency cycles as the loader reports them: every cycle once, its addresses from the smallest on, with the
// edge that leaves it; a resource that only leads into a cycle is in none, and edges to undeclared addresses
// are no edges. Peeling off what leads to no cycle may go in any order; what is left is walked in address order.

import { describe, expect, it } from "vitest";
import type { Address } from "../../../src/config/address.js";
import { findCycles } from "../../../src/config/references.js";
import type { DependencyEdge } from "../../../src/config/types.js";

const edge = (from: string, to: string, path = "connection"): DependencyEdge => ({ from: from as Address, to: to as Address, via: "reference", path });
const cyclesOf = (nodes: string[], edges: DependencyEdge[]) => findCycles(nodes as Address[], edges).map(({ cycle, edge: e }) => ({ cycle, edge: `${e.from} -> ${e.to} (${e.path})` }));

describe("findCycles", () => {
  it.each([
    { name: "no edges", nodes: ["b", "a"], edges: [], cycles: [] },
    { name: "a chain", nodes: ["c", "b", "a"], edges: [edge("a", "b"), edge("b", "c")], cycles: [] },
    { name: "a resource that waits for itself", nodes: ["a", "b"], edges: [edge("b", "b", "dependsOn[0]")], cycles: [{ cycle: ["b"], edge: "b -> b (dependsOn[0])" }] },
    { name: "two that wait for each other, written from the larger", nodes: ["b", "a"], edges: [edge("b", "a"), edge("a", "b", "routeFilter")], cycles: [{ cycle: ["a", "b"], edge: "a -> b (routeFilter)" }] },
    {
      name: "a resource leading into a cycle, beside a chain",
      nodes: ["x", "a", "b", "c", "d", "e"],
      edges: [edge("x", "b"), edge("b", "c"), edge("c", "a"), edge("a", "b"), edge("d", "e")],
      cycles: [{ cycle: ["a", "b", "c"], edge: "a -> b (connection)" }],
    },
    {
      name: "two cycles, and the same edge written twice",
      nodes: ["q", "p", "m", "n"],
      edges: [edge("q", "p", "first"), edge("q", "p", "second"), edge("p", "q"), edge("m", "n"), edge("n", "m")],
      cycles: [
        { cycle: ["m", "n"], edge: "m -> n (connection)" },
        { cycle: ["p", "q"], edge: "p -> q (connection)" },
      ],
    },
    {
      name: "a cycle walked by the smallest next address",
      nodes: ["a", "b", "c", "z"],
      edges: [edge("a", "z"), edge("a", "c"), edge("c", "a"), edge("z", "b")],
      cycles: [{ cycle: ["a", "c"], edge: "a -> c (connection)" }],
    },
    { name: "edges to and from undeclared addresses", nodes: ["a", "b"], edges: [edge("a", "gone"), edge("gone", "a"), edge("a", "b")], cycles: [] },
  ])("$name", ({ nodes, edges, cycles }) => {
    expect(cyclesOf(nodes, edges)).toEqual(cycles);
  });
});
