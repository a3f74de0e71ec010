// Plain JSON values as every layer handles them: a mapping test that lists and wrapped values (a
// Sensitive, a Reference) fail, and one reader of dotted paths ("bgpIpv4.enabled").

/** A plain mapping: not a list, not null, not an instance of a class. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The value at a dotted path of plain mappings; undefined where the path leaves them. */
export function readPath(body: unknown, path: string): unknown {
  let cur = body;
  for (const key of path.split(".")) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}
