// Atomic file replacement: write a temporary file beside the target, fsync it, rename it into place,
// and fsync the directory, so a crash at any point leaves either the old file or the new one, never a
// torn one. The asynchronous form keeps the event loop free while the disk works. A temporary file is
// never left behind: a failed write removes its own, and one the process exits in the middle of (a
// second Ctrl-C exits at once) is removed on the way out.

import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

let sequence = 0;
/** Temporary files written but not yet renamed into place. */
const unfinished = new Set<string>();

function removeUnfinished(): void {
  for (const tmp of unfinished) rmSync(tmp, { force: true });
}

function temporaryPath(path: string): string {
  if (unfinished.size === 0) process.on("exit", removeUnfinished);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++sequence}.tmp`);
  unfinished.add(tmp);
  return tmp;
}

function finished(tmp: string): void {
  unfinished.delete(tmp);
  if (unfinished.size === 0) process.off("exit", removeUnfinished);
}

export function writeFileAtomic(path: string, content: string, options: { mode?: number } = {}): void {
  const tmp = temporaryPath(path);
  try {
    const fd = openSync(tmp, "w", options.mode ?? 0o600);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  } finally {
    finished(tmp);
  }
  syncDirectory(path);
}

export async function writeFileAtomicAsync(path: string, content: string, options: { mode?: number } = {}): Promise<void> {
  const tmp = temporaryPath(path);
  try {
    const file = await open(tmp, "w", options.mode ?? 0o600);
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  } finally {
    finished(tmp);
  }
  syncDirectory(path);
}

/** Makes a file's entry in its folder (created, renamed or removed) durable. */
export function syncDirectory(path: string): void {
  try {
    const dirFd = openSync(dirname(path), "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some filesystems cannot fsync a directory; the rename itself is still atomic there.
  }
}
