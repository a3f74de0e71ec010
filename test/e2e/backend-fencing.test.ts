// The postgres backend's fence, write by write, against a real PostgreSQL server: once another run has
// force-unlocked the holder, each kind of write the holder makes — a journal record of a step, the
// journal's clear, a version of the state (with its history row) — and its check before a change to
// the service are refused as state.lock-lost, and leave no row behind. (The paused and resumed holder,
// end to end, is in backend-postgres.test.ts; the http backend's fence is in test/unit/backends.)

import { describe, expect, it } from "vitest";
import { PostgresBackend } from "../../src/backends/index.js";
import { isHeld, type HeldLock, type StateBackend } from "../../src/state/index.js";
import { usePostgres } from "../support/postgres.js";

const db = usePostgres();
let names = 0;
const stateName = () => `fenced-${++names}`;

async function locked(backend: StateBackend): Promise<HeldLock> {
  const attempt = await backend.tryLock("apply");
  if (!isHeld(attempt)) throw attempt.refusal;
  return attempt;
}

const version = (serial: number) => ({ lineage: "lineage-fence", serial });
const content = (serial: number) => JSON.stringify({ version: 4, lineage: "lineage-fence", serial, resources: {} });

/** A holder with a first version stored, force-unlocked by another backend; the other then takes the lock. */
async function forceUnlocked(name: string) {
  const holder = new PostgresBackend({ url: db.url, schema: "netform", name });
  const other = new PostgresBackend({ url: db.url, schema: "netform", name });
  const lock = await locked(holder);
  await holder.write(content(1), version(1), undefined);
  await holder.journal.append("a step\n");
  await expect(lock.check()).resolves.toBeUndefined();
  expect((await other.forceUnlock(lock.info.id)).id).toBe(lock.info.id);
  const rows = async () => ({
    state: await db.query("SELECT serial FROM netform.states WHERE name = $1", [name]),
    history: await db.query("SELECT serial FROM netform.state_history WHERE name = $1 ORDER BY serial", [name]),
    journal: await db.query("SELECT line FROM netform.state_journal WHERE name = $1 ORDER BY position", [name]),
  });
  return { holder, other, lock, rows, before: await rows() };
}

const lost = (id: string) => ({ code: "state.lock-lost", message: expect.stringContaining(`the state lock ${id} on "`) as unknown });

describe("postgres backend's fence", () => {
  it("refuses a journal record of a lock force-unlocked, and its check, leaving no row", async () => {
    const { holder, other, lock, rows, before } = await forceUnlocked(stateName());
    try {
      expect(before.journal).toEqual([{ line: "a step\n" }]);
      await expect(holder.journal.append("a step after the lock was lost\n")).rejects.toMatchObject(lost(lock.info.id));
      await expect(lock.check()).rejects.toMatchObject({ code: "state.lock-lost" });
      expect(await rows()).toEqual(before);
    } finally {
      await lock.release();
      await holder.close();
      await other.close();
    }
  });

  it("refuses a version and a clear of the journal once another run holds the lock, naming it", async () => {
    const { holder, other, lock, rows, before } = await forceUnlocked(stateName());
    const next = await locked(other);
    try {
      await expect(holder.write(content(2), version(2), version(1))).rejects.toMatchObject({
        code: "state.lock-lost",
        message: expect.stringContaining(`another run took it over: ${next.info.who} for apply`) as unknown,
      });
      await expect(holder.journal.clear()).rejects.toMatchObject(lost(lock.info.id));
      expect(await rows()).toEqual(before);
      // The new holder writes as ever, after the version the old one stored.
      await other.write(content(2), version(2), version(1));
      expect((await rows()).history).toEqual([{ serial: 1 }, { serial: 2 }]);
    } finally {
      await lock.release();
      await next.release();
      await holder.close();
      await other.close();
    }
  });
});
