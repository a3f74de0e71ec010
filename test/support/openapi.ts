// The conformance snapshot: what the official API descriptions document about each operation's
// responses (the schema of every documented status, and the definitions those reach), reduced to what
// the validator checks. It is committed beside this file so that a fresh clone can run the conformance
// checks; `npm run conformance:snapshot` regenerates it from the descriptions, and its test fails when
// the descriptions are at hand and the snapshot no longer matches them.

import { readFileSync } from "node:fs";

export const SNAPSHOT_URL = new URL("./conformance-snapshot.json", import.meta.url);

/** A JSON schema as the snapshot holds it (`$ref`s point into `definitions`). */
export type Schema = Record<string, unknown>;

export interface SnapshotOperation {
  method: string;
  /** Path template as served, e.g. "/fabric/v4/routeFilters/{routeFilterId}". */
  template: string;
  /** Documented status (or "default") -> schema of its JSON body, or null when no JSON body is documented. */
  responses: Record<string, Schema | null>;
  /** Documented status -> its JSON media type, where the description spells it otherwise than application/json. */
  mediaTypes?: Record<string, string>;
}

export interface Snapshot {
  /** SHA-256 of each description file the snapshot was made from, by path within the descriptions folder. */
  sources: Record<string, string>;
  operations: SnapshotOperation[];
  definitions: Record<string, Schema>;
}

/** An operation and where its responses sit in the snapshot, for the validator's JSON pointers. */
export interface Operation extends SnapshotOperation {
  index: number;
}

let snapshot: Snapshot | undefined;

export function loadSnapshot(): Snapshot {
  snapshot ??= JSON.parse(readFileSync(SNAPSHOT_URL, "utf8")) as Snapshot;
  return snapshot;
}

let indexed: Array<Operation & { pattern: RegExp; parameters: number }> | undefined;

function operations() {
  indexed ??= loadSnapshot().operations.map((op, index) => ({
    ...op,
    index,
    pattern: new RegExp(`^${op.template.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    parameters: (op.template.match(/\{/g) ?? []).length,
  }));
  return indexed;
}

const plain = ({ method, template, responses, mediaTypes, index }: Operation): Operation => ({ method, template, responses, ...(mediaTypes ? { mediaTypes } : {}), index });

/** The operation a concrete request path and method belong to; literal segments win over parameters. */
export function findOperation(method: string, path: string): Operation | undefined {
  const candidates = operations().filter((op) => op.method === method && op.pattern.test(path));
  const best = candidates.sort((a, b) => a.parameters - b.parameters)[0];
  return best && plain(best);
}

/** The operation "METHOD /path/template" names. */
export function findOperationByKey(key: string): Operation | undefined {
  const found = operations().find((op) => `${op.method} ${op.template}` === key);
  return found && plain(found);
}
