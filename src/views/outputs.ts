// Outputs: the "Changes to Outputs" section of a plan (text and markdown), and `netform output` as text
// and as JSON. A sensitive value never reaches these functions but when it is asked for by name.

import type { OutputChange, Plan } from "../plan/types.js";
import type { Colors } from "./output.js";
import { paintSym, scalar, SENSITIVE_TEXT, toJson, UNKNOWN_TEXT, type JsonValue, type Sym } from "./values.js";

/** What `netform output` reads: the engine's OutputView. */
export interface OutputValue {
  name: string;
  sensitive: boolean;
  value?: unknown;
  description?: string;
}

/** Shown where `netform output` lists a sensitive output, as Terraform shows it. */
export const SENSITIVE_OUTPUT_TEXT = "<sensitive>";

const SYMBOLS: Record<Exclude<OutputChange["action"], "no-op">, Sym> = { create: "+", update: "~", delete: "-" };

const shown = (o: OutputChange, side: "before" | "after"): string => {
  if (o.sensitive) return SENSITIVE_TEXT;
  if (side === "after" && o.afterUnknown) return UNKNOWN_TEXT;
  return scalar(o[side]);
};

/** The outputs that change, one line each; empty when none does. */
export function outputChangeLines(plan: Plan, c: Colors): string[] {
  const changed = (plan.outputChanges ?? []).filter((o) => o.action !== "no-op");
  if (changed.length === 0) return [];
  const width = Math.max(...changed.map((o) => o.name.length));
  const lines = changed.map((o) => {
    const name = o.name.padEnd(width);
    const sym = paintSym(SYMBOLS[o.action as keyof typeof SYMBOLS], c);
    switch (o.action) {
      case "create":
        return `  ${sym} ${name} = ${shown(o, "after")}`;
      case "update":
        return `  ${sym} ${name} = ${shown(o, "before")} -> ${shown(o, "after")}`;
      default:
        return `  ${sym} ${name} = ${shown(o, "before")} -> null`;
    }
  });
  return [c.bold("Changes to Outputs:"), ...lines];
}

/** `netform output`: every output, `name = value`, a sensitive one as <sensitive>. */
export function renderOutputsText(outputs: readonly OutputValue[]): string {
  return outputs.map((o) => `${o.name} = ${o.sensitive ? SENSITIVE_OUTPUT_TEXT : scalar(o.value)}\n`).join("");
}

/** `netform output NAME`: the value alone, a string without quotes, so that a shell can take it as it is. */
export function renderOutputRaw(output: OutputValue): string {
  const v = output.value;
  if (typeof v === "string") return `${v}\n`;
  if (v !== null && typeof v === "object") return `${JSON.stringify(toJson(v))}\n`;
  return `${String(v)}\n`;
}

interface OutputDocument {
  sensitive: boolean;
  value?: JsonValue;
  description?: string;
}

/** `--json`: as Terraform's `output -json`, { NAME: { sensitive, value } }, or with NAME the value alone. */
export function renderOutputsJson(outputs: readonly OutputValue[]): string {
  const doc: Record<string, OutputDocument> = {};
  for (const o of outputs) doc[o.name] = { sensitive: o.sensitive, ...(o.value !== undefined ? { value: toJson(o.value) } : {}), ...(o.description ? { description: o.description } : {}) };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const renderOutputJson = (output: OutputValue): string => `${JSON.stringify(toJson(output.value ?? null))}\n`;
