// The journal as a file beside the state file (`<state>.journal`): each record appended and fsynced
// before the step it records goes on, the file removed once its records are folded into the state.

import { open, readFile, rm, type FileHandle } from "node:fs/promises";
import { fileProblem, NetformError } from "../diag/index.js";
import { syncDirectory } from "./atomic.js";
import type { StateJournal } from "./journal.js";

export class FileJournal implements StateJournal {
  /** The open file, from the first append to close: a promise, so that a close during the open closes what it opens. */
  private file: Promise<FileHandle> | undefined;

  constructor(readonly path: string) {}

  async read(): Promise<string> {
    try {
      return await readFile(this.path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw new NetformError({ code: "state.read", message: `cannot read the state journal ${this.path}: ${fileProblem(e)}`, cause: e });
    }
  }

  async append(line: string): Promise<void> {
    try {
      let opened = this.file;
      if (!opened) {
        const opening = open(this.path, "a", 0o600);
        this.file = opened = opening;
        // An open that failed is tried again by the next append, not remembered.
        await opening.catch((error: unknown) => {
          if (this.file === opening) this.file = undefined;
          throw error;
        });
        // The file's name must survive a crash as surely as its first record.
        syncDirectory(this.path);
      }
      const file = await opened;
      await file.appendFile(line);
      await file.datasync();
    } catch (e) {
      throw new NetformError({ code: "state.write", message: `cannot append to the state journal ${this.path}: ${fileProblem(e)}`, hint: "free space or fix the permissions of the state's folder, then run again: the steps already recorded are kept", cause: e });
    }
  }

  async clear(): Promise<void> {
    await this.close();
    await rm(this.path, { force: true });
    syncDirectory(this.path);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await (await file?.catch(() => undefined))?.close();
  }
}
