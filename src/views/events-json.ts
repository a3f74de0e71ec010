// The engine's events as JSON lines, for `apply`/`destroy --format json` in pipelines: one object per
// line, each with `type`, `timestamp` (ISO 8601, UTC) and `address` when the event is about one resource.
// Field names are part of the contract: every field an event type has is always present (null when the
// engine did not say), so that a consumer can rely on the shape. A planned change is the plan document's
// resourceChange, masked the same way, so no event carries a secret the plan would not show.

import type { EngineEvent, StepKind, StepTiming } from "../engine/events.js";
import type { InterruptSignal } from "../engine/interrupt.js";
import type { Action, PlanSummary } from "../plan/types.js";
import { rateLimitedText } from "./apply-text.js";
import { diagnosticsDocument, type DiagnosticsDocument } from "./diagnostics.js";
import { resourceChangeDocument, type ResourceChangeDocument } from "./plan-json.js";

interface Stamp {
  timestamp: string;
}

interface Step extends Stamp {
  address: string;
  action: Action;
  step: StepKind;
}

export type EventRecord =
  | ({ type: "refresh_start"; resources: number } & Stamp)
  | ({ type: "refresh_complete"; resources: number; requests: number } & Stamp)
  | ({ type: "planned_change"; address: string; change: ResourceChangeDocument } & Stamp)
  | ({ type: "apply_start" } & Step)
  | ({ type: "apply_progress"; elapsedMs: number; state: string | null } & Step)
  | ({ type: "apply_complete"; elapsedMs: number; id: string | null } & Step)
  | ({ type: "apply_errored"; elapsedMs: number; message: string; code: string | null } & Step)
  | ({ type: "apply_skipped"; address: string; action: Action; blockedBy: string } & Stamp)
  | ({ type: "apply_interrupted"; elapsedMs: number; id: string | null } & Step)
  | ({ type: "change_summary"; operation: "apply" | "destroy"; summary: PlanSummary; failed: number; skipped: number; interrupted: number; steps: StepTiming[] } & Stamp)
  | ({ type: "interrupted"; signal: InterruptSignal } & Stamp)
  | ({ type: "rate_limited"; method: string; path: string; retryInMs: number; message: string } & Stamp)
  | ({ type: "diagnostic"; address?: string; diagnostic: DiagnosticsDocument["diagnostics"][number] } & Stamp);

export function eventRecord(event: EngineEvent, now: Date): EventRecord {
  const timestamp = now.toISOString();
  switch (event.type) {
    case "refresh_start":
      return { type: event.type, timestamp, resources: event.resources };
    case "refresh_complete":
      return { type: event.type, timestamp, resources: event.resources, requests: event.requests };
    case "planned_change":
      return { type: event.type, timestamp, address: event.change.address, change: resourceChangeDocument(event.change) };
    case "apply_start":
      return { type: event.type, timestamp, address: event.address, action: event.action, step: event.step };
    case "apply_progress":
      return { type: event.type, timestamp, address: event.address, action: event.action, step: event.step, elapsedMs: event.elapsedMs, state: event.state ?? null };
    case "apply_complete":
      return { type: event.type, timestamp, address: event.address, action: event.action, step: event.step, elapsedMs: event.elapsedMs, id: event.id ?? null };
    case "apply_errored":
      return { type: event.type, timestamp, address: event.address, action: event.action, step: event.step, elapsedMs: event.elapsedMs, message: event.message, code: event.code ?? null };
    case "apply_skipped":
      return { type: event.type, timestamp, address: event.address, action: event.action, blockedBy: event.blockedBy };
    case "apply_interrupted":
      return { type: event.type, timestamp, address: event.address, action: event.action, step: event.step, elapsedMs: event.elapsedMs, id: event.id ?? null };
    case "change_summary":
      return { type: event.type, timestamp, operation: event.operation, summary: { ...event.summary }, failed: event.failed, skipped: event.skipped, interrupted: event.interrupted, steps: (event.steps ?? []).map((s) => ({ ...s })) };
    case "interrupted":
      return { type: event.type, timestamp, signal: event.signal };
    case "rate_limited":
      return { type: event.type, timestamp, method: event.method, path: event.path, retryInMs: event.retryInMs, message: rateLimitedText(event.retryInMs) };
    case "diagnostic": {
      // The same shape as in `validate --format json`; one diagnostic in gives exactly one out.
      const diagnostic = diagnosticsDocument([event.diagnostic]).diagnostics[0]!;
      const address = event.diagnostic.address;
      return { type: event.type, timestamp, ...(address !== undefined ? { address } : {}), diagnostic };
    }
    default: {
      const unreachable: never = event;
      throw new Error(`unknown engine event ${JSON.stringify(unreachable)}`);
    }
  }
}

/** One event as one line of JSON, without its newline. */
export const eventLine = (event: EngineEvent, now: Date): string => JSON.stringify(eventRecord(event, now));
