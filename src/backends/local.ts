// The local backend: the state file beside the configuration and its lock file, as netform has always
// kept them. The lock is the file lock of src/state (it renews itself while a long run holds it); one machine's
// runs see each other through it, other machines' do not. It keeps the previous version as `.backup`
// and no history (rekey reseals or removes that backup with the rest). Steps are journaled in
// `<state>.journal` and folded into the file at the end of a run.
// A state in a folder that does not exist yet (`states/prod.json`) gets the folder, as Terraform does: the
// first run to lock it makes it.
// A workspace other than the default keeps its state in `netform.state.d/NAME/`, beside the default state,
// under the default state's file name (Terraform's `terraform.tfstate.d` layout).

import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileProblem, NetformError } from "../diag/index.js";
import { FileJournal, forceUnlock, lockLost, StateLock, stateFileWriter, writeFileAtomicAsync, type HeldLock, type LockRefusal, type StateBackend, type StoredVersion } from "../state/index.js";

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
    this.makeFolder();
    await this.writeFile(content);
  }

  private makeFolder(): void {
    const folder = dirname(this.location);
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw new NetformError({
        code: "state.write",
        message: `cannot create the folder ${folder} for the state file ${this.location}: ${fileProblem(error)}`,
        hint: "create it, or point the state at a folder this user may write (backend.local.path, or --state)",
        cause: error,
      });
    }
  }

  async tryLock(operation: string): Promise<HeldLock | LockRefusal> {
    this.makeFolder();
    let lock: StateLock;
    try {
      lock = StateLock.acquire(this.location, operation);
    } catch (error) {
      if (error instanceof NetformError) {
        if (error.code === "state.locked") return { refusal: error };
        throw error;
      }
      throw new NetformError({
        code: "state.lock",
        message: `cannot create the lock file ${this.location}.lock: ${fileProblem(error)}`,
        hint: "make the state's folder writable for this user, or point the state elsewhere (backend.local.path, or --state)",
        cause: error,
      });
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

  async resealHistory(reseal: (content: string) => string): Promise<number> {
    const backup = `${this.location}.backup`;
    if (!existsSync(backup)) return 0;
    const content = readFileSync(backup, "utf8");
    const resealed = reseal(content);
    if (resealed === content) return 0;
    await writeFileAtomicAsync(backup, resealed);
    return 1;
  }

  async pruneHistory(): Promise<number> {
    const backup = `${this.location}.backup`;
    if (!existsSync(backup)) return 0;
    rmSync(backup);
    return 1;
  }

  /** Removes the state file with the previous version and the journal kept beside it. */
  async delete(): Promise<void> {
    await this.journal.close();
    for (const file of [this.location, `${this.location}.backup`, this.journal.path]) rmSync(file, { force: true });
  }

  async close(): Promise<void> {
    await this.journal.close();
  }
}

/** The folder beside the default state that holds the other workspaces' folders. */
const WORKSPACES_FOLDER = "netform.state.d";

/** Where a workspace other than the default keeps its state, given the default workspace's state file. */
export const localWorkspacePath = (defaultPath: string, workspace: string): string => join(dirname(defaultPath), WORKSPACES_FOLDER, workspace, basename(defaultPath));

/**
 * The workspaces whose folder holds a state of this name. Two configurations whose states sit in one folder
 * under different names (local.path) share `netform.state.d` without seeing each other's workspaces.
 */
export function localWorkspaces(defaultPath: string): string[] {
  const folder = join(dirname(defaultPath), WORKSPACES_FOLDER);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new NetformError({ code: "state.read", message: `cannot list the workspaces in ${folder}: ${(e as Error).message}`, cause: e });
  }
  return entries.filter((name) => existsSync(localWorkspacePath(defaultPath, name))).sort();
}

/** Removes a deleted workspace's folder, and `netform.state.d` when it was the last; a folder still holding anything stays. */
export function removeWorkspaceFolder(defaultPath: string, workspace: string): void {
  const folder = dirname(localWorkspacePath(defaultPath, workspace));
  for (const dir of [folder, dirname(folder)]) {
    try {
      rmdirSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOENT") return;
      throw new NetformError({ code: "state.write", message: `cannot remove the folder ${dir}: ${(e as Error).message}`, cause: e });
    }
  }
}

const noHistory = (location: string) =>
  new NetformError({
    code: "state.no-history",
    message: `the local state file ${location} keeps no history (only the version before the last run, as ${location}.backup)`,
    hint: "a postgres backend keeps every version: see backend: in the configuration reference",
  });
