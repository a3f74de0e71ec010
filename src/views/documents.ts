// Choosing the rendering of a plan or drift report for a --format flag: the one place that maps a
// format name to its renderer, so plan, show and drift agree.

import { NetformError } from "../diag/index.js";
import type { DriftReport } from "../plan/drift.js";
import type { Plan } from "../plan/types.js";
import { driftDocumentText } from "./drift-json.js";
import { renderDriftMarkdown } from "./drift-markdown.js";
import { renderDriftText } from "./drift-text.js";
import type { Colors } from "./output.js";
import { planDocumentText } from "./plan-json.js";
import { renderPlanMarkdown } from "./plan-markdown.js";
import { renderPlanText } from "./plan-text.js";

export type DocumentFormat = "text" | "markdown" | "json";

export function parseFormat<F extends string>(value: string, allowed: readonly F[]): F {
  if ((allowed as readonly string[]).includes(value)) return value as F;
  throw new NetformError({ code: "usage", message: `--format must be ${allowed.join(", ").replace(/, ([^,]*)$/, " or $1")}, got "${value}"` });
}

/** `planFile`: the saved plan being shown, which a shortened markdown comment points to. */
export function renderPlan(plan: Plan, format: DocumentFormat, c: Colors, planFile?: string): string {
  switch (format) {
    case "text":
      return renderPlanText(plan, c);
    case "markdown":
      return renderPlanMarkdown(plan, planFile ? { planFile } : {});
    case "json":
      return planDocumentText(plan);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown format ${String(unreachable)}`);
    }
  }
}

export function renderDrift(report: DriftReport, format: DocumentFormat, c: Colors): string {
  switch (format) {
    case "text":
      return renderDriftText(report, c);
    case "markdown":
      return renderDriftMarkdown(report);
    case "json":
      return driftDocumentText(report);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown format ${String(unreachable)}`);
    }
  }
}
