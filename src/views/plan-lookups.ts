// The lookups a plan shows: only those whose value changed since the last apply (a port re-homed to
// another metro is a change the reviewer must see, even when no resource changes with it), laid out
// like a resource's field changes.

import { changedLookups, type LookupResult, type Plan, type ResourceChange } from "../plan/types.js";
import { compareAddresses } from "../config/index.js";
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

/**
 * What each lookup read, as Terraform prints each data source it reads: its kind, its search and what it
 * found, changed or not; no lines when the plan read none.
 */
export function lookupReadLines(plan: Plan, c: Colors): string[] {
  const lookups = [...(plan.lookups ?? [])].sort((a, b) => compareAddresses(a.address, b.address));
  if (lookups.length === 0) return [];
  return [
    c.bold("Lookups read:"),
    ...lookups.map((l) => `  ${l.address} (${l.kind}${l.where ? `, where ${l.where}` : ""}): found ${l.found ?? foundFromValue(l.value)}${l.changes.length > 0 ? c.yellow(" (changed since the last apply)") : ""}`),
  ];
}

/** For a plan saved without the words: the name and uuid its value records. */
function foundFromValue(value: Record<string, unknown>): string {
  const name = typeof value.name === "string" ? value.name : undefined;
  const uuid = typeof value.uuid === "string" ? value.uuid : undefined;
  return name && uuid ? `${name} (${uuid})` : (name ?? uuid ?? "an object");
}
