// Where the state and its lock are kept. A backend stores opaque content (the state, sealed when there
// is a key) with its lineage and serial beside it, refuses a write that does not follow the version the
// writer read, and holds the lock that keeps two runs — on one machine or many — from writing at once.
// The local file, a PostgreSQL database and an HTTP state server implement it (src/backends).

import { setTimeout as delay } from "node:timers/promises";
import { NetformError } from "../diag/index.js";
import type { StateJournal } from "./journal.js";
import type { LockInfo } from "./lock.js";

export interface StateVersion {
  lineage: string;
  serial: number;
}

/** A version a backend keeps, for `state history`. */
export interface StoredVersion extends StateVersion {
  writtenAt: string;
  writtenBy?: string;
}

export interface HeldLock {
  info: LockInfo;
  /**
   * Resolves while the lock is still this run's; rejects with `state.lock-lost` once it is not (removed by
   * force-unlock, or taken over). Asked before every change to the service: a run that lost its lock stops.
   */
  check(): Promise<void>;
  /** Gives the lock back; a lock known to be lost is left to whoever holds it now. */
  release(): Promise<void>;
}

/** A lock held by someone else: who (when the backend can tell) and the error that says so. */
export interface LockRefusal {
  holder?: LockInfo;
  refusal: NetformError;
}

export interface StateBackend {
  /** The backend's kind: local, postgres or http. */
  readonly type: string;
  /** Where the state is, for messages: a file, a database state name, a URL. */
  readonly location: string;
  /** The stored content, or undefined when there is no state yet. */
  read(): Promise<string | undefined>;
  /**
   * Stores a new version. Refused (state.conflict) unless the stored state is still the version the
   * writer started from: `after` undefined means there was none.
   */
  write(content: string, version: StateVersion, after: StateVersion | undefined): Promise<void>;
  /**
   * Where steps are journaled between two stored versions (journal.ts), when the backend keeps one;
   * without it every step is a stored version.
   */
  readonly journal?: StateJournal;
  /**
   * True when the backend keeps every write as a version of its own (GitLab lists each one): a step the
   * next run can rebuild from the service is then stored with the next write crash safety needs, not alone.
   */
  readonly keepsEveryWrite?: boolean;
  tryLock(operation: string): Promise<HeldLock | LockRefusal>;
  /** Removes the lock with this id, whoever holds it; returns who held it. */
  forceUnlock(id: string): Promise<LockInfo>;
  /** Every stored version, newest first. */
  history(): Promise<StoredVersion[]>;
  /** The content of one stored version, or undefined when there is none with that serial. */
  readVersion(serial: number): Promise<string | undefined>;
  /**
   * Rewrites every earlier version the backend keeps (postgres: its history; local: the `.backup`) as
   * `reseal` returns it, all or none; how many changed. Absent where netform cannot reach them (an HTTP
   * server keeps its versions to itself). What `state rekey` uses, so that a new key leaves no older
   * version readable with the old one, or in clear.
   */
  resealHistory?(reseal: (content: string) => string): Promise<number>;
  /** Removes every earlier version the backend keeps but `keep` (the current one); how many it removed. */
  pruneHistory?(keep: StateVersion): Promise<number>;
  /** Removes the state for good, with what the backend keeps of it (`workspace delete`, under the lock). */
  delete(): Promise<void>;
  close(): Promise<void>;
}

export const isHeld = (attempt: HeldLock | LockRefusal): attempt is HeldLock => "release" in attempt;

/** The error for a write that does not follow the version its writer started from. */
export function conflict(location: string, expected: StateVersion | undefined, stored: StateVersion | undefined): NetformError {
  const was = expected ? `serial ${expected.serial}` : "no state";
  const is = stored ? `serial ${stored.serial}${expected && stored.lineage !== expected.lineage ? ` of another lineage (${stored.lineage})` : ""}` : "no state";
  return new NetformError({
    code: "state.conflict",
    message: `the state ${location} changed while this run held it: it started from ${was}, and the backend now has ${is}`,
    hint: "another writer ignored the lock (or it was force-unlocked); nothing was overwritten: run again to plan from the state as it is now",
  });
}

/**
 * The error for a write or a check made under a lock that is no longer this run's: the backend refused
 * it, and `why` says what became of the lock.
 */
export function lockLost(location: string, id: string, why: string): NetformError {
  return new NetformError({
    code: "state.lock-lost",
    message: `the state lock ${id} on ${location} is no longer this run's: ${why}`,
    hint: "this run stopped before its next change to the service, and wrote nothing more to the state; once no other run holds the lock, run netform plan to see where things stand",
  });
}

export const isLockLost = (error: unknown): error is NetformError => error instanceof NetformError && error.code === "state.lock-lost";

export interface LockWait {
  /** How long to wait for a held lock before giving up; 0 gives up at once. */
  timeoutMs: number;
  /** Told who holds the lock when the wait starts, and again when the holder changes. */
  onWait?: (refusal: NetformError) => void;
  signal?: AbortSignal;
  /** Pause between attempts (tests shorten it). */
  pollMs?: number;
}

/** Takes the lock, waiting up to `timeoutMs` while someone else holds it. */
export async function acquireLock(backend: StateBackend, operation: string, wait: LockWait): Promise<HeldLock> {
  const deadline = Date.now() + wait.timeoutMs;
  let told: string | undefined;
  for (;;) {
    const attempt = await backend.tryLock(operation);
    if (isHeld(attempt)) return attempt;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const { refusal } = attempt;
      throw new NetformError({
        code: refusal.code,
        message: wait.timeoutMs > 0 ? `${refusal.message}; gave up after waiting ${Math.round(wait.timeoutMs / 1000)}s` : refusal.message,
        hint: `${refusal.hint ?? "wait for that run to finish"}; or wait for it with --lock-timeout, e.g. --lock-timeout 5m`,
      });
    }
    const holder = attempt.holder?.id ?? attempt.refusal.message;
    if (holder !== told) {
      told = holder;
      wait.onWait?.(attempt.refusal);
    }
    await delay(Math.min(wait.pollMs ?? 1000, remaining), undefined, wait.signal ? { signal: wait.signal } : {});
  }
}
