// One of the racing lock takers: for each round it tries to take the state lock and, while it holds it,
// enters a critical section marked by a file only one process may create. Now and then it walks away
// from the lock as a holder on another machine that died would (the lock stays, already expired), so
// that the others race to take over a stale lock too. Prints its counts as JSON.

import { closeSync, openSync, unlinkSync } from "node:fs";

const [lockModule, atomicModule, statePath, marker, rounds] = process.argv.slice(2);
const { StateLock, lockPathFor } = await import(lockModule);
const { writeFileAtomic } = await import(atomicModule);

const counts = { held: 0, refused: 0, overlaps: 0, abandoned: 0 };
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

for (let round = 0; round < Number(rounds); round++) {
  let lock;
  try {
    lock = StateLock.acquire(statePath, "race");
  } catch (e) {
    if (e.code !== "state.locked") throw e;
    counts.refused++;
    pause(Math.random());
    continue;
  }
  counts.held++;
  let entered = false;
  try {
    closeSync(openSync(marker, "wx"));
    entered = true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
    counts.overlaps++;
  }
  pause(Math.random());
  if (entered) unlinkSync(marker);
  if (round % 9 === 4) {
    const expired = new Date(0).toISOString();
    const stale = { id: `abandoned-${process.pid}-${round}`, operation: "race", who: "a run on another machine", created: expired, expires: expired, host: "elsewhere.invalid", pid: 1 };
    writeFileAtomic(lockPathFor(statePath), `${JSON.stringify(stale)}\n`);
    counts.abandoned++;
  }
  lock.release(); // gives back only a lock that is still its own
}
process.stdout.write(`${JSON.stringify(counts)}\n`);
