// The address model: resource names, addresses (`kind.name`, and `kind.name["key"]` for an instance of a
// resource with forEach) and field paths. Addresses are what plans, state and diagnostics use to name an
// object, so their form is fixed here and nowhere else; which kinds exist is the registry's to say.

/** Lowercase so that addresses are stable in plans and state whatever the file's author typed. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

export type Address = `${string}.${string}`;

/**
 * An instance's key is any string, written as Terraform writes it: double-quoted, with `"` and `\` (and
 * control characters) escaped as in JSON, so that `connections.vlan["1001"]` reads as users know it.
 */
export const address = (kind: string, name: string, key?: string): Address => (key === undefined ? `${kind}.${name}` : `${kind}.${name}[${JSON.stringify(key)}]`);

export interface ParsedAddress {
  kind: string;
  name: string;
  /** The forEach key of an instance; undefined for a resource without forEach, or the whole block of one. */
  key?: string;
}

/** A double-quoted key at `text[start]` and where it ends (after the quote); undefined when there is none. */
export function readQuotedKey(text: string, start: number): { key: string; end: number } | undefined {
  if (text[start] !== '"') return undefined;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') {
      try {
        const key: unknown = JSON.parse(text.slice(start, i + 1));
        return typeof key === "string" ? { key, end: i + 1 } : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The kind, name and key of an address of one of `kinds`; undefined when it is not one. */
export function parseAddress(text: string, kinds: { has(kind: string): boolean }): ParsedAddress | undefined {
  const dot = text.indexOf(".");
  if (dot < 0) return undefined;
  const kind = text.slice(0, dot);
  const bracket = text.indexOf("[", dot);
  const name = text.slice(dot + 1, bracket < 0 ? undefined : bracket);
  if (!kinds.has(kind) || !NAME_PATTERN.test(name)) return undefined;
  if (bracket < 0) return { kind, name };
  const quoted = readQuotedKey(text, bracket + 1);
  if (!quoted || text.slice(quoted.end) !== "]") return undefined;
  return { kind, name, key: quoted.key };
}

/** The address of the block an instance address belongs to: `connections.vlan` for `connections.vlan["1001"]`. */
export const blockOf = (addr: string): string => {
  const bracket = addr.indexOf("[");
  return bracket < 0 ? addr : addr.slice(0, bracket);
};

/**
 * Addresses as a user means them: a block address of a resource with forEach (`connections.vlan`) stands
 * for every instance of it among `known`, as Terraform's --target does; any other address stays as it is.
 */
export function expandBlockAddresses(addresses: readonly string[], known: Iterable<string>): string[] {
  const instances = new Map<string, string[]>();
  const plain = new Set<string>();
  for (const k of known) {
    if (!k.includes("[")) {
      plain.add(k);
      continue;
    }
    const block = blockOf(k);
    const own = instances.get(block);
    if (own) own.push(k);
    else instances.set(block, [k]);
  }
  // A block's own address may still be in the state, from before forEach was added: it is meant too.
  return [...new Set(addresses.flatMap((a) => {
    const own = instances.get(a);
    return own ? [...(plain.has(a) ? [a] : []), ...own.sort()] : [a];
  }))];
}

/**
 * The order addresses are listed in wherever a person reads them: natural, so `r2` comes before `r10`,
 * inside `["key"]` indexes too. Runs of digits compare by value (then by length, so `r02` follows `r2`),
 * everything else by character code: no locale collation, the same order on every machine.
 */
export function compareAddresses(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const endA = digitRunEnd(a, i);
      const endB = digitRunEnd(b, j);
      // Leading zeros aside, the longer run is the larger number: no parsing, so no overflow.
      const ta = stripZeros(a.slice(i, endA));
      const tb = stripZeros(b.slice(j, endB));
      if (ta.length !== tb.length) return ta.length - tb.length;
      if (ta !== tb) return ta < tb ? -1 : 1;
      if (endA - i !== endB - j) return endA - i - (endB - j);
      i = endA;
      j = endB;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

function digitRunEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  return end;
}

const stripZeros = (digits: string): string => digits.replace(/^0+(?=\d)/, "");

/** A path to a value inside a resource: object keys and array indexes. */
export type FieldPath = readonly (string | number)[];

/** `aSide.accessPoint.port.uuid`, `notifications[0].emails[1]`. */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

/** Inverse of formatPath for the dotted forms users write in ignoreChanges and references. */
export function parsePath(text: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of text.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    for (const idx of (m[2] ?? "").matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}
