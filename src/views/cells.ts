// Widths in display cells, as a terminal lays text out: most characters take one cell, East Asian wide
// and fullwidth characters and most emoji two, combining marks and zero-width characters none. Used where
// a row must fit a terminal's width exactly (the live view); no locale data, a fixed table of ranges.

/** Ranges of code points two cells wide. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/** Ranges of code points that take no cell: combining marks, zero-width spaces and joiners, variation selectors. */
const ZERO: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
];

const within = (ranges: ReadonlyArray<readonly [number, number]>, cp: number): boolean => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/** The cells one character takes. */
export function charCells(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || within(ZERO, cp)) return 0;
  return within(WIDE, cp) ? 2 : 1;
}

/** The cells a text takes on a terminal. */
export const cells = (text: string): number => [...text].reduce((n, ch) => n + charCells(ch), 0);

/** The longest start of `text` that fits in `room` cells. */
export function headCells(text: string, room: number): string {
  let used = 0;
  let out = "";
  for (const ch of text) {
    const w = charCells(ch);
    if (used + w > room) break;
    used += w;
    out += ch;
  }
  return out;
}

/** The longest end of `text` that fits in `room` cells. */
function tailCells(text: string, room: number): string {
  const chars = [...text];
  let used = 0;
  let start = chars.length;
  while (start > 0 && used + charCells(chars[start - 1]!) <= room) used += charCells(chars[--start]!);
  return chars.slice(start).join("");
}

/** `text` in at most `room` cells, its middle replaced by "…" when it does not fit (both ends of an address tell). */
export function middleCut(text: string, room: number): string {
  if (cells(text) <= room) return text;
  if (room <= 1) return headCells("…", room);
  const head = Math.ceil((room - 1) / 2);
  return `${headCells(text, head)}…${tailCells(text, room - 1 - cells(headCells(text, head)))}`;
}

/** `text` padded with spaces to `width` cells. */
export const padCells = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - cells(text)));
