// Positioned diagnostics: one problem found in the user's input, with where it is (file:line:col), which
// object and field it concerns, the rule broken and, where there is one, what to do. Validation collects
// every problem into a list instead of throwing at the first, so users fix a configuration in one pass.

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  /** A stable identifier of the rule broken, e.g. "schema.unknown-field" or "rule.vlan-tag". */
  code: string;
  /** The object concerned, e.g. "connections.dc-to-cloud"; undefined for file-level problems. */
  address?: string;
  /** The field within the object, e.g. "aSide.accessPoint.linkProtocol.vlanTag". */
  path?: string;
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  message: string;
  /** What the user can do about it. */
  hint?: string;
}

export const isError = (d: Diagnostic): boolean => d.severity === "error";

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some(isError);

export function countDiagnostics(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    switch (d.severity) {
      case "error":
        errors++;
        break;
      case "warning":
        warnings++;
        break;
      default: {
        const never: never = d.severity;
        throw new Error(`unknown severity ${String(never)}`);
      }
    }
  }
  return { errors, warnings };
}

/** By character code: the same order on every machine, and no locale collation to set up (ICU's costs a validate ~10 ms). */
const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Source order: file, line, column; problems without a position come first, then by message for stability. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      byCode(a.file ?? "", b.file ?? "") ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      byCode(a.address ?? "", b.address ?? "") ||
      byCode(a.path ?? "", b.path ?? "") ||
      byCode(a.message, b.message),
  );
}

/** "address.path" as shown to users; either part may be absent. */
export function diagnosticSubject(d: Pick<Diagnostic, "address" | "path">): string {
  if (d.address && d.path) return d.path.startsWith("[") ? `${d.address}${d.path}` : `${d.address}.${d.path}`;
  return d.address ?? d.path ?? "";
}
