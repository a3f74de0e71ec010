import { describe, expect, it } from "vitest";
import { CycleError, Graph, walk } from "../../../src/graph/index.js";

function chain(...edges: Array<[string, string]>): Graph {
  const g = new Graph();
  for (const [dependent, dependency] of edges) g.addEdge(dependent, dependency);
  return g;
}

describe("Graph", () => {
  it("orders dependencies first, stably", () => {
    const g = chain(["bgp", "direct"], ["direct", "conn"], ["attach", "conn"], ["attach", "filter"]);
    expect(g.order()).toEqual(["conn", "filter", "attach", "direct", "bgp"]);
    expect(g.reversed().order()).toEqual(["attach", "bgp", "direct", "conn", "filter"]);
  });

  it("names the whole cycle", () => {
    const g = chain(["a", "b"], ["b", "c"], ["c", "a"], ["d", "a"]);
    expect(g.findCycle()).toEqual(["a", "b", "c", "a"]);
    expect(() => g.order()).toThrow(CycleError);
    expect(() => g.order()).toThrow("dependency cycle: a -> b -> c -> a");
  });

  it("orders and checks a chain of dependencies longer than the call stack is deep", () => {
    const length = 100_000;
    const id = (i: number) => `n${String(i).padStart(6, "0")}`;
    const g = chain(...Array.from({ length: length - 1 }, (_, i): [string, string] => [id(i + 1), id(i)]));
    expect(g.findCycle()).toBeUndefined();
    expect(g.order()).toEqual(Array.from({ length }, (_, i) => id(i)));
    g.addEdge(id(0), id(length - 1));
    expect(g.findCycle()).toHaveLength(length + 1);
  });

  it("finds every transitive dependent", () => {
    const g = chain(["a", "x"], ["x", "b"]);
    expect(g.transitiveDependents("b")).toEqual(new Set(["x", "a"]));
  });
});

describe("walk", () => {
  it("runs independent nodes concurrently, up to the limit", async () => {
    const g = new Graph();
    for (const n of ["a", "b", "c", "d"]) g.addNode(n);
    let running = 0;
    let peak = 0;
    await walk(g, {
      concurrency: 2,
      visit: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
    });
    expect(peak).toBe(2);
  });

  it("starts a node only after its dependencies succeeded", async () => {
    const g = chain(["bgp", "direct"], ["direct", "conn"]);
    const order: string[] = [];
    const outcomes = await walk(g, { concurrency: 10, visit: async (id) => void order.push(id) });
    expect(order).toEqual(["conn", "direct", "bgp"]);
    expect([...outcomes.values()].every((o) => o.status === "done")).toBe(true);
  });

  it("starts nodes that become ready together in priority order, largest first, then by id", async () => {
    const g = chain(["attach", "conn"], ["direct", "conn"], ["audit", "conn"]);
    const order: string[] = [];
    const priority: Record<string, number> = { conn: 0, attach: 1, direct: 65, audit: 1 };
    await walk(g, { concurrency: 1, priority: (id) => priority[id] ?? 0, visit: async (id) => void order.push(id) });
    expect(order).toEqual(["conn", "direct", "attach", "audit"]);
  });

  it("skips what depends on a failure and lets independent work finish", async () => {
    const g = chain(["bgp", "direct"], ["direct", "conn"], ["attach", "filter"]);
    const skipped: string[] = [];
    const outcomes = await walk(g, {
      concurrency: 10,
      visit: async (id) => {
        if (id === "conn") throw new Error("boom");
      },
      onSkip: (id) => skipped.push(id),
    });
    expect(outcomes.get("conn")).toMatchObject({ status: "failed" });
    expect(outcomes.get("direct")).toEqual({ status: "skipped", blockedBy: "conn" });
    expect(outcomes.get("bgp")).toEqual({ status: "skipped", blockedBy: "conn" });
    expect(outcomes.get("filter")).toEqual({ status: "done" });
    expect(outcomes.get("attach")).toEqual({ status: "done" });
    expect(skipped.sort()).toEqual(["bgp", "direct"]);
  });

  it("refuses a cyclic graph before running anything", async () => {
    const g = chain(["a", "b"], ["b", "a"]);
    let ran = false;
    await expect(walk(g, { concurrency: 1, visit: async () => void (ran = true) })).rejects.toThrow(CycleError);
    expect(ran).toBe(false);
  });
});
