// Runs a graph's nodes concurrently, each as soon as everything it depends on has succeeded. A node
// that fails skips everything downstream of it; independent work carries on. The queue bounds how
// many run at once.

import PQueue from "p-queue";
import { CycleError, type Graph } from "./dag.js";

export type NodeOutcome = { status: "done" } | { status: "failed"; error: unknown } | { status: "skipped"; blockedBy: string };

export interface WalkOptions {
  concurrency: number;
  visit(id: string): Promise<void>;
  /** Asked before a node starts; a node it returns false for is skipped (and its dependents with it). */
  shouldStart?(id: string): boolean;
  onSkip?(id: string, blockedBy: string): void;
  /** Nodes that become ready together start in the order of this, largest first (then by id). */
  priority?(id: string): number;
}

export async function walk(graph: Graph, options: WalkOptions): Promise<Map<string, NodeOutcome>> {
  const cycle = graph.findCycle();
  if (cycle) throw new CycleError(cycle);
  const outcomes = new Map<string, NodeOutcome>();
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency) });
  const started = new Set<string>();

  const skip = (id: string, blockedBy: string) => {
    if (outcomes.has(id)) return;
    outcomes.set(id, { status: "skipped", blockedBy });
    options.onSkip?.(id, blockedBy);
    for (const dependent of graph.dependentsOf(id)) skip(dependent, blockedBy);
  };

  const priority = options.priority ?? (() => 0);
  const inOrder = (ids: string[]) => ids.sort((a, b) => priority(b) - priority(a) || (a < b ? -1 : a > b ? 1 : 0));

  const ready = (id: string) => !started.has(id) && !outcomes.has(id) && graph.dependenciesOf(id).every((d) => outcomes.get(d)?.status === "done");

  const schedule = (id: string): void => {
    started.add(id);
    if (options.shouldStart && !options.shouldStart(id)) {
      skip(id, id);
      return;
    }
    void queue.add(async () => {
      try {
        await options.visit(id);
        outcomes.set(id, { status: "done" });
        for (const dependent of inOrder(graph.dependentsOf(id))) if (ready(dependent)) schedule(dependent);
      } catch (error) {
        outcomes.set(id, { status: "failed", error });
        for (const dependent of graph.dependentsOf(id)) skip(dependent, id);
      }
    });
  };

  for (const id of inOrder(graph.nodes)) if (ready(id)) schedule(id);
  await queue.onIdle();
  return outcomes;
}
