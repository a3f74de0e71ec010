// What a plan costs each month (issue 19), as the plan views show it: a "Cost" section after the text
// plan's summary, a table in the markdown comment, a `cost` member in the JSON document; and the running
// cost of a whole state for `netform cost`. An unknown price shows as unknown with why, never as zero;
// amounts of two currencies are never added.

import { z } from "zod";
import { compareAddresses } from "../config/index.js";
import type { StateCost } from "../engine/index.js";
import type { CostTotal, Money, Plan, PlanCost, ResourceCost } from "../plan/index.js";
import { codeSpan, details, escapeInline, table } from "./markdown.js";
import type { Colors } from "./output.js";

const moneySchema = z.object({ currency: z.string().describe("ISO 4217, from the service's price record"), monthly: z.number().describe("monthly recurring price") });

export const planCostSchema = z
  .object({
    totals: z
      .array(z.object({ currency: z.string(), monthlyBefore: z.number(), monthlyAfter: z.number(), delta: z.number().describe("monthlyAfter - monthlyBefore") }))
      .describe("one per currency, over the priced changes whose prices are known; amounts of two currencies are never added"),
    resources: z
      .array(
        z.object({
          address: z.string(),
          kind: z.string(),
          action: z.enum(["create", "update", "replace", "delete", "import", "no-op"]),
          product: z.string().optional().describe('the product priced, in words: "EVPL_VC 1000 Mbps, DC to SV"; absent when its price is unknown on both sides'),
          metro: z.string().optional(),
          before: z.array(moneySchema).optional().describe("the monthly price now; absent for a create, or when unknown (see unknown)"),
          after: z.array(moneySchema).optional().describe("the monthly price after apply; absent for a delete, or when unknown (see unknown)"),
        }),
      )
      .describe("each created, resized, replaced or deleted object of a priced kind (connections, cloud routers, devices)"),
    unknown: z.array(z.object({ address: z.string(), side: z.enum(["before", "after"]), why: z.string() })).describe("prices the service could not give, with why"),
    requests: z.number().int().nonnegative().describe("price requests the plan made: at most one per distinct product"),
  })
  .describe("the monthly recurring cost of the plan's changes; absent with --no-cost");

export const planCostDocument = (cost: PlanCost): z.infer<typeof planCostSchema> => structuredClone(cost);

/** "USD 1,240.00". */
export const formatMoney = (m: Money): string => `${m.currency} ${formatAmount(m.monthly)}`;

/**
 * "1,240.00": two decimals, thousands grouped by commas, as en-US writes an amount. Written out rather than
 * asked of Intl.NumberFormat, whose first use in a process loads ICU's data: about 20 ms of every priced
 * plan. Like the format, it rounds the number as JavaScript writes it (1.005, not the double just below
 * it) to the nearer cent, away from zero on a tie.
 */
export function formatAmount(n: number): string {
  const written = String(Math.abs(n));
  // Exponents appear only below a millionth (nothing, to the cent) and from 10^21 (no cents to round).
  const [whole = "", fraction = ""] = (written.includes("e") ? Math.abs(n).toFixed(2) : written).split(".");
  let digits = `${whole}${fraction.slice(0, 2).padEnd(2, "0")}`;
  if ((fraction[2] ?? "0") >= "5") digits = (BigInt(digits) + 1n).toString().padStart(3, "0");
  const units = digits.slice(0, -2);
  let grouped = units.slice(0, ((units.length - 1) % 3) + 1);
  for (let i = grouped.length; i < units.length; i += 3) grouped += `,${units.slice(i, i + 3)}`;
  return `${n < 0 || Object.is(n, -0) ? "-" : ""}${grouped}.${digits.slice(-2)}`;
}

const amounts = (money: readonly Money[] | undefined): string => (money && money.length > 0 ? money.map(formatMoney).join(" + ") : "none");

/** "+ USD 1,240.00 / month", "- EUR 75.00 / month", "USD 0.00 / month". */
export function deltaPhrase(total: CostTotal): string {
  const size = formatMoney({ currency: total.currency, monthly: Math.abs(total.delta) });
  return total.delta > 0 ? `+ ${size} / month` : total.delta < 0 ? `- ${size} / month` : `${size} / month`;
}

const SYMBOLS: Record<ResourceCost["action"], string> = { create: "+", update: "~", replace: "-/+", delete: "-", import: "~", "no-op": " " };

/** The sides whose price is unknown, by address: a table asks for each of its rows. */
const unknownSides = (cost: PlanCost): Set<string> => new Set(cost.unknown.map((u) => `${u.side} ${u.address}`));

/** A side's price, or "unknown" when the service could not give it. */
function side(unknown: ReadonlySet<string>, r: ResourceCost, which: "before" | "after"): string {
  if (unknown.has(`${which} ${r.address}`)) return "unknown";
  const absent = which === "before" ? r.action === "create" : r.action === "delete";
  return absent ? "none" : amounts(r[which]);
}

/** How many priced changes have an unknown price on either side: each makes the total unknown. */
const unpricedCount = (cost: PlanCost): number => new Set(cost.unknown.map((u) => u.address)).size;

const unknownTotalWhy = (cost: PlanCost, unpriced: number): string =>
  cost.totals.length === 0 ? "no price of these changes is known" : `the price of ${unpriced} ${unpriced === 1 ? "change is" : "changes are"} unknown; the known part leaves ${unpriced === 1 ? "it" : "them"} out`;

/** "+ USD 1,240.00 / month (USD 900.00 -> USD 2,140.00)". */
const totalPhrase = (total: CostTotal): string => `${deltaPhrase(total)} (${formatMoney({ currency: total.currency, monthly: total.monthlyBefore })} -> ${formatMoney({ currency: total.currency, monthly: total.monthlyAfter })})`;

const unknownLines = (cost: PlanCost): string[] => cost.unknown.map((u) => `${u.address}: the price ${u.side === "before" ? "now" : "after apply"} is unknown: ${u.why}`);

/** The text plan's Cost section; no lines when the plan has no cost, or nothing priced changes. */
export function costTextLines(plan: Plan, c: Colors): string[] {
  const cost = plan.cost;
  if (!cost || cost.resources.length === 0) return [];
  const width = Math.max(...cost.resources.map((r) => r.address.length));
  const lines = [c.bold("Cost (monthly recurring, from the service's prices):")];
  const unpricedSides = unknownSides(cost);
  for (const r of cost.resources) lines.push(`  ${SYMBOLS[r.action].padStart(3)} ${r.address.padEnd(width)}  ${side(unpricedSides, r, "before")} -> ${side(unpricedSides, r, "after")}${r.product ? `  ${c.dim(`(${r.product})`)}` : ""}`);
  for (const line of unknownLines(cost)) lines.push(c.dim(`  ${line}`));
  const unpriced = unpricedCount(cost);
  if (unpriced > 0) lines.push(`  ${c.bold("Total:")} unknown (${unknownTotalWhy(cost, unpriced)})`);
  for (const total of cost.totals) lines.push(`  ${c.bold(unpriced > 0 ? "Known part:" : "Total:")} ${totalPhrase(total)}`);
  return lines;
}

/**
 * The markdown comment's cost table (its total is in the comment's summary: costTotalMarkdown), or "" when
 * nothing priced changes; collapsed when long, and cut to `rowLimit` rows when the comment must shrink.
 */
export function costMarkdown(plan: Plan, rowLimit?: number, where = "the full plan is in the run log"): string {
  const cost = plan.cost;
  if (!cost || cost.resources.length === 0) return "";
  const resources = [...cost.resources].sort((a, b) => compareAddresses(a.address, b.address));
  const unpricedSides = unknownSides(cost);
  const rows = (rowLimit === undefined ? resources : resources.slice(0, rowLimit)).map((r) => [codeSpan(r.address), escapeInline(r.product ?? "unknown"), side(unpricedSides, r, "before"), side(unpricedSides, r, "after")]);
  const more = resources.length - rows.length;
  const unknown = unknownLines(cost).map((line) => `- ${escapeInline(line)}`);
  const body = [
    table(["resource", "product", "before", "after"], rows),
    ...(more > 0 ? [`… and ${more} more priced ${more === 1 ? "change" : "changes"} not listed; ${where}.`] : []),
    ...(unknown.length > 0 && more === 0 ? ["Unknown prices:", unknown.join("\n")] : []),
  ].join("\n\n");
  return resources.length > COST_ROWS_OPEN ? details(`Cost of each change (${resources.length}, monthly recurring)`, body) : ["#### Cost (monthly recurring)", body].join("\n\n");
}

/** Tables longer than this are collapsed: the total is what a reviewer reads first. */
const COST_ROWS_OPEN = 10;

/** The cost total in one paragraph, for the head of the markdown comment; "" when nothing priced changes. */
export function costTotalMarkdown(plan: Plan): string {
  const cost = plan.cost;
  if (!cost || cost.resources.length === 0) return "";
  const unpriced = unpricedCount(cost);
  const known = cost.totals.map((t) => (unpriced > 0 ? `known part ${totalPhrase(t)}` : `**${deltaPhrase(t)}** (${formatMoney({ currency: t.currency, monthly: t.monthlyBefore })} -> ${formatMoney({ currency: t.currency, monthly: t.monthlyAfter })})`));
  if (unpriced > 0) return `**Cost total: unknown** (${escapeInline(unknownTotalWhy(cost, unpriced))})${known.length > 0 ? `; ${known.join("; ")}` : ""}`;
  return `**Cost total:** ${known.join("; ")}`;
}

/** `netform cost`: every priced object of the state, then the totals by kind, by metro and overall. */
export function renderStateCostText(cost: StateCost, c: Colors): string {
  if (cost.resources.length === 0 && cost.unknown.length === 0) return "The state records no priced objects (connections, cloud routers, devices).\n";
  const width = Math.max(0, ...cost.resources.map((r) => r.address.length));
  const lines = [c.bold("Monthly recurring cost of the state, from the service's prices:")];
  for (const r of cost.resources) lines.push(`  ${r.address.padEnd(width)}  ${amounts(r.monthly)}  ${c.dim(`(${r.product})`)}`);
  for (const u of cost.unknown) lines.push(c.dim(`  ${u.address}: unknown: ${u.why}`));
  lines.push("", c.bold("By kind:"), ...cost.byKind.map((k) => `  ${k.kind}: ${formatMoney(k)}`));
  lines.push("", c.bold("By metro:"), ...cost.byMetro.map((m) => `  ${m.metro}: ${formatMoney(m)}`));
  lines.push("", `${c.bold("Total:")} ${cost.totals.length > 0 ? cost.totals.map((t) => `${formatMoney(t)} / month`).join(", ") : "none"}`);
  if (cost.unknown.length > 0) lines.push(c.dim("Unknown prices are not counted in the totals."));
  return `${lines.join("\n")}\n`;
}

export const renderStateCostJson = (cost: StateCost): string => `${JSON.stringify(cost, null, 2)}\n`;
