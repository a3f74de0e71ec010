// The order apply runs its steps in, one table row per rule: from a plan, the configuration's dependencies
// and those the state recorded, the steps (ADDRESS+ creates, updates or waits; ADDRESS- deletes) and every
// edge between them, written "X after Y". A row lists all the edges, so an extra one fails it too.

import { KIND_HANDLERS } from "../../../src/kinds/index.js";
import { describe, expect, it } from "vitest";
import { stepGraph } from "../../../src/engine/apply.js";
import type { StepKind } from "../../../src/engine/events.js";
import { Graph } from "../../../src/graph/index.js";
import type { ResourceChange } from "../../../src/plan/types.js";
import type { ResourceState } from "../../../src/state/index.js";
import { change, plan } from "../views/plans.js";

const F = "routeFilters.f";
const A = "routeFilterAttachments.a";

interface Row {
  name: string;
  changes: ResourceChange[];
  /** The configuration's dependency edges, [dependent, dependency]. */
  configured: Array<[string, string]>;
  /** What each address depended on when the state recorded it. */
  recorded: Record<string, string[]>;
  steps: Record<string, StepKind>;
  edges: string[];
}

const rows: Row[] = [
  {
    name: "a create runs after the create of what it depends on",
    changes: [change(F, "create"), change(A, "create", { dependencies: [F] })],
    configured: [[A, F]],
    recorded: {},
    steps: { [`${F}+`]: "create", [`${A}+`]: "create" },
    edges: [`${A}+ after ${F}+`],
  },
  {
    name: "a delete runs before the delete of what it depends on",
    changes: [change(A, "delete"), change(F, "delete")],
    configured: [],
    recorded: { [A]: [F], [F]: [] },
    steps: { [`${A}-`]: "delete", [`${F}-`]: "delete" },
    edges: [`${F}- after ${A}-`],
  },
  {
    name: "a replace deletes first, and its dependent is deleted before it and created after it",
    changes: [change(F, "replace"), change(A, "replace", { reasonCode: "cascade-replace", dependencies: [F] })],
    configured: [[A, F]],
    recorded: { [A]: [F], [F]: [] },
    steps: { [`${F}-`]: "delete", [`${F}+`]: "create", [`${A}-`]: "delete", [`${A}+`]: "create" },
    edges: [`${F}+ after ${F}-`, `${A}+ after ${A}-`, `${A}+ after ${F}+`, `${F}- after ${A}-`],
  },
  {
    name: "a createBeforeDestroy replace creates first, and deletes once its dependent was updated",
    changes: [change(F, "replace", { createBeforeDestroy: true }), change(A, "update", { dependencies: [F] })],
    configured: [[A, F]],
    recorded: { [A]: [F], [F]: [] },
    steps: { [`${F}+`]: "create", [`${F}-`]: "delete", [`${A}+`]: "update" },
    edges: [`${F}- after ${F}+`, `${A}+ after ${F}+`, `${F}- after ${A}+`],
  },
  {
    name: "an object is deleted after the update that makes its dependent stop using it",
    changes: [change(A, "update"), change(F, "delete")],
    configured: [],
    recorded: { [A]: [F], [F]: [] },
    steps: { [`${A}+`]: "update", [`${F}-`]: "delete" },
    edges: [`${F}- after ${A}+`],
  },
];

function stateOf(recorded: Record<string, string[]>): Record<string, ResourceState> {
  return Object.fromEntries(Object.entries(recorded).map(([address, dependencies]) => [address, { kind: address.split(".")[0]!, id: `${address}-id`, attributes: {}, sensitiveHashes: {}, dependencies }]));
}

describe("stepGraph", () => {
  for (const row of rows) {
    it(row.name, () => {
      const dependencies = new Graph();
      for (const c of row.changes) if (c.action !== "delete") dependencies.addNode(c.address);
      for (const [dependent, dependency] of row.configured) dependencies.addEdge(dependent, dependency);
      const { graph, steps } = stepGraph(plan(row.changes), dependencies, stateOf(row.recorded), KIND_HANDLERS);
      expect(Object.fromEntries([...steps].map(([id, step]) => [id, step.kind]))).toEqual(row.steps);
      const edges = graph.nodes.flatMap((node) => graph.dependenciesOf(node).map((d) => `${node} after ${d}`));
      expect(edges.sort()).toEqual([...row.edges].sort());
    });
  }
});
