// The risks a plan shows (engine/risks.ts): downtime and maintenance the service announces in progress
// where the plan changes something. Said after the counts in text and before the table in markdown, with
// what apply will do about them, since that is what the reviewer decides on.

import type { Plan, Risk } from "../plan/types.js";
import { codeSpan, escapeInline } from "./markdown.js";
import type { Colors } from "./output.js";

const windowText = (risk: Risk): string => `${risk.window.start} to ${risk.window.end ?? "an end the service does not give"}`;

const heading = (risk: Risk): string => `${risk.kind}, ${windowText(risk)}`;

/** The text block, or nothing when the plan has no risks. */
export function riskLines(plan: Plan, c: Colors): string[] {
  const risks = plan.risks ?? [];
  if (risks.length === 0) return [];
  return [
    `${c.bold(c.yellow("Risks:"))} apply refuses while ${risks.length === 1 ? "it lasts" : "they last"}, unless --ignore-downtime`,
    ...risks.flatMap((risk) => [`  ${c.yellow("!")} ${heading(risk)}: ${risk.message}`, ...risk.impacts.map((impact) => `      ${impact}`)]),
  ];
}

/** The markdown alert, or "" when the plan has no risks. */
export function riskNote(plan: Plan): string {
  const risks = plan.risks ?? [];
  if (risks.length === 0) return "";
  const items = risks.flatMap((risk) => [
    `> - **${escapeInline(risk.kind)}**, ${escapeInline(windowText(risk))}: ${escapeInline(risk.message)}`,
    ...risk.impacts.map((impact) => `>   - ${escapeInline(impact)}`),
  ]);
  return ["> [!WARNING]", `> **${risks.length === 1 ? "A risk" : `${risks.length} risks`} now:** apply refuses while ${risks.length === 1 ? "it lasts" : "they last"}, unless ${codeSpan("--ignore-downtime")}.`, ...items].join("\n");
}
