// Which progress view an apply or destroy gets: the live region on an interactive terminal, and plain
// timestamped lines everywhere else (CI logs, files, pipes), where cursor movement would be garbage and
// every line needs its time.

import type { EngineEvent } from "../engine/events.js";
import { ApplyLiveView, type ApplyLiveOptions } from "./apply-live.js";
import { ApplyTextView } from "./apply-text.js";
import type { Output } from "./output.js";

export interface ProgressView {
  handle(event: EngineEvent): void;
  /**
   * Runs `write` (a diagnostic, a debug trace) so that it does not collide with a live region: the live
   * view erases the region around it; the line view just runs it.
   */
  above(write: () => void): void;
  /** Ends the view: erases a live region and stops its timer. Call it in a finally; harmless twice. */
  close(): void;
}

export interface ProgressOptions extends ApplyLiveOptions {
  /** The clock of the line view's timestamps (the live view uses `now` for elapsed times). */
  now?: () => number;
}

export function progressView(output: Output, options: ProgressOptions = {}): ProgressView {
  if (output.interactive) return new ApplyLiveView(output, options);
  // The line view has nothing to erase or stop; it is returned as itself, so it stays an ApplyTextView.
  return Object.assign(new ApplyTextView(output, { timestamps: true, ...(options.now ? { now: options.now } : {}) }), {
    above: (write: () => void) => write(),
    close: () => {},
  });
}
