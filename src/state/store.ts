// The one writer of the state. Every change goes through `update`: it takes effect in memory at once
// and is stored (in the file, or the backend) when the returned promise resolves. Writes are atomic and
// never block the event loop, and changes made while a write is in flight are saved together by the next one, so a busy apply
// writes often but never queues stale copies. Each write names the version it follows, so a backend
// refuses one that would overwrite another writer's. The file as it was when the store opened is kept as
// `.backup`.
//
// Where the backend keeps a journal (journal.ts), a change that names the addresses it touched is stored
// as a journal record of those resources, and the whole state is written (folded) only once the journal
// has grown as large as the state, when a change cannot say what it touched, and by `fold` at the end
// of a run: the bytes a run writes grow with the number of its steps, not with steps times the state.
//
// Where the backend keeps every write as a version of its own (an HTTP server such as GitLab), a change
// made `later` — one the next run can rebuild from the service — waits in memory for the next change
// that must be stored now (a pending record, before its call) or for the end of the run.

import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { fileProblem, NetformError } from "../diag/index.js";
import { writeFileAtomicAsync } from "./atomic.js";
import type { StateBackend, StateVersion } from "./backend.js";
import { seal, unseal, type StateKeys } from "./encryption.js";
import { STATE_VERSION, stateFileSchema, type LookupState, type ResourceState, type StateFile } from "./format.js";
import { applyRecord, journalLine, journalRecords, type JournalRecord, type StateJournal } from "./journal.js";

/**
 * A copy of a state value, which is JSON: every step reads and records its resource, and structuredClone,
 * made for any value, takes about ten times as long.
 */
function copyJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/** A journal shorter than this is never folded before the run ends: small states are not rewritten per step either. */
const MIN_FOLD_BYTES = 256 * 1024;

/** The journal a store appends to, and how much it holds since the last fold. */
interface OpenJournal {
  journal: StateJournal;
  keys: StateKeys;
  /** Records appended since the last fold (or replayed from a run that stopped): the next fold clears them. */
  records: number;
  bytes: number;
  /** Something that is no record (a leftover journal's cut-off tail, a change of unknown extent) forces the next write to fold. */
  mustFold: boolean;
}

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

/**
 * When a change must be stored: `now`, before the run goes on; or `later`, with the next change stored
 * now or at the end of the run, for a change the next run can rebuild from the service (an object's
 * answer, found again by its pending record) on a backend that keeps every write. Elsewhere both are now.
 */
export type Durability = "now" | "later";

/** A resource changed in memory that no write has stored yet, as the state holds it now (undefined: removed). */
export interface UnsavedResource {
  address: string;
  resource: ResourceState | undefined;
}

export class StateStore {
  private current: StateFile;
  /** The write in flight, and whether changes arrived after it started. */
  private writing: Promise<void> | undefined;
  private dirty = false;
  /** What changed since the last write: resources by address, the lookups, or (`whole`) anything. */
  private readonly touched = new Set<string>();
  private lookupsTouched = false;
  private wholeTouched = false;
  /** The size of the last whole version written: the journal is folded once it has grown as large. */
  private foldedBytes = 0;
  /** Changes that no write is due for yet: made `later`, or in a write that failed. */
  private unstored = false;
  /** Changes counted, and per address the count at its last change until a write stores it. */
  private changes = 0;
  private readonly unsavedAt = new Map<string, number>();

  private constructor(
    /** Where the state is kept, for messages. */
    readonly location: string,
    private readonly save: SaveVersion,
    state: StateFile,
    private existsOnDisk: boolean,
    private readonly journal?: OpenJournal,
    /** Whether changes made `later` wait for the next write (StateBackend.keepsEveryWrite). */
    private readonly defers = false,
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
    let journal: OpenJournal | undefined;
    if (backend.journal) {
      const text = await backend.journal.read();
      // A run that stopped between two versions left its steps here: they are part of the state.
      const records = journalRecords(text, stored === undefined ? undefined : state, keys, backend.journal.path ? `the journal ${backend.journal.path}` : `the journal of the state ${backend.location}`);
      for (const record of records) applyRecord(state, record);
      journal = { journal: backend.journal, keys, records: records.length, bytes: 0, mustFold: text !== "" };
    }
    const store = new StateStore(backend.location, (content, version, after) => backend.write(seal(content, version, keys), version, after), state, stored !== undefined, journal, backend.keepsEveryWrite === true);
    store.foldedBytes = stored === undefined ? 0 : Buffer.byteLength(stored);
    return store;
  }

  /** Whether a run that stopped left steps in the journal that no stored version holds yet. */
  get unfolded(): boolean {
    return (this.journal?.records ?? 0) > 0;
  }

  /**
   * A deep copy of the state as it is now (in memory: what the next write saves), to change or keep. A
   * method, not a property, so that its cost shows where it is called: a copy of the state of 10,000
   * resources takes about 50 ms, and one made for each resource made plans and drift grow with the square
   * of the estate.
   */
  snapshot(): StateFile {
    return copyJson(this.current);
  }

  /** The state as it is now, not a copy: for reading at once, never for changing or keeping. */
  get view(): Readonly<StateFile> {
    return this.current;
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
    return r && copyJson(r);
  }

  /**
   * The record as it is now, not a copy: for reading a field of it at once, never for changing or
   * keeping (every step reads its record a few times, and a copy of it each time is most of a step's own work).
   */
  peek(address: string): Readonly<ResourceState> | undefined {
    return this.current.resources[address];
  }

  /** An attribute of a recorded object, without copying the state: a path of fields and list indexes. */
  attribute(address: string, path: readonly (string | number)[]): unknown {
    let cur: unknown = this.current.resources[address]?.attributes;
    for (const key of path) {
      if (cur === null || typeof cur !== "object" || Array.isArray(cur) !== (typeof key === "number")) return undefined;
      cur = (cur as Record<string | number, unknown>)[key];
    }
    return cur === undefined ? undefined : copyJson(cur);
  }

  /**
   * Applies `change` at once; resolves when a write that includes it is stored (made `later` on a
   * backend that keeps every write: at once, and it is stored with the next write). `addresses` are the
   * resources it sets or removes, and nothing else: then it can be journaled; without them the next
   * write is of the whole state.
   */
  update(change: (state: StateFile) => void, addresses?: readonly string[], durability: Durability = "now"): Promise<void> {
    change(this.current);
    this.changes += 1;
    if (addresses) {
      for (const address of addresses) {
        this.touched.add(address);
        this.unsavedAt.set(address, this.changes);
      }
    } else this.wholeTouched = true;
    return this.due(durability);
  }

  /** The lookups' values this run works from, replacing those recorded. */
  setLookups(values: Readonly<Record<string, LookupState>>, durability: Durability = "now"): Promise<void> {
    this.current.lookups = { ...values };
    this.lookupsTouched = true;
    return this.due(durability);
  }

  /** A change made: written now, or held for the next write. */
  private due(durability: Durability): Promise<void> {
    if (durability === "later" && this.defers) {
      this.unstored = true;
      return Promise.resolve();
    }
    this.dirty = true;
    return this.flush();
  }

  /** The resources changed since the last write that stored them: what a run that can no longer write leaves unrecorded. */
  unsaved(): UnsavedResource[] {
    return [...this.unsavedAt.keys()].map((address) => ({ address, resource: this.resource(address) }));
  }

  /**
   * Applies `change` in memory only: the next write saves it. For corrections that must not make a
   * read-only command write the state (secret hashes re-keyed), yet must not be lost by the next run that writes.
   */
  amend(change: (state: StateFile) => void): void {
    change(this.current);
  }

  setResource(address: string, resource: ResourceState, durability: Durability = "now"): Promise<void> {
    const copy = copyJson(resource);
    return this.update(
      (s) => {
        s.resources[address] = copy;
      },
      [address],
      durability,
    );
  }

  removeResource(address: string, durability: Durability = "now"): Promise<void> {
    return this.update(
      (s) => {
        delete s.resources[address];
      },
      [address],
      durability,
    );
  }

  /**
   * Writes the whole state, with every journaled step in it, and empties the journal; a store with
   * nothing journaled writes nothing. The end of a run, before its lock is released.
   */
  async fold(): Promise<void> {
    await this.flushAll();
    if (!this.journal || (this.journal.records === 0 && !this.journal.mustFold)) return;
    this.journal.mustFold = true;
    this.dirty = true;
    await this.flush();
  }

  /** Resolves when everything changed so far is stored, the changes made `later` included. */
  async flushAll(): Promise<void> {
    if (this.unstored) {
      this.unstored = false;
      this.dirty = true;
    }
    await this.flush();
  }

  /** Resolves when everything changed so far (but what waits for a later write) is stored. */
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
    const journal = this.journal;
    // Every change made so far goes into this write: the record of what was touched, or the whole state.
    const upTo = this.changes;
    this.unstored = false;
    if (journal && this.existsOnDisk && !journal.mustFold && !this.wholeTouched && journal.bytes < Math.max(this.foldedBytes, MIN_FOLD_BYTES)) {
      const line = journalLine(this.takeRecord(), this.current, journal.records + 1, journal.keys);
      const bytes = Buffer.byteLength(line);
      journal.records += 1;
      journal.bytes += bytes;
      try {
        await journal.journal.append(line);
      } catch (error) {
        // The record is not known to be stored: the next write stores the whole state instead.
        journal.records -= 1;
        journal.bytes -= bytes;
        journal.mustFold = true;
        throw error;
      }
      this.stored(upTo);
      return;
    }
    this.touched.clear();
    this.lookupsTouched = false;
    this.wholeTouched = false;
    const { lineage } = this.current;
    const after = this.existsOnDisk ? { lineage, serial: this.current.serial } : undefined;
    this.current.serial += 1;
    const content = `${JSON.stringify(this.current, null, 2)}\n`;
    try {
      await this.save(content, { lineage, serial: this.current.serial }, after);
    } catch (error) {
      // Not stored: the next write follows the version stored before this one, as this one did, and
      // carries its changes too; a backend's refusal of its own failed write would blame another writer.
      this.current.serial -= 1;
      this.wholeTouched = true;
      this.unstored = true;
      throw error;
    }
    this.foldedBytes = Buffer.byteLength(content);
    this.existsOnDisk = true;
    this.stored(upTo);
    if (journal && (journal.records > 0 || journal.mustFold)) {
      // The records just folded name the version before this one: should the clear not happen, they are passed over.
      await journal.journal.clear();
      journal.records = 0;
      journal.bytes = 0;
      journal.mustFold = false;
    }
  }

  /** The changes counted up to `upTo` are stored. */
  private stored(upTo: number): void {
    for (const [address, at] of this.unsavedAt) if (at <= upTo) this.unsavedAt.delete(address);
  }

  /** What changed since the last write, as a journal record, and forgotten as changed. */
  private takeRecord(): JournalRecord {
    const set: Record<string, ResourceState> = {};
    const remove: string[] = [];
    for (const address of this.touched) {
      const resource = this.current.resources[address];
      if (resource) set[address] = resource;
      else remove.push(address);
    }
    this.touched.clear();
    const record: JournalRecord = { ...(Object.keys(set).length > 0 ? { set } : {}), ...(remove.length > 0 ? { remove } : {}), ...(this.lookupsTouched && this.current.lookups ? { lookups: this.current.lookups } : {}) };
    this.lookupsTouched = false;
    return record;
  }
}
