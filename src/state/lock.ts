// The state lock: a file beside the state (`STATE.lock`) created exclusively, holding who has it, for
// what, and until when. A second writer fails fast with the holder's details; an expired lock (its
// holder died) is taken over; `force-unlock ID` removes a lock whose holder is known to be gone. A
// process that exits without releasing it — a second Ctrl-C exits at once — still gives it back, from
// its 'exit' listener (which even process.exit() runs).

import { randomUUID } from "node:crypto";
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
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

/** Whether the lock's holder is known to be gone: it ran on this machine and its process no longer exists. */
function holderIsDead(holder: LockInfo): boolean {
  if (holder.host !== hostname() || holder.pid === undefined || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** How long a lock holds without renewal; a long apply renews it. */
export const LOCK_TTL_MS = 15 * 60_000;

export const lockPathFor = (statePath: string) => `${statePath}.lock`;

function readLock(path: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockInfo;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    // A torn or foreign file: treat it as held by someone unknown rather than silently overwrite it.
    return { id: "unknown", operation: "unknown", who: "unknown", created: "unknown", expires: new Date(0).toISOString() };
  }
}

export class StateLock {
  private readonly releaseAtExit = () => this.release();

  private constructor(
    readonly path: string,
    readonly info: LockInfo,
  ) {
    process.on("exit", this.releaseAtExit);
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
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, "wx", 0o600);
        try {
          writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
        } finally {
          closeSync(fd);
        }
        return new StateLock(path, info);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        const holder = readLock(path);
        if (holder && Date.parse(holder.expires) > now && !holderIsDead(holder)) {
          throw new NetformError({
            code: "state.locked",
            message: `the state is locked by ${holder.who} for ${holder.operation} since ${holder.created} (lock ID ${holder.id}, expires ${holder.expires})`,
            hint: `wait for that run to finish; if it is known to be dead, run: netform force-unlock ${holder.id}`,
          });
        }
        rmSync(path, { force: true }); // expired, or its process died: the holder is gone
      }
    }
    throw new NetformError({ code: "state.locked", message: `could not take the state lock ${path}`, hint: "another run is racing for it; try again" });
  }

  /** Extends the lock during a long run. */
  renew(now = Date.now()): void {
    const renewed = { ...this.info, expires: new Date(now + LOCK_TTL_MS).toISOString() };
    writeFileAtomic(this.path, `${JSON.stringify(renewed, null, 2)}\n`);
  }

  release(): void {
    process.off("exit", this.releaseAtExit);
    const holder = readLock(this.path);
    if (holder?.id === this.info.id) rmSync(this.path, { force: true });
  }
}

/** Removes the lock if it has this id. */
export function forceUnlock(statePath: string, id: string): LockInfo {
  const path = lockPathFor(statePath);
  const holder = readLock(path);
  if (!holder) throw new NetformError({ code: "state.not_locked", message: `the state ${statePath} is not locked` });
  if (holder.id !== id) {
    throw new NetformError({ code: "state.lock_mismatch", message: `the lock on ${statePath} has ID ${holder.id}, not ${id}`, hint: `held by ${holder.who} for ${holder.operation}` });
  }
  rmSync(path, { force: true });
  return holder;
}
