// The text rendering of an apply or destroy as it runs: one line per meaningful engine event
// (`connections.dc: Creating...`), progress throttled so a long wait does not flood a CI log, errors in
// red on standard error, and a closing summary. With `timestamps` (logs, not terminals) every line starts
// with the UTC time, so a slow step can be found afterwards. An interrupt is announced on standard error
// the moment it arrives, and the steps it stopped are told apart from failures.

import type { ChangeOutcome, EngineEvent, StepKind } from "../engine/events.js";
import type { InterruptSignal } from "../engine/interrupt.js";
import type { PlanSummary, ResourceChange } from "../plan/types.js";
import type { Output } from "./output.js";

export interface ApplyTextOptions {
  timestamps: boolean;
  /** The clock for timestamps; tests pass a fixed one. */
  now?: () => number;
}

/** At most one "Still ..." line per resource step in this much elapsed time, besides state changes. */
const PROGRESS_INTERVAL_MS = 10_000;

interface ProgressTrack {
  printedAtMs: number;
  state?: string;
}

export class ApplyTextView {
  // apply_start carries no id or import uuid, so they are remembered from the planned changes.
  private readonly planned = new Map<string, ResourceChange>();
  private readonly progress = new Map<string, ProgressTrack>();
  private readonly now: () => number;

  constructor(
    private readonly output: Output,
    private readonly options: ApplyTextOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  handle(event: EngineEvent): void {
    switch (event.type) {
      case "refresh_start":
        this.out(`Refreshing state... (${plural(event.resources, "resource")})`);
        break;
      case "refresh_complete":
        break;
      case "planned_change":
        this.planned.set(event.change.address, event.change);
        break;
      case "apply_start":
        this.progress.set(trackKey(event.address, event.step), { printedAtMs: 0 });
        this.line(event.address, this.startText(event.address, event.step));
        break;
      case "apply_progress":
        this.onProgress(event);
        break;
      case "apply_complete": {
        this.progress.delete(trackKey(event.address, event.step));
        const change = this.planned.get(event.address);
        const id = event.id ?? change?.id ?? change?.importId;
        this.line(event.address, completeText(event.step, event.elapsedMs, id));
        break;
      }
      case "apply_errored":
        this.progress.delete(trackKey(event.address, event.step));
        this.errorLine(event.address, event.message, event.code);
        break;
      case "apply_skipped":
        this.line(event.address, this.output.c.yellow(`Skipped because ${event.blockedBy} failed`));
        break;
      case "apply_interrupted":
        this.progress.delete(trackKey(event.address, event.step));
        this.line(event.address, this.output.c.yellow(`Interrupted after ${formatDuration(event.elapsedMs)}${idSuffix(event.id)}; the next run picks it up`));
        break;
      case "change_summary":
        this.summary(event);
        break;
      case "interrupted": {
        const prefix = this.stampPrefix();
        this.output.err(interruptNotice(event.signal).map((l) => `${prefix}${this.output.c.yellow(l)}`).join("\n"));
        break;
      }
      case "diagnostic":
        // Diagnostics have their own view; printing them here too would show each one twice.
        break;
      case "rate_limited":
        this.out(this.output.c.yellow(rateLimitedText(event.retryInMs)));
        break;
      default: {
        const unreachable: never = event;
        throw new Error(`unknown engine event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private startText(address: string, step: StepKind): string {
    const change = this.planned.get(address);
    switch (step) {
      case "create":
        return "Creating...";
      case "update":
        return `Modifying...${idSuffix(change?.id ?? change?.importId)}`;
      case "delete":
        return `Destroying...${idSuffix(change?.id)}`;
      case "import":
        return `Importing...${idSuffix(change?.importId ?? change?.id)}`;
      case "wait":
        return change?.awaiting ? `Waiting for the ${change.awaiting} started by an earlier run...` : "Waiting for an earlier operation...";
      default: {
        const unreachable: never = step;
        throw new Error(`unknown step ${String(unreachable)}`);
      }
    }
  }

  private onProgress(event: Extract<EngineEvent, { type: "apply_progress" }>): void {
    const key = trackKey(event.address, event.step);
    const track = this.progress.get(key) ?? { printedAtMs: 0 };
    // The first state seen is the expected one (PROVISIONING after a create); only a move away from it is news.
    const stateChanged = event.state !== undefined && track.state !== undefined && event.state !== track.state;
    const due = event.elapsedMs - track.printedAtMs >= PROGRESS_INTERVAL_MS;
    if (event.state !== undefined) track.state = event.state;
    if (stateChanged || due) {
      track.printedAtMs = event.elapsedMs;
      const state = event.state !== undefined ? `, state ${event.state}` : "";
      this.line(event.address, `Still ${gerund(event.step)}... [${formatDuration(event.elapsedMs)} elapsed${state}]`);
    }
    this.progress.set(key, track);
  }

  private summary(event: Extract<EngineEvent, { type: "change_summary" }>): void {
    const { operation, summary: s, failed, skipped, interrupted } = event;
    const { c } = this.output;
    const resources = operation === "destroy" ? `${s.destroy} destroyed` : applyCounts(s);
    const verb = operation === "destroy" ? "Destroy" : "Apply";
    if (!this.options.timestamps) this.output.out("");
    if (interrupted > 0) {
      const failures = failed > 0 || skipped > 0 ? `${plural(failed, "error")}, ${skipped} skipped, ` : "";
      this.out(`${c.yellow(c.bold(`${verb} interrupted:`))} ${failures}${plural(interrupted, "step")} not finished. Resources: ${resources}. Run ${operation} again to finish.`);
    } else if (failed === 0 && skipped === 0) {
      this.out(`${c.green(c.bold(`${verb} complete!`))} Resources: ${resources}.`);
    } else {
      this.out(`${c.red(c.bold(`${verb} failed:`))} ${plural(failed, "error")}, ${skipped} skipped. Resources: ${resources}.`);
    }
    for (const line of partialApplyLines(event)) this.out(line);
  }

  private line(address: string, text: string): void {
    this.out(`${this.output.c.bold(address)}: ${text}`);
  }

  private errorLine(address: string, message: string, code: string | undefined): void {
    const { c } = this.output;
    const [first = "", ...rest] = message.split("\n");
    const lines = [`${address}: ${c.bold("Error:")} ${first}${code ? ` (${code})` : ""}`, ...rest.map((l) => `  ${l}`)];
    // One time for the whole message: its continuation lines are the same moment, not later ones.
    const prefix = this.stampPrefix();
    this.output.err(lines.map((l) => `${prefix}${c.red(l)}`).join("\n"));
  }

  private out(text: string): void {
    this.output.out(`${this.stampPrefix()}${text}`);
  }

  private stampPrefix(): string {
    if (!this.options.timestamps) return "";
    // Whole seconds: the log is read by people, and sub-second precision only widens every line.
    const iso = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
    return `${this.output.c.dim(iso)} `;
  }
}

const trackKey = (address: string, step: StepKind): string => `${address}\u0000${step}`;

/** What an interrupt is told, whatever the run is doing: that it stops safely, and how to stop at once. */
export function interruptNotice(signal: InterruptSignal): string[] {
  return [
    `${signalHeadline(signal)}: stopping safely. No new change starts; calls already sent are answered and recorded; waits stop.`,
    "Interrupt again to stop at once (the state stays consistent).",
  ];
}

function signalHeadline(signal: InterruptSignal): string {
  switch (signal) {
    case "SIGINT":
      return "Interrupt received";
    case "SIGTERM":
      return "Termination requested";
    case "SIGHUP":
      return "Terminal closed (hangup)";
    default: {
      const unreachable: never = signal;
      throw new Error(`unknown signal ${String(unreachable)}`);
    }
  }
}

/** What a second interrupt is told as the process exits without waiting. */
export const STOPPED_AT_ONCE_NOTICE = "Stopped at once. The state records every call that was sent; the next plan or apply finishes the work.";

const idSuffix = (id: string | undefined): string => (id ? ` [id=${id}]` : "");

/** The verb of a running step: "creating", "modifying"... */
export function gerund(step: StepKind): string {
  switch (step) {
    case "create":
      return "creating";
    case "update":
      return "modifying";
    case "delete":
      return "destroying";
    case "import":
      return "importing";
    case "wait":
      return "waiting";
    default: {
      const unreachable: never = step;
      throw new Error(`unknown step ${String(unreachable)}`);
    }
  }
}

function completeText(step: StepKind, elapsedMs: number, id: string | undefined): string {
  const after = `after ${formatDuration(elapsedMs)}`;
  switch (step) {
    case "create":
      return `Creation complete ${after}${idSuffix(id)}`;
    case "update":
      return `Modifications complete ${after}${idSuffix(id)}`;
    case "delete":
      return `Destruction complete ${after}`;
    case "import":
      return `Import complete ${after}${idSuffix(id)}`;
    case "wait":
      return `Wait complete ${after}${idSuffix(id)}`;
    default: {
      const unreachable: never = step;
      throw new Error(`unknown step ${String(unreachable)}`);
    }
  }
}

/** How a change is named in a list of what was done: "connections.a (create)". */
const changeText = (o: ChangeOutcome): string => `${o.address} (${o.action}${o.outcome === "done" ? "" : ` ${o.outcome}`})`;

/** What an apply that stopped part-way leaves, and the commands that finish it or undo what it made. */
export interface PartialApply {
  done: string;
  notDone: string;
  finish: { command: string; why: string };
  undo?: { command: string; why: string };
}

/** What an apply that stopped part-way leaves; undefined when it finished whole. */
export function partialApply(event: Extract<EngineEvent, { type: "change_summary" }>): PartialApply | undefined {
  const outcomes = (event.outcomes ?? []).filter((o) => o.action !== "no-op");
  if (outcomes.length === 0) return undefined;
  const done = outcomes.filter((o) => o.outcome === "done");
  const created = done.filter((o) => o.action === "create" || o.action === "replace");
  return {
    done: done.length > 0 ? done.map(changeText).join(", ") : "nothing",
    notDone: outcomes.filter((o) => o.outcome !== "done").map(changeText).join(", "),
    finish: { command: `netform ${event.operation}`, why: "once what failed is corrected: the state records what was done, and nothing is made twice" },
    ...(event.operation === "apply" && created.length > 0
      ? { undo: { command: `netform destroy ${created.map((o) => `-target=${o.address}`).join(" ")}`, why: "to undo what this apply made instead (a change made in place is undone by applying the configuration it had)" } }
      : {}),
  };
}

function partialApplyLines(event: Extract<EngineEvent, { type: "change_summary" }>): string[] {
  const partial = partialApply(event);
  if (!partial) return [];
  return [
    `Done: ${partial.done}.`,
    `Not done: ${partial.notDone}.`,
    `To finish: ${partial.finish.command}, ${partial.finish.why}.`,
    ...(partial.undo ? [`To undo: ${partial.undo.command}, ${partial.undo.why}.`] : []),
  ];
}

export function applyCounts(s: PlanSummary): string {
  const counts = `${s.add} added, ${s.change} changed, ${s.replace} replaced, ${s.destroy} destroyed`;
  return s.import > 0 ? `${counts}, ${s.import} imported` : counts;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "52s", "1m5s", "1h2m0s": whole seconds, truncated, as Terraform users read them. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** Whole seconds, at least one: "retrying in 0 s" would read as no wait at all. */
export const rateLimitedText = (retryInMs: number): string => `rate limited; retrying in ${Math.max(1, Math.ceil(retryInMs / 1000))} s`;
