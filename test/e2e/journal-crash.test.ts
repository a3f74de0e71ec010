// The state journal under SIGKILL, quickly: an apply killed at a few seeded points among its exchanges
// with the service is replayed and finished by the next one (test/reliability runs many seeds).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Exchange, type RunningSimulator } from "../../src/simulator/index.js";
import { exchangesOfCleanApply, killAndResume, type KillHarness } from "./journal-kills.js";

let sim: RunningSimulator;
let observe: ((exchange: Exchange) => void) | undefined;
const harness = (): KillHarness => ({ sim, observe: (handler) => (observe = handler) });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, speed: 200, seed: 11, onExchange: (e) => observe?.(e) });
});
afterAll(async () => {
  await sim?.close();
});

describe("the state journal under SIGKILL", () => {
  it("replays what a killed apply journaled, and the next apply finishes it without making anything twice", { timeout: 300_000 }, async () => {
    const exchanges = await exchangesOfCleanApply(harness());
    let killed = 0;
    for (const seed of [1, 2]) if (await killAndResume(harness(), seed, exchanges)) killed++;
    expect(killed).toBeGreaterThan(0);
  });
});
