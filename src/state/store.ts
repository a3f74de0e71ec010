// The one writer of the state file. Every change goes through `update`: it takes effect in memory at
// once and is on disk when the returned promise resolves. Writes are atomic and never block the event
// loop, and changes made while a write is in flight are saved together by the next one, so a busy apply
// writes often but never queues stale copies. The file as it was when the store opened is kept as
// `.backup`.

import { randomUUID } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { fileProblem, NetformError } from "../diag/index.js";
import { writeFileAtomicAsync } from "./atomic.js";
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
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new NetformError({
      code: "state.corrupt",
      message: `the state file ${path} is not valid JSON: ${(e as Error).message}`,
      hint: `the previous version is kept as ${path}.backup; inspect both before replacing one with the other`,
    });
  }
  const version = (json as { version?: unknown }).version;
  if (typeof version === "number" && version > STATE_VERSION) {
    throw new NetformError({ code: "state.version", message: `the state file ${path} has format version ${version}, newer than this netform understands (${STATE_VERSION})`, hint: "upgrade netform" });
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new NetformError({
      code: "state.invalid",
      message: `the state file ${path} is not a valid netform state: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      hint: `the previous version is kept as ${path}.backup`,
    });
  }
  return { state: parsed.data, exists: true };
}

export class StateStore {
  private current: StateFile;
  /** The write in flight, and whether changes arrived after it started. */
  private writing: Promise<void> | undefined;
  private dirty = false;
  private backedUp = false;

  private constructor(
    readonly path: string,
    state: StateFile,
    private existsOnDisk: boolean,
  ) {
    this.current = state;
  }

  static open(path: string, generator: string): StateStore {
    const { state, exists } = readState(path, generator);
    return new StateStore(path, state, exists);
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
    if (!this.backedUp && this.existsOnDisk) copyFileSync(this.path, `${this.path}.backup`);
    this.backedUp = true;
    this.current.serial += 1;
    await writeFileAtomicAsync(this.path, `${JSON.stringify(this.current, null, 2)}\n`);
    this.existsOnDisk = true;
  }
}
