// The flow plan, apply and destroy share: open a run (configuration, lock, state, session), refresh
// and plan with progress shown, and always release the lock and close the session.

import { createInterface } from "node:readline/promises";
import { NetformError, type Diagnostic } from "../diag/index.js";
import type { EventSink } from "../engine/events.js";
import { openRun, planRun, type Planned, type Run, type RunOptions } from "../engine/run.js";
import { formatDiagnostic } from "../views/diagnostics.js";
import { eventLine } from "../views/events-json.js";
import { progressView } from "../views/progress.js";
import type { Output } from "../views/output.js";
import { resolveEndpoint } from "./endpoint.js";
import type { RunContext } from "./program.js";
import { runInputs, type RunFlags } from "./run-options.js";

/** Where a command's engine events, diagnostics and --debug traces go. */
export interface Reporter {
  emit: EventSink;
  trace(text: string): void;
  /** Ends live output (a terminal's progress region). */
  close(): void;
}

/** Progress for people: a live region on a terminal, timestamped lines elsewhere; diagnostics on stderr. */
export function textReporter(output: Output): Reporter {
  const view = progressView(output);
  return {
    emit: (event) => {
      if (event.type === "diagnostic") view.above(() => printDiagnostic(output, event.diagnostic));
      else view.handle(event);
    },
    trace: (text) => view.above(() => output.err(output.c.dim(text))),
    close: () => view.close(),
  };
}

/** For pipelines: every engine event as one JSON object per line on stdout; traces on stderr. */
export function jsonLinesReporter(output: Output): Reporter {
  return {
    emit: (event) => output.out(eventLine(event, new Date())),
    trace: (text) => output.err(text),
    close: () => {},
  };
}

/** For commands whose standard output is a document (plan --format json|markdown): only diagnostics, on stderr. */
export function quietReporter(output: Output): Reporter {
  return {
    emit: (event) => {
      if (event.type === "diagnostic") printDiagnostic(output, event.diagnostic);
    },
    trace: (text) => output.err(text),
    close: () => {},
  };
}

export function printDiagnostic(output: Output, d: Diagnostic): void {
  output.err(formatDiagnostic(d, output.c).join("\n"));
}

/** Opens the run, gives it to `body`, and always closes it and the reporter. Exit 1 when the configuration is invalid. */
export async function withRun(
  ctx: RunContext,
  flags: RunFlags,
  operation: RunOptions["operation"],
  reporter: Reporter,
  body: (run: Run) => Promise<number>,
  lineage?: string,
): Promise<number> {
  const inputs = runInputs(flags);
  try {
    const opened = await openRun({
      ...(lineage ? { lineage } : {}),
      configPath: inputs.configPath,
      ...(inputs.statePath ? { statePath: inputs.statePath } : {}),
      inputs: inputs.inputs,
      env: process.env,
      ...(inputs.parallelism !== undefined ? { parallelism: inputs.parallelism } : {}),
      emit: reporter.emit,
      operation,
      resolveEndpoint,
      ...(ctx.debug ? { onExchange: (e) => reporter.trace(`[debug] ${e.method} ${e.path} -> ${e.status} (${Math.round(e.ms)} ms)`) } : {}),
      ...(ctx.debug ? { onRetry: (e) => reporter.trace(`[debug] retrying ${e.method} ${e.path} in ${e.delayMs} ms (${e.reason}, attempt ${e.attempt})`) } : {}),
    });
    if (!opened.ok) return 1;
    try {
      return await body(opened.run);
    } catch (error) {
      throw redacted(error, opened.run.redact);
    } finally {
      await opened.run.close();
    }
  } finally {
    reporter.close();
  }
}

/** The error with any secret value in its message masked (a service refusal may echo what it was sent). */
function redacted(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof Error) || redact(error.message) === error.message) return error;
  const init = error instanceof NetformError ? { code: error.code, source: error.source, hint: error.hint } : { code: "error", source: "internal" as const };
  return new NetformError({ ...init, message: redact(error.message) });
}

export async function planWithFlags(ctx: RunContext, run: Run, flags: RunFlags, reporter: Reporter, modeOverride?: "destroy"): Promise<Planned> {
  const inputs = runInputs(flags);
  const planned = await planRun(run, { mode: modeOverride ?? inputs.mode, targets: inputs.targets, replace: inputs.replace }, reporter.emit);
  if (ctx.debug) reporter.trace(`[debug] refresh made ${planned.plan.requestCount} API requests`);
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
