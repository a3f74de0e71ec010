// The live rendering of an apply or destroy on an interactive terminal. The lines that matter afterwards
// (refresh, completions, failures, skips, an interrupt, the summary) scroll permanently, worded exactly as the line view
// words them, because they are produced by an ApplyTextView writing into this view. Below them a region
// lists the steps running now, with a spinner, the elapsed time ticking and the service state last seen:
//
//   ⠋ connections.dc      creating   42s  PROVISIONING
//   ⠙ routingProtocols.b  waiting    3s
//
// Above the steps, the run as a whole: how many planned changes are done of how many, and the time left
// by the plan's estimate. On a narrow terminal the addresses give way (cut in the middle, in display
// cells), then the verbs, so that each step's elapsed time and state stay in view.
//
// The region is redrawn in place with ANSI cursor movement by a timer (at most 10 frames a second); each
// frame is one write: erase the region, print the permanent lines that arrived since the last frame, draw
// the region again. Batching permanent lines into frames keeps a burst of completions from redrawing the
// region once per line. The timer is unref'd (it never keeps the process alive) and stops with the
// summary or close(), which leave the region erased.

import { Writable } from "node:stream";
import type { EngineEvent, StepKind } from "../engine/events.js";
import { ApplyTextView, formatDuration, gerund } from "./apply-text.js";
import { cells, headCells, middleCut, padCells } from "./cells.js";
import { aboutDuration } from "./plan-duration.js";
import { Output } from "./output.js";

export const FRAME_INTERVAL_MS = 100;

/** Starts a repeating timer and returns the function that stops it. */
export type Ticker = (tick: () => void, intervalMs: number) => () => void;

export interface ApplyLiveOptions {
  /** The clock for elapsed times and the spinner; tests pass a controlled one. */
  now?: () => number;
  /** The frame timer; tests pass one they trigger by hand. */
  ticker?: Ticker;
}

const realTicker: Ticker = (tick, intervalMs) => {
  const handle = setInterval(tick, intervalMs);
  handle.unref();
  return () => clearInterval(handle);
};

const ESC = "\u001b[";
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Rows of the region when the terminal does not say how tall it is. */
const DEFAULT_MAX_ROWS = 10;
const DEFAULT_COLUMNS = 80;

interface Running {
  address: string;
  step: StepKind;
  /** elapsedMs of the last event about this step, and the clock when it arrived: elapsed ticks on from there. */
  elapsedMs: number;
  seenAt: number;
  state?: string;
}

/** Text for one stream, in the order the line view wrote it. */
interface Pending {
  stream: "out" | "err";
  text: string;
}

/** A terminal's size, when the stream is one that knows it (a tty.WriteStream, or a test's fake). */
function dimension(stream: object, key: "columns" | "rows"): number | undefined {
  const value: unknown = (stream as Record<string, unknown>)[key];
  return typeof value === "number" && value > 0 ? value : undefined;
}

export class ApplyLiveView {
  private readonly now: () => number;
  private readonly ticker: Ticker;
  private readonly lines: ApplyTextView;
  private readonly running = new Map<string, Running>();
  private readonly finished = new Set<string>();
  /** The planned changes by address, with the typical seconds from their start to the end of the run. */
  private readonly planned = new Map<string, number | undefined>();
  /** Addresses with a step ended (done, failed, skipped or interrupted). */
  private readonly ended = new Set<string>();
  private pending: Pending[] = [];
  /** Rows of the region currently on screen, to be erased before anything else is written. */
  private drawnRows = 0;
  private stopTicker: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly output: Output,
    options: ApplyLiveOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ticker = options.ticker ?? realTicker;
    // The line view writes into this view instead of the terminal. Its Output decides colour exactly as
    // the real one did (a disabled flag stays disabled; otherwise NO_COLOR/FORCE_COLOR and a terminal).
    const capture = (stream: Pending["stream"]) =>
      Object.assign(
        new Writable({
          write: (chunk: Buffer | string, _encoding, callback) => {
            this.permanent(stream, chunk.toString());
            callback();
          },
        }),
        { isTTY: true },
      );
    const inner = new Output({ stdout: capture("out"), stderr: capture("err"), ...(output.color ? {} : { color: false }) });
    this.lines = new ApplyTextView(inner, { timestamps: false });
  }

  handle(event: EngineEvent): void {
    if (this.closed) return;
    switch (event.type) {
      case "planned_change":
        this.planned.set(event.change.address, event.remainingSeconds);
        this.lines.handle(event);
        break;
      case "apply_skipped":
        this.ended.add(event.address);
        this.lines.handle(event);
        break;
      case "refresh_start":
      case "refresh_complete":
      case "diagnostic":
      case "rate_limited":
        this.lines.handle(event);
        break;
      case "apply_start":
        // No "Creating..." line: the region shows the step for as long as it runs.
        this.finished.delete(key(event.address, event.step));
        this.running.set(key(event.address, event.step), { address: event.address, step: event.step, elapsedMs: 0, seenAt: this.now() });
        this.startTicker();
        break;
      case "apply_progress": {
        // No "Still creating..." lines either: the region's ticking time and state replace them. A poll
        // reported after its step ended must not bring the step back as a row nothing would remove.
        if (this.finished.has(key(event.address, event.step))) break;
        const current = this.running.get(key(event.address, event.step));
        this.running.set(key(event.address, event.step), {
          address: event.address,
          step: event.step,
          elapsedMs: event.elapsedMs,
          seenAt: this.now(),
          ...(event.state !== undefined ? { state: event.state } : current?.state !== undefined ? { state: current.state } : {}),
        });
        this.startTicker();
        break;
      }
      case "apply_complete":
      case "apply_errored":
      case "apply_interrupted":
        this.running.delete(key(event.address, event.step));
        this.finished.add(key(event.address, event.step));
        this.ended.add(event.address);
        this.lines.handle(event);
        break;
      case "change_summary":
        this.lines.handle(event);
        this.close();
        break;
      case "interrupted":
        // Shown now, above the region, rather than at the next tick: the user is waiting for a reaction.
        this.lines.handle(event);
        this.frame();
        break;
      default: {
        const unreachable: never = event;
        throw new Error(`unknown engine event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * Runs `write` with the region erased and everything pending printed first, then redraws the region:
   * for output the engine's events do not carry (diagnostics, --debug traces), which would otherwise be
   * drawn over by the next frame.
   */
  above(write: () => void): void {
    this.write(this.erase());
    this.flushPending();
    write();
    if (!this.closed) this.frame();
  }

  /** Prints what is pending, erases the region and stops the timer. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.running.clear();
    this.frame();
    this.closed = true;
    this.stopTicker?.();
    this.stopTicker = undefined;
  }

  private startTicker(): void {
    this.stopTicker ??= this.ticker(() => this.frame(), FRAME_INTERVAL_MS);
  }

  /** The line view wrote `text`: printed at the next frame while the region is live, else at once. */
  private permanent(stream: Pending["stream"], text: string): void {
    if (this.closed) return;
    this.pending.push({ stream, text });
    if (this.stopTicker === undefined) this.frame();
  }

  /** One redraw: erase, pending permanent lines, region. Standard output gets it as a single write. */
  private frame(): void {
    const region = this.region();
    const errors = this.pending.some((p) => p.stream === "err");
    if (errors) {
      // Standard error is usually the same terminal: the region must be gone before the error shows.
      this.write(this.erase());
      this.flushPending();
      this.write(region.text);
    } else {
      const text = this.pending.map((p) => p.text).join("");
      this.pending = [];
      this.write(`${this.erase()}${text}${region.text}`);
    }
    this.drawnRows = region.rows;
  }

  /** Nothing is written for an empty frame: an idle tick must not cost a system call. */
  private write(text: string): void {
    if (text !== "") this.output.write("out", text);
  }

  private flushPending(): void {
    for (const p of this.pending) this.output.write(p.stream, p.text);
    this.pending = [];
  }

  /** Moves up to the first row of the region and clears from there to the end of the screen. */
  private erase(): string {
    const rows = this.drawnRows;
    this.drawnRows = 0;
    return rows > 0 ? `\r${ESC}${rows}A${ESC}0J` : "";
  }

  private region(): { text: string; rows: number } {
    if (this.running.size === 0) return { text: "", rows: 0 };
    const { c } = this.output;
    const now = this.now();
    // Every row is cut to one character less than the width: a row that wraps would take two lines of the
    // screen, and the erase would then leave one behind. (A terminal narrowed between two frames can still
    // leave a stray line; nothing in the stream says it happened.)
    const width = Math.max(20, (dimension(this.output.stdout, "columns") ?? DEFAULT_COLUMNS) - 1);
    const maxRows = Math.max(2, Math.min(DEFAULT_MAX_ROWS, (dimension(this.output.stdout, "rows") ?? DEFAULT_MAX_ROWS + 1) - 1));
    const steps = [...this.running.values()];
    const head = this.overall(now);
    const room = maxRows - (head === undefined ? 0 : 1);
    const shown = steps.length > room ? steps.slice(0, room - 1) : steps;
    const spinner = SPINNER[Math.floor(now / FRAME_INTERVAL_MS) % SPINNER.length]!;
    const elapsed = shown.map((s) => formatDuration(s.elapsedMs + Math.max(0, now - s.seenAt)));
    const elapsedWidth = Math.max(...elapsed.map((e) => e.length));
    const stateWidth = Math.max(0, ...shown.map((s) => (s.state !== undefined ? cells(s.state) + 2 : 0)));
    let verbWidth = Math.max(...shown.map((s) => gerund(s.step).length));
    let addressWidth = Math.max(...shown.map((s) => cells(s.address)));
    // What the elapsed time and state leave: the addresses give way first (to a dozen cells), then the verbs.
    const fixed = () => 2 + (verbWidth > 0 ? verbWidth + 4 : 2) + elapsedWidth + stateWidth;
    if (fixed() + addressWidth > width && width - fixed() < MIN_ADDRESS_CELLS) verbWidth = 0;
    addressWidth = Math.max(1, Math.min(addressWidth, width - fixed()));
    const rows = shown.map((s, i) =>
      fit(width, [
        [`${spinner} `, c.cyan],
        [padCells(middleCut(s.address, addressWidth), addressWidth), c.bold],
        [verbWidth > 0 ? `  ${gerund(s.step).padEnd(verbWidth)}  ` : "  ", plain],
        [elapsed[i]!.padStart(elapsedWidth), plain],
        [s.state !== undefined ? `  ${s.state}` : "", c.dim],
      ]),
    );
    if (shown.length < steps.length) rows.push(fit(width, [[`  ... and ${steps.length - shown.length} more running`, c.dim]]));
    if (head !== undefined) rows.unshift(fit(width, [[head, c.bold]]));
    return { text: rows.map((r) => `${r}\n`).join(""), rows: rows.length };
  }

  /** "2/5 done, about 4 min left": the planned changes ended, and the estimate's time still to go. */
  private overall(now: number): string | undefined {
    if (this.planned.size === 0) return undefined;
    const running = new Map<string, number>();
    for (const r of this.running.values()) running.set(r.address, Math.max(running.get(r.address) ?? 0, r.elapsedMs + Math.max(0, now - r.seenAt)));
    const done = [...this.planned.keys()].filter((a) => this.ended.has(a) && !running.has(a)).length;
    // The longest chain still to go: a change not started has its whole estimate ahead, a running one less what it has taken.
    let left: number | undefined;
    for (const [address, seconds] of this.planned) {
      if (seconds === undefined || (this.ended.has(address) && !running.has(address))) continue;
      const ahead = Math.max(0, seconds - (running.get(address) ?? 0) / 1000);
      left = Math.max(left ?? 0, ahead);
    }
    const estimate = left === undefined ? "" : left < 1 ? ", almost done" : `, ${aboutDuration(left)} left`;
    return `${done}/${this.planned.size} done${estimate}`;
  }
}

/** Fewer cells than this for the address, and the verb column goes. */
const MIN_ADDRESS_CELLS = 12;

const key = (address: string, step: StepKind): string => `${address}\u0000${step}`;

const plain = (s: string): string => s;

/** Joins coloured segments, cut to `width` display cells (colour codes take no room on screen). */
function fit(width: number, segments: [text: string, paint: (s: string) => string][]): string {
  let room = width;
  let out = "";
  for (const [text, paint] of segments) {
    if (room <= 0 || text === "") continue;
    const cut = headCells(text, room);
    room -= cells(cut);
    out += paint(cut);
  }
  return out.trimEnd();
}
