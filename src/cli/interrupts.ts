// SIGINT, SIGTERM and SIGHUP while a run is open. The first aborts the run's AbortSignal instead of killing
// the process, so the engine stops safely (see engine/interrupt.ts) and the command exits 130, 143 or 129
// (128 + the signal's number) once the state is saved and the lock released. SIGHUP is a closed terminal
// or a dropped SSH session: the run cannot be watched any more, which is no reason to leave the lock held
// and the journal unfolded. (Node starts with every signal at its default, so `nohup` never kept SIGHUP
// from netform anyway: it used to end the process on the spot.) A second exits at once, with the
// code of that signal: the lock and any half-written temporary file are removed by their exit listeners,
// and the pending records already on disk let the next run finish without making anything twice.
// While the approval prompt waits, SIGINT cancels the prompt instead, as Ctrl-C typed at it does.

import { constants } from "node:os";
import type { InterruptSignal } from "../engine/index.js";

const SIGNALS: readonly InterruptSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

const exitCodeFor = (signal: InterruptSignal): number => 128 + constants.signals[signal];

export class Interrupts {
  private readonly controller = new AbortController();
  private cancelPrompt: (() => void) | undefined;
  private readonly onSignal = (signal: InterruptSignal) => {
    if (this.controller.signal.aborted) {
      this.beforeExitAtOnce();
      process.exit(exitCodeFor(signal));
    }
    if (signal === "SIGINT" && this.cancelPrompt) return this.cancelPrompt();
    this.controller.abort(signal);
  };

  /** `beforeExitAtOnce` runs just before a second signal exits (to close the live view and say so). */
  private constructor(private readonly beforeExitAtOnce: () => void) {}

  static install(beforeExitAtOnce: () => void): Interrupts {
    const interrupts = new Interrupts(beforeExitAtOnce);
    for (const s of SIGNALS) process.on(s, interrupts.onSignal);
    return interrupts;
  }

  /** Gives the signals back to Node's defaults. */
  uninstall(): void {
    for (const s of SIGNALS) process.off(s, this.onSignal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** 130, 143 or 129 once interrupted; undefined while not. */
  get exitCode(): number | undefined {
    return this.signal.aborted ? exitCodeFor(this.signal.reason as InterruptSignal) : undefined;
  }

  /** Runs `ask` with SIGINT routed to `cancel`: at a question, Ctrl-C means "no", not "stop the run". */
  async whilePrompting<T>(cancel: () => void, ask: () => Promise<T>): Promise<T> {
    this.cancelPrompt = cancel;
    try {
      return await ask();
    } finally {
      this.cancelPrompt = undefined;
    }
  }
}
