// The refactoring blocks: `moved:` (an object the state records under an old address now lives under a
// new one, with no change on the service) and `removed:` (an object leaves netform's care, and by its
// `destroy` either stays on the service or is deleted). Both name addresses that are no longer declared,
// so they are checked here against the configuration; whether the state holds them is the plan's to see.

import type { Diagnostic } from "../diag/index.js";
import { parseAddress, type Address } from "./address.js";
import { isPlainObject } from "./json.js";
import type { PositionIndex, SourcePosition } from "./positions.js";
import { didYouMean } from "../diag/suggest.js";
import { placeDiagnostic } from "./validate.js";

export const MOVED_SECTION = "moved";
export const REMOVED_SECTION = "removed";

/** One effective move: a chain a -> b -> c is followed to its end, so `to` is where the object lives now. */
export interface MovedBlock {
  from: Address;
  to: Address;
  /** Where the block whose `from` this is is written. */
  position?: SourcePosition;
}

export interface RemovedBlock {
  from: Address;
  /** false: forget the object and leave it on the service; true: delete it. */
  destroy: boolean;
  position?: SourcePosition;
}

/** A `moved:` or `removed:` list as one file writes it, with the positions of its entries' values. */
export interface RawRefactoring {
  section: typeof MOVED_SECTION | typeof REMOVED_SECTION;
  value: unknown;
  /** Positions relative to the section ("[0].from"). */
  positions: PositionIndex;
  /** Where the section's key is, for a section that is not a list. */
  position?: SourcePosition;
}

export interface Refactoring {
  moves: MovedBlock[];
  removals: RemovedBlock[];
}

const FIELDS = { moved: ["from", "to"], removed: ["from", "destroy"] } as const;

/**
 * Checks the blocks against the kinds and the declared addresses: each `from` is of a known kind and no
 * longer declared, a move keeps its kind, no address is moved twice or in a cycle, and nothing is both
 * moved and removed.
 */
export function buildRefactoring(raws: readonly RawRefactoring[], kinds: { has(kind: string): boolean }, declared: ReadonlySet<string>, diagnostics: Diagnostic[]): Refactoring {
  const direct = new Map<Address, MovedBlock>();
  const removals = new Map<Address, RemovedBlock>();
  for (const raw of raws) {
    const loc = { address: raw.section, positions: raw.positions };
    const report = (path: (string | number)[], code: string, message: string, hint?: string, atKey = false) => diagnostics.push(placeDiagnostic(loc, { path, code, message, hint, atKey }));
    if (raw.value === null) continue;
    if (!Array.isArray(raw.value)) {
      diagnostics.push({ severity: "error", code: "config.shape", address: raw.section, ...(raw.position ? { file: raw.position.file, line: raw.position.line, column: raw.position.column } : {}), message: `${raw.section} is a list of { ${FIELDS[raw.section].join(", ")} }`, hint: raw.section === MOVED_SECTION ? "e.g. moved: [{ from: connections.old-name, to: connections.new-name }]" : "e.g. removed: [{ from: connections.old-name, destroy: false }]" });
      continue;
    }
    raw.value.forEach((entry, i) => {
      if (!isPlainObject(entry)) {
        report([i], "config.shape", `each ${raw.section} entry is a mapping of ${FIELDS[raw.section].join(" and ")}`);
        return;
      }
      let complete = true;
      for (const key of Object.keys(entry)) {
        if (!(FIELDS[raw.section] as readonly string[]).includes(key)) {
          report([i, key], "schema.unknown-field", `unknown field "${key}"`, didYouMean(key, FIELDS[raw.section]), true);
          complete = false;
        }
      }
      const from = addressField(entry, "from", [i], kinds, report);
      if (raw.section === MOVED_SECTION) {
        const to = addressField(entry, "to", [i], kinds, report);
        if (!from || !to || !complete) return;
        const position = raw.positions.get(`[${i}]`)?.value;
        if (from.address === to.address) return report([i, "to"], "moved.same", `${from.address} is moved to itself`, "remove this block");
        if ((from.key === undefined) !== (to.key === undefined)) {
          const whole = from.key === undefined ? from.address : to.address;
          const one = from.key === undefined ? to.address : from.address;
          return report([i, "to"], "moved.shape", `${from.address} cannot move to ${to.address}: a whole resource (${whole}) moves only to a whole resource, and an instance (${one}) only to an instance`, `move every instance with from: ${blockAddress(from)} and to: ${blockAddress(to)}, or one with from: ${blockAddress(from)}["KEY"] and to: ${blockAddress(to)}["KEY"]`);
        }
        if (from.kind !== to.kind) return report([i, "to"], "moved.kind", `${from.address} is one of ${from.kind} and cannot become one of ${to.kind}`, `an object keeps its kind: move it to ${from.kind}.${to.name}, or declare the new object and remove the old one`);
        if (declared.has(from.address)) return report([i, "from"], "moved.still-declared", `${from.address} is moved to ${to.address} but is still declared`, `remove the declaration of ${from.address}: a moved block's from is the old address`);
        const first = direct.get(from.address);
        if (first) return report([i, "from"], "moved.duplicate", `${from.address} is moved twice: to ${first.to} and to ${to.address}`, "keep one of the two moved blocks");
        direct.set(from.address, { from: from.address, to: to.address, ...(position ? { position } : {}) });
      } else {
        const destroy = entry.destroy;
        if (destroy === undefined) report([i], "removed.destroy", `${from?.address ?? "this removed block"} does not say whether to destroy the object`, "write destroy: false to forget it and leave it on the service, or destroy: true to delete it");
        else if (typeof destroy !== "boolean") report([i, "destroy"], "removed.destroy", "destroy is true or false", "destroy: false forgets the object and leaves it on the service; destroy: true deletes it");
        if (!from || typeof destroy !== "boolean" || !complete) return;
        const position = raw.positions.get(`[${i}]`)?.value;
        if (declared.has(from.address)) return report([i, "from"], "removed.still-declared", `${from.address} is removed but is still declared`, `remove the declaration of ${from.address}, or this removed block`);
        if (removals.has(from.address)) return report([i, "from"], "removed.duplicate", `${from.address} is removed twice`, "keep one of the two removed blocks");
        removals.set(from.address, { from: from.address, destroy, ...(position ? { position } : {}) });
      }
    });
  }
  for (const removal of removals.values()) {
    const move = direct.get(removal.from);
    if (move) diagnostics.push({ severity: "error", code: "removed.moved", address: REMOVED_SECTION, ...(removal.position ? { file: removal.position.file, line: removal.position.line, column: removal.position.column } : {}), message: `${removal.from} is both removed and moved to ${move.to}`, hint: "keep the one meant" });
  }
  return { moves: followChains(direct, diagnostics), removals: [...removals.values()] };
}

/**
 * Each move taken to the end of its chain (a -> b, b -> c: a ends at c); a cycle is an error. Every
 * address is walked once: a walk stops at an address whose end is already known.
 */
function followChains(direct: ReadonlyMap<Address, MovedBlock>, diagnostics: Diagnostic[]): MovedBlock[] {
  // Where each moved address ends; null for one in a cycle, or leading into one.
  const ends = new Map<Address, Address | null>();
  for (const [start, block] of direct) {
    if (ends.has(start)) continue;
    const path: Address[] = [];
    const onPath = new Map<Address, number>();
    let at = start;
    while (direct.has(at) && !ends.has(at) && !onPath.has(at)) {
      onPath.set(at, path.length);
      path.push(at);
      at = direct.get(at)!.to;
    }
    let end: Address | null;
    if (onPath.has(at)) {
      const cycle = path.slice(onPath.get(at));
      diagnostics.push({ severity: "error", code: "moved.cycle", address: MOVED_SECTION, ...(block.position ? { file: block.position.file, line: block.position.line, column: block.position.column } : {}), message: `moved blocks form a cycle: ${[...cycle, at].join(" -> ")}`, hint: "an address can be moved once; remove the block that leads back" });
      end = null;
    } else {
      end = ends.has(at) ? ends.get(at)! : at;
    }
    for (const a of path) ends.set(a, end);
  }
  const out: MovedBlock[] = [];
  for (const block of direct.values()) {
    const to = ends.get(block.from);
    if (to) out.push({ ...block, to });
  }
  return out;
}

function addressField(
  entry: Record<string, unknown>,
  field: "from" | "to",
  at: (string | number)[],
  kinds: { has(kind: string): boolean },
  report: (path: (string | number)[], code: string, message: string, hint?: string) => void,
): { address: Address; kind: string; name: string; key?: string } | undefined {
  const text = entry[field];
  if (text === undefined) {
    report(at, "config.field", `missing ${field}`, `${field} is a resource address, e.g. connections.dc-link`);
    return undefined;
  }
  const parsed = typeof text === "string" ? parseAddress(text, kinds) : undefined;
  if (!parsed) {
    report([...at, field], "config.address", `${field} must be a resource address (KIND.NAME), got ${JSON.stringify(text)}`, "e.g. connections.dc-link: write the address itself, not a ${...} reference");
    return undefined;
  }
  return { address: text as Address, ...parsed };
}

/** The whole resource an address names: `routeFilters.f` for `routeFilters.f["a"]`. */
const blockAddress = (parsed: { kind: string; name: string }): string => `${parsed.kind}.${parsed.name}`;
