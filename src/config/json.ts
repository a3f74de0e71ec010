// Plain JSON values as every layer handles them: a mapping test that lists and wrapped values (a
// Sensitive, a Reference) fail, and one reader of attribute paths ("bgpIpv4.enabled",
// "accessPointTypeConfigs[0].type").

/** A plain mapping: not a list, not null, not an instance of a class. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const INDEXED = /^([^[\]]*)((?:\[\d+\])+)$/;

/**
 * The segments of a path as formatPath writes it: fields joined by dots, `[N]` after a field an index into
 * the list it holds ("notifications[0].emails" -> ["notifications", 0, "emails"]). A field is always a
 * field: "a.0" reads the key "0", never a list item.
 */
export function pathSegments(path: string): (string | number)[] {
  // Most paths have no index: they are split, as they always were, without a pattern per segment.
  if (!path.includes("[")) return path.split(".");
  const out: (string | number)[] = [];
  for (const part of path.split(".")) {
    const m = INDEXED.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? "").matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/**
 * The value at a path: as formatPath writes it ("bgpIpv4.enabled", "accessPointTypeConfigs[0].type"), or as
 * segments where a number indexes a list (["notifications", 0, "emails"]). Undefined where the path leaves
 * plain mappings and lists.
 */
export function readPath(body: unknown, path: string | readonly (string | number)[]): unknown {
  let cur = body;
  for (const seg of typeof path === "string" ? pathSegments(path) : path) {
    if (typeof seg === "number" && Array.isArray(cur)) cur = cur[seg];
    else if (isPlainObject(cur)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}
