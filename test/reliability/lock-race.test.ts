import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const RACERS = 8;
const ROUNDS = 250;
const built = (module: string) => pathToFileURL(resolve(import.meta.dirname, "../../dist/state", module)).href;

interface Counts {
  held: number;
  refused: number;
  overlaps: number;
  abandoned: number;
}

function race(statePath: string, marker: string): Promise<Counts> {
  const racer = spawn(process.execPath, [resolve(import.meta.dirname, "lock-racer.mjs"), built("lock.js"), built("atomic.js"), statePath, marker, String(ROUNDS)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  racer.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  racer.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((done, fail) =>
    racer.on("close", (code) => (code === 0 ? done(JSON.parse(out) as Counts) : fail(new Error(`a racer exited with ${code}: ${err}`)))),
  );
}

it(`gives the state lock to one of ${RACERS} racing processes at a time, over ${ROUNDS} rounds each, stale locks included`, async () => {
  const dir = mkdtempSync(join(tmpdir(), "netform-lock-race-"));
  const all = await Promise.all(Array.from({ length: RACERS }, () => race(join(dir, "netform.state.json"), join(dir, "inside"))));
  const total = all.reduce((sum, c) => ({ held: sum.held + c.held, refused: sum.refused + c.refused, overlaps: sum.overlaps + c.overlaps, abandoned: sum.abandoned + c.abandoned }));
  console.log(`lock race: ${RACERS} processes × ${ROUNDS} rounds: ${total.held} held, ${total.refused} refused, ${total.abandoned} stale locks left to take over, ${total.overlaps} overlaps`);
  expect(total.overlaps).toBe(0);
  // The race really happened: the lock was both contended and taken over from stale holders.
  expect(total.refused).toBeGreaterThan(0);
  expect(total.abandoned).toBeGreaterThan(0);
});
