// Reads an interrupt abandons: the caller is released at once with an InterruptedError, while the read
// itself runs on unobserved — a failure it meets later must not surface as an unhandled rejection.

import { describe, expect, it } from "vitest";
import { InterruptedError, interruptedBy, unlessInterrupted } from "../../../src/engine/interrupt.js";

/** A promise the test settles by hand. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("unlessInterrupted", () => {
  it("settles as the work does when nothing interrupts it", async () => {
    const abort = new AbortController();
    await expect(unlessInterrupted(Promise.resolve(7), abort.signal)).resolves.toBe(7);
    await expect(unlessInterrupted(Promise.reject(new Error("refused")), abort.signal)).rejects.toThrow("refused");
  });

  it("rejects at once on interrupt, and swallows what the abandoned work does later", async () => {
    const abort = new AbortController();
    const work = pending<number>();
    const guarded = unlessInterrupted(work.promise, abort.signal);
    abort.abort("SIGTERM");
    await expect(guarded).rejects.toBeInstanceOf(InterruptedError);
    work.reject(new Error("the session closed under the read"));
    // An unhandled rejection would fail this test file.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("rejects without waiting when already interrupted", async () => {
    const abort = new AbortController();
    abort.abort("SIGINT");
    await expect(unlessInterrupted(pending<number>().promise, abort.signal)).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe("interruptedBy", () => {
  it("names the signal the command line aborted with", () => {
    const reasons = ["SIGINT", "SIGTERM", "SIGHUP", undefined].map((reason) => {
      const abort = new AbortController();
      abort.abort(reason);
      return interruptedBy(abort.signal);
    });
    expect(reasons).toEqual(["SIGINT", "SIGTERM", "SIGHUP", "SIGINT"]);
  });
});
