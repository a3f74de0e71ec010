// The lookups a plan shows: those whose value changed since the last apply (a port re-homed to
// another metro is a change the reviewer must see, even when no resource changes with it), laid out
// like a resource's field changes; and every list lookup, with how many objects it found and their
// names, the objects that appeared or went since the last apply and the forEach instances that follow.

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

/** How many names of a list lookup's objects a line shows before saying how many more there are. */
const LISTED_NAMES = 10;

const namesText = (names: readonly string[]): string => {
  const shown = names.slice(0, LISTED_NAMES).join(", ");
  return names.length > LISTED_NAMES ? `${shown} and ${names.length - LISTED_NAMES} more` : shown;
};

/** What a list lookup found, as plan lines: the count and names, what appeared and went, the instances they change. */
export function listLookupLines(lookup: LookupResult, c: Colors): string[] {
  const list = lookup.list;
  if (!list) return [];
  const count = list.names.length;
  const lines = [`${pad(4)}found ${countText(count)}${count > 0 ? `: ${namesText(list.names)}` : ""}`];
  if (list.appeared.length > 0) lines.push(`${pad(4)}${paintSym("+", c)} appeared since the last apply: ${namesText(list.appeared)}`);
  if (list.disappeared.length > 0) lines.push(`${pad(4)}${paintSym("-", c)} gone since the last apply: ${namesText(list.disappeared)}`);
  if (list.instances.length > 0) lines.push(`${pad(4)}changes ${namesText(list.instances)}`);
  return lines;
}

/** The field lines of one changed lookup. */
export const lookupLines = (lookup: LookupResult, c: Colors): string[] => fieldChangeLines(asChange(lookup), c);

/** One text block per changed lookup, and per list lookup (what it found); a list's own field changes are its lines above. */
export function lookupBlocks(plan: Plan, c: Colors): string[][] {
  const changed = new Set(changedLookups(plan));
  return (plan.lookups ?? [])
    .filter((lookup) => changed.has(lookup) || lookup.list !== undefined)
    .map((lookup) =>
      lookup.list !== undefined
        ? [`  ${c.bold(`# ${lookup.address}`)} (${lookup.kind}, a list)${changed.has(lookup) ? " found another list than at the last apply" : ""}`, ...listLookupLines(lookup, c)]
        : [`  ${c.bold(`# ${lookup.address}`)} ${lookupPhrase(lookup)}`, `${pad(2)}${paintSym("~", c)} ${lookup.address}`, ...lookupLines(lookup, c)],
    );
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
    ...lookups.map((l) => `  ${l.address} (${l.kind}${l.list ? ", a list" : ""}${l.where ? `, where ${l.where}` : ""}): found ${l.list ? countText(l.list.names.length) : (l.found ?? foundFromValue(l.value))}${l.changes.length > 0 ? c.yellow(" (changed since the last apply)") : ""}`),
  ];
}

const countText = (count: number): string => `${count} ${count === 1 ? "object" : "objects"}`;

/** For a plan saved without the words: the name and uuid its value records. */
function foundFromValue(value: Record<string, unknown>): string {
  const name = typeof value.name === "string" ? value.name : undefined;
  const uuid = typeof value.uuid === "string" ? value.uuid : undefined;
  return name && uuid ? `${name} (${uuid})` : (name ?? uuid ?? "an object");
}
