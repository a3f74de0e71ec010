// Golden tests of `netform graph`'s renderings on the examples, the edge direction they promise, and the
// command itself run in-process (diagnostics on standard error, exit 1 on an invalid configuration).

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerGraph } from "../../../src/cli/graph.js";
import { createProgram, runProgram } from "../../../src/cli/program.js";
import { dependencyGraph, readConfiguration } from "../../../src/engine/index.js";
import { Graph } from "../../../src/graph/index.js";
import { renderGraphDot, renderGraphMermaid, type GraphKinds } from "../../../src/views/graph.js";
import { memoryInvocation } from "../../support/invocation.js";
import { expectGolden } from "./golden.js";

const EXAMPLES = join(import.meta.dirname, "../../../examples");

function example(name: string): { graph: Graph; kinds: GraphKinds } {
  const { config, diagnostics } = readConfiguration(join(EXAMPLES, name), { env: {}, missing: "unknown" });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const { graph, kinds, kindOrder } = dependencyGraph(config);
  return { graph, kinds: { of: kinds, order: kindOrder } };
}

describe("graph renderings", () => {
  for (const name of ["quickstart", "edge-vpn"]) {
    it(`${name} as DOT`, () => {
      const { graph, kinds } = example(name);
      expectGolden(`graph-${name}-dot`, renderGraphDot(graph, kinds));
    });
    it(`${name} as Mermaid`, () => {
      const { graph, kinds } = example(name);
      expectGolden(`graph-${name}-mermaid`, renderGraphMermaid(graph, kinds));
    });
  }

  it("draws edges from the dependent to its dependency, like terraform graph", () => {
    const { graph, kinds } = example("quickstart");
    const dot = renderGraphDot(graph, kinds);
    expect(dot).toContain('"routingProtocols.dc-bgp" -> "routingProtocols.dc-direct";');
    expect(dot).not.toContain('"routingProtocols.dc-direct" -> "routingProtocols.dc-bgp"');
    expect(renderGraphMermaid(graph, kinds)).toContain("n_routingProtocols_dc_bgp --> n_routingProtocols_dc_direct");
  });

  it("keeps Mermaid ids unique and escapes labels; nodes without a kind stay outside the groups", () => {
    const graph = new Graph();
    graph.addEdge("a.b-c", "a.b_c");
    graph.addNode('x."y"');
    const mermaid = renderGraphMermaid(graph, { of: new Map(), order: [] });
    expect(mermaid).toContain('n_a_b_c["a.b-c"]');
    expect(mermaid).toContain('n_a_b_c_2["a.b_c"]');
    expect(mermaid).toContain("n_a_b_c --> n_a_b_c_2");
    expect(mermaid).toContain('["x.#quot;y#quot;"]');
    expect(mermaid).not.toContain("subgraph");
    expect(renderGraphDot(graph, { of: new Map(), order: [] })).toContain('"x.\\"y\\"";');
  });
});

describe("netform graph", () => {
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const run = memoryInvocation(["graph", ...args], process.env);
    const program = createProgram("0.0.0-test", run.invocation);
    registerGraph(program);
    const code = await runProgram(program, run.invocation.args);
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  }

  it("prints the Mermaid graph of an example that reads secrets, without them and without warnings", async () => {
    const { graph, kinds } = example("edge-vpn");
    const result = await cli(["-c", join(EXAMPLES, "edge-vpn"), "--format", "mermaid"]);
    expect(result).toEqual({ code: 0, stdout: renderGraphMermaid(graph, kinds), stderr: "" });
  });

  it("defaults to DOT", async () => {
    const result = await cli(["-c", join(EXAMPLES, "quickstart")]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("// netform dependency graph")).toBe(true);
  });

  it("exits 1 with the diagnostics on standard error and nothing on standard output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-graph-"));
    writeFileSync(join(dir, "netform.yaml"), "netform: 1\nrouteFilters:\n  a:\n    type: BGP_IPv4_PREFIX_FILTER\n    dependsOn: [routeFilters.missing]\n");
    const result = await cli(["-c", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("routeFilters.missing");
  });

  it("rejects an unknown format", async () => {
    const result = await cli(["-c", join(EXAMPLES, "quickstart"), "--format", "svg"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--format must be dot or mermaid");
  });
});
