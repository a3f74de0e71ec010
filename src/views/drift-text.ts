// The drift report as text, Terraform-like: one block per object that differs from what netform
// recorded, saying who changed it and when where the service knows, each changed field as
// `path: old -> new` with secrets masked, and a one-line count.

import type { DriftedField, DriftEntry, DriftReport, DriftStatus } from "../plan/drift.js";
import type { Colors } from "./output.js";
import { inWorkspace } from "./plan-text.js";
import { maskedDriftField, scalar } from "./values.js";

export function renderDriftText(report: DriftReport, c: Colors): string {
  if (report.entries.length === 0) return `No drift${inWorkspace(report.workspace)}.\n`;
  const blocks = report.entries.map((entry) => entryLines(entry, c).join("\n"));
  return `${[...blocks, `${c.bold(`Drift${inWorkspace(report.workspace)}:`)} ${driftCounts(report)}.`].join("\n\n")}\n`;
}

export function driftCounts(report: DriftReport): string {
  const { changed, deleted, missing, unapplied } = report.summary;
  return `${changed} changed, ${deleted} deleted, ${missing} missing${unapplied > 0 ? `, ${unapplied} not as configured` : ""}`;
}

/** What happened to the object, after its address; who did it and when follow (changedByText). */
export function statusText(entry: DriftEntry): string {
  const status: DriftStatus = entry.status;
  switch (status) {
    case "changed":
      return "changed outside netform";
    case "deleted":
      return "was deleted outside netform";
    case "missing":
      return "is declared but does not exist";
    case "unapplied":
      return "matches the state but not the configuration (a change outside netform, already recorded)";
    default: {
      const unreachable: never = status;
      throw new Error(`unknown drift status ${String(unreachable)}`);
    }
  }
}

/** " by portal-user at 2026-...", as much of it as the service told. */
export const changedByText = (entry: DriftEntry): string => `${entry.changedBy ? ` by ${entry.changedBy}` : ""}${entry.changedAt ? ` at ${entry.changedAt}` : ""}`;

/** What `netform apply` would do about it ("would create it"), when the configuration disagrees with the service. */
export function consequenceText(entry: DriftEntry): string | undefined {
  if (!entry.differsFromConfiguration) return undefined;
  const status: DriftStatus = entry.status;
  switch (status) {
    case "changed":
    case "unapplied":
      return "would change it back to the configuration";
    case "deleted":
    case "missing":
      return "would create it";
    default: {
      const unreachable: never = status;
      throw new Error(`unknown drift status ${String(unreachable)}`);
    }
  }
}

/** One field as `path: old -> new`, masked. */
export function driftFieldText(entry: DriftEntry, field: DriftedField): string {
  const { before, after } = maskedDriftField(entry, field);
  return `${field.path}: ${scalar(before)} -> ${scalar(after)}`;
}

function entryLines(entry: DriftEntry, c: Colors): string[] {
  const head = `${symbol(entry.status, c)} ${c.bold(entry.address)} ${statusText(entry)}${changedByText(entry)}`;
  const consequence = consequenceText(entry);
  return [head, ...entry.fields.map((f) => `    ${driftFieldText(entry, f)}`), ...(consequence ? [`    ${c.dim(`# netform apply ${consequence}`)}`] : [])];
}

function symbol(status: DriftStatus, c: Colors): string {
  switch (status) {
    case "changed":
    case "unapplied":
      return c.yellow("~");
    case "deleted":
      return c.red("-");
    case "missing":
      return c.green("+");
    default: {
      const unreachable: never = status;
      throw new Error(`unknown drift status ${String(unreachable)}`);
    }
  }
}
