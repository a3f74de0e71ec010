// Values as every plan and drift view shows them: masking (secrets and unknowns) and the Terraform-like
// layout of attributes and of how they changed. The text plan, the markdown comment and the JSON
// document all mask through here, so a secret hidden in one rendering is hidden in every one.
//
// Secrets: a path listed as sensitive (or below one), a path the kind declares secret, a FieldChange
// marked `sensitive`, and the engine's own "(sensitive)" placeholder all come out as "(sensitive)", even
// when the plan wrongly carries the raw value.

import { isDeepStrictEqual } from "node:util";
import { diffArrays, structuredPatch } from "diff";
import pc from "picocolors";
import { isPlainObject, SENSITIVE_TEXT } from "../config/index.js";
import { KIND_DEFINITIONS, isKind } from "../kinds/index.js";
import type { DriftedField, DriftEntry } from "../plan/drift.js";
import { UNKNOWN_TEXT, type FieldChange, type ResourceChange } from "../plan/types.js";
import type { Colors } from "./output.js";

export { SENSITIVE_TEXT, UNKNOWN_TEXT };

// Markers replace masked values inside copied trees, so that layout code cannot reach a raw secret.
export const UNKNOWN: unique symbol = Symbol("unknown");
export const SENSITIVE: unique symbol = Symbol("sensitive");

/** A JSON value, as the documents carry them. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A change line's marker; "-/+" and "+/-" only head a replaced resource. */
export type Sym = "+" | "-" | "~" | "-/+" | "+/-";

/** How far attribute lines sit from the left edge; resource symbols are right-aligned to column 4. */
export const ATTR_INDENT = 6;

/** Fields that identify a destroyed object in its short summary, besides its id. */
const IDENTIFYING = ["name", "type"];

// ---------------------------------------------------------------------------------------------------
// Masking

/** A path as segments: "a.b[0].c", "a.b.0.c" and "a.b[].c" give ["a", "b", "0", "c"] (the last without "0"). */
export function segments(path: string): string[] {
  return path
    .replace(/\[(\d*|\*)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
}

const isIndex = (s: string): boolean => /^(\d+|\*)$/.test(s);

/** Where a walk down a value stands in a PathSet: the node of the path so far, or undefined once no path continues. */
type PathNode = { covered: boolean; next: Map<string, PathNode> };
type Cursor = PathNode | undefined;

/**
 * Paths are compared without their list indices, so "links.authKey", "links[*].authKey", "links[].authKey"
 * and "links.0.authKey" all cover every element's key: masking too much is safe, too little is not. The
 * paths are kept as a tree of their segments, so a walk down a value steps one segment at a time instead
 * of comparing its whole path with every path at every value.
 */
class PathSet {
  private readonly root: PathNode = { covered: false, next: new Map() };

  constructor(paths: readonly string[]) {
    for (const path of paths) {
      let node = this.root;
      for (const seg of segments(path)) {
        if (isIndex(seg)) continue;
        let child = node.next.get(seg);
        if (!child) node.next.set(seg, (child = { covered: false, next: new Map() }));
        node = child;
      }
      node.covered = true;
    }
  }

  /** Where `path` leads: a covered node as soon as one of the set covers it, undefined when none leads there. */
  at(path: readonly string[]): Cursor {
    let cursor: Cursor = this.root;
    for (const seg of path) {
      if (!cursor || cursor.covered) break;
      cursor = step(cursor, seg);
    }
    return cursor;
  }

  /** True when the path is one of the set or lies below one of them. */
  covers(path: readonly string[]): boolean {
    return this.at(path)?.covered === true;
  }
}

/** The cursor one segment further down: a list index stays where it is. */
const step = (at: Cursor, seg: string): Cursor => (at === undefined || isIndex(seg) ? at : at.next.get(seg));

/** The secret paths of an object of `kind`: those given, plus those the kind always treats as secret. */
export function sensitivePathsOf(kind: string, given: readonly string[]): string[] {
  // The kind's own list backs up the engine's: a path it forgot to list is still masked.
  const declared = isKind(kind) ? (KIND_DEFINITIONS.get(kind)?.sensitive.declared ?? []) : [];
  return [...new Set([...given, ...declared])];
}

export class Masks {
  private readonly sensitive: PathSet;
  private readonly unknown: PathSet;

  constructor(
    sensitivePaths: readonly string[],
    private readonly unknownPaths: readonly string[] = [],
  ) {
    this.sensitive = new PathSet(sensitivePaths);
    this.unknown = new PathSet(unknownPaths);
  }

  /** The masks of one planned change. */
  static of(rc: ResourceChange): Masks {
    return new Masks(sensitivePathsOf(rc.kind, rc.sensitive), rc.unknown);
  }

  isUnknown(path: readonly string[]): boolean {
    return this.unknown.covers(path);
  }

  isSensitive(path: readonly string[]): boolean {
    return this.sensitive.covers(path);
  }

  /** A copy of `value` at `path` with secrets, and when `withUnknowns` the unknown values, replaced by markers. */
  mask(value: unknown, path: readonly string[], withUnknowns: boolean): unknown {
    return this.maskAt(value, this.sensitive.at(path), withUnknowns ? this.unknown.at(path) : undefined);
  }

  private maskAt(value: unknown, sensitive: Cursor, unknown: Cursor): unknown {
    if (value === undefined) return undefined;
    if (value === SENSITIVE_TEXT || sensitive?.covered) return SENSITIVE;
    if (value === UNKNOWN_TEXT || unknown?.covered) return UNKNOWN;
    if (Array.isArray(value)) return value.map((v: unknown) => this.maskAt(v, sensitive, unknown));
    if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) copy[k] = this.maskAt(v, step(sensitive, k), step(unknown, k));
      return copy;
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

/**
 * A drifted field's values, masked: a drift entry carries no list of secret paths, so the field's own flag
 * and the kind's declared secrets decide.
 */
export function maskedDriftField(entry: Pick<DriftEntry, "kind">, field: DriftedField): { before: unknown; after: unknown } {
  const masks = new Masks(sensitivePathsOf(entry.kind, []));
  const segs = segments(field.path);
  const force = field.sensitive === true;
  return { before: masks.maskChangeValue(field.before, segs, force, false), after: masks.maskChangeValue(field.after, segs, force, false) };
}

/** FieldChange documents an absent `after` as "unknown until apply"; JSON drops `after: undefined`, so this matches. */
export const afterIsUnknown = (fc: FieldChange, masks: Masks): boolean => fc.unknown === true || !Object.hasOwn(fc, "after") || masks.isUnknown(segments(fc.path));

/**
 * A masked tree as JSON: markers become their texts. Absent object members are left out and absent list
 * items become null, as JSON.stringify would have it; anything else JSON cannot hold becomes its text.
 */
export function toJson(masked: unknown): JsonValue {
  if (masked === SENSITIVE) return SENSITIVE_TEXT;
  if (masked === UNKNOWN) return UNKNOWN_TEXT;
  if (masked === null || masked === undefined) return null;
  if (typeof masked === "string" || typeof masked === "boolean") return masked;
  if (typeof masked === "number") return Number.isFinite(masked) ? masked : null;
  if (Array.isArray(masked)) return masked.map((v: unknown) => toJson(v));
  if (isPlainObject(masked)) {
    return Object.fromEntries(Object.entries(masked).flatMap(([k, v]) => (v === undefined ? [] : [[k, toJson(v)]])));
  }
  return String(masked);
}

// ---------------------------------------------------------------------------------------------------
// The body of one resource's block: what is created, what is destroyed, how fields change.

export function createdLines(rc: ResourceChange, c: Colors, masks = Masks.of(rc)): string[] {
  const tree = masks.mask(rc.after ?? {}, [], true);
  if (!isPlainObject(tree)) return [];
  masks.insertUnknowns(tree);
  return renderAttrs(Object.entries(tree), ATTR_INDENT, "+", c);
}

/** A destroyed object is summarised: its id and what names it, not every attribute the API returned. */
export function deletedLines(rc: ResourceChange, c: Colors, masks = Masks.of(rc)): string[] {
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

export function fieldChangeLines(rc: ResourceChange, c: Colors, masks = Masks.of(rc)): string[] {
  const width = Math.max(0, ...rc.changes.map((fc) => fc.path.length));
  return rc.changes.flatMap((fc) => {
    const segs = segments(fc.path);
    const before = masks.maskChangeValue(fc.before, segs, fc.sensitive === true, false);
    const after = afterIsUnknown(fc, masks) ? UNKNOWN : masks.maskChangeValue(fc.after, segs, fc.sensitive === true, true);
    const lines = renderDiff(fc.path.padEnd(width), before, after, ATTR_INDENT, c);
    if (fc.forcesReplacement && lines.length > 0) lines[0] += ` ${c.red("# forces replacement")}`;
    return lines;
  });
}

// ---------------------------------------------------------------------------------------------------
// A diff gutter, for renderings (a markdown ```diff block) that colour a line by its first character.

const MARK = "\u0001";
const plainColors = pc.createColors(false);
// Symbols are painted green, red or yellow, and nothing else is painted those colours before a line's
// symbol; so a colour marker says which symbol a line starts with, without guessing from the text (a
// multi-line value may well have lines that start with "- ").
const marking: Colors = {
  ...plainColors,
  green: (s) => `${MARK}+${String(s)}`,
  red: (s) => `${MARK}-${String(s)}`,
  yellow: (s) => `${MARK}~${String(s)}`,
};
const MARKS = new RegExp(`${MARK}.`, "g");

/**
 * Lines rendered by `render` with each line's symbol moved to the first column ("+", "-", "~" or a space),
 * and the common indentation removed, so that a diff highlighter colours them.
 */
export function gutterLines(render: (c: Colors) => string[]): string[] {
  const rows = render(marking).map((line): [string, string] => {
    const at = line.indexOf(MARK);
    const plain = line.replace(MARKS, "");
    if (at < 0) return [" ", plain];
    const sym = line.charAt(at + 1);
    const symbol = plain.charAt(at);
    const rest = "+-~".includes(symbol) ? `${plain.slice(0, at)} ${plain.slice(at + 1)}` : plain;
    return [sym, rest];
  });
  const indent = Math.min(...rows.filter(([, rest]) => rest.trim() !== "").map(([, rest]) => rest.length - rest.trimStart().length));
  const cut = Number.isFinite(indent) ? indent : 0;
  return rows.map(([sym, rest]) => `${sym} ${rest.slice(cut)}`.trimEnd());
}

// ---------------------------------------------------------------------------------------------------
// Layout. `indent` is the column of a line's symbol; its key starts two columns later, nested lines
// four columns later, and closing brackets line up with the key.

export const pad = (n: number): string => " ".repeat(n);

const keyText = (key: string): string => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));

const isCompound = (v: unknown): boolean => Array.isArray(v) || isPlainObject(v);

export function paintSym(sym: Sym, c: Colors): string {
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

/** A value on one line: strings quoted, objects and lists as compact JSON, markers as their texts. */
export function scalar(v: unknown): string {
  if (v === UNKNOWN) return UNKNOWN_TEXT;
  if (v === SENSITIVE) return SENSITIVE_TEXT;
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined) return "null";
  if (typeof v === "object") return JSON.stringify(toJson(v));
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
