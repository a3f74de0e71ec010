// Atomic file replacement: write a temporary file beside the target, fsync it, rename it into place,
// and fsync the directory, so a crash at any point leaves either the old file or the new one, never a
// torn one. The asynchronous form keeps the event loop free while the disk works. A temporary file is
// never left behind: a failed write removes its own, and one the process exits in the middle of (a
// second Ctrl-C exits at once) is removed on the way out.
//
// The text goes to the file a slice at a time, through one buffer a few megabytes large. Encoding the
// state of ten thousand resources (20 MB) into a buffer of its own size took longer than writing and
// syncing it: the kernel maps fresh memory a page at a time.

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
      for (const slice of encodedSlices(content)) {
        for (let written = 0; written < slice.length; ) written += writeSync(fd, slice, written);
      }
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
      for (const slice of encodedSlices(content)) {
        for (let written = 0; written < slice.length; ) written += (await file.write(slice, written)).bytesWritten;
      }
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

/** UTF-16 code units encoded at a time. */
export const WRITE_SLICE = 1 << 20;

/**
 * `content` encoded as UTF-8, a slice at a time into one buffer: each slice is to be written before the
 * next is asked for. A slice never ends between the two halves of a surrogate pair, which would encode as
 * two replacement characters.
 */
function* encodedSlices(content: string): Generator<Buffer> {
  // Three bytes at most for each code unit (four for a pair of two).
  const buffer = Buffer.allocUnsafe(3 * Math.min(content.length, WRITE_SLICE));
  for (let start = 0; start < content.length; ) {
    let end = Math.min(content.length, start + WRITE_SLICE);
    const last = content.charCodeAt(end - 1);
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield buffer.subarray(0, buffer.write(content.slice(start, end)));
    start = end;
  }
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
