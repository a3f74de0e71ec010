// Atomic file replacement: write a temporary file beside the target, fsync it, keep the previous
// version as `.backup`, rename into place, and fsync the directory, so a crash at any point leaves
// either the old file or the new one, never a torn one.

import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeFileAtomic(path: string, content: string, options: { backup?: boolean; mode?: number } = {}): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w", options.mode ?? 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (options.backup && existsSync(path)) copyFileSync(path, `${path}.backup`);
  renameSync(tmp, path);
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some filesystems cannot fsync a directory; the rename itself is still atomic there.
  }
}
