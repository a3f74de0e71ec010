// Atomic file replacement: write a temporary file beside the target, fsync it, rename it into place,
// and fsync the directory, so a crash at any point leaves either the old file or the new one, never a
// torn one. The asynchronous form keeps the event loop free while the disk works.

import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

let sequence = 0;
const temporaryPath = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${++sequence}.tmp`);

export function writeFileAtomic(path: string, content: string, options: { mode?: number } = {}): void {
  const tmp = temporaryPath(path);
  const fd = openSync(tmp, "w", options.mode ?? 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDirectory(path);
}

export async function writeFileAtomicAsync(path: string, content: string, options: { mode?: number } = {}): Promise<void> {
  const tmp = temporaryPath(path);
  const file = await open(tmp, "w", options.mode ?? 0o600);
  try {
    await file.writeFile(content);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
  syncDirectory(path);
}

function syncDirectory(path: string): void {
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
