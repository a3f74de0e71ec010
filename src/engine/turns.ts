// Mutating calls take turns, most urgent first. When a wave of steps becomes ready at once (hundreds of
// connections turning ACTIVE release their routing protocols and filter attachments together), the
// order their calls go out in decides when the last chain finishes: a step with a long chain of work
// behind it must not wait behind one that nothing waits for. A turn is as wide as the client's request
// slots, so the client's own queue never holds more changes than it can send, and its order is this one.
// A call waits for its turn, which may be long: what must hold when it goes out (the run still holds the
// state lock) is checked in its turn, right before it is sent.

import PQueue from "p-queue";

export class Turns {
  private readonly queue: PQueue;

  constructor(
    slots: number,
    /** Rejects when no call may go out any more; asked in each turn, right before its call. */
    private readonly beforeEach: () => Promise<void> = async () => {},
  ) {
    this.queue = new PQueue({ concurrency: Math.max(1, slots) });
  }

  /** Sends `send` once a turn is free; the most urgent (larger `urgency`) of those waiting goes first. */
  take<T>(urgency: number, send: () => Promise<T>): Promise<T> {
    return this.queue.add(
      async () => {
        await this.beforeEach();
        return send();
      },
      { priority: urgency },
    );
  }
}
