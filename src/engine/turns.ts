// Mutating calls take turns, most urgent first. When a wave of steps becomes ready at once (hundreds of
// connections turning ACTIVE release their routing protocols and filter attachments together), the
// order their calls go out in decides when the last chain finishes: a step with a long chain of work
// behind it must not wait behind one that nothing waits for. A turn is as wide as the client's request
// slots, so the client's own queue never holds more changes than it can send, and its order is this one.
// A call waits for its turn, which may be long: what must hold when it goes out (the run still holds the
// state lock) is checked in its turn, right before it is sent.
//
// Order alone is not enough when such a wave arrives a few at a time, as the waits notice finished objects:
// a call that nothing urgent waits for finds a free slot between two urgent ones, and every call in flight
// shares the service's time with the others. So calls with time to spare go out a few at a time.

import PQueue from "p-queue";

/** The share of the slots that calls with time to spare may hold at once. */
const SPARE_SHARE = 1 / 4;

export class Turns {
  private readonly queue: PQueue;
  /** Calls with time to spare pass through here first: at most its concurrency of them hold a turn or wait for one. */
  private readonly spareLane: PQueue;

  constructor(
    slots: number,
    /** Rejects when no call may go out any more; asked in each turn, right before its call. */
    private readonly beforeEach: () => Promise<void> = async () => {},
    /**
     * The urgency of the most urgent work not begun yet: the least time the run still has ahead of it. A
     * call whose own urgency is less than half of it has time to spare: it could wait for half of the run
     * still to come and not delay its end.
     */
    private readonly workAhead: () => number = () => 0,
  ) {
    this.queue = new PQueue({ concurrency: Math.max(1, slots) });
    this.spareLane = new PQueue({ concurrency: Math.max(1, Math.floor(slots * SPARE_SHARE)) });
  }

  /** Sends `send` once a turn is free; the most urgent (larger `urgency`) of those waiting goes first. */
  take<T>(urgency: number, send: () => Promise<T>): Promise<T> {
    const inTurn = () =>
      this.queue.add(
        async () => {
          await this.beforeEach();
          return send();
        },
        { priority: urgency },
      );
    return urgency < this.workAhead() / 2 ? this.spareLane.add(inTurn, { priority: urgency }) : inTurn();
  }
}
