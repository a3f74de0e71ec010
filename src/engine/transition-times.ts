// How long the service typically takes to finish an operation on an object of a kind: learned from this
// state's own applies where it has them (a moving average per kind and operation, recorded in the state),
// else the kind's declared default. The poller times its first look by it, and the plan weighs its
// duration estimate with it, so both follow the service as this estate has seen it.

import type { Operation, TypicalSeconds } from "../kinds/index.js";
import type { StateFile, Timing } from "../state/index.js";

/**
 * Samples weighed as equals before older ones start to fade: a few applies settle the average, and a
 * service that became slower is followed within about this many more.
 */
const AVERAGE_WINDOW = 10;

export type Timings = NonNullable<StateFile["timings"]>;

export interface TypicalTime {
  seconds: number;
  /** From this state's own applies, rather than the kind's default. */
  learned: boolean;
}

export class TransitionTimes {
  /**
   * `pace` scales the kinds' defaults, which are the real service's times, to the service at hand (a
   * simulator five times faster: 0.2); learned times were measured against it already. It is read at each
   * use: a simulator says its speed in its first answer, which may come after the times are first needed.
   */
  constructor(
    private readonly defaults: ReadonlyMap<string, TypicalSeconds>,
    private readonly learned: Readonly<Timings> = {},
    private readonly pace: () => number = () => 1,
  ) {}

  typical(kind: string, operation: Operation): TypicalTime {
    const learned = this.learned[kind]?.[operation];
    if (learned) return { seconds: learned.seconds, learned: true };
    return { seconds: (this.defaults.get(kind)?.[operation] ?? 0) * this.pace(), learned: false };
  }
}

/** The moving average after one more sample. */
export function withSample(previous: Timing | undefined, seconds: number): Timing {
  if (!previous) return { seconds, samples: 1 };
  const samples = previous.samples + 1;
  return { seconds: previous.seconds + (seconds - previous.seconds) / Math.min(samples, AVERAGE_WINDOW), samples };
}
