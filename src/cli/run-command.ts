// The flow plan, apply and destroy share: open a run (configuration, lock, state, session), refresh
// and plan with progress shown, and always release the lock and close the session.

import { createInterface } from "node:readline/promises";
import type { Diagnostic } from "../diag/index.js";
import type { EngineEvent } from "../engine/events.js";
import { openRun, planRun, type Planned, type Run, type RunOptions } from "../engine/run.js";
import { ApplyTextView } from "../views/apply-text.js";
import { formatDiagnostic } from "../views/diagnostics.js";
import type { Output } from "../views/output.js";
import type { RunContext } from "./program.js";
import { runInputs, type RunFlags } from "./run-options.js";

export interface TextSession {
  view: ApplyTextView;
  emit: (event: EngineEvent) => void;
}

/** Text progress: lines for engine events, diagnostics to stderr; timestamps when not on a terminal. */
export function textSession(output: Output): TextSession {
  const view = new ApplyTextView(output, { timestamps: !output.interactive });
  const emit = (event: EngineEvent) => {
    if (event.type === "diagnostic") printDiagnostic(output, event.diagnostic);
    else view.handle(event);
  };
  return { view, emit };
}

export function printDiagnostic(output: Output, d: Diagnostic): void {
  output.err(formatDiagnostic(d, output.c).join("\n"));
}

/** Opens the run, gives it to `body`, and always closes it. Exit 1 when the configuration is invalid. */
export async function withRun(
  ctx: RunContext,
  flags: RunFlags,
  operation: RunOptions["operation"],
  emit: (e: EngineEvent) => void,
  body: (run: Run) => Promise<number>,
  lineage?: string,
): Promise<number> {
  const inputs = runInputs(flags);
  const opened = await openRun({
    ...(lineage ? { lineage } : {}),
    configPath: inputs.configPath,
    ...(inputs.statePath ? { statePath: inputs.statePath } : {}),
    inputs: inputs.inputs,
    env: process.env,
    ...(inputs.parallelism !== undefined ? { parallelism: inputs.parallelism } : {}),
    emit,
    operation,
    ...(ctx.debug ? { onExchange: (e) => ctx.output.err(ctx.output.c.dim(`[debug] ${e.method} ${e.path} -> ${e.status} (${Math.round(e.ms)} ms)`)) } : {}),
    ...(ctx.debug ? { onRetry: (e) => ctx.output.err(ctx.output.c.dim(`[debug] retrying ${e.method} ${e.path} in ${e.delayMs} ms (${e.reason}, attempt ${e.attempt})`)) } : {}),
  });
  if (!opened.ok) return 1;
  try {
    return await body(opened.run);
  } finally {
    await opened.run.close();
  }
}

export async function planWithFlags(run: Run, flags: RunFlags, emit: (e: EngineEvent) => void, debug: boolean, output: Output, modeOverride?: "destroy"): Promise<Planned> {
  const inputs = runInputs(flags);
  const planned = await planRun(run, { mode: modeOverride ?? inputs.mode, targets: inputs.targets, replace: inputs.replace }, emit);
  if (debug) output.err(output.c.dim(`[debug] refresh made ${planned.plan.requestCount} API requests`));
  return planned;
}

/** Asks for "yes" on a terminal. */
export async function confirm(output: Output, question: string): Promise<boolean> {
  output.out(`\n${output.c.bold(question)}\n  Only 'yes' will be accepted to approve.\n`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question("  Enter a value: ");
    return answer.trim() === "yes";
  } finally {
    rl.close();
  }
}
