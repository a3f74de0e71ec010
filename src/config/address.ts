// The address model: resource names, addresses (`kind.name`) and field paths. Addresses are what plans,
// state and diagnostics use to name an object, so their form is fixed here and nowhere else; which kinds
// exist is the registry's to say.

/** Lowercase so that addresses are stable in plans and state whatever the file's author typed. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

export type Address = `${string}.${string}`;

export const address = (kind: string, name: string): Address => `${kind}.${name}`;

/** The kind and name of an address of one of `kinds`; undefined when it is not one. */
export function parseAddress(text: string, kinds: { has(kind: string): boolean }): { kind: string; name: string } | undefined {
  const dot = text.indexOf(".");
  if (dot < 0) return undefined;
  const kind = text.slice(0, dot);
  const name = text.slice(dot + 1);
  if (!kinds.has(kind) || !NAME_PATTERN.test(name)) return undefined;
  return { kind, name };
}

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
