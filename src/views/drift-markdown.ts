// The drift report as a comment (`drift --format markdown`), for the scheduled drift check that opens or
// updates an issue: counts in the title, a table of every drifted object with who changed it and when,
// and one collapsible section per object with its fields (`path: old -> new`, secrets masked), under the
// same length cap as the plan comment.

import type { DriftEntry, DriftReport, DriftStatus } from "../plan/drift.js";
import { consequenceText, driftCounts, driftFieldText, statusText } from "./drift-text.js";
import { capComment, codeSpan, DEFAULT_MAX_LENGTH, details, escapeHtml, escapeInline, fencedBlock, table } from "./markdown.js";
import type { MarkdownOptions } from "./plan-markdown.js";

export function renderDriftMarkdown(report: DriftReport, options: MarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const name = escapeInline(`${options.title ?? "netform drift"}${report.workspace === undefined ? "" : ` (workspace ${report.workspace})`}`);
  const checked = `Checked at ${escapeInline(report.checkedAt)}.`;
  if (report.entries.length === 0) {
    return capComment({ head: () => [`### ${name}: no drift`, `No drift. ${checked}`], rows: 0, sections: [], note: () => "", maxLength });
  }
  const sections = report.entries.flatMap((entry) => {
    const section = entrySection(entry);
    return section === undefined ? [] : [section];
  });
  return capComment({
    head: (rowLimit) => [`### ${name}: ${driftCounts(report)}`, checked, driftTable(report.entries, rowLimit)],
    rows: report.entries.length,
    sections,
    note: (left, total) =>
      `> [!NOTE]\n> ${left} of ${total} drift ${total === 1 ? "section was" : "sections were"} left out to keep this comment under ${maxLength.toLocaleString("en-US")} characters. Run \`netform drift\` for the full report.`,
    maxLength,
  });
}

function driftTable(entries: readonly DriftEntry[], rowLimit: number | undefined): string {
  const listed = rowLimit === undefined ? entries : entries.slice(0, rowLimit);
  const rows = listed.map((e) => [statusLabel(e.status), codeSpan(e.address), e.changedBy ? codeSpan(e.changedBy) : "", e.changedAt ? escapeInline(e.changedAt) : ""]);
  const text = table(["Status", "Address", "Changed by", "Changed at"], rows);
  const more = entries.length - listed.length;
  return more > 0 ? `${text}\n\n…and ${more} more not listed; run \`netform drift\` for the full report.` : text;
}

function statusLabel(status: DriftStatus): string {
  switch (status) {
    case "changed":
      return "changed";
    case "deleted":
      return "**deleted**";
    case "missing":
      return "missing";
    case "unapplied":
      return "not as configured";
    default: {
      const unreachable: never = status;
      throw new Error(`unknown drift status ${String(unreachable)}`);
    }
  }
}

function entrySection(entry: DriftEntry): string | undefined {
  const consequence = consequenceText(entry);
  if (entry.fields.length === 0 && consequence === undefined) return undefined;
  const body = [
    ...(entry.fields.length > 0 ? [fencedBlock("", entry.fields.map((f) => driftFieldText(entry, f)))] : []),
    ...(consequence ? [`\`netform apply\` ${escapeInline(consequence)}.`] : []),
  ];
  // The changer in <code> too: a name like "@ops-team" in plain text would notify that team.
  const by = `${entry.changedBy ? ` by <code>${escapeHtml(entry.changedBy)}</code>` : ""}${entry.changedAt ? ` at ${escapeHtml(entry.changedAt)}` : ""}`;
  return details(`<code>${escapeHtml(entry.address)}</code> ${escapeHtml(statusText(entry))}${by}`, body.join("\n\n"));
}
