// What a rule sees: the spec with secrets revealed (rules read them, never print them) and values that are
// not known yet marked UNKNOWN, so that a rule checks what is known and leaves the rest for the second
// pass the engine runs with resolved values.

import type { FieldPath } from "./address.js";
import { Sensitive } from "./sensitive.js";
import { isUnknown } from "./values.js";

export const UNKNOWN: unique symbol = Symbol("unknown");

export interface RuleReport {
  path: FieldPath;
  code: string;
  message: string;
  hint?: string;
  severity?: "error" | "warning";
  /** Point at the field's key rather than its value (misplaced fields). */
  atKey?: boolean;
}

export interface RuleContext {
  spec: Record<string, unknown>;
  /** The value at a path: UNKNOWN when not known yet, undefined when absent. */
  get(path: FieldPath): unknown;
  /** Present: written (known or not) and not null. */
  has(path: FieldPath): boolean;
  num(path: FieldPath): number | undefined;
  str(path: FieldPath): string | undefined;
  report(r: RuleReport): void;
}

/** A copy of the spec for validation, and the paths of the values not known yet. */
export function validationView(value: unknown, path: (string | number)[] = [], unknown: FieldPath[] = []): { view: unknown; unknown: FieldPath[] } {
  const walk = (v: unknown, p: (string | number)[]): unknown => {
    if (v instanceof Sensitive) return walk(v.reveal(), p);
    if (isUnknown(v)) {
      unknown.push([...p]);
      return UNKNOWN;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...p, i]));
    if (v !== null && typeof v === "object") {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = walk(x, [...p, k]);
      return o;
    }
    return v;
  };
  return { view: walk(value, path), unknown };
}

export function valueAt(root: unknown, path: FieldPath): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === UNKNOWN) return UNKNOWN;
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

export function ruleContext(spec: Record<string, unknown>, reports: RuleReport[]): RuleContext {
  const get = (path: FieldPath) => valueAt(spec, path);
  return {
    spec,
    get,
    has: (path) => {
      const v = get(path);
      return v !== undefined && v !== null;
    },
    num: (path) => {
      const v = get(path);
      if (typeof v === "number") return v;
      if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
      return undefined;
    },
    str: (path) => {
      const v = get(path);
      return typeof v === "string" ? v : undefined;
    },
    report: (r) => reports.push(r),
  };
}
