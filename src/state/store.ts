// The one writer of the state. Every change goes through `update`: it takes effect in memory at once
// and is stored (in the file, or the backend) when the returned promise resolves. Writes are atomic and
// never block the event loop, and changes made while a write is in flight are saved together by the next one, so a busy apply
// writes often but never queues stale copies. Each write names the version it follows, so a backend
// refuses one that would overwrite another writer's. The file as it was when the store opened is kept as
// `.backup`.

import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { fileProblem, NetformError } from "../diag/index.js";
import { writeFileAtomicAsync } from "./atomic.js";
import type { StateBackend, StateVersion } from "./backend.js";
import { seal, unseal, type StateKeys } from "./encryption.js";
import { STATE_VERSION, stateFileSchema, type ResourceState, type StateFile } from "./format.js";

export function emptyState(generator: string): StateFile {
  return { version: STATE_VERSION, lineage: randomUUID(), serial: 0, generator, resources: {}, outputs: {} };
}

/** Reads a state file; an absent file is an empty state (and `exists` false). */
export function readState(path: string, generator: string): { state: StateFile; exists: boolean } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { state: emptyState(generator), exists: false };
    throw new NetformError({ code: "state.read", message: `cannot read the state file ${path}: ${fileProblem(e)}`, cause: e });
  }
  return { state: parseState(text, `the state file ${path}`, `the previous version is kept as ${path}.backup`), exists: true };
}

/** A state's content checked against the format; `what` names it in errors, `recovery` says how to get an earlier one. */
export function parseState(text: string, what: string, recovery?: string): StateFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new NetformError({
      code: "state.corrupt",
      message: `${what} is not valid JSON: ${(e as Error).message}`,
      ...(recovery ? { hint: `${recovery}; inspect both before replacing one with the other` } : {}),
    });
  }
  const version = (json as { version?: unknown }).version;
  if (typeof version === "number" && version > STATE_VERSION) {
    throw new NetformError({ code: "state.version", message: `${what} has format version ${version}, newer than this netform understands (${STATE_VERSION})`, hint: "upgrade netform" });
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new NetformError({
      code: "state.invalid",
      message: `${what} is not a valid netform state: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      ...(recovery ? { hint: recovery } : {}),
    });
  }
  return parsed.data;
}

/** Writes the state file atomically, keeping the file as it was before the first write as `.backup`. */
export function stateFileWriter(path: string): (content: string) => Promise<void> {
  let backedUp = false;
  return async (content) => {
    if (!backedUp && existsSync(path)) copyFileSync(path, `${path}.backup`);
    backedUp = true;
    await writeFileAtomicAsync(path, content);
  };
}

/** Saves one version of the state, refused unless the stored one is still `after`. */
type SaveVersion = (content: string, version: StateVersion, after: StateVersion | undefined) => Promise<void>;

export class StateStore {
  private current: StateFile;
  /** The write in flight, and whether changes arrived after it started. */
  private writing: Promise<void> | undefined;
  private dirty = false;

  private constructor(
    /** Where the state is kept, for messages. */
    readonly location: string,
    private readonly save: SaveVersion,
    state: StateFile,
    private existsOnDisk: boolean,
  ) {
    this.current = state;
  }

  /** The state file at `path`, unencrypted, without a lock (the local backend's own form). */
  static open(path: string, generator: string): StateStore {
    const { state, exists } = readState(path, generator);
    const write = stateFileWriter(path);
    return new StateStore(path, (content) => write(content), state, exists);
  }

  /** The state a backend keeps, opened with the keys (sealed on the way in when there is a key). */
  static async load(backend: StateBackend, generator: string, keys: StateKeys): Promise<StateStore> {
    const stored = await backend.read();
    const what = `the state ${backend.location}`;
    const state = stored === undefined ? emptyState(generator) : parseState(unseal(stored, keys, what), what, backend.type === "local" ? `the previous version is kept as ${backend.location}.backup` : "netform state history lists earlier versions");
    return new StateStore(backend.location, (content, version, after) => backend.write(seal(content, version, keys), version, after), state, stored !== undefined);
  }

  /** A deep copy of the state as it is now (in memory: what the next write saves). */
  get state(): StateFile {
    return structuredClone(this.current);
  }

  get exists(): boolean {
    return this.existsOnDisk;
  }

  /**
   * Gives a state that does not exist yet the lineage a saved plan was made with, so the plan still
   * applies to it (and its secret hashes still match).
   */
  adoptLineage(lineage: string): void {
    if (this.existsOnDisk) throw new Error("the lineage of an existing state cannot change");
    this.current = { ...this.current, lineage };
  }

  resource(address: string): ResourceState | undefined {
    const r = this.current.resources[address];
    return r && structuredClone(r);
  }

  /** An attribute of a recorded object, without copying the state. */
  attribute(address: string, path: string): unknown {
    let cur: unknown = this.current.resources[address]?.attributes;
    for (const key of path.split(".")) {
      if (cur === null || typeof cur !== "object") return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
    return cur === undefined ? undefined : structuredClone(cur);
  }

  /** Applies `change` at once; resolves when a write that includes it is on disk. */
  update(change: (state: StateFile) => void): Promise<void> {
    change(this.current);
    this.dirty = true;
    return this.flush();
  }

  /**
   * Applies `change` in memory only: the next write saves it. For corrections that must not make a
   * read-only command write the state (secret hashes re-keyed), yet must not be lost by the next run that writes.
   */
  amend(change: (state: StateFile) => void): void {
    change(this.current);
  }

  setResource(address: string, resource: ResourceState): Promise<void> {
    const copy = structuredClone(resource);
    return this.update((s) => {
      s.resources[address] = copy;
    });
  }

  removeResource(address: string): Promise<void> {
    return this.update((s) => {
      delete s.resources[address];
    });
  }

  /** Resolves when everything changed so far is on disk. */
  async flush(): Promise<void> {
    while (this.dirty || this.writing) {
      if (!this.writing) {
        this.dirty = false;
        this.writing = this.write().finally(() => {
          this.writing = undefined;
        });
      }
      await this.writing;
    }
  }

  private async write(): Promise<void> {
    const { lineage } = this.current;
    const after = this.existsOnDisk ? { lineage, serial: this.current.serial } : undefined;
    this.current.serial += 1;
    await this.save(`${JSON.stringify(this.current, null, 2)}\n`, { lineage, serial: this.current.serial }, after);
    this.existsOnDisk = true;
  }
}
