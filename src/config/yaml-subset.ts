// The YAML configurations are written in, read without the yaml package. Its parser builds a syntax tree and
// then a document of nodes, every one of them alive until the whole file is read: for a configuration of
// thousands of resources that is most of a plan's start and much of its memory (and the garbage collector's
// work of moving it). Nearly every configuration keeps to block mappings and sequences of plain keys, with
// plain, quoted or one-line flow values; this reader takes exactly those, straight to values and positions,
// and declines anything else (anchors, tags, block and multi-line scalars, tabs, a key written twice, any
// doubt), which the yaml package then reads, with its diagnostics. What it accepts it reads as the yaml
// package does (the core schema's scalars, the same node positions): the test beside it holds the two to
// the same answers.

import type { NodeSpan, SourcePosition } from "./positions.js";

/**
 * Records the span of the value at `key` (`formatPath` form, `level` segments long) in `scope`, and returns
 * the scope its children go into: the walk of the yaml package's document records through the same function.
 */
export type Recorder<S> = (level: number, key: string, scope: S, span: NodeSpan) => S;

/**
 * Leaves the positions below the values at `level` unrecorded while the text is read: `defer` is given the
 * scope such a value opened, and `fill`, which records them into it when they are first needed. Most are
 * never needed (they place diagnostics), and recording every one is much of reading a large configuration
 * and, kept for the whole run, half the memory its resources take.
 */
export interface Deferral<S> {
  level: number;
  defer: (scope: S, fill: () => void) => void;
}

/** Thrown to give the text to the yaml package. */
const DECLINE = new Error("not in the subset");

/** Characters the subset leaves to the yaml package wherever they are: tabs, carriage returns, other controls, byte order marks, the line breaks of YAML 1.1. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNUSUAL = /[\x00-\x09\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/;

/** Keys the core schema reads as null or a boolean, whose string the yaml package would spell differently. */
const NOT_A_STRING_KEY = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]);

const SPACE = 0x20;
const NEWLINE = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const COMMA = 0x2c;

/** A letter or "_": how a key the subset takes begins. */
const isKeyStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
/** Letters, digits, "_", "-", "." and "/": what follows. */
const isKeyChar = (c: number): boolean => isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === DASH || c === 0x2e || c === 0x2f;

/**
 * The value of `text` and its positions, recorded from `root` on, or undefined when the text is not in the
 * subset (then nothing is to be used of what was recorded).
 */
export function readSubset<S>(file: string, text: string, root: S, record: Recorder<S>, maxDepth: number, deferral?: Deferral<S>): { value: unknown } | undefined {
  if (UNUSUAL.test(text)) return undefined;
  const reader = new SubsetReader(file, text, record, maxDepth, deferral);
  try {
    return { value: reader.document(root) };
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  }
}

class SubsetReader<S> {
  /** Where the current line starts, and its number (1-based). */
  private lineStart = 0;
  private line = 1;
  /** The deepest indentation of the comment lines the last skipToContent passed. */
  private commentIndent = -1;
  /** Off below a deferred value: its positions (and the keys and spans they are made of) are left for later. */
  private recording = true;

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly record: Recorder<S>,
    private readonly maxDepth: number,
    private readonly deferral?: Deferral<S>,
  ) {}

  document(root: S): unknown {
    const indent = this.skipToContent();
    // An empty document, or one of a single scalar: rare, and the yaml package's to read.
    if (indent < 0) throw DECLINE;
    const value = this.block(indent, 0, "", root, undefined, 0);
    if (this.skipToContent() >= 0) throw DECLINE;
    return value;
  }

  /** Offsets are on the current line whenever a position is asked for. */
  private pos(offset: number): SourcePosition {
    return { file: this.file, line: this.line, column: offset - this.lineStart + 1 };
  }

  /** Where a value is written: at `at` on the current line, under its key's position when it has one. */
  private span(keyPos: SourcePosition | undefined, at: number): NodeSpan {
    return keyPos ? { key: keyPos, value: this.pos(at) } : { value: this.pos(at) };
  }

  /** Records the span of the value at `key` when recording, and returns the scope its children go into. */
  private open(level: number, key: string, scope: S, keyPos: SourcePosition | undefined, at: number): S {
    return this.recording ? this.record(level, key, scope, this.span(keyPos, at)) : scope;
  }

  /** `key` and a segment after it, in formatPath form; only needed for what is recorded. */
  private childKey(key: string, name: string): string {
    return this.recording ? (key === "" ? name : `${key}.${name}`) : "";
  }

  /** `key` and a list index after it, in formatPath form; only needed for what is recorded. */
  private itemKey(key: string, index: number): string {
    return this.recording ? `${key}[${index}]` : "";
  }

  /** A key's position on the current line; only needed for what is recorded. */
  private keyPos(at: number): SourcePosition | undefined {
    return this.recording ? this.pos(at) : undefined;
  }

  /**
   * Reads the children of a value at `level` (in `scope`), from the current line on; when the value is one the
   * deferral names, without recording them, and hands over how to read them again, recording, from here.
   */
  private children<T>(level: number, scope: S, read: (reader: SubsetReader<S>) => T): T {
    if (!this.recording || this.deferral?.level !== level) return read(this);
    const { file, text, record, maxDepth, lineStart, line } = this;
    this.recording = false;
    let value: T;
    try {
      value = read(this);
    } finally {
      this.recording = true;
    }
    this.deferral.defer(scope, () => {
      // The same text from the same place: it reads as it did, this time recording.
      const again = new SubsetReader(file, text, record, maxDepth);
      again.lineStart = lineStart;
      again.line = line;
      read(again);
    });
    return value;
  }

  /** Moves to the line after the current one. */
  private nextLine(): void {
    const end = this.text.indexOf("\n", this.lineStart);
    this.lineStart = end < 0 ? this.text.length : end + 1;
    this.line++;
  }

  /** Moves to the next line with content, from the current one; returns its indentation, or -1 at the end. */
  private skipToContent(): number {
    const text = this.text;
    this.commentIndent = -1;
    for (;;) {
      const i = this.skipSpaces(this.lineStart);
      if (i >= text.length) return -1;
      const c = text.charCodeAt(i);
      if (c !== NEWLINE && c !== HASH) return i - this.lineStart;
      if (c === HASH) this.commentIndent = Math.max(this.commentIndent, i - this.lineStart);
      if (this.lineStart >= text.length) return -1;
      this.nextLine();
    }
  }

  /** The offset of the first character after `i` that is not a space. */
  private skipSpaces(i: number): number {
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** Whether `i` is the end of the line's content: its end, or a comment after a space. */
  private atLineEnd(i: number, spaced: boolean): boolean {
    const c = this.text.charCodeAt(i);
    return i >= this.text.length || c === NEWLINE || (c === HASH && spaced);
  }

  /** The end of the plain key starting at `i` when a colon follows it, else -1. */
  private keyBeforeColon(i: number): number {
    if (!isKeyStart(this.text.charCodeAt(i))) return -1;
    let e = i + 1;
    while (isKeyChar(this.text.charCodeAt(e))) e++;
    return this.text.charCodeAt(e) === COLON ? e : -1;
  }

  /** The end of the plain key starting at `i` when a block mapping's ": " or ":" at the line's end follows it, else -1. */
  private keyEnd(i: number): number {
    const e = this.keyBeforeColon(i);
    if (e < 0) return -1;
    const after = this.text.charCodeAt(e + 1);
    return after === SPACE || after === NEWLINE || e + 1 >= this.text.length ? e : -1;
  }

  /** The block collection whose first line (at indentation `indent`) is the current one. */
  private block(indent: number, level: number, key: string, outer: S, keyPos: SourcePosition | undefined, depth: number): unknown {
    if (depth > this.maxDepth) throw DECLINE;
    const start = this.lineStart + indent;
    const scope = this.open(level, key, outer, keyPos, start);
    if (this.text.charCodeAt(start) === DASH) return this.children(level, scope, (r) => r.sequence(indent, level, key, scope, depth));
    if (this.keyEnd(start) < 0) throw DECLINE;
    return this.children(level, scope, (r) => r.mapping(indent, start, level, key, scope, depth));
  }

  /** A block mapping whose keys are at column `indent`, the first of them at `first` on the current line. */
  private mapping(indent: number, first: number, level: number, key: string, scope: S, depth: number): Record<string, unknown> {
    const text = this.text;
    const out: Record<string, unknown> = {};
    let at = first;
    for (;;) {
      const end = this.keyEnd(at);
      if (end < 0) throw DECLINE;
      const name = text.slice(at, end);
      // A key written twice is the yaml package's walk to report; a null or boolean key is not the string written.
      if (Object.hasOwn(out, name) || name === "__proto__" || NOT_A_STRING_KEY.has(name)) throw DECLINE;
      const childKey = this.childKey(key, name);
      const keyPos = this.keyPos(at);
      const valueAt = this.skipSpaces(end + 1);
      let next: number;
      if (this.atLineEnd(valueAt, true)) {
        // Nothing after the colon: a collection on the lines below, or null (placed where the yaml package places it).
        const nullPos = this.keyPos(valueAt);
        this.nextLine();
        next = this.skipToContent();
        if (next > indent) {
          out[name] = this.block(next, level + 1, childKey, scope, keyPos, depth + 1);
          next = this.skipToContent();
        } else {
          // A sequence at the key's own indentation is valid YAML, left to the yaml package.
          if ((next === indent && text.charCodeAt(this.lineStart + next) === DASH) || depth + 1 > this.maxDepth) throw DECLINE;
          if (this.recording) this.record(level + 1, childKey, scope, { key: keyPos, value: nullPos as SourcePosition });
          out[name] = null;
        }
      } else {
        out[name] = this.inline(valueAt, level + 1, childKey, scope, keyPos, depth + 1);
        next = this.afterInline(indent);
      }
      if (next < indent) return out;
      // Deeper than the keys but not below one: a continued scalar or a mistake, either the yaml package's.
      if (next > indent) throw DECLINE;
      at = this.lineStart + next;
    }
  }

  /** A block sequence whose dashes are at column `indent`, the first on the current line. */
  private sequence(indent: number, level: number, key: string, scope: S, depth: number): unknown[] {
    const text = this.text;
    const out: unknown[] = [];
    for (;;) {
      const dash = this.lineStart + indent;
      if (text.charCodeAt(dash) !== DASH || text.charCodeAt(dash + 1) !== SPACE) throw DECLINE;
      const at = this.skipSpaces(dash + 1);
      const itemKey = this.itemKey(key, out.length);
      let next: number;
      if (this.atLineEnd(at, true) || (text.charCodeAt(at) === DASH && text.charCodeAt(at + 1) === SPACE)) throw DECLINE;
      if (this.keyEnd(at) >= 0) {
        // A mapping begun on the dash's line: its keys are at the first one's column.
        if (depth + 1 > this.maxDepth) throw DECLINE;
        const inner = this.open(level + 1, itemKey, scope, undefined, at);
        const column = at - this.lineStart;
        out.push(this.children(level + 1, inner, (r) => r.mapping(column, at, level + 1, itemKey, inner, depth + 1)));
        next = this.skipToContentAfter();
      } else {
        out.push(this.inline(at, level + 1, itemKey, scope, undefined, depth + 1));
        next = this.afterInline(indent);
      }
      if (next < indent) return out;
      if (next > indent) throw DECLINE;
    }
  }

  /** Where the next content line is once a nested mapping has returned: it stopped on that line already. */
  private skipToContentAfter(): number {
    const i = this.skipSpaces(this.lineStart);
    return i >= this.text.length ? -1 : i - this.lineStart;
  }

  /**
   * After a value written on its key's (or dash's) line: the next content line's indentation, which must not
   * be deeper than the collection's `indent`, comments included (a deeper line could continue the value).
   */
  private afterInline(indent: number): number {
    this.nextLine();
    const next = this.skipToContent();
    if (next > indent || this.commentIndent > indent) throw DECLINE;
    return next;
  }

  /** A value on the current line from `at`: a flow collection, a quoted or a plain scalar; the rest of the line holds at most a comment. */
  private inline(at: number, level: number, key: string, scope: S, keyPos: SourcePosition | undefined, depth: number): unknown {
    if (depth > this.maxDepth) throw DECLINE;
    const c = this.text.charCodeAt(at);
    let value: unknown;
    let end: number;
    if (c === 0x7b || c === 0x5b) {
      const inner = this.open(level, key, scope, keyPos, at);
      [value, end] = this.children(level, inner, (r) => r.flow(at, level, key, inner, depth));
    } else {
      this.open(level, key, scope, keyPos, at);
      if (c === 0x22 || c === 0x27) [value, end] = this.quoted(at);
      else [value, end] = this.plain(at, false);
    }
    const rest = this.skipSpaces(end);
    if (!this.atLineEnd(rest, rest > end)) throw DECLINE;
    return value;
  }

  /** A flow collection, on one line, starting at `at` ("{" or "["); its value and the offset after it. */
  private flow(at: number, level: number, key: string, scope: S, depth: number): [unknown, number] {
    const text = this.text;
    const isMap = text.charCodeAt(at) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    let i = this.skipSpaces(at + 1);
    if (text.charCodeAt(i) === close) return [isMap ? {} : [], i + 1];
    const map: Record<string, unknown> = {};
    const seq: unknown[] = [];
    for (;;) {
      if (isMap) {
        const end = this.flowKeyEnd(i);
        const name = text.slice(i, end);
        if (Object.hasOwn(map, name) || name === "__proto__" || NOT_A_STRING_KEY.has(name)) throw DECLINE;
        const childKey = this.childKey(key, name);
        const keyPos = this.keyPos(i);
        const valueAt = this.skipSpaces(end + 1);
        const v = text.charCodeAt(valueAt);
        if (v === COMMA || v === close) {
          if (depth + 1 > this.maxDepth) throw DECLINE;
          if (this.recording) this.record(level + 1, childKey, scope, { key: keyPos as SourcePosition, value: this.pos(valueAt) });
          map[name] = null;
          i = valueAt;
        } else {
          [map[name], i] = this.flowValue(valueAt, level + 1, childKey, scope, keyPos, depth + 1);
        }
      } else {
        const itemKey = this.itemKey(key, seq.length);
        let value: unknown;
        [value, i] = this.flowValue(i, level + 1, itemKey, scope, undefined, depth + 1);
        seq.push(value);
      }
      i = this.skipSpaces(i);
      const c = text.charCodeAt(i);
      if (c === close) return [isMap ? map : seq, i + 1];
      if (c !== COMMA) throw DECLINE;
      i = this.skipSpaces(i + 1);
      // A trailing comma, or the collection going on below: the yaml package's.
      if (text.charCodeAt(i) === close || this.atLineEnd(i, true)) throw DECLINE;
    }
  }

  /** The end of a flow mapping's plain key at `i`, which ": " follows. */
  private flowKeyEnd(i: number): number {
    const e = this.keyBeforeColon(i);
    if (e < 0 || this.text.charCodeAt(e + 1) !== SPACE) throw DECLINE;
    return e;
  }

  private flowValue(at: number, level: number, key: string, scope: S, keyPos: SourcePosition | undefined, depth: number): [unknown, number] {
    if (depth > this.maxDepth) throw DECLINE;
    const c = this.text.charCodeAt(at);
    if (c === 0x7b || c === 0x5b) {
      const inner = this.open(level, key, scope, keyPos, at);
      return this.children(level, inner, (r) => r.flow(at, level, key, inner, depth));
    }
    this.open(level, key, scope, keyPos, at);
    const read = c === 0x22 || c === 0x27 ? this.quoted(at) : this.plain(at, true);
    // A quoted key of an implicit mapping in a sequence (["a": 1]) is the yaml package's.
    if (this.text.charCodeAt(this.skipSpaces(read[1])) === COLON) throw DECLINE;
    return read;
  }

  /** A quoted scalar on one line: double quotes without escapes, single quotes with '' for one. */
  private quoted(at: number): [string, number] {
    const text = this.text;
    const quote = text.charCodeAt(at);
    let out = "";
    let from = at + 1;
    for (let i = at + 1; ; i++) {
      const c = text.charCodeAt(i);
      if (i >= text.length || c === NEWLINE || (quote === 0x22 && c === 0x5c)) throw DECLINE;
      if (c !== quote) continue;
      if (quote === 0x27 && text.charCodeAt(i + 1) === 0x27) {
        out += text.slice(from, i + 1);
        from = i + 2;
        i++;
        continue;
      }
      return [out + text.slice(from, i), i + 1];
    }
  }

  /**
   * A plain scalar on one line, as the core schema reads it. In a flow collection it ends at "," "]" "}";
   * anywhere it ends at a comment. One that could be read otherwise than as written here is declined.
   */
  private plain(at: number, inFlow: boolean): [unknown, number] {
    const text = this.text;
    const first = text.charCodeAt(at);
    // Indicators (- ? : , [ ] { } # & * ! | > ' " % @ `) begin no plain scalar the subset takes, but a minus sign before a digit or a letter.
    if ("?:,[]{}#&*!|>'\"%@`".includes(text[at] as string)) throw DECLINE;
    if (first === DASH && !/[0-9.A-Za-z]/.test(text[at + 1] ?? "")) throw DECLINE;
    let i = at;
    let end = at;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === NEWLINE) break;
      if (c === HASH && text.charCodeAt(i - 1) === SPACE) break;
      if (c === COLON) {
        const after = text.charCodeAt(i + 1);
        if (after === SPACE || after === NEWLINE || i + 1 >= text.length || (inFlow && (after === COMMA || after === 0x5d || after === 0x7d))) throw DECLINE;
      }
      if (inFlow) {
        if (c === COMMA || c === 0x5d || c === 0x7d) break;
        if (c === 0x5b || c === 0x7b) throw DECLINE;
      }
      if (c !== SPACE) end = i + 1;
    }
    return [scalarValue(text.slice(at, end)), end];
  }
}

/** The first characters of the scalars the core schema reads as other than strings: ~, null, booleans, numbers. */
const MAY_NOT_BE_A_STRING: ReadonlySet<number> = new Set([..."~nNtTfF0123456789+-."].map((ch) => ch.charCodeAt(0)));

/** A plain scalar's value under the core schema, as the yaml package resolves it (its tests, in its order). */
export function scalarValue(s: string): unknown {
  // Strings whose first character begins none of the forms below (null, ~, booleans, numbers): most of them,
  // references ("${...}") among them.
  if (s !== "" && !MAY_NOT_BE_A_STRING.has(s.charCodeAt(0))) return s;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === "t" || s[0] === "T";
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) return s.slice(-3).toLowerCase() === "nan" ? NaN : s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}
