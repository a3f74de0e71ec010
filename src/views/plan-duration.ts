// The plan's estimate of the apply's duration, in words: "about 9 min: devices.edge, then
// connections.edge-to-dc". The text, markdown and JSON renderings all say it the same way.

import type { DurationEstimate } from "../plan/types.js";

/** A rounded duration: "about 40 s", "about 9 min", "about 1 h 20 min". */
export function aboutDuration(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 60) return `about ${whole} s`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const rest = minutes % 60;
  return `about ${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ""}`;
}

/** The estimate and the chain that sets it; `name` lays out an address (a code span in markdown). */
export function durationPhrase(estimate: DurationEstimate, name: (address: string) => string = (a) => a): string {
  return `${aboutDuration(estimate.seconds)}: ${estimate.chain.map(name).join(", then ")}`;
}

export const durationLine = (estimate: DurationEstimate): string => `Estimated duration: ${durationPhrase(estimate)}.`;
