// The state's journal: between two stored versions of the state, each step of a run is appended as a
// record of what it changed (the resources it set or removed, whole), made durable before the step goes
// on. Writing a step then costs the size of its record, not of the state, and a run that dies between
// versions loses nothing: the next one replays the records onto the version they follow and folds them
// into a new version. A record names the version it follows (lineage and serial), so records already
// folded are told apart from those that are not, whatever moment a run died at; with a key each record
// is sealed like the state, bound to its place in the journal. A record cut short by a crash has no
// newline yet and is ignored: its step had not been confirmed to anyone.

import { NetformError } from "../diag/index.js";
import type { StateVersion } from "./backend.js";
import { seal, sealedVersion, unseal, type StateKeys } from "./encryption.js";
import { lookupStateSchema, resourceStateSchema, type LookupState, type ResourceState, type StateFile } from "./format.js";
import { z } from "zod";

/** Where a backend keeps the journal: beside the state, with the same lock covering both. */
export interface StateJournal {
  /** Where the journal is, for messages that tell the user what to put back or remove (a file's path). */
  readonly path?: string;
  /** Everything appended since the last clear, as stored; "" when there is none. */
  read(): Promise<string>;
  /** Appends one line (ending in a newline); resolves once it is durable. */
  append(line: string): Promise<void>;
  /** Empties the journal, once its records are folded into a stored version. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export interface JournalRecord {
  set?: Record<string, ResourceState>;
  remove?: string[];
  lookups?: Record<string, LookupState>;
}

const recordSchema = z.object({
  set: z.record(z.string(), resourceStateSchema).optional(),
  remove: z.array(z.string()).optional(),
  lookups: z.record(z.string(), lookupStateSchema).optional(),
});

interface Line {
  lineage: string;
  after: number;
  seq: number;
  record?: unknown;
  sealed?: unknown;
}

// The authenticated data of a sealed record: its journal position, so that no record can be moved or replayed elsewhere.
const placeOf = (base: StateVersion, seq: number) => ({ lineage: `${base.lineage} journal after ${base.serial}`, serial: seq });

/** One record as a journal line: sealed with the key when there is one. */
export function journalLine(record: JournalRecord, base: StateVersion, seq: number, keys: StateKeys): string {
  const head = { lineage: base.lineage, after: base.serial, seq };
  const text = JSON.stringify(record);
  const line: Line = keys.sealing ? { ...head, sealed: JSON.parse(seal(text, placeOf(base, seq), keys)) } : { ...head, record };
  return `${JSON.stringify(line)}\n`;
}

export function applyRecord(state: StateFile, record: JournalRecord): void {
  for (const address of record.remove ?? []) delete state.resources[address];
  Object.assign(state.resources, record.set ?? {});
  if (record.lookups) state.lookups = record.lookups;
}

/**
 * The records of a journal that follow `base` (undefined: no state is stored), in order. Records already
 * folded (of an earlier version of the same state) are left out, and so is a last record cut short; a
 * damaged record in the middle is an error, since what came after it cannot be trusted to apply. So are
 * records that follow a version the state does not hold (a later one, another state's): the state was
 * restored or replaced under them, and replaying them there, or dropping them, would lose track of
 * what their run made.
 */
export function journalRecords(text: string, base: StateVersion | undefined, keys: StateKeys, what: string): JournalRecord[] {
  const lines = text.split("\n");
  // What follows the last newline was being written when the run stopped.
  lines.pop();
  const records: JournalRecord[] = [];
  const strays = new Map<string, { lineage: string; after: number; count: number }>();
  lines.forEach((raw, index) => {
    const where = `${what}, record ${index + 1}`;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      throw damaged(where, "it is not valid JSON");
    }
    const folded = base !== undefined && line.lineage === base.lineage && line.after < base.serial;
    if (folded) return;
    if (base === undefined || line.lineage !== base.lineage || line.after !== base.serial) {
      const key = `${line.lineage}@${line.after}`;
      const stray = strays.get(key) ?? { lineage: String(line.lineage), after: Number(line.after), count: 0 };
      stray.count += 1;
      strays.set(key, stray);
      return;
    }
    if (line.seq !== records.length + 1) throw damaged(where, `it is record ${String(line.seq)} of the journal, where record ${records.length + 1} was expected`);
    const json = line.sealed !== undefined ? JSON.parse(opened(JSON.stringify(line.sealed), placeOf(base, line.seq), keys, where)) : line.record;
    const parsed = recordSchema.safeParse(json);
    if (!parsed.success) throw damaged(where, `${parsed.error.issues[0]!.path.join(".") || "(root)"}: ${parsed.error.issues[0]!.message}`);
    records.push(parsed.data as JournalRecord);
  });
  if (strays.size > 0) throw strayRecords(what, base, [...strays.values()]);
  return records;
}

function strayRecords(what: string, base: StateVersion | undefined, strays: Array<{ lineage: string; after: number; count: number }>): NetformError {
  const followed = strays.map((s) => `${s.count} record${s.count === 1 ? "" : "s"} after version ${s.after} of lineage ${s.lineage}`).join(", ");
  const holds = base === undefined ? "no state is stored" : `the state holds version ${base.serial} of lineage ${base.lineage}`;
  const restored = base !== undefined && strays.every((s) => s.lineage === base.lineage && s.after > base.serial);
  return new NetformError({
    code: "state.journal-stray",
    message: `${what} holds the steps of a run that followed a version the state does not hold (${followed}), and ${holds}: ${restored ? "the state was restored to an earlier version since" : "the state was replaced or removed since"}; nothing was read or changed`,
    hint: restored
      ? "put back the version the journal follows (netform state pull --serial N lists it where the backend keeps history), then run again and the steps are folded; or, once every object the journal names is known (netform import brings one back), remove the journal"
      : "put back the state the journal belongs to, then run again; or, once every object the journal names is known (netform import brings one back), remove the journal",
  });
}

/** A sealed record's content, refused unless it was sealed for this place in the journal. */
function opened(sealed: string, place: StateVersion, keys: StateKeys, where: string): string {
  const content = unseal(sealed, keys, where);
  const version = sealedVersion(sealed);
  if (version?.lineage !== place.lineage || version.serial !== place.serial) {
    throw new NetformError({ code: "state.tampered", message: `${where} was sealed for another place in the journal: it was moved or altered after it was written`, hint: "restore the journal as the run left it, or remove it once the objects it names are known" });
  }
  return content;
}

const damaged = (where: string, problem: string) =>
  new NetformError({
    code: "state.journal",
    message: `${where} is damaged: ${problem}`,
    hint: "the journal holds the steps of a run that stopped before it saved them in the state: inspect it, and remove it only once the objects it names are known (netform import brings back one the state lost)",
  });
