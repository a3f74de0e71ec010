// An apply's report in markdown, for a pull request or a job summary: what changed, and what each step
// took as a Mermaid Gantt chart (one section per kind, failed steps marked), with the same in a table for
// readers whose markdown draws no charts.

import type { EngineEvent, StepTiming } from "../engine/events.js";
import { applyCounts, formatDuration, partialApply } from "./apply-text.js";
import { codeSpan, escapeInline, table } from "./markdown.js";

type ChangeSummary = Extract<EngineEvent, { type: "change_summary" }>;
type StepError = Extract<EngineEvent, { type: "apply_errored" }>;

/** The report of an apply that ended with `event`; `errors` are its steps' failures, said in full. */
export function renderApplyMarkdown(event: ChangeSummary, errors: readonly StepError[] = []): string {
  const verb = event.operation === "destroy" ? "destroy" : "apply";
  const resources = event.operation === "destroy" ? `${event.summary.destroy} destroyed` : applyCounts(event.summary);
  const outcome = event.interrupted > 0 ? "interrupted" : event.failed > 0 || event.skipped > 0 ? "failed" : "complete";
  const head = `### netform ${verb} ${outcome}: ${resources}`;
  const counts = event.failed > 0 || event.skipped > 0 || event.interrupted > 0 ? `${event.failed} failed, ${event.skipped} skipped, ${event.interrupted} not finished.` : "";
  const failures = [counts, ...errors.map((e) => `- ${codeSpan(e.address)}: ${escapeInline(e.message)}${e.code ? ` (${codeSpan(e.code)})` : ""}`)].filter(Boolean).join("\n");
  const partial = partialApply(event);
  const left = partial
    ? [
        `- **Done:** ${escapeInline(partial.done)}`,
        `- **Not done:** ${escapeInline(partial.notDone)}`,
        `- **To finish:** ${codeSpan(partial.finish.command)}, ${escapeInline(partial.finish.why)}`,
        ...(partial.undo ? [`- **To undo:** ${codeSpan(partial.undo.command)}, ${escapeInline(partial.undo.why)}`] : []),
      ].join("\n")
    : "";
  const steps = [...(event.steps ?? [])].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.address.localeCompare(b.address));
  if (steps.length === 0) return `${[head, failures, left].filter(Boolean).join("\n\n")}\n`;
  return `${[head, failures, left, gantt(verb, steps), stepTable(steps)].filter(Boolean).join("\n\n")}\n`;
}

/** Milliseconds from the first step's start: the chart's axis reads as minutes and seconds into the run. */
function gantt(verb: string, steps: readonly StepTiming[]): string {
  const origin = Math.min(...steps.map((s) => Date.parse(s.startedAt)));
  const at = (iso: string) => Date.parse(iso) - origin;
  const byKind = new Map<string, StepTiming[]>();
  for (const s of steps) {
    const kind = s.address.split(".")[0]!;
    byKind.set(kind, [...(byKind.get(kind) ?? []), s]);
  }
  const lines = ["```mermaid", "gantt", `  title netform ${verb}, time from its first step`, "  dateFormat x", "  axisFormat %M:%S"];
  for (const [kind, ofKind] of byKind) {
    lines.push(`  section ${taskText(kind)}`);
    for (const s of ofKind) {
      const tag = s.outcome === "done" ? "done" : "crit";
      // A step shorter than a millisecond would have no bar at all.
      lines.push(`  ${taskText(`${s.address} ${s.step}`)} :${tag}, ${at(s.startedAt)}, ${Math.max(at(s.finishedAt), at(s.startedAt) + 1)}`);
    }
  }
  lines.push("```");
  return lines.join("\n");
}

/** Mermaid ends a task's name at a colon and a line at a semicolon or a hash. */
const taskText = (text: string): string => text.replace(/[:;#]/g, " ");

function stepTable(steps: readonly StepTiming[]): string {
  const origin = Math.min(...steps.map((s) => Date.parse(s.startedAt)));
  const rows = steps.map((s) => [codeSpan(s.address), s.step, `+${formatDuration(Date.parse(s.startedAt) - origin)}`, seconds(s.seconds), escapeInline(s.outcome)]);
  return `<details><summary>Steps (${steps.length})</summary>\n\n${table(["Address", "Step", "Started", "Took", "Outcome"], rows)}\n\n</details>`;
}

/** Tenths of a second below a minute, where a simulator's steps live; then as the text view says it. */
const seconds = (s: number): string => (s < 60 ? `${s.toFixed(1)}s` : formatDuration(s * 1000));
