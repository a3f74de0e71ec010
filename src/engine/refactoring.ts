// The `moved:` blocks at plan and apply, and the forgets of `removed:` blocks at apply. A plan is made from the state as it will be once
// the moves are recorded, so the moved objects are refreshed and compared under their new addresses, and
// each change says where it came from; apply records the moves and the forgets before anything else,
// through the one writer of state records, and neither calls the service.

import type { Configuration } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import type { Plan } from "../plan/types.js";
import type { StateFile } from "../state/index.js";
import type { Recorder } from "./records.js";

export interface Move {
  from: string;
  to: string;
}

/**
 * The moves that apply to this state: those whose `from` it records. A block naming a whole resource moves
 * the resource, or, when the state records instances of it (a resource with forEach), every instance to the
 * same key under `to`, as Terraform does. A block whose `from` the state does not record is kept without
 * effect (it may have been applied already); one whose `to` is also recorded cannot be made, and is said.
 */
export function applicableMoves(config: Configuration, state: StateFile): { moves: Move[]; diagnostics: Diagnostic[] } {
  const moves: Move[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const block of config.moves) {
    for (const move of statedMoves(block, state)) {
      if (state.resources[move.to]) {
        diagnostics.push({
          severity: "warning",
          code: "moved.target-exists",
          address: "moved",
          ...(block.position ? { file: block.position.file, line: block.position.line, column: block.position.column } : {}),
          message: `${move.from} is not moved to ${move.to}: the state already records ${move.to}`,
          hint: `forget one of them (netform state rm ADDRESS), or remove this moved block; until then ${move.from} is planned as no longer configured`,
        });
        continue;
      }
      moves.push(move);
    }
  }
  return { moves, diagnostics };
}

/** The moves one block makes in this state: itself, or one per recorded instance of a whole forEach resource. */
function statedMoves(block: { from: string; to: string }, state: StateFile): Move[] {
  if (state.resources[block.from]) return [{ from: block.from, to: block.to }];
  // Only a whole resource (no key) stands for its instances; validation has made `to` whole too.
  if (block.from.includes("[") || block.to.includes("[")) return [];
  const prefix = `${block.from}[`;
  return Object.keys(state.resources)
    .filter((address) => address.startsWith(prefix))
    .map((address) => ({ from: address, to: `${block.to}${address.slice(block.from.length)}` }));
}

/** A copy of the state with the moves made, dependencies renamed with them; the state itself is untouched. */
export function stateAfterMoves(state: StateFile, moves: readonly Move[]): StateFile {
  if (moves.length === 0) return state;
  const renamed = new Map(moves.map((m) => [m.from, m.to]));
  const resources = Object.fromEntries(
    Object.entries(state.resources).map(([address, recorded]) => [renamed.get(address) ?? address, { ...recorded, dependencies: recorded.dependencies.map((d) => renamed.get(d) ?? d) }]),
  );
  return { ...state, resources };
}

/** Marks the plan's moved changes with the address the state records them under until apply. */
export function markMoves(plan: Plan, moves: readonly Move[]): void {
  const previous = new Map(moves.map((m) => [m.to, m.from]));
  for (const change of plan.changes) {
    const from = previous.get(change.address);
    if (from !== undefined) change.previousAddress = from;
  }
}

/** Before the plan's other steps: the moves and forgets, in the state only. */
export async function recordRefactoring(plan: Plan, records: Recorder): Promise<void> {
  for (const change of plan.changes) if (change.previousAddress !== undefined) await records.moved(change.previousAddress, change.address);
  for (const change of plan.changes) if (change.action === "forget") await records.forget(change.address);
}
