// Plain JSON values as every layer handles them: a mapping test that lists and wrapped values (a
// Sensitive, a Reference) fail, and one reader of dotted paths ("bgpIpv4.enabled").

/** A plain mapping: not a list, not null, not an instance of a class. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The value at a path: dotted ("bgpIpv4.enabled"), or as segments where a number indexes a list
 * (["notifications", 0, "emails"]). Undefined where the path leaves plain mappings and lists.
 */
export function readPath(body: unknown, path: string | readonly (string | number)[]): unknown {
  let cur = body;
  for (const seg of typeof path === "string" ? path.split(".") : path) {
    if (typeof seg === "number" && Array.isArray(cur)) cur = cur[seg];
    else if (isPlainObject(cur)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}
