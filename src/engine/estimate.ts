// The apply's duration, estimated before it starts: the longest chain of the plan's steps (each waits for
// the ones it depends on, everything else runs side by side), each step weighed by its kind's typical
// transition time (transition-times.ts). The chain is what a reviewer can act on: it says which objects
// set the pace.

import type { Graph } from "../graph/index.js";
import { timingKeyOf, type Operation } from "../kinds/index.js";
import type { DurationEstimate } from "../plan/types.js";
import type { StepKind } from "./events.js";
import type { TransitionTimes } from "./transition-times.js";

/** A step as the estimate sees it (apply.ts's step graph). */
export interface TimedStep {
  change: { address: string; kind: string; before?: Record<string, unknown>; after?: Record<string, unknown>; changes: readonly unknown[]; awaiting?: Operation };
  kind: StepKind;
  /** Deleted by the service with its parent: no transition of its own. */
  withParent?: true;
}

/** The operation a step waits for, if any: an import without changes only reads. */
function operationOf(step: TimedStep): Operation | undefined {
  switch (step.kind) {
    case "create":
    case "update":
    case "delete":
      return step.kind === "delete" && step.withParent ? undefined : step.kind;
    case "import":
      return step.change.changes.length > 0 ? "update" : undefined;
    case "wait":
      return step.change.awaiting ?? "create";
    default: {
      const unreachable: never = step.kind;
      throw new Error(`unknown step ${String(unreachable)}`);
    }
  }
}

/** How long a step typically waits for its object's transition. */
function typicalSeconds(step: TimedStep, times: TransitionTimes): number {
  const operation = operationOf(step);
  return operation ? times.typical(timingKeyOf(step.change, operation), operation).seconds : 0;
}

/** The estimate for a step graph (edges from a step to those it waits for); undefined when no step waits for anything. */
export function estimateDuration(graph: Graph, steps: ReadonlyMap<string, TimedStep>, times: TransitionTimes): DurationEstimate | undefined {
  const weight = (id: string): number => typicalSeconds(steps.get(id)!, times);
  const longest = new Map<string, { seconds: number; ids: string[] }>();
  const chainTo = (id: string): { seconds: number; ids: string[] } => {
    const known = longest.get(id);
    if (known) return known;
    let before = { seconds: 0, ids: [] as string[] };
    // Sorted, so that equal chains resolve the same way in every run.
    for (const dependency of graph.dependenciesOf(id).sort()) {
      const candidate = chainTo(dependency);
      if (candidate.seconds > before.seconds) before = candidate;
    }
    const own = weight(id);
    const chain = { seconds: before.seconds + own, ids: own > 0 ? [...before.ids, id] : before.ids };
    longest.set(id, chain);
    return chain;
  };
  let best = { seconds: 0, ids: [] as string[] };
  for (const id of [...graph.nodes].sort()) {
    const candidate = chainTo(id);
    if (candidate.seconds > best.seconds) best = candidate;
  }
  if (best.seconds === 0) return undefined;
  const addresses = best.ids.map((id) => steps.get(id)!.change.address);
  return { seconds: Math.round(best.seconds), chain: addresses.filter((a, i) => a !== addresses[i - 1]) };
}

/**
 * For each step, the typical seconds from its start to the end of the longest chain of steps that wait for
 * it (its own transition included): how much of the apply's duration hangs on starting it promptly.
 */
export function remainingSeconds(graph: Graph, steps: ReadonlyMap<string, TimedStep>, times: TransitionTimes): Map<string, number> {
  const remaining = new Map<string, number>();
  const from = (id: string): number => {
    const known = remaining.get(id);
    if (known !== undefined) return known;
    let after = 0;
    for (const dependent of graph.dependentsOf(id)) after = Math.max(after, from(dependent));
    const seconds = typicalSeconds(steps.get(id)!, times) + after;
    remaining.set(id, seconds);
    return seconds;
  };
  for (const id of graph.nodes) from(id);
  return remaining;
}
