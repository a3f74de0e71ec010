// The state lock: a file beside the state (`STATE.lock`) holding who has it, for what, and until when.
// It appears complete or not at all: the holder's details are written to a file of its own first and
// then hard-linked into place, which fails if a lock is there already. A second writer fails fast with
// the holder's details. A lock whose holder is gone — it ran on this machine and its process no longer
// exists, or it expired without being renewed — is taken over, by one process at a time: the one that
// creates `STATE.lock.ID.breaking` first. A holder alive on this machine is never taken over, however
// old its lock; a lock that cannot be read is treated as held. The holder renews its lock while it
// runs. `force-unlock ID` removes a lock whose holder is known to be gone. A process that exits without
// releasing it — a second Ctrl-C exits at once — still gives it back, from its 'exit' listener (which
// even process.exit() runs).

import { randomUUID } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, rmSync, statSync, type BigIntStats, writeSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { NetformError } from "../diag/index.js";
import { writeFileAtomic } from "./atomic.js";

export interface LockInfo {
  id: string;
  operation: string;
  who: string;
  created: string;
  expires: string;
  /** Where the holder runs, so a lock left by a process that died on this machine can be taken over. */
  host?: string;
  pid?: number;
}

/** How long a lock holds without renewal; its holder renews it every third of that. */
export const LOCK_TTL_MS = 15 * 60_000;
/** How long a lock that cannot be read (yet) is waited for before it is reported as held. */
const UNREADABLE_PATIENCE_MS = 200;

export const lockPathFor = (statePath: string) => `${statePath}.lock`;
const breakerPathFor = (lockPath: string, id: string) => `${lockPath}.${id.replace(/[^\w-]/g, "_")}.breaking`;

type Holder = { readable: true; info: LockInfo } | { readable: false };

function readHolder(path: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { readable: false };
  }
  try {
    const info = JSON.parse(text) as LockInfo;
    return typeof info?.id === "string" && typeof info.expires === "string" ? { readable: true, info } : { readable: false };
  } catch {
    return { readable: false };
  }
}

const isLocal = (holder: LockInfo) => holder.host === hostname() && typeof holder.pid === "number";

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH"; // EPERM: it exists, under another user
  }
}

/** Whether the lock's holder is known to be gone: its process on this machine has ended, or it ran elsewhere and stopped renewing. */
function holderIsGone(holder: LockInfo, now: number): boolean {
  if (isLocal(holder)) return holder.pid !== process.pid && !processExists(holder.pid!);
  return !(Date.parse(holder.expires) > now);
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Creates the lock file with these contents, complete, unless one exists; whether it did. */
function linkIntoPlace(path: string, info: LockInfo): boolean {
  const draft = `${path}.${info.id}.new`;
  const fd = openSync(draft, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Removes the lock `stale` if it is still the one there, as the only process doing so: the breaker
 * file makes the check and the removal one step among racers. False when another process is at it.
 */
function breakStaleLock(path: string, stale: LockInfo): boolean {
  const breaker = breakerPathFor(path, stale.id);
  try {
    closeSync(openSync(breaker, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  }
  try {
    const current = readHolder(path);
    if (current?.readable && current.info.id === stale.id) rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(breaker, { force: true });
  }
}

function lockedBy(holder: Holder): NetformError {
  if (!holder.readable) {
    return new NetformError({
      code: "state.locked",
      message: "the state is locked by a lock file that cannot be read",
      hint: "wait for the run that holds it to finish; if none is running, run: netform force-unlock unknown",
    });
  }
  const { info } = holder;
  return new NetformError({
    code: "state.locked",
    message: `the state is locked by ${info.who} for ${info.operation} since ${info.created} (lock ID ${info.id}, expires ${info.expires})`,
    hint: `wait for that run to finish; if it is known to be dead, run: netform force-unlock ${info.id}`,
  });
}

/** What tells one version of a file from another without reading it. */
const fileIdentity = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

export class StateLock {
  private readonly releaseAtExit = () => this.release();
  private readonly renewal: NodeJS.Timeout;

  private constructor(
    readonly path: string,
    public info: LockInfo,
  ) {
    process.on("exit", this.releaseAtExit);
    this.renewal = setInterval(() => this.renew(), LOCK_TTL_MS / 3);
    this.renewal.unref();
  }

  static acquire(statePath: string, operation: string, now = Date.now()): StateLock {
    const path = lockPathFor(statePath);
    const info: LockInfo = {
      id: randomUUID(),
      operation,
      who: `${userInfo().username}@${hostname()} (pid ${process.pid})`,
      created: new Date(now).toISOString(),
      expires: new Date(now + LOCK_TTL_MS).toISOString(),
      host: hostname(),
      pid: process.pid,
    };
    const giveUpAt = Date.now() + UNREADABLE_PATIENCE_MS;
    for (;;) {
      if (linkIntoPlace(path, info)) return new StateLock(path, info);
      const holder = readHolder(path);
      if (!holder) continue; // released in between: try again
      if (holder.readable && holderIsGone(holder.info, now)) {
        if (breakStaleLock(path, holder.info)) continue;
        // Another process is taking it over; one whose breaker outlives it needs force-unlock.
        if (Date.now() > giveUpAt) throw lockedBy(holder);
        pause(1);
        continue;
      }
      // Written by no netform run that links its lock into place complete, or being replaced: held, but look again briefly.
      if (!holder.readable && Date.now() < giveUpAt) {
        pause(5);
        continue;
      }
      throw lockedBy(holder);
    }
  }

  /** The lock file as it was when it was last read and found to name this run. */
  private confirmed: string | undefined;

  /**
   * Whether the lock file still names this run: force-unlock, or a takeover, replaces or removes it. It is
   * asked before every change an apply sends, so a file unchanged since it last named this run (the same
   * inode, size and times, to the nanosecond) is not read again: removing, replacing or rewriting it
   * changes one of them.
   */
  held(): boolean {
    const stats = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    if (!stats) return false;
    if (this.confirmed === fileIdentity(stats)) return true;
    const holder = readHolder(this.path);
    const ours = holder?.readable === true && holder.info.id === this.info.id;
    // Statted before the read: a change in between leaves an identity that matches no later stat.
    this.confirmed = ours ? fileIdentity(stats) : undefined;
    return ours;
  }

  /** Extends the lock, as long as it is still this run's. */
  renew(now = Date.now()): void {
    if (!this.held()) return;
    this.info = { ...this.info, expires: new Date(now + LOCK_TTL_MS).toISOString() };
    writeFileAtomic(this.path, `${JSON.stringify(this.info, null, 2)}\n`);
  }

  release(): void {
    clearInterval(this.renewal);
    process.off("exit", this.releaseAtExit);
    const holder = readHolder(this.path);
    if (holder?.readable && holder.info.id === this.info.id) rmSync(this.path, { force: true });
  }
}

/** Removes the lock if it has this id (`unknown` for a lock file that cannot be read). */
export function forceUnlock(statePath: string, id: string): LockInfo {
  const path = lockPathFor(statePath);
  const holder = readHolder(path);
  if (!holder) throw new NetformError({ code: "state.not_locked", message: `the state ${statePath} is not locked` });
  const info = holder.readable ? holder.info : { id: "unknown", operation: "unknown", who: "unknown", created: "unknown", expires: "unknown" };
  if (info.id !== id) {
    throw new NetformError({ code: "state.lock_mismatch", message: `the lock on ${statePath} has ID ${info.id}, not ${id}`, hint: `held by ${info.who} for ${info.operation}` });
  }
  rmSync(path, { force: true });
  rmSync(breakerPathFor(path, id), { force: true });
  return info;
}
