// The local backend: the state file beside the configuration and its lock file, as netform has always
// kept them. The lock is the file lock of src/state (it renews itself while a long run holds it); one machine's
// runs see each other through it, other machines' do not. It keeps the previous version as `.backup`
// and no history. Steps are journaled in `<state>.journal` and folded into the file at the end of a run.

import { readFileSync } from "node:fs";
import { NetformError } from "../diag/index.js";
import { FileJournal, forceUnlock, lockLost, StateLock, stateFileWriter, type HeldLock, type LockRefusal, type StateBackend, type StoredVersion } from "../state/index.js";

export class LocalBackend implements StateBackend {
  readonly type = "local";
  private readonly writeFile: (content: string) => Promise<void>;
  readonly journal: FileJournal;

  constructor(readonly location: string) {
    this.writeFile = stateFileWriter(location);
    this.journal = new FileJournal(`${location}.journal`);
  }

  async read(): Promise<string | undefined> {
    try {
      return readFileSync(this.location, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new NetformError({ code: "state.read", message: `cannot read the state file ${this.location}: ${(e as Error).message}`, cause: e });
    }
  }

  // The file lock keeps other writers out; the file itself cannot compare versions atomically.
  async write(content: string): Promise<void> {
    await this.writeFile(content);
  }

  async tryLock(operation: string): Promise<HeldLock | LockRefusal> {
    let lock: StateLock;
    try {
      lock = StateLock.acquire(this.location, operation);
    } catch (error) {
      if (error instanceof NetformError && error.code === "state.locked") return { refusal: error };
      throw error;
    }
    // The file lock renews itself while it is held.
    return {
      info: lock.info,
      check: async () => {
        if (!lock.held()) throw lockLost(this.location, lock.info.id, `the lock file ${lock.path} no longer names this run (netform force-unlock removed it, or another run took it over)`);
      },
      release: async () => lock.release(),
    };
  }

  async forceUnlock(id: string) {
    return forceUnlock(this.location, id);
  }

  async history(): Promise<StoredVersion[]> {
    throw noHistory(this.location);
  }

  async readVersion(): Promise<string | undefined> {
    throw noHistory(this.location);
  }

  async close(): Promise<void> {
    await this.journal.close();
  }
}

const noHistory = (location: string) =>
  new NetformError({
    code: "state.no-history",
    message: `the local state file ${location} keeps no history (only the version before the last run, as ${location}.backup)`,
    hint: "a postgres backend keeps every version: see backend: in the configuration reference",
  });
