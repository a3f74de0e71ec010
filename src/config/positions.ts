// YAML with source positions. Every diagnostic points at the offending value, so parsing keeps, for each
// value, where its key and its value start (the yaml package's node ranges through a LineCounter), indexed
// by the value's path in the document.

import { Lexer, LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type ErrorCode, type Node, type YAMLError } from "yaml";
import type { Diagnostic } from "../diag/index.js";
import { formatPath, type FieldPath } from "./address.js";
import { findYamlMistake } from "./yaml-mistakes.js";
import { readSubset, type Deferral } from "./yaml-subset.js";

export interface SourcePosition {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** Where a value is written: its key (absent for array items and the document root) and the value itself. */
export interface NodeSpan {
  key?: SourcePosition;
  value: SourcePosition;
}

/** Spans by path, `formatPath` form, relative to whatever the index was built for. */
export type PositionIndex = Map<string, NodeSpan>;

/**
 * The positions of a value two levels down (a resource), whose own span is known at once and the rest, when
 * the subset reader read it, only once something asks: then they are read again from the text, as they
 * would have been recorded, before the question is answered. Every read of the map fills it first.
 */
class DeferredPositions extends Map<string, NodeSpan> {
  private pending: (() => void) | undefined;

  /** What fills the map when it is first read. */
  fillWith(fill: () => void): void {
    this.pending = fill;
  }

  private fill(): void {
    const fill = this.pending;
    if (!fill) return;
    this.pending = undefined;
    fill();
  }

  override get size(): number {
    this.fill();
    return super.size;
  }
  override get(key: string): NodeSpan | undefined {
    this.fill();
    return super.get(key);
  }
  override has(key: string): boolean {
    this.fill();
    return super.has(key);
  }
  override set(key: string, span: NodeSpan): this {
    this.fill();
    return super.set(key, span);
  }
  override delete(key: string): boolean {
    this.fill();
    return super.delete(key);
  }
  override clear(): void {
    this.pending = undefined;
    super.clear();
  }
  override forEach(each: (span: NodeSpan, key: string, map: Map<string, NodeSpan>) => void, thisArg?: unknown): void {
    this.fill();
    super.forEach(each, thisArg);
  }
  override entries(): MapIterator<[string, NodeSpan]> {
    this.fill();
    return super.entries();
  }
  override keys(): MapIterator<string> {
    this.fill();
    return super.keys();
  }
  override values(): MapIterator<NodeSpan> {
    this.fill();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[string, NodeSpan]> {
    return this.entries();
  }
}

/**
 * A file's positions. Values two levels down (a resource under its kind, `provider.timeouts`) open a scope
 * of their own, indexed relative to it, so that a resource's positions are handed over without copying.
 */
export interface FileIndex {
  /** Paths of length 0 to 2, absolute. */
  root: PositionIndex;
  /** By `formatPath` of the two-segment prefix: positions relative to it ("" is the prefix itself). */
  scopes: Map<string, PositionIndex>;
}

export interface ParsedFile {
  file: string;
  value: unknown;
  index: FileIndex;
  diagnostics: Diagnostic[];
}

/**
 * The yaml package's Parser reads `process.env.LOG_TOKENS` for every token (its debugging switch), and
 * process.env is a native object whose every read asks the operating system's environment: a large share
 * of the parse. Parsing is synchronous, so for its duration process.env is a plain copy, which answers the
 * same, and is restored whatever happens.
 */
function withPlainEnv<T>(run: () => T): T {
  const env = process.env;
  try {
    process.env = { ...env };
  } catch {
    return run();
  }
  try {
    return run();
  } finally {
    process.env = env;
  }
}

/** Keys written twice are found by the walk, which names both places (the parser names only the second). */
const PARSE_OPTIONS = { merge: true, prettyErrors: false, uniqueKeys: false } as const;

/** Which top-level keys are sections of resources (the kinds): only for naming a key written twice. */
export interface Sections {
  has(name: string): boolean;
}

const NO_SECTIONS: Sections = { has: () => false };

/**
 * Parses one YAML text; syntax errors become diagnostics and the value is whatever could be read. The
 * subset of YAML configurations are written in is read directly (yaml-subset.ts), anything else by the yaml
 * package.
 */
export function parseYaml(file: string, text: string, sections: Sections = NO_SECTIONS): ParsedFile {
  const refused = refusedTooDeep(file, text);
  if (refused) return refused;
  const index: FileIndex = { root: new Map(), scopes: new Map() };
  const subset = readSubset<Scope>(file, text, { positions: index.root, base: 0, prefix: 0 }, (level, key, scope, span) => record(index, level, key, scope, span), MAX_NESTING, DEFER_SCOPES);
  return subset ? { file, value: subset.value, index, diagnostics: [] } : withPlainEnv(() => parseYamlText(file, text, sections));
}

/** Parses one YAML text with the yaml package: what parseYaml does for a text outside the subset, and the tests hold the subset's reading to. */
export function parseYamlDocument(file: string, text: string, sections: Sections = NO_SECTIONS): ParsedFile {
  return refusedTooDeep(file, text) ?? withPlainEnv(() => parseYamlText(file, text, sections));
}

/** A text that nests deeper than MAX_NESTING: refused where it does, before either reader recurses into it. */
function refusedTooDeep(file: string, text: string): ParsedFile | undefined {
  const deep = mayBeTooDeep(text) ? tooDeepAt(text) : undefined;
  if (deep === undefined) return undefined;
  const lines = text.slice(0, deep).split("\n");
  return { file, value: null, index: { root: new Map(), scopes: new Map() }, diagnostics: [tooDeep({ file, line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 })] };
}

function parseYamlText(file: string, text: string, sections: Sections): ParsedFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter });
  const lineStarts = lineCounter.lineStarts;
  // Positions are asked for in document order, so the line is found by stepping forward from the last one
  // (the same answer as lineCounter.linePos, without its binary search and intermediate object).
  let line = 0;
  const pos = (offset: number): SourcePosition => {
    const n = lineStarts.length;
    if (line >= n || (lineStarts[line] as number) > offset || (line + 1 < n && (lineStarts[line + 1] as number) <= offset)) {
      const { line: l, col } = lineCounter.linePos(offset);
      if (l === 0) return { file, line: 0, column: col };
      line = l - 1;
      return { file, line: l, column: col };
    }
    return { file, line: line + 1, column: offset - (lineStarts[line] as number) + 1 };
  };
  const diagnostics: Diagnostic[] = [];
  if (doc.errors.length > 0) diagnostics.push(syntaxError(file, text, doc.errors, lineCounter));
  for (const w of doc.warnings) {
    const p = pos(w.pos[0]);
    diagnostics.push({ severity: "warning", code: `yaml.${w.code.toLowerCase().replaceAll("_", "-")}`, file, line: p.line, column: p.column, message: yamlMessage(w.message) });
  }
  const index: FileIndex = { root: new Map(), scopes: new Map() };
  const ctx: Walk = { doc, pos, diagnostics, file, index, sections, checkKeys: doc.errors.length === 0, aliased: 0, expanding: undefined, stopped: false };
  const value = doc.contents ? toValue(ctx, doc.contents, 0, { positions: index.root, base: 0, prefix: 0 }, undefined, "") : null;
  return { file, value, index, diagnostics };
}

/** The yaml package's messages end with a code excerpt and position; ours carry the position already. */
function yamlMessage(message: string): string {
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, "");
}

/** What to do about the parser's errors that findYamlMistake does not explain. */
function syntaxHint(code: ErrorCode): string {
  switch (code) {
    case "BAD_DQ_ESCAPE":
      return 'inside "...", write \\\\ for a backslash, or use single quotes';
    case "BAD_ALIAS":
    case "BAD_PROP_ORDER":
    case "MULTIPLE_ANCHORS":
    case "ALIAS_PROPS":
      return "an alias (*name) refers to an anchor (&name) written before it, and takes no anchor or tag of its own";
    case "MULTIPLE_DOCS":
      return "put each part after --- in a file of its own, in the same directory";
    default:
      return "check this line's indentation, colons and quotes; a value with special characters ({ } [ ] : # @ `) can be quoted";
  }
}

/**
 * One diagnostic for a text the parser could not read. Its later errors follow from how it recovered from
 * the first, so only the first counts, and the mistake behind it when findYamlMistake can tell: that is
 * at or before the parser's first error, or on the line below (a key indented too deep shows as an error
 * in the line above).
 */
function syntaxError(file: string, text: string, errors: readonly YAMLError[], lineCounter: LineCounter): Diagnostic {
  const first = errors.reduce((a, b) => (b.pos[0] < a.pos[0] ? b : a));
  const at = lineCounter.linePos(first.pos[0]);
  const mistake = findYamlMistake(text);
  if (mistake && mistake.line <= at.line + 1) {
    return { severity: "error", code: mistake.code, file, line: mistake.line, column: mistake.column, message: mistake.message, ...(mistake.hint ? { hint: mistake.hint } : {}) };
  }
  // The parser points at the start of the line for some errors: the line's first character is meant.
  const lineText = text.slice(lineCounter.lineStarts[at.line - 1] ?? 0).split(/\r?\n/, 1)[0] ?? "";
  const firstChar = (/^\s*/.exec(lineText)?.[0].length ?? 0) + 1;
  const column = at.col < firstChar && firstChar <= lineText.length ? firstChar : at.col;
  return { severity: "error", code: `yaml.${first.code.toLowerCase().replaceAll("_", "-")}`, file, line: at.line, column, message: first.code === "MULTIPLE_DOCS" ? "this file holds several YAML documents (separated by ---), and a configuration file holds one" : yamlMessage(first.message), hint: syntaxHint(first.code) };
}

/**
 * Deeper than any configuration nests (a resource's fields sit four levels down), and shallow enough for
 * the parser, whose recursion overflows the stack some hundreds of levels down and which slows down long
 * before that.
 */
export const MAX_NESTING = 64;
/** How many values aliases may expand to in one file: generous for anchors reused across resources, and a few milliseconds of walking. */
export const MAX_ALIASED_VALUES = 100_000;

/**
 * Whether the text might nest deeper than MAX_NESTING, by a scan of its characters that is cheap next to
 * lexing it (tooDeepAt): a large configuration would otherwise be lexed twice. A line's block depth is
 * at most its indentation plus one, plus the "- " and "? " indicators on it (the levels open at its first token have
 * smaller columns, each its own); flow depth at most the brackets opened and not yet closed. Brackets in
 * quotes or comments count too, which can only overstate the depth: then tooDeepAt decides. (A closing
 * bracket in quotes could understate it: the walk of the parsed document stops at MAX_NESTING all the same.)
 */
function mayBeTooDeep(text: string): boolean {
  let flow = 0;
  let indent = 0;
  let atLineStart = true;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      atLineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (atLineStart) {
      if (c === 0x20 || c === 0x09) {
        indent++;
        continue;
      }
      atLineStart = false;
    }
    if (c === 0x5b || c === 0x7b) flow++; // [ {
    else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--; // ] }
    else if ((c === 0x2d || c === 0x3f) && isBlankAt(text, i + 1)) indicators++; // "- " "? " (not the dashes of a uuid)
    if (indent + 1 + indicators + flow > MAX_NESTING) return true;
  }
  return false;
}

/** Whether the text has a blank (space, tab, line end) or its end at `i`. */
function isBlankAt(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const c = text.charCodeAt(i);
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Where the text nests deeper than MAX_NESTING, if it does, by flow brackets and block indentation (each
 * line's first token, and each "- " or "? " after it, opens a level deeper than those it is right of). It
 * runs on the lexer's tokens, before the parser, and stops at the first place too deep.
 */
function tooDeepAt(text: string): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let offset = 0;
  let lineStart = 0;
  let firstOnLine = true;
  for (const token of new Lexer().lex(text)) {
    const c = token.charCodeAt(0);
    const single = token.length === 1;
    if (single && c < 0x20 && c !== 0x0a) continue; // a marker the lexer inserts, not in the text
    const at = offset;
    offset += token.length;
    if (single && (c === 0x5b || c === 0x7b)) flow++; // [ {
    else if (single && (c === 0x5d || c === 0x7d)) flow = Math.max(0, flow - 1); // ] }
    else if (flow === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x23 && (firstOnLine || (single && (c === 0x2d || c === 0x3f)))) {
      // Not a space, newline or comment, and first on its line or a "-" / "?" indicator.
      const column = at - lineStart;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= column) indents.pop();
      indents.push(column);
      firstOnLine = false;
    }
    if (indents.length + flow > MAX_NESTING) return at;
    const newline = c === 0x0a && single ? 0 : token.lastIndexOf("\n");
    if (newline >= 0) {
      lineStart = at + newline + 1;
      firstOnLine = true;
    }
  }
  return undefined;
}

function tooDeep(where: SourcePosition): Diagnostic {
  return { severity: "error", code: "yaml.too-deep", ...where, message: `this value is nested more than ${MAX_NESTING} levels deep`, hint: "a configuration nests a few levels; write this value flatter" };
}

interface Walk {
  doc: Document;
  pos: (offset: number) => SourcePosition;
  diagnostics: Diagnostic[];
  file: string;
  index: FileIndex;
  sections: Sections;
  /** Whether to report keys written twice or not plain: not in a text the parser could not read, where its recovery guessed. */
  checkKeys: boolean;
  /** Values produced by aliases and merges so far. */
  aliased: number;
  /** Where the alias or merge being expanded is written, outermost first. */
  expanding: SourcePosition | undefined;
  /** Set when a bound is exceeded and reported: the walk returns nothing more. */
  stopped: boolean;
}

interface Scope {
  positions: PositionIndex;
  /** How many leading path segments the scope's keys leave out. */
  base: number;
  /** The length of those segments in the formatted key. */
  prefix: number;
}

/** Aliased values keep the anchor's positions (that is where they are written), so they are not indexed again. */
const DISCARD: Scope = { positions: new Map(), base: 0, prefix: 0 };

/** The positions inside a scope are read when first asked for (the subset reader can read them again). */
const DEFER_SCOPES: Deferral<Scope> = { level: 2, defer: (scope, fill) => (scope.positions as DeferredPositions).fillWith(fill) };

/** `key` is the path's formatPath, built incrementally by the walk rather than joined at every node; `level` is the path's length. */
function record(index: FileIndex, level: number, key: string, scope: Scope, span: NodeSpan): Scope {
  if (scope === DISCARD) return scope;
  if (level === 2) {
    scope.positions.set(key, span);
    const inner: Scope = { positions: new DeferredPositions([["", span]]), base: 2, prefix: key.length };
    index.scopes.set(key, inner.positions);
    return inner;
  }
  if (scope.base === 0) scope.positions.set(key, span);
  else {
    const rel = key.slice(scope.prefix + (key.charCodeAt(scope.prefix) === 91 /* [ */ ? 0 : 1));
    scope.positions.set(rel, span);
  }
  return scope;
}

const childKey = (key: string, seg: string | number): string => (typeof seg === "number" ? `${key}[${seg}]` : key === "" ? seg : `${key}.${seg}`);

function toValue(ctx: Walk, node: Node, level: number, outer: Scope, key: SourcePosition | undefined, pathKey: string, depth = 0): unknown {
  const { doc, pos } = ctx;
  const start = node.range?.[0] ?? 0;
  if (ctx.stopped) return null;
  const scope = record(ctx.index, level, pathKey, outer, key ? { key, value: pos(start) } : { value: pos(start) });
  if (depth > MAX_NESTING) return stop(ctx, tooDeep(pos(start)));
  if (ctx.expanding && ++ctx.aliased > MAX_ALIASED_VALUES) {
    return stop(ctx, { severity: "error", code: "yaml.alias-expansion", ...ctx.expanding, message: `the aliases here expand to more than ${MAX_ALIASED_VALUES} values`, hint: "an anchor is reused a few times, not nested in aliases of itself: write the value out, or share it with a variable" });
  }
  if (isScalar(node)) return node.value;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    let merges: unknown[] | undefined;
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const k = pair.key as Node | null;
      const keyOffset = k?.range?.[0] ?? start;
      let name: string;
      if (k === null || k === undefined) name = "";
      else if (isScalar(k)) name = String(k.value);
      else {
        const p = pos(keyOffset);
        if (ctx.checkKeys) ctx.diagnostics.push({ severity: "error", code: "yaml.complex-key", file: ctx.file, line: p.line, column: p.column, message: "keys must be plain strings" });
        continue;
      }
      const v = pair.value as Node | null;
      if (name === "<<" && isScalar(k) && k.source === "<<") {
        const target = v && isAlias(v) ? v.resolve(doc) : v;
        const targets = target && isSeq(target) ? target.items.map((t) => (isAlias(t) ? t.resolve(doc) : t)) : [target];
        const outermost = ctx.expanding === undefined;
        if (outermost) ctx.expanding = pos(keyOffset);
        for (const t of targets) if (t) (merges ??= []).push(toValue(ctx, t as Node, level, DISCARD, undefined, pathKey, depth + 1));
        if (outermost) ctx.expanding = undefined;
        continue;
      }
      if (Object.hasOwn(out, name)) {
        if (ctx.checkKeys && scope !== DISCARD) ctx.diagnostics.push(keyWrittenTwice(ctx, node.items, name, pathKey, pos(keyOffset)));
        continue;
      }
      const ck = childKey(pathKey, name);
      if (v === null || v === undefined) {
        record(ctx.index, level + 1, ck, scope, { key: pos(keyOffset), value: pos(keyOffset) });
        out[name] = null;
      } else {
        out[name] = toValue(ctx, v, level + 1, scope, pos(keyOffset), ck, depth + 1);
      }
    }
    if (merges) {
      for (const m of merges) {
        if (m && typeof m === "object" && !Array.isArray(m)) {
          for (const [k, v] of Object.entries(m)) if (!(k in out)) out[k] = v;
        }
      }
    }
    return out;
  }
  if (isSeq(node)) {
    const items = node.items;
    const out: unknown[] = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      out[i] = item === null || item === undefined ? null : toValue(ctx, item as Node, level + 1, scope, undefined, childKey(pathKey, i), depth + 1);
    }
    return out;
  }
  if (isAlias(node)) {
    const target = node.resolve(doc);
    const outermost = ctx.expanding === undefined;
    if (outermost) ctx.expanding = pos(start);
    try {
      return target ? toValue(ctx, target, level, DISCARD, key, pathKey, depth + 1) : null;
    } finally {
      if (outermost) ctx.expanding = undefined;
    }
  }
  return null;
}

function stop(ctx: Walk, diagnostic: Diagnostic): null {
  ctx.diagnostics.push(diagnostic);
  ctx.stopped = true;
  return null;
}

/** A key written twice in one mapping, named by what it declares, with both places; the first one counts. */
function keyWrittenTwice(ctx: Walk, items: readonly unknown[], name: string, parentKey: string, second: SourcePosition): Diagnostic {
  const firstPair = items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === name) as { key: Node } | undefined;
  const first = ctx.pos(firstPair?.key.range?.[0] ?? 0);
  const places = `${at(first)} and ${at(second)}`;
  const where = { file: second.file, line: second.line, column: second.column };
  if (parentKey === "") {
    const hint = ctx.sections.has(name) ? `a file has one ${name}: section: put every one of its ${name} under the first` : "keep one of them";
    return { severity: "error", code: "config.duplicate", ...where, path: name, message: `${name} is declared twice: ${places}`, hint };
  }
  const [head = "", resource = ""] = parentKey.split(".");
  if (ctx.sections.has(head) && parentKey === head) {
    const address = `${head}.${name}`;
    return { severity: "error", code: "config.duplicate", address, ...where, message: `${address} is declared twice: ${places}`, hint: "rename one of them, or remove the one not meant" };
  }
  const path = childKey(parentKey, name);
  if (ctx.sections.has(head)) {
    const field = path.slice(head.length + resource.length + 2);
    return { severity: "error", code: "config.duplicate", address: `${head}.${resource}`, ...where, path: field, message: `${field} is set twice: ${places}`, hint: "keep one of them" };
  }
  return { severity: "error", code: "config.duplicate", ...where, path, message: `${path} is ${head === "variables" && parentKey === head ? "declared" : "set"} twice: ${places}`, hint: "keep one of them" };
}

const at = (p: SourcePosition): string => `${p.file}:${p.line}:${p.column}`;

/** The span of a path, or of its nearest ancestor that is written down (a missing field points at its parent's key). */
export function spanAt(positions: PositionIndex, path: FieldPath): { span: NodeSpan; exact: boolean } | undefined {
  for (let n = path.length; n >= 0; n--) {
    const span = positions.get(formatPath(path.slice(0, n)));
    if (span) return { span, exact: n === path.length };
  }
  return undefined;
}

