// The state journal under SIGKILL, at many seeded points: each apply is killed at a point drawn from its
// seed among its exchanges with the service, and the journal's replay and the next apply are checked
// (test/e2e/journal-kills.ts). NETFORM_RELIABILITY_SEEDS sets how many seeds (default 12).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Exchange, type RunningSimulator } from "../../src/simulator/index.js";
import { changesOfCleanApply, killAndResume, type KillHarness } from "../e2e/journal-kills.js";

let sim: RunningSimulator;
let observe: ((exchange: Exchange) => void) | undefined;
const harness = (): KillHarness => ({ sim, observe: (handler) => (observe = handler) });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, speed: 200, seed: 23, onExchange: (e) => observe?.(e) });
});
afterAll(async () => {
  await sim?.close();
});

describe("reliability: the state journal", () => {
  it("an apply killed at any seeded point is replayed and finished by the next, with nothing made twice", { timeout: 1_800_000 }, async () => {
    const changes = await changesOfCleanApply(harness());
    const seeds = Number(process.env.NETFORM_RELIABILITY_SEEDS ?? 12);
    let killed = 0;
    for (let seed = 100; seed < 100 + seeds; seed++) if (await killAndResume(harness(), seed, changes)) killed++;
    console.log(`reliability: ${seeds} seeded kill points over ${changes} changes; ${killed} applies killed before they ended, all converged`);
    expect(killed).toBe(seeds);
  });
});
