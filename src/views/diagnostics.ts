// Rendering of diagnostics: text (`file:line:col  address.field  message`, a hint beneath, a summary) and
// the JSON document of `validate --format json`.

import { countDiagnostics, diagnosticSubject, type Diagnostic } from "../diag/index.js";
import type { Colors, Output } from "./output.js";

const location = (d: Diagnostic): string => [d.file, d.line, d.column].filter((x) => x !== undefined && x !== "").join(":");

/** One diagnostic as text lines, without colour when `c` is omitted. */
/** `compact` (-compact-warnings): a warning on one line, without its hint; an error is always shown in full. */
export function formatDiagnostic(d: Diagnostic, c?: Colors, compact = false): string[] {
  const paint = (f: keyof Colors, s: string) => (c ? (c[f] as (s: string) => string)(s) : s);
  const where = location(d);
  const subject = diagnosticSubject(d);
  const message = d.severity === "warning" ? `${paint("yellow", "warning:")} ${d.message}` : d.message;
  const head = [where ? paint("bold", where) : "", subject ? paint(d.severity === "error" ? "red" : "yellow", subject) : "", message].filter((s) => s !== "").join("  ");
  return d.hint && !(compact && d.severity === "warning") ? [head, `    ${paint("dim", `hint: ${d.hint}`)}`] : [head];
}

export function formatDiagnosticsText(diagnostics: readonly Diagnostic[], c?: Colors): string[] {
  return diagnostics.flatMap((d) => formatDiagnostic(d, c));
}

export interface ValidationSummary {
  resources: number;
  files: number;
}

/** `validate`'s text output: every diagnostic, then a one-line verdict. */
export function renderDiagnosticsText(output: Output, diagnostics: readonly Diagnostic[], summary: ValidationSummary): void {
  const { c } = output;
  const lines = formatDiagnosticsText(diagnostics, c);
  if (lines.length > 0) output.out(lines.join("\n"));
  const { errors, warnings } = countDiagnostics(diagnostics);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  if (errors > 0) {
    output.out(`${c.red(c.bold("Invalid:"))} ${plural(errors, "error")}${warnings ? `, ${plural(warnings, "warning")}` : ""}`);
  } else {
    output.out(`${c.green(c.bold("Valid:"))} ${plural(summary.resources, "resource")} in ${plural(summary.files, "file")}${warnings ? ` (${plural(warnings, "warning")})` : ""}`);
  }
}

export interface DiagnosticsDocument {
  valid: boolean;
  errorCount: number;
  warningCount: number;
  diagnostics: {
    severity: Diagnostic["severity"];
    code: string;
    address: string | null;
    path: string | null;
    file: string | null;
    line: number | null;
    column: number | null;
    message: string;
    hint?: string;
  }[];
}

export function diagnosticsDocument(diagnostics: readonly Diagnostic[]): DiagnosticsDocument {
  const { errors, warnings } = countDiagnostics(diagnostics);
  return {
    valid: errors === 0,
    errorCount: errors,
    warningCount: warnings,
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      address: d.address ?? null,
      path: d.path ?? null,
      file: d.file ?? null,
      line: d.line ?? null,
      column: d.column ?? null,
      message: d.message,
      ...(d.hint ? { hint: d.hint } : {}),
    })),
  };
}

export function renderDiagnosticsJson(output: Output, diagnostics: readonly Diagnostic[]): void {
  output.out(JSON.stringify(diagnosticsDocument(diagnostics), null, 2));
}

/** `netform schema`: the schema text as is, on standard output. */
export function renderSchema(output: Output, text: string): void {
  output.write("out", text);
}

/** A position in Terraform's diagnostics: 1-based line and column, 0-based byte offset in the file. */
interface TerraformPos {
  line: number;
  column: number;
  byte: number;
}

/** The byte offset of a 1-based line and column in a text (UTF-8), or undefined outside it. */
export function byteOffset(text: string, line: number, column: number): number | undefined {
  const lines = text.split("\n");
  if (line < 1 || line > lines.length) return undefined;
  const before = lines.slice(0, line - 1).reduce((n, l) => n + Buffer.byteLength(l, "utf8") + 1, 0);
  return before + Buffer.byteLength((lines[line - 1] ?? "").slice(0, Math.max(0, column - 1)), "utf8");
}

/**
 * Terraform's diagnostics document (`terraform validate -json`, format_version 1.0): for review tools
 * and reviewdog's terraform formats. The summary is netform's message, the detail its hint, and the
 * range the place in the file (a point: start and end alike). `sourceOf` gives a file's text, for the
 * byte offsets; a diagnostic that names no file has no range.
 */
export function terraformDiagnosticsDocument(diagnostics: readonly Diagnostic[], sourceOf: (file: string) => string | undefined): Record<string, unknown> {
  const { errors, warnings } = countDiagnostics(diagnostics);
  return {
    format_version: "1.0",
    valid: errors === 0,
    error_count: errors,
    warning_count: warnings,
    diagnostics: diagnostics.map((d) => {
      let range: { filename: string; start: TerraformPos; end: TerraformPos } | undefined;
      if (d.file !== undefined) {
        const line = d.line ?? 1;
        const column = d.column ?? 1;
        const source = sourceOf(d.file);
        const byte = (source !== undefined ? byteOffset(source, line, column) : undefined) ?? 0;
        range = { filename: d.file, start: { line, column, byte }, end: { line, column, byte } };
      }
      const where = [d.address, d.path].filter((x) => x !== undefined).join(": ");
      return {
        severity: d.severity,
        summary: d.message,
        detail: [where, d.hint].filter((x) => x !== undefined && x !== "").join("\n"),
        ...(d.address !== undefined ? { address: d.address } : {}),
        ...(range ? { range } : {}),
      };
    }),
  };
}

export function renderDiagnosticsTerraformJson(output: Output, diagnostics: readonly Diagnostic[], sourceOf: (file: string) => string | undefined): void {
  output.out(JSON.stringify(terraformDiagnosticsDocument(diagnostics, sourceOf), null, 2));
}
