import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
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

it("gives the lock back when its process exits without releasing it (as a second Ctrl-C makes it)", () => {
  const path = join(mkdtempSync(join(tmpdir(), "netform-lock-exit-")), "s.json");
  // The built module, in a process of its own that exits at once.
  const script = `import { StateLock } from ${JSON.stringify(built("lock.js"))}; StateLock.acquire(${JSON.stringify(path)}, "apply"); process.exit(130);`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(child.status, child.stderr).toBe(130);
  expect(existsSync(`${path}.lock`)).toBe(false);
});
