// Following moved blocks to the end of their chains: each address ends where its chain ends, a cycle is
// one located error, and a move leading into a cycle is left out without a second error.

import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/diag/index.js";
import { buildRefactoring } from "../../../src/config/moves.js";

const kinds = { has: (k: string) => k === "routeFilters" };
const at = (i: number) => [`[${i}]`, { value: { file: "netform.yaml", line: 10 + i, column: 5 } }] as const;

function follow(pairs: Array<[string, string]>, declared: string[] = []) {
  const value = pairs.map(([from, to]) => ({ from: `routeFilters.${from}`, to: `routeFilters.${to}` }));
  const positions = new Map(pairs.map((_, i) => at(i)));
  const diagnostics: Diagnostic[] = [];
  const { moves } = buildRefactoring([{ section: "moved", value, positions: positions as never }], kinds, new Set(declared.map((d) => `routeFilters.${d}`)), diagnostics);
  return { ends: Object.fromEntries(moves.map((m) => [m.from.split(".")[1], m.to.split(".")[1]])), errors: diagnostics.map((d) => `${d.line}: ${d.message}`) };
}

describe("moved chains", () => {
  const cases: Array<{ name: string; pairs: Array<[string, string]>; ends: Record<string, string>; errors: string[] }> = [
    { name: "one move", pairs: [["a", "b"]], ends: { a: "b" }, errors: [] },
    { name: "a chain, in any order", pairs: [["b", "c"], ["a", "b"], ["c", "d"]], ends: { a: "d", b: "d", c: "d" }, errors: [] },
    { name: "two chains meeting", pairs: [["a", "c"], ["b", "c"], ["c", "d"]], ends: { a: "d", b: "d", c: "d" }, errors: [] },
    { name: "a cycle", pairs: [["a", "b"], ["b", "a"]], ends: {}, errors: ["10: moved blocks form a cycle: routeFilters.a -> routeFilters.b -> routeFilters.a"] },
    { name: "a chain leading into a cycle: one error", pairs: [["b", "c"], ["c", "b"], ["a", "b"]], ends: {}, errors: ["10: moved blocks form a cycle: routeFilters.b -> routeFilters.c -> routeFilters.b"] },
    { name: "a cycle beside a chain", pairs: [["x", "y"], ["a", "b"], ["b", "a"]], ends: { x: "y" }, errors: ["11: moved blocks form a cycle: routeFilters.a -> routeFilters.b -> routeFilters.a"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { ends, errors } = follow(c.pairs);
      expect(ends).toEqual(c.ends);
      expect(errors).toEqual(c.errors);
    });
  }

  it("follows a chain of 20,000 moves", () => {
    const pairs = Array.from({ length: 20_000 }, (_, i): [string, string] => [`f${i}`, `f${i + 1}`]);
    const { ends, errors } = follow(pairs);
    expect(errors).toEqual([]);
    expect(ends.f0).toBe("f20000");
    expect(ends.f19999).toBe("f20000");
  });
});
