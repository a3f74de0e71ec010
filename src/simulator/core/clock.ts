// The simulator's clock. Durations are realistic by default and divided by --speed, so tests run the
// same transitions as users see, only faster. Time is wall-clock based so a persisted world keeps
// progressing across restarts.

export class Clock {
  constructor(readonly speed: number = 1) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`speed must be a positive number, got ${speed}`);
  }

  now(): number {
    return Date.now();
  }

  /** Real milliseconds that a simulated duration takes at this speed. */
  scale(simulatedMs: number): number {
    return simulatedMs / this.speed;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
