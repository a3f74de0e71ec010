// The human rendering of a plan, Terraform-like: one block per resource that will change, in the plan's
// own order (the engine's dependency order), then a one-line count. It reads the same Plan object that
// `--format json` prints, so the two can never disagree about what will happen.
//
// Secrets: every value is masked before it is laid out. A path listed in `sensitive` (or below one), a
// FieldChange marked `sensitive`, and the engine's own "(sensitive)" placeholder all print as
// "(sensitive)", even when the plan wrongly carries the raw value.

import { isDeepStrictEqual } from "node:util";
import { diffArrays, structuredPatch } from "diff";
import { UNKNOWN_TEXT, hasChanges, type FieldChange, type Plan, type PlanMode, type PlanSummary, type ResourceChange } from "../plan/types.js";
import type { Colors } from "./output.js";

const SENSITIVE_TEXT = "(sensitive)";

// Markers replace masked values inside copied trees, so that layout code cannot reach a raw secret.
const UNKNOWN: unique symbol = Symbol("unknown");
const SENSITIVE: unique symbol = Symbol("sensitive");

/** A change line's marker; "-/+" and "+/-" only head a replaced resource. */
type Sym = "+" | "-" | "~" | "-/+" | "+/-";

/** How far attribute lines sit from the left edge; resource symbols are right-aligned to column 4. */
const ATTR_INDENT = 6;

/** Fields that identify a destroyed object in its short summary, besides its id. */
const IDENTIFYING = ["name", "type"];

export function renderPlanText(plan: Plan, c: Colors): string {
  const blocks = plan.changes.map((rc) => renderResource(rc, plan.mode, c)).filter((lines) => lines.length > 0);
  if (!hasChanges(plan) || blocks.length === 0) return `${noChanges(plan.mode)}\n`;
  const parts = [header(plan.mode), ...blocks.map((lines) => lines.join("\n")), footer(plan, c)];
  return `${parts.join("\n\n")}\n`;
}

function header(mode: PlanMode): string {
  switch (mode) {
    case "normal":
      return "netform will perform the following actions:";
    case "destroy":
      return "netform will destroy the following resources:";
    case "refresh-only":
      return "netform found these objects changed outside of netform; the state will be updated to match them:";
    default: {
      const unreachable: never = mode;
      throw new Error(`unknown plan mode ${String(unreachable)}`);
    }
  }
}

function noChanges(mode: PlanMode): string {
  switch (mode) {
    case "normal":
      return "No changes. The service matches the configuration.";
    case "destroy":
      // "matches the configuration" would be wrong here: a destroy plan ignores what is declared.
      return "No changes. No objects need to be destroyed.";
    case "refresh-only":
      return "No changes. The state matches the service.";
    default: {
      const unreachable: never = mode;
      throw new Error(`unknown plan mode ${String(unreachable)}`);
    }
  }
}

function footer(plan: Plan, c: Colors): string {
  if (plan.mode === "refresh-only") {
    const n = plan.drifted?.length ?? plan.changes.filter((rc) => rc.action !== "no-op").length;
    return `${c.bold("Refresh-only plan:")} ${n} to update in the state, no changes to the service.`;
  }
  return `${c.bold("Plan:")} ${summaryCounts(plan.summary)}.`;
}

function summaryCounts(s: PlanSummary): string {
  const counts = `${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy`;
  return s.import > 0 ? `${counts}, ${s.import} to import` : counts;
}

// ---------------------------------------------------------------------------------------------------
// One resource

function renderResource(rc: ResourceChange, mode: PlanMode, c: Colors): string[] {
  const masks = new Masks(rc);
  const lines: string[] = [];
  const comment = (text: string) => `  ${c.bold(`# ${rc.address}`)}${text}`;
  const reasonLine = () => (rc.reason ? [`  ${c.dim(`# (${rc.reason})`)}`] : []);
  if (rc.awaiting !== undefined) lines.push(comment(`: waiting for the ${rc.awaiting} started by an earlier run`));

  if (mode === "refresh-only") {
    const drifted = rc.action !== "no-op" || rc.changes.length > 0;
    if (!drifted) return lines;
    lines.push(comment(" has changed outside of netform"), ...reasonLine(), head("~", rc.address, c), ...renderFieldChanges(rc, masks, c));
    return lines;
  }

  switch (rc.action) {
    case "create":
      lines.push(comment(" will be created"), ...reasonLine(), head("+", rc.address, c), ...renderCreated(rc, masks, c));
      break;
    case "update":
      lines.push(comment(" will be updated in place"), ...reasonLine(), head("~", rc.address, c), ...renderFieldChanges(rc, masks, c));
      break;
    case "replace": {
      const sym: Sym = rc.createBeforeDestroy ? "+/-" : "-/+";
      const why = rc.reason ? ` (${rc.reason})` : "";
      const order = rc.createBeforeDestroy ? ", creating the new object first" : "";
      lines.push(comment(` must be replaced${why}${order}`), head(sym, rc.address, c), ...renderFieldChanges(rc, masks, c));
      break;
    }
    case "delete":
      lines.push(comment(" will be destroyed"), ...reasonLine(), head("-", rc.address, c), ...renderDeleted(rc, masks, c));
      break;
    case "import": {
      const uuid = rc.importId ?? rc.id;
      const then = rc.changes.length > 0 ? ", then updated in place" : "";
      lines.push(comment(` will be imported${uuid ? ` (uuid ${uuid})` : ""}${then}`), ...reasonLine());
      if (rc.changes.length > 0) lines.push(head("~", rc.address, c), ...renderFieldChanges(rc, masks, c));
      break;
    }
    case "no-op":
      break;
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
  return lines;
}

const head = (sym: Sym, address: string, c: Colors): string => `${pad(3 - sym.length)}${paintSym(sym, c)} ${address}`;

function paintSym(sym: Sym, c: Colors): string {
  switch (sym) {
    case "+":
      return c.green("+");
    case "-":
      return c.red("-");
    case "~":
      return c.yellow("~");
    case "-/+":
      return `${c.red("-")}/${c.green("+")}`;
    case "+/-":
      return `${c.green("+")}/${c.red("-")}`;
    default: {
      const unreachable: never = sym;
      throw new Error(`unknown symbol ${String(unreachable)}`);
    }
  }
}

function renderCreated(rc: ResourceChange, masks: Masks, c: Colors): string[] {
  const tree = masks.mask(rc.after ?? {}, [], true);
  if (!isPlainObject(tree)) return [];
  masks.insertUnknowns(tree);
  return renderAttrs(Object.entries(tree), ATTR_INDENT, "+", c);
}

/** A destroyed object is summarised: its id and what names it, not every attribute the API returned. */
function renderDeleted(rc: ResourceChange, masks: Masks, c: Colors): string[] {
  const before = rc.before ?? {};
  const entries: [string, unknown][] = [];
  const id = rc.id ?? stringField(before, "uuid") ?? stringField(before, "id");
  if (id !== undefined) entries.push(["id", masks.mask(id, ["uuid"], false)]);
  for (const key of IDENTIFYING) {
    if (before[key] !== undefined) entries.push([key, masks.mask(before[key], [key], false)]);
  }
  const lines = renderAttrs(entries, ATTR_INDENT, "-", c);
  const hidden = Object.keys(before).filter((k) => k !== "uuid" && k !== "id" && !IDENTIFYING.includes(k)).length;
  if (hidden > 0) lines.push(`${pad(ATTR_INDENT + 2)}${c.dim(`# (${hidden} other ${hidden === 1 ? "attribute" : "attributes"} not shown)`)}`);
  return lines;
}

function stringField(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === "string" ? v : undefined;
}

function renderFieldChanges(rc: ResourceChange, masks: Masks, c: Colors): string[] {
  const width = Math.max(0, ...rc.changes.map((fc) => fc.path.length));
  return rc.changes.flatMap((fc) => {
    const segs = segments(fc.path);
    const before = masks.maskChangeValue(fc.before, segs, fc.sensitive === true, false);
    const after = afterIsUnknown(fc, masks, segs) ? UNKNOWN : masks.maskChangeValue(fc.after, segs, fc.sensitive === true, true);
    const lines = renderDiff(fc.path.padEnd(width), before, after, ATTR_INDENT, c);
    if (fc.forcesReplacement && lines.length > 0) lines[0] += ` ${c.red("# forces replacement")}`;
    return lines;
  });
}

/** FieldChange documents an absent `after` as "unknown until apply"; JSON drops `after: undefined`, so this matches. */
const afterIsUnknown = (fc: FieldChange, masks: Masks, segs: string[]): boolean =>
  fc.unknown === true || !Object.hasOwn(fc, "after") || masks.isUnknown(segs);

// ---------------------------------------------------------------------------------------------------
// Masking

/** A path as segments: "a.b[0].c" and "a.b.0.c" both give ["a", "b", "0", "c"]. */
function segments(path: string): string[] {
  return path
    .replace(/\[(\d+|\*)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
}

const isIndex = (s: string): boolean => /^(\d+|\*)$/.test(s);

/**
 * Paths are compared without their list indices, so "links.authKey", "links[*].authKey" and
 * "links.0.authKey" all cover every element's key: masking too much is safe, too little is not.
 */
class PathSet {
  private readonly paths: string[][];

  constructor(paths: readonly string[]) {
    this.paths = paths.map((p) => segments(p).filter((s) => !isIndex(s)));
  }

  /** True when the path is one of the set or lies below one of them. */
  covers(path: readonly string[]): boolean {
    const target = path.filter((s) => !isIndex(s));
    return this.paths.some((p) => p.length <= target.length && p.every((s, i) => s === target[i]));
  }
}

class Masks {
  private readonly sensitive: PathSet;
  private readonly unknown: PathSet;
  private readonly unknownPaths: readonly string[];

  constructor(rc: ResourceChange) {
    this.sensitive = new PathSet(rc.sensitive);
    this.unknown = new PathSet(rc.unknown);
    this.unknownPaths = rc.unknown;
  }

  isUnknown(path: readonly string[]): boolean {
    return this.unknown.covers(path);
  }

  /** A copy of `value` at `path` with secrets, and when `withUnknowns` the unknown values, replaced by markers. */
  mask(value: unknown, path: readonly string[], withUnknowns: boolean): unknown {
    if (value === undefined) return undefined;
    if (value === SENSITIVE_TEXT || this.sensitive.covers(path)) return SENSITIVE;
    if (value === UNKNOWN_TEXT || (withUnknowns && this.unknown.covers(path))) return UNKNOWN;
    if (Array.isArray(value)) return value.map((v: unknown, i) => this.mask(v, [...path, String(i)], withUnknowns));
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.mask(v, [...path, k], withUnknowns)]));
    }
    return value;
  }

  /** A FieldChange's before or after: `force` is the change's own `sensitive` flag. */
  maskChangeValue(value: unknown, path: readonly string[], force: boolean, withUnknowns: boolean): unknown {
    if (value === undefined || value === null) return value;
    return force ? SENSITIVE : this.mask(value, path, withUnknowns);
  }

  /** Adds the unknown paths that `after` leaves out (an id the service assigns), so a create lists them too. */
  insertUnknowns(tree: Record<string, unknown>): void {
    for (const path of this.unknownPaths) {
      const segs = segments(path);
      if (this.sensitive.covers(segs)) continue;
      let node: Record<string, unknown> = tree;
      for (const [i, seg] of segs.entries()) {
        const last = i === segs.length - 1;
        const next = node[seg];
        if (last) {
          if (next === undefined) node[seg] = UNKNOWN;
          break;
        }
        if (next === undefined && !isIndex(seg)) node[seg] = {};
        const child = node[seg];
        if (!isPlainObject(child)) break;
        node = child;
      }
    }
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------
// Layout. `indent` is the column of a line's symbol; its key starts two columns later, nested lines
// four columns later, and closing brackets line up with the key.

const pad = (n: number): string => " ".repeat(n);

const keyText = (key: string): string => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));

const isCompound = (v: unknown): boolean => Array.isArray(v) || isPlainObject(v);

/** Attributes of one object, scalars first so that nested objects do not push simple values out of sight. */
function renderAttrs(entries: [string, unknown][], indent: number, sym: Sym, c: Colors): string[] {
  const ordered = [...entries.filter(([, v]) => !isCompound(v)), ...entries.filter(([, v]) => isCompound(v))].filter(([, v]) => v !== undefined);
  const width = Math.max(0, ...ordered.map(([k]) => keyText(k).length));
  return ordered.flatMap(([k, v]) => attrLines(`${paintSym(sym, c)} ${keyText(k).padEnd(width)} = `, renderValue(v, indent, sym, c), indent));
}

/** Joins a line's lead to the first line of a value; the value's further lines are already complete. */
function attrLines(lead: string, value: string[], indent: number): string[] {
  const [first = "", ...rest] = value;
  return [`${pad(indent)}${lead}${first}`, ...rest];
}

/** A value as lines: the first follows "key = ", the others are whole lines. */
function renderValue(v: unknown, indent: number, sym: Sym, c: Colors): string[] {
  if (v === UNKNOWN) return [c.dim(UNKNOWN_TEXT)];
  if (v === SENSITIVE) return [c.dim(SENSITIVE_TEXT)];
  if (typeof v === "string" && v.includes("\n")) {
    return ["<<-EOT", ...textLines(v).map((line) => `${pad(indent + 6)}${line}`.trimEnd()), `${pad(indent + 2)}EOT`];
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return ["[]"];
    const items = v.flatMap((item: unknown) => withComma(attrLines(`${paintSym(sym, c)} `, renderValue(item, indent + 4, sym, c), indent + 4)));
    return ["[", ...items, `${pad(indent + 2)}]`];
  }
  if (isPlainObject(v)) {
    const entries = Object.entries(v);
    if (entries.length === 0) return ["{}"];
    return ["{", ...renderAttrs(entries, indent + 4, sym, c), `${pad(indent + 2)}}`];
  }
  return [scalar(v)];
}

function withComma(lines: string[]): string[] {
  const out = [...lines];
  out[out.length - 1] += ",";
  return out;
}

function scalar(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined) return "null";
  if (typeof v === "object") return JSON.stringify(v) ?? String(v);
  return String(v);
}

function textLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const isAbsent = (v: unknown): boolean => v === undefined || v === null;

/** How a value changed, as lines led by `key`; nothing when it did not change. */
function renderDiff(key: string, before: unknown, after: unknown, indent: number, c: Colors): string[] {
  if (before === SENSITIVE && after === SENSITIVE) return [`${pad(indent)}${paintSym("~", c)} ${key} = ${c.dim(SENSITIVE_TEXT)}`];
  if (isDeepStrictEqual(before, after)) return [];
  if (isAbsent(before) && !isAbsent(after)) return attrLines(`${paintSym("+", c)} ${key} = `, renderValue(after, indent, "+", c), indent);
  if (after === null || (after === undefined && !isAbsent(before))) {
    const lines = attrLines(`${paintSym("-", c)} ${key} = `, renderValue(before, indent, "-", c), indent);
    lines[lines.length - 1] += ` ${c.dim("-> null")}`;
    return lines;
  }
  const lead = `${paintSym("~", c)} ${key} = `;
  if (isPlainObject(before) && isPlainObject(after)) return attrLines(lead, diffObjects(before, after, indent, c), indent);
  if (Array.isArray(before) && Array.isArray(after)) return attrLines(lead, diffLists(before, after, indent, c), indent);
  if (typeof before === "string" && typeof after === "string" && (before.includes("\n") || after.includes("\n"))) {
    return attrLines(lead, diffText(before, after, indent, c), indent);
  }
  const from = renderValue(before, indent, "-", c);
  const to = renderValue(after, indent, "+", c);
  const [toFirst = "", ...toRest] = to;
  from[from.length - 1] += ` -> ${toFirst}`;
  return attrLines(lead, [...from, ...toRest], indent);
}

function diffObjects(before: Record<string, unknown>, after: Record<string, unknown>, indent: number, c: Colors): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter((k) => !isDeepStrictEqual(before[k], after[k]));
  const width = Math.max(0, ...changed.map((k) => keyText(k).length));
  const lines = changed.flatMap((k) => renderDiff(keyText(k).padEnd(width), before[k], after[k], indent + 4, c));
  const unchanged = keys.length - changed.length;
  if (unchanged > 0) lines.push(`${pad(indent + 6)}${c.dim(`# (${unchanged} unchanged ${unchanged === 1 ? "attribute" : "attributes"} hidden)`)}`);
  return ["{", ...lines, `${pad(indent + 2)}}`];
}

function diffLists(before: unknown[], after: unknown[], indent: number, c: Colors): string[] {
  const lines: string[] = [];
  for (const part of diffArrays(before, after, { comparator: isDeepStrictEqual })) {
    if (!part.added && !part.removed) {
      const n = part.value.length;
      lines.push(`${pad(indent + 6)}${c.dim(`# (${n} unchanged ${n === 1 ? "element" : "elements"} hidden)`)}`);
      continue;
    }
    const sym: Sym = part.added ? "+" : "-";
    for (const item of part.value) lines.push(...withComma(attrLines(`${paintSym(sym, c)} `, renderValue(item, indent + 4, sym, c), indent + 4)));
  }
  return ["[", ...lines, `${pad(indent + 2)}]`];
}

/** A multi-line string as a unified line diff, so a one-line edit in a long description stands out. */
function diffText(before: string, after: string, indent: number, c: Colors): string[] {
  const patch = structuredPatch("", "", before, after, undefined, undefined, { context: 3 });
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    lines.push(`${pad(indent + 4)}${c.dim(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)}`);
    for (const line of hunk.lines) {
      // "\ No newline at end of file" is about files; a field value has no final newline to speak of.
      if (line.startsWith("\\")) continue;
      const marker = line.slice(0, 1);
      const text = line.slice(1);
      const painted = marker === "-" ? c.red(`- ${text}`) : marker === "+" ? c.green(`+ ${text}`) : `  ${text}`;
      lines.push(`${pad(indent + 4)}${painted}`.trimEnd());
    }
  }
  return ["<<-EOT", ...lines, `${pad(indent + 2)}EOT`];
}
