// The mistake behind a YAML syntax error. The yaml package reports where its reading went wrong, which is
// often a line or more after the mistake (a key indented too deep turns the line above into a nested
// mapping) and then a cascade of errors from its recovery. This reads the text line by line as people
// write configurations (block mappings and lists, flow { } and [ ] on a line, quoted and block scalars)
// and names the first line that breaks the structure, in words. It is only asked once the parser has
// failed, and answers undefined when it sees nothing it can explain.

export interface YamlMistake {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  code: string;
  message: string;
  hint?: string;
}

/** An open block collection: the column its entries start at. */
interface Level {
  column: number;
  list: boolean;
  /** How the level is named in messages: a key's name, or "the list items". */
  label: string;
  line: number;
}

/** The last line that was an entry (a key or a list item) of a block collection. */
interface Entry {
  /** Where the entry's innermost key or item content starts. */
  column: number;
  /** Ends with a key or a dash and nothing else: the next line may be indented deeper. */
  opens: boolean;
  label: string;
  line: number;
}

interface Opener {
  char: string;
  line: number;
  column: number;
}

const CLOSER: Readonly<Record<string, string>> = { "{": "}", "[": "]" };
const quoteLabel = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 37)}...` : s);

const spaces = (n: number) => `${n} space${n === 1 ? "" : "s"}`;

/** Ends the scan: the mistake found, or undefined when the text uses what this reader does not follow. */
class Stop {
  constructor(readonly mistake?: YamlMistake) {}
}

export function findYamlMistake(text: string): YamlMistake | undefined {
  try {
    new Scanner(text.split(/\r?\n/)).scan();
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return e.mistake;
    throw e;
  }
}

class Scanner {
  private levels: Level[] = [];
  private last: Entry | undefined;
  /** A scalar written alone on the line after `key:`, which may be a key missing its colon. */
  private bare: { line: number; column: number; text: string } | undefined;
  private quote: Opener | undefined;
  private flow: Opener[] = [];
  /** Inside a block scalar (| or >): lines indented deeper than this are its text. */
  private blockScalarParent: number | undefined;

  constructor(private readonly lines: readonly string[]) {}

  scan(): void {
    this.lines.forEach((raw, i) => this.line(raw, i + 1));
    if (this.quote) {
      const q = this.quote;
      this.fail(q.line, q.column, "yaml.unclosed-quote", `this string has no closing ${q.char}`, `end the string with ${q.char} where it should end`);
    }
    const open = this.flow[0];
    if (open) this.fail(open.line, open.column, "yaml.unclosed-flow", `this ${open.char} is never closed`, `close it with ${CLOSER[open.char] ?? ""}`);
  }

  private fail(line: number, column: number, code: string, message: string, hint?: string): never {
    throw new Stop({ line, column, code, message, ...(hint ? { hint } : {}) });
  }

  private line(raw: string, n: number): void {
    if (this.blockScalarParent !== undefined) {
      if (raw.trim() === "" || indentOf(raw) > this.blockScalarParent) return;
      this.blockScalarParent = undefined;
    }
    if (this.quote || this.flow.length > 0) {
      this.inline(raw, 0, n);
      return;
    }
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    if (/^(---|\.\.\.)(\s|$)/.test(raw)) {
      this.levels = [];
      this.last = undefined;
      return;
    }
    // Directives, complex keys and the like are rare in a configuration: better no explanation than a wrong one.
    if (/^\s*(%|\?\s)/.test(raw)) throw new Stop();
    const tab = /^ *\t/.exec(raw);
    if (tab) this.fail(n, tab[0].length, "yaml.tab-indent", "a tab indents this line; YAML indents with spaces only", "replace the tab with spaces");

    const indent = indentOf(raw);
    let pos = indent;
    const items: number[] = [];
    while (raw[pos] === "-" && (pos + 1 === raw.length || raw[pos + 1] === " ")) {
      items.push(pos);
      pos++;
      while (raw[pos] === " ") pos++;
    }
    const key = keyAt(raw, pos);
    const isItem = items.length > 0;
    const label = isItem ? "this list item" : key ? quoteLabel(key.name) : quoteLabel(raw.slice(pos).replace(/\s+#.*$/, ""));
    this.place(n, indent, isItem, key !== undefined, label, raw.slice(pos));

    // Further dashes on the line, and a key after them, open collections of their own.
    items.forEach((column, i) => {
      if (i > 0) this.levels.push({ column, list: true, label: "the list items", line: n });
    });
    if (key && isItem) this.levels.push({ column: pos, list: false, label: quoteLabel(key.name), line: n });

    let opens: boolean;
    if (key) opens = this.value(raw, key.valueAt, n, pos);
    else if (isItem) opens = this.value(raw, pos, n, items[items.length - 1] as number);
    else {
      // A value alone on its line: follow its quotes and brackets, which may span lines.
      if (/^["'{[|>]/.test(raw.slice(pos))) this.value(raw, pos, n, indent);
      opens = false;
    }
    if (key || isItem) this.last = { column: pos, opens, label: key ? quoteLabel(key.name) : "the list item", line: n };
  }

  /** Checks where a line's first entry stands against the collections open above it. */
  private place(n: number, indent: number, isItem: boolean, isKey: boolean, label: string, content: string): void {
    const last = this.last;
    const bare = this.bare;
    this.bare = undefined;
    if (!last) {
      this.levels = [{ column: indent, list: isItem, label: isItem ? "the list items" : label, line: n }];
      return;
    }
    if (indent > last.column) {
      if (last.opens && (isItem || isKey)) {
        this.levels.push({ column: indent, list: isItem, label: isItem ? "the list items" : label, line: n });
        return;
      }
      if (last.opens) {
        // A scalar alone on its line is the value of the key above, unless a key follows it at its column.
        this.bare = { line: n, column: indent + 1, text: content.replace(/\s+#.*$/, "") };
        this.last = { ...last, opens: false };
        return;
      }
      if (bare && isKey && bare.column === indent + 1) this.missingColon(bare.line, bare.column, bare.text);
      // Text deeper than a key with a value continues that value over several lines.
      if (!isItem && !isKey) return;
      this.fail(n, indent + 1, "yaml.indentation", `${label} is indented deeper than ${last.label} on line ${last.line}, which already has a value`, `entries of one mapping or list start in the same column: indent it ${spaces(last.column)}, like ${last.label}`);
    }
    if (indent === last.column && last.opens && isItem) {
      // `key:` with its list's dashes in the key's own column.
      const top = this.levels[this.levels.length - 1];
      if (top && top.column === indent && !top.list) {
        this.levels.push({ column: indent, list: true, label: "the list items", line: n });
        return;
      }
    }
    // The nearest column deeper than this line's, for the hint when the line lines up with nothing.
    let deeper: Level | undefined;
    while (this.levels.length > 0 && (this.levels[this.levels.length - 1] as Level).column > indent) deeper = this.levels.pop();
    let top = this.levels[this.levels.length - 1];
    if (top?.column === indent && top.list && !isItem) {
      const below = this.levels[this.levels.length - 2];
      if (below?.column === indent && !below.list) {
        this.levels.pop();
        top = below;
      }
    }
    if (!top || top.column !== indent) {
      const choices = [deeper, top].filter((l): l is Level => l !== undefined).map((l) => `${spaces(l.column)}, like ${l.label} on line ${l.line}`);
      this.fail(n, indent + 1, "yaml.indentation", `${label} is indented ${spaces(indent)}, which lines it up with nothing above it`, `entries of one mapping or list start in the same column: indent it ${choices.join(", or ")}`);
    }
    if (top.list && !isItem) {
      this.fail(n, indent + 1, "yaml.indentation", `${label} is in the column of the list items above it (line ${top.line}), and a list cannot also have keys`, `indent it under the item it belongs to, or start it with "- " to make it an item`);
    }
    if (!top.list && isItem) {
      this.fail(n, indent + 1, "yaml.indentation", `${label} is in the column of the keys above it (${top.label}, line ${top.line}), and a mapping cannot also have list items`, "indent the list under the key it belongs to");
    }
    if (!isItem && !isKey) this.missingColon(n, indent + 1, content.replace(/\s+#.*$/, ""));
  }

  private missingColon(line: number, column: number, text: string): never {
    const glued = /^([^\s:]+):(\S.*)$/.exec(text);
    if (glued) this.fail(line, column, "yaml.key-colon", `${quoteLabel(text)} needs a space after the colon`, `write "${glued[1] ?? ""}: ${glued[2] ?? ""}"`);
    return this.fail(line, column, "yaml.key-colon", `${quoteLabel(text)} is neither "key: value" nor a list item`, "a key is followed by a colon and a space, e.g. name: value");
  }

  /** Reads a value from `from`; says whether the line leaves it to the lines below (nothing written yet). */
  private value(raw: string, from: number, n: number, parentColumn: number): boolean {
    let pos = from;
    // Anchors and tags come before the value itself.
    while (raw[pos] === "&" || raw[pos] === "!") {
      while (pos < raw.length && raw[pos] !== " ") pos++;
      while (raw[pos] === " ") pos++;
    }
    const c = raw[pos];
    if (c === undefined || c === "#") return true;
    if (c === "|" || c === ">") {
      this.blockScalarParent = parentColumn;
      return false;
    }
    if (c === '"' || c === "'" || c === "{" || c === "[") {
      this.inline(raw, pos, n);
      return false;
    }
    const plain = raw.slice(pos).replace(/\s+#.*$/, "");
    if (c === "@" || c === "`") this.fail(n, pos + 1, "yaml.reserved-start", `a value cannot start with ${c}`, `quote it: "${plain}"`);
    const colon = plain.search(/:(\s|$)/);
    if (colon >= 0) {
      this.fail(n, pos + 1, "yaml.colon-in-value", `${quoteLabel(plain)} contains ": ", which YAML reads as a key inside a value`, `quote the value: "${plain.replaceAll('"', '\\"')}"`);
    }
    return false;
  }

  /** Scans quoted strings and flow collections from `from`, across lines while they stay open. */
  private inline(raw: string, from: number, n: number): void {
    let i = from;
    while (i < raw.length) {
      if (this.quote) {
        const closer = this.quote.char;
        i = this.closeQuote(raw, i);
        if (this.quote) return;
        if (this.flow.length === 0) return this.nothingAfter(raw, i, n, closer);
        continue;
      }
      const c = raw[i] as string;
      if (c === "#" && (i === 0 || raw[i - 1] === " " || raw[i - 1] === "\t")) return;
      if ((c === '"' || c === "'") && startsScalar(raw, i)) {
        this.quote = { char: c, line: n, column: i + 1 };
        i++;
        continue;
      }
      if (this.flow.length > 0 && c === "$" && raw[i + 1] === "{") {
        const end = raw.indexOf("}", i);
        const expression = end > 0 ? raw.slice(i, end + 1) : "${...}";
        this.fail(n, i + 1, "yaml.expression-in-flow", `inside { } or [ ], an expression must be quoted: the braces of ${expression} read as a mapping`, `quote it: "${expression}"`);
      }
      if (c === "{" || c === "[") this.flow.push({ char: c, line: n, column: i + 1 });
      else if (c === "}" || c === "]") {
        const open = this.flow.pop();
        if (!open) this.fail(n, i + 1, "yaml.unmatched-close", `this ${c} closes nothing`, `remove it, or open it with ${c === "}" ? "{" : "["} where it begins`);
        if (CLOSER[open.char] !== c) this.fail(n, i + 1, "yaml.unmatched-close", `this ${c} closes the ${open.char} of line ${open.line}, column ${open.column}`, `close that ${open.char} with ${CLOSER[open.char] ?? ""} first`);
        if (this.flow.length === 0) return this.nothingAfter(raw, i + 1, n, c);
      }
      i++;
    }
  }

  /** A quoted or bracketed value ends the line, but for a comment. */
  private nothingAfter(raw: string, from: number, n: number, closer: string): void {
    const rest = raw.slice(from);
    if (/^(\s+#.*|\s*)$/.test(rest)) return;
    const column = from + (/^\s*/.exec(rest)?.[0].length ?? 0) + 1;
    this.fail(n, column, "yaml.after-value", `${quoteLabel(rest.trim())} follows the value's closing ${closer}`, `a value ends at its closing ${closer}: remove what follows, make it a comment with " #", or quote the whole value`);
  }

  /** Past the closing quote, or the line's end with the quote still open. */
  private closeQuote(raw: string, from: number): number {
    const q = this.quote as Opener;
    for (let i = from; i < raw.length; i++) {
      if (q.char === '"' && raw[i] === "\\") {
        i++;
        continue;
      }
      if (raw[i] !== q.char) continue;
      if (q.char === "'" && raw[i + 1] === "'") {
        i++;
        continue;
      }
      this.quote = undefined;
      return i + 1;
    }
    return raw.length;
  }
}

const indentOf = (raw: string): number => /^ */.exec(raw)?.[0].length ?? 0;

/** A quote opens a string only where a value starts: not inside a plain word such as don't. */
function startsScalar(raw: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = raw[j] as string;
    if (c === " ") continue;
    return c === "{" || c === "[" || c === "," || c === ":" || c === "-" || c === "?";
  }
  return true;
}

/** A key at `pos` (plain or quoted, then ": " or ":" at the end): its name and where its value starts. */
function keyAt(raw: string, pos: number): { name: string; valueAt: number } | undefined {
  const c = raw[pos];
  if (c === undefined || c === "#" || c === "{" || c === "[" || c === "|" || c === ">" || c === "&" || c === "!" || c === "*") return undefined;
  let end: number;
  let name: string;
  if (c === '"' || c === "'") {
    const close = raw.indexOf(c, pos + 1);
    if (close < 0) return undefined;
    name = raw.slice(pos + 1, close);
    end = close + 1;
    while (raw[end] === " ") end++;
    if (raw[end] !== ":") return undefined;
  } else {
    const m = /:(\s|$)/.exec(raw.slice(pos));
    if (!m) return undefined;
    const before = raw.slice(pos, pos + m.index);
    if (/\s#/.test(before)) return undefined;
    name = before.trimEnd();
    end = pos + m.index;
  }
  let valueAt = end + 1;
  while (raw[valueAt] === " ") valueAt++;
  return { name, valueAt };
}
