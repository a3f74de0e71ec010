// The one writer of the state file. Every change goes through `update`, which applies it to a copy,
// bumps the serial and writes the file atomically (keeping the previous one as .backup), so the state
// on disk is current after every step of an apply.

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { NetformError } from "../diag/index.js";
import { writeFileAtomic } from "./atomic.js";
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
    throw new NetformError({ code: "state.read", message: `cannot read the state file ${path}: ${(e as Error).message}`, cause: e });
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

  /** A deep copy of the state as it is now. */
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

  /** Applies `change` to the state and writes it at once. */
  update(change: (state: StateFile) => void): void {
    const next = structuredClone(this.current);
    change(next);
    next.serial = this.current.serial + 1;
    writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`, { backup: this.existsOnDisk });
    this.current = next;
    this.existsOnDisk = true;
  }

  setResource(address: string, resource: ResourceState): void {
    this.update((s) => {
      s.resources[address] = resource;
    });
  }

  removeResource(address: string): void {
    this.update((s) => {
      delete s.resources[address];
    });
  }
}
