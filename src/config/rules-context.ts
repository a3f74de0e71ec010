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

/**
 * The spec as validation sees it, and the paths of the values not known yet. Only what differs from the spec
 * is copied (secrets revealed, unknown values marked); plain data that holds neither is shared, since
 * validation only reads it.
 */
export function validationView(value: unknown, path: (string | number)[] = [], unknown: FieldPath[] = []): { view: unknown; unknown: FieldPath[] } {
  const stack = [...path];
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (v instanceof Sensitive) return walk(v.reveal());
    if (isUnknown(v)) {
      unknown.push(stack.slice());
      return UNKNOWN;
    }
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        stack.push(i);
        const x = walk(v[i]);
        stack.pop();
        if (copy) copy.push(x);
        else if (x !== v[i]) {
          copy = v.slice(0, i);
          copy.push(x);
        }
      }
      return copy ?? v;
    }
    // Other objects than plain mappings are rebuilt as plain mappings of their own fields, as always.
    const shared = Object.getPrototypeOf(v) === Object.prototype;
    let copy: Record<string, unknown> | undefined = shared ? undefined : {};
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const old = (v as Record<string, unknown>)[k];
      stack.push(k);
      const x = walk(old);
      stack.pop();
      if (copy) copy[k] = x;
      else if (x !== old) {
        copy = {};
        for (let j = 0; j < i; j++) copy[keys[j] as string] = (v as Record<string, unknown>)[keys[j] as string];
        copy[k] = x;
      }
    }
    return copy ?? v;
  };
  return { view: walk(value), unknown };
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
