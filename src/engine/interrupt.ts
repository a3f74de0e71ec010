// Interrupting a run. The command line turns SIGINT, SIGTERM and SIGHUP into an AbortSignal whose reason
// is the signal's name, and the engine honours it: reads are abandoned (they change nothing), no step starts,
// a step that has written its pending record still sends its call and records the answer, and waits stop
// — so the state on disk always tells the next run what is left to do.

import { NetformError } from "../diag/index.js";

/** The process signals that interrupt a run. */
export type InterruptSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** Which signal aborted `signal` (an abort without one of ours as its reason counts as SIGINT). */
export function interruptedBy(signal: AbortSignal): InterruptSignal {
  return signal.reason === "SIGTERM" || signal.reason === "SIGHUP" ? signal.reason : "SIGINT";
}

/** What an interrupted phase throws: not a failure of the work, so it is counted and shown apart from errors. */
export class InterruptedError extends NetformError {
  constructor(message = "interrupted") {
    super({ code: "interrupted", message, hint: "the next plan or apply picks up where this run stopped" });
    this.name = "InterruptedError";
  }
}

export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError();
}

/**
 * Settles like `work`, or rejects with an InterruptedError as soon as `signal` aborts. Only for work that
 * changes nothing (reads): it goes on in the background, and its outcome is dropped.
 */
export function unlessInterrupted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abandon = () => {
      work.catch(() => {}); // a read failing after it was abandoned concerns no one
      reject(new InterruptedError());
    };
    if (signal.aborted) return abandon();
    signal.addEventListener("abort", abandon, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abandon);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abandon);
        reject(error);
      },
    );
  });
}
