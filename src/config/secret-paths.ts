// Which fields of an object hold secrets. Kinds declare them with "[]" for every item of a list
// ("sshUsers[].sshPassword"), the loader finds them with indexes ("sshUsers[0].sshPassword"), and plans
// and the state walk leaves as dotted paths without indexes ("sshUsers"): one value type reads all three
// forms, so every layer answers "is this secret?" the same way.

import { isPlainObject, mapValues } from "./json.js";
import { SENSITIVE_TEXT } from "./sensitive.js";

/** A path's segments with list indexes left out: a secret in one item of a list is a secret in all of them. */
const segmentsOf = (path: string): string[] => path.replace(/\[\d*\]/g, "").split(".").filter((s) => s !== "");

/**
 * The dotted form of a path, remembered: every object of a kind asks about the same few paths, and a plan
 * of thousands of objects would otherwise split the same strings again for each.
 */
const dotted = new Map<string, string>();
const DOTTED_LIMIT = 10_000;
function dottedOf(path: string): string {
  let known = dotted.get(path);
  if (known === undefined) {
    known = segmentsOf(path).join(".");
    if (dotted.size >= DOTTED_LIMIT) dotted.clear();
    dotted.set(path, known);
  }
  return known;
}

export class SecretPaths {
  static readonly NONE = new SecretPaths([]);

  /** The paths as given (kinds write "[]" for every item of a list), without repeats. */
  readonly declared: readonly string[];
  /** The same as dotted paths without indexes, in the order given: how plans and the state name leaves. */
  readonly paths: readonly string[];
  private readonly prefixes: ReadonlySet<string>;

  constructor(paths: Iterable<string>) {
    const declared = new Set<string>();
    const normal = new Set<string>();
    const prefixes = new Set<string>([""]);
    for (const p of paths) {
      const segs = segmentsOf(p);
      if (segs.length === 0) continue;
      declared.add(p);
      normal.add(segs.join("."));
      for (let i = 1; i <= segs.length; i++) prefixes.add(segs.slice(0, i).join("."));
    }
    this.declared = [...declared];
    this.paths = [...normal];
    this.prefixes = prefixes;
  }

  /** These paths and those of `others`: these themselves when the others add none (every resource without a secret of its own asks). */
  with(...others: Iterable<string>[]): SecretPaths {
    const added = others.flatMap((o) => [...o]);
    return added.length === 0 ? this : new SecretPaths([...this.declared, ...added]);
  }

  get empty(): boolean {
    return this.paths.length === 0;
  }

  /** The path is a secret field or lies inside one. */
  covers(path: string): boolean {
    if (this.paths.length === 0) return false;
    const p = dottedOf(path);
    return this.paths.some((s) => p === s || p.startsWith(`${s}.`));
  }

  /** A walk may find a secret at or below this path (it is a secret or an ancestor of one). */
  mayHold(path: string): boolean {
    return this.prefixes.has(dottedOf(path)) || this.covers(path);
  }

  /**
   * A leaf (a scalar or a list, as plans and the state compare them) holds a secret: it is one, lies inside
   * one, or is a list with a secret somewhere inside its items.
   */
  holdsSecret(leaf: string): boolean {
    if (this.paths.length === 0) return false;
    return this.covers(leaf) || this.prefixes.has(dottedOf(leaf));
  }

  /**
   * A copy in which every leaf that holds a secret reads `text`. With `keepAbsent`, an absent (null) secret
   * stays absent, as the state records it; `transform` may rewrite other leaves (unknown values for display).
   */
  mask(body: Record<string, unknown>, options: { text?: string; keepAbsent?: boolean; transform?: (value: unknown) => unknown } = {}): Record<string, unknown> {
    const text = options.text ?? SENSITIVE_TEXT;
    const leaf = options.transform ?? ((value: unknown) => value);
    // Below a path that holds no secret, and leads to none, the copy needs no more path checks.
    const copy = (value: unknown): unknown => (isPlainObject(value) ? mapValues(value, copy) : leaf(value));
    // Most kinds have no secret at all: nothing to look for on the way down.
    if (this.paths.length === 0) return copy(body) as Record<string, unknown>;
    const walk = (value: unknown, path: string): unknown => {
      if (path && !this.mayHold(path)) return copy(value);
      if (isPlainObject(value)) return mapValues(value, (v, k) => walk(v, path ? `${path}.${k}` : k));
      if (path && this.holdsSecret(path)) return options.keepAbsent && (value === undefined || value === null) ? value : text;
      return leaf(value);
    };
    return walk(body, "") as Record<string, unknown>;
  }

  /** The keyed hash of every leaf that holds a secret, by dotted path: what the state keeps of secrets. */
  hashes(body: Record<string, unknown>, hash: (value: unknown) => string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (value: Record<string, unknown>, prefix: string): void => {
      for (const [key, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const path = prefix ? `${prefix}.${key}` : key;
        if (isPlainObject(v) && Object.keys(v).length > 0) walk(v, path);
        else if (this.holdsSecret(path)) out[path] = hash(v);
      }
    };
    walk(body, "");
    return out;
  }
}
