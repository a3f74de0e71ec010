// Building blocks of the GitHub-flavoured markdown views (plan and drift comments on pull requests):
// escaping of untrusted text, code spans and fences that their content cannot break out of, collapsible
// sections, and the length cap that keeps a comment within what GitHub accepts.

/** GitHub refuses comments over 65,536 characters; the margin leaves room for a bot's own footer. */
export const DEFAULT_MAX_LENGTH = 65_000;

/**
 * Text as inline markdown that renders as itself: inline markup characters are backslash-escaped, "$"
 * (GitHub renders math between two) and "@" and "#" too, so that a value cannot mention a user or link an
 * issue. Newlines become spaces: every caller puts the text on one line (a table cell, a list item, a
 * title), where the characters that only mean something at the start of a line do not need escaping.
 */
export function escapeInline(text: string): string {
  return text.replace(/\r?\n|\r/g, " ").replace(/[\\`*_[\]<>|~&#@$]/g, (ch) => `\\${ch}`);
}

/** A code span that holds `text` verbatim, whatever backticks it contains; "|" escaped for table cells. */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n|\r/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const padded = flat.startsWith("`") || flat.endsWith("`") || (flat.startsWith(" ") && flat.endsWith(" ") && flat.trim() !== "") ? ` ${flat} ` : flat;
  // GFM splits table rows on "|" before it parses code spans, so the escape is needed even inside one.
  return `${ticks}${padded.replace(/\|/g, "\\|")}${ticks}`;
}

/** A fenced code block whose fence is longer than any run of backticks in its lines. */
export function fencedBlock(info: string, lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, ...lines, fence].join("\n");
}

/** Text for HTML content or attributes (a `<summary>` is HTML, where markdown escapes do not apply). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A collapsible section, collapsed unless `open`; `summary` is HTML, the body markdown (the blank lines make GitHub render it). */
export const details = (summaryHtml: string, body: string, open = false): string => `<details${open ? " open" : ""}><summary>${summaryHtml}</summary>\n\n${body}\n\n</details>`;

/** A table; cells are markdown already escaped by the caller. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The blocks of a comment; sections go in the order given, and are what the cap drops, last first. */
export interface CommentParts {
  /** Always kept: title, warning, overview. Its table rows are cut only if they alone exceed the cap. */
  head: (rowLimit: number | undefined) => string[];
  /** How many rows the head's table has, for cutting it as a last resort. */
  rows: number;
  /** Per-resource sections, in order of priority (the first kept longest). */
  sections: string[];
  /** The note that replaces what was left out, given how many sections were. */
  note: (left: number, total: number) => string;
  maxLength: number;
}

const SEPARATOR = "\n\n";

const assemble = (blocks: readonly string[]): string => `${blocks.filter((b) => b !== "").join(SEPARATOR)}\n`;

/**
 * The comment, at most `maxLength` characters: sections are dropped from the end first, then rows of the
 * head's table, and only then is the text cut; the note (placed after the head, where a reader sees it
 * before scrolling) says how many sections were left out.
 */
export function capComment(parts: CommentParts): string {
  const { head, rows, sections, note, maxLength } = parts;
  const full = assemble([...head(undefined), ...sections]);
  if (full.length <= maxLength) return full;

  const total = sections.length;
  const fits = (kept: number, rowLimit: number | undefined): string | undefined => {
    const text = assemble([...head(rowLimit), note(total - kept, total), ...sections.slice(0, kept)]);
    return text.length <= maxLength ? text : undefined;
  };
  // The length grows with the number of sections kept, so the most that fit can be found by bisection.
  let lo = 0;
  let hi = total;
  if (fits(0, undefined) !== undefined) {
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(mid, undefined) !== undefined) lo = mid;
      else hi = mid - 1;
    }
    return fits(lo, undefined) ?? full;
  }
  let rowsKept = 0;
  let rowsHi = rows;
  while (rowsKept < rowsHi) {
    const mid = Math.ceil((rowsKept + rowsHi) / 2);
    if (fits(0, mid) !== undefined) rowsKept = mid;
    else rowsHi = mid - 1;
  }
  const text = fits(0, rowsKept) ?? assemble([...head(0), note(total, total)]);
  // Only a title or warning longer than the cap gets here; a cut comment still beats one GitHub refuses.
  return text.length <= maxLength ? text : `${text.slice(0, Math.max(0, maxLength - 2))}\n`;
}
