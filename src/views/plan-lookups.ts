// The lookups a plan shows: only those whose value changed since the last apply (a port re-homed to
// another metro is a change the reviewer must see, even when no resource changes with it), laid out
// like a resource's field changes.

import { changedLookups, type LookupResult, type Plan, type ResourceChange } from "../plan/types.js";
import type { Colors } from "./output.js";
import { fieldChangeLines, pad, paintSym } from "./values.js";

/** A changed lookup as a no-op change of its fields, for the field-change layout of values.ts. */
const asChange = (lookup: LookupResult): ResourceChange => ({
  address: lookup.address,
  kind: lookup.kind,
  action: "no-op",
  reasonCode: "unchanged",
  changes: lookup.changes,
  unknown: [],
  sensitive: [],
  dependencies: [],
});

export const lookupPhrase = (lookup: LookupResult): string => `(${lookup.kind}) found a changed value since the last apply`;

/** The field lines of one changed lookup. */
export const lookupLines = (lookup: LookupResult, c: Colors): string[] => fieldChangeLines(asChange(lookup), c);

/** One text block per changed lookup. */
export function lookupBlocks(plan: Plan, c: Colors): string[][] {
  return changedLookups(plan).map((lookup) => [`  ${c.bold(`# ${lookup.address}`)} ${lookupPhrase(lookup)}`, `${pad(2)}${paintSym("~", c)} ${lookup.address}`, ...lookupLines(lookup, c)]);
}
