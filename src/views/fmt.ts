// What `netform fmt` tells: the files it rewrote, or (--check) those that need it, each change as a
// unified diff with --diff, and why a file was left as it is.

import { createTwoFilesPatch } from "diff";
import type { Diagnostic } from "../diag/index.js";
import { formatDiagnostic } from "./diagnostics.js";
import type { Output } from "./output.js";

export interface FormattedFile {
  file: string;
  before: string;
  after: string;
}

export interface FmtReport {
  /** Files whose text is not canonical: rewritten, or only listed with --check. */
  changed: FormattedFile[];
  /** Files that could not be read or parsed, left as they are. */
  problems: Diagnostic[];
  check: boolean;
  diff: boolean;
}

export function renderFmt(output: Output, report: FmtReport): void {
  const { c } = output;
  for (const file of report.changed) {
    output.out(file.file);
    if (report.diff) output.out(colourDiff(createTwoFilesPatch(`a/${file.file}`, `b/${file.file}`, file.before, file.after, undefined, undefined, { context: 3 }), c).trimEnd());
  }
  for (const d of report.problems) output.err(formatDiagnostic(d, c).join("\n"));
  if (report.problems.length > 0) output.err(c.red(`${report.problems.length === 1 ? "1 file was" : `${report.problems.length} files were`} left unformatted: fix the problems above, then run netform fmt again`));
  if (report.check && report.changed.length > 0) {
    output.err(`${report.changed.length === 1 ? "1 file needs" : `${report.changed.length} files need`} formatting: run netform fmt${report.changed.length === 1 ? ` ${report.changed[0]!.file}` : ""} to rewrite ${report.changed.length === 1 ? "it" : "them"}`);
  }
}

function colourDiff(patch: string, c: Output["c"]): string {
  return patch
    .split("\n")
    // The patch's first line names no file pair of its own (Index: ...) and its separator line says nothing.
    .filter((line, i) => !(i <= 1 && (line.startsWith("Index:") || /^=+$/.test(line))))
    .map((line) => (line.startsWith("+") && !line.startsWith("+++") ? c.green(line) : line.startsWith("-") && !line.startsWith("---") ? c.red(line) : line))
    .join("\n");
}
