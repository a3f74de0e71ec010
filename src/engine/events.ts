// What the engine reports while it works. The engine never prints: it emits these, and a view renders
// them as text lines, a live terminal display, or JSON lines for pipelines.

import type { Diagnostic } from "../diag/index.js";
import type { Action, PlanSummary, ResourceChange } from "../plan/types.js";
import type { InterruptSignal } from "./interrupt.js";

export type EngineEvent =
  | { type: "refresh_start"; resources: number }
  | { type: "refresh_complete"; resources: number; requests: number }
  /** `remainingSeconds`: the typical seconds from starting this change to the end of the run (estimate.ts), for the time left. */
  | { type: "planned_change"; change: ResourceChange; remainingSeconds?: number }
  | { type: "apply_start"; address: string; action: Action; step: StepKind }
  | { type: "apply_progress"; address: string; action: Action; step: StepKind; elapsedMs: number; state?: string }
  | { type: "apply_complete"; address: string; action: Action; step: StepKind; elapsedMs: number; id?: string }
  | { type: "apply_errored"; address: string; action: Action; step: StepKind; elapsedMs: number; message: string; code?: string }
  | { type: "apply_skipped"; address: string; action: Action; blockedBy: string }
  /** A step the interrupt stopped: its call was answered and recorded, its wait was cut short. */
  | { type: "apply_interrupted"; address: string; action: Action; step: StepKind; elapsedMs: number; id?: string }
  /** `interrupted`: steps the interrupt stopped or kept from starting; `steps`: when each step that ran started and ended. */
  | { type: "change_summary"; operation: "apply" | "destroy"; summary: PlanSummary; failed: number; skipped: number; interrupted: number; steps?: StepTiming[]; outcomes?: ChangeOutcome[] }
  /** The run was asked to stop (once, as soon as the signal arrives): it is winding down safely. */
  | { type: "interrupted"; signal: InterruptSignal }
  | { type: "diagnostic"; diagnostic: Diagnostic }
  /** The service answered 429: the request is sent again in `retryInMs` (its Retry-After, capped). */
  | { type: "rate_limited"; method: string; path: string; retryInMs: number };

/**
 * What became of one planned change when an apply ended: done (every step finished), or not, and why. An apply
 * that stopped part-way says it per change, so that the user knows what exists now and what does not.
 */
export interface ChangeOutcome {
  address: string;
  action: Action;
  outcome: "done" | "failed" | "skipped" | "interrupted";
}

/** What one step of an apply took: the markdown's Gantt chart and the JSON report it. */
export interface StepTiming {
  address: string;
  step: StepKind;
  /** ISO 8601, UTC. */
  startedAt: string;
  finishedAt: string;
  seconds: number;
  outcome: "done" | "failed" | "interrupted";
}

/** The calls one planned action turns into (a replace is a delete and a create). */
export type StepKind = "create" | "update" | "delete" | "import" | "wait";

export type EventSink = (event: EngineEvent) => void;
