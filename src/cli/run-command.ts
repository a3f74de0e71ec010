// The flow plan, apply and destroy share: open a run (configuration, lock, state, session), refresh
// and plan with progress shown, and always release the lock and close the session — also when SIGINT,
// SIGTERM or SIGHUP interrupts it (interrupts.ts), which then decides the exit code.

import { createInterface } from "node:readline/promises";
import { NetformError, type Diagnostic } from "../diag/index.js";
import { eventLine, formatDiagnostic, interruptNotice, type Output, progressView, renderApplyMarkdown, STOPPED_AT_ONCE_NOTICE } from "../views/index.js";
import { resolveEndpoint } from "./endpoint.js";
import { Interrupts } from "./interrupts.js";
import type { RunContext } from "./program.js";
import type { RunRequest } from "./run-options.js";
import { type EngineEvent, type EventSink, InterruptedError, openRun, type PaceNotice, type Planned, planRun, type Run, type RunOptions } from "../engine/index.js";

/** Where a command's engine events, diagnostics and --debug traces go. */
export interface Reporter {
  emit: EventSink;
  trace(text: string): void;
  /** Ends live output (a terminal's progress region). */
  close(): void;
}

export interface ReporterOptions {
  /** -compact-warnings: each warning on one line. */
  compactWarnings?: boolean;
}

/** Progress for people: a live region on a terminal, timestamped lines elsewhere; diagnostics on stderr. */
export function textReporter(output: Output, options: ReporterOptions = {}): Reporter {
  const view = progressView(output);
  return {
    emit: (event) => {
      if (event.type === "diagnostic") view.above(() => printDiagnostic(output, event.diagnostic, options.compactWarnings));
      else view.handle(event);
    },
    trace: (text) => view.above(() => output.err(output.c.dim(text))),
    close: () => view.close(),
  };
}

/** For pipelines: every engine event as one JSON object per line on stdout; traces, and an interrupt's notice, on stderr. */
export function jsonLinesReporter(output: Output): Reporter {
  return {
    emit: (event) => {
      output.out(eventLine(event, new Date()));
      printInterruptNotice(output, event);
    },
    trace: (text) => output.err(text),
    close: () => {},
  };
}

/** For `apply --format markdown`: the quiet reporter's stderr, and the apply's report (views/apply-markdown.ts) on stdout once it ends. */
export function markdownReporter(output: Output, options: ReporterOptions = {}): Reporter {
  const quiet = quietReporter(output, options);
  const errors: Extract<EngineEvent, { type: "apply_errored" }>[] = [];
  return {
    ...quiet,
    emit: (event) => {
      quiet.emit(event);
      if (event.type === "apply_errored") errors.push(event);
      if (event.type === "change_summary") output.out(renderApplyMarkdown(event, errors));
    },
  };
}

/** For commands whose standard output is a document (plan --format json|markdown): only diagnostics and an interrupt's notice, on stderr. */
export function quietReporter(output: Output, options: ReporterOptions = {}): Reporter {
  return {
    emit: (event) => {
      if (event.type === "diagnostic") printDiagnostic(output, event.diagnostic, options.compactWarnings);
      printInterruptNotice(output, event);
    },
    trace: (text) => output.err(text),
    close: () => {},
  };
}

export function printDiagnostic(output: Output, d: Diagnostic, compact = false): void {
  output.err(formatDiagnostic(d, output.c, compact).join("\n"));
}

/** People watching a pipeline's log read standard error: an interrupt is told there too. */
function printInterruptNotice(output: Output, event: EngineEvent): void {
  if (event.type === "interrupted") output.err(output.c.yellow(interruptNotice(event.signal).join("\n")));
}

/**
 * Opens the run, gives it to `body`, and always closes it and the reporter. Exit 1 when the configuration
 * is invalid; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP interrupted the run, whatever `body` returned.
 */
export async function withRun(
  ctx: RunContext,
  request: RunRequest,
  operation: RunOptions["operation"],
  reporter: Reporter,
  body: (run: Run, interrupts: Interrupts) => Promise<number>,
  lineage?: string,
): Promise<number> {
  const interrupts = Interrupts.install(() => {
    reporter.close();
    ctx.output.err(ctx.output.c.yellow(STOPPED_AT_ONCE_NOTICE));
  });
  try {
    if (!request.lock && operation !== "plan" && operation !== "drift") {
      throw new NetformError({ code: "usage", message: `${operation} writes the state, and --lock=false is only for commands that read it (plan, drift)`, hint: "leave out --lock=false; to wait for a run that holds the lock, add --lock-timeout 5m" });
    }
    const opened = await openRun({
      ...(lineage ? { lineage } : {}),
      configPath: request.configPath,
      ...(request.statePath ? { statePath: request.statePath } : {}),
      ...(request.workspace !== undefined ? { workspace: request.workspace } : {}),
      ...(request.lockTimeoutMs !== undefined ? { lockTimeoutMs: request.lockTimeoutMs } : {}),
      lock: request.lock,
      inputs: request.inputs,
      env: ctx.env,
      ...(request.parallelism !== undefined ? { parallelism: request.parallelism } : {}),
      emit: reporter.emit,
      operation,
      resolveEndpoint,
      ...(ctx.debug ? { onExchange: (e) => reporter.trace(`[debug] ${e.method} ${e.path} -> ${e.status} (${Math.round(e.ms)} ms)`) } : {}),
      ...(ctx.debug ? { onRetry: (e) => reporter.trace(`[debug] retrying ${e.method} ${e.path} in ${e.delayMs} ms (${e.reason}, attempt ${e.attempt})`) } : {}),
      ...(ctx.debug ? { onPace: (e) => reporter.trace(paceTrace(e)) } : {}),
      signal: interrupts.signal,
    });
    if (!opened.ok) return interrupts.exitCode ?? 1;
    let code: number;
    try {
      code = await body(opened.run, interrupts);
    } catch (error) {
      throw redacted(error, opened.run.redact);
    } finally {
      await opened.run.close();
    }
    return interrupts.exitCode ?? code;
  } catch (error) {
    if (error instanceof InterruptedError && interrupts.exitCode !== undefined) return interrupts.exitCode;
    throw error;
  } finally {
    reporter.close();
    interrupts.uninstall();
  }
}

/** What a simulator said of its speed, and the polling the run follows from then on. */
function paceTrace(e: PaceNotice): string {
  const said = `[debug] the service says it runs ${e.speed} times as fast as the real one (X-Simulator-Speed)`;
  const interval = `every ${e.minIntervalMs} ms at first`;
  switch (e.setBy) {
    case "X-Simulator-Speed":
      return `${said}: polling ${interval}`;
    case "NETFORM_POLL_INTERVAL_MS":
      return `${said}; NETFORM_POLL_INTERVAL_MS sets the polling instead: ${interval}`;
    case "embedded":
      return `${said}; the embedded simulator's speed sets the polling: ${interval}`;
    case "real-service":
      return `${said}; polling at the real service's pace: ${interval}`;
    default: {
      const unreachable: never = e.setBy;
      return unreachable;
    }
  }
}

/** The error with any secret value in its message masked (a service refusal may echo what it was sent). */
function redacted(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof Error) || redact(error.message) === error.message) return error;
  const init = error instanceof NetformError ? { code: error.code, source: error.source, hint: error.hint } : { code: "error", source: "internal" as const };
  return new NetformError({ ...init, message: redact(error.message) });
}

export async function planRequested(ctx: RunContext, run: Run, request: RunRequest, reporter: Reporter): Promise<Planned> {
  const planned = await planRun(run, { mode: request.mode, targets: request.targets, replace: request.replace, cost: request.cost, refresh: request.refresh }, reporter.emit);
  if (ctx.debug) reporter.trace(`[debug] refresh made ${planned.plan.requestCount} API requests`);
  return planned;
}

/**
 * Asks for "yes" on `input` (a terminal, normally). False for any other answer, for Ctrl-C (typed at the
 * terminal, or SIGINT) and for the end of input (Ctrl-D): all mean "no". SIGTERM interrupts the run:
 * InterruptedError.
 */
export async function confirm(output: Output, question: string, input: NodeJS.ReadableStream, interrupts: Interrupts): Promise<boolean> {
  output.out(`\n${output.c.bold(question)}\n  Only 'yes' will be accepted to approve.\n`);
  // readline writes its prompt to the stream itself: what was printed before it goes first.
  output.flush();
  const rl = createInterface({ input, output: output.stdout });
  const declined = new AbortController();
  const decline = () => declined.abort();
  // On a terminal readline reads keys raw: Ctrl-C reaches it as a key (its 'SIGINT' event), not as a signal.
  rl.on("SIGINT", decline);
  rl.on("close", decline);
  try {
    const answer = await interrupts.whilePrompting(decline, () => rl.question("  Enter a value: ", { signal: AbortSignal.any([declined.signal, interrupts.signal]) }));
    return answer.trim() === "yes";
  } catch (error) {
    if (interrupts.signal.aborted) throw new InterruptedError();
    if (!declined.signal.aborted) throw error;
    return false;
  } finally {
    rl.close();
  }
}
