// The leaf fields of a body, which plans compare and show: the walk adds every level's leaves to one map,
// and gives what adding each level's own map into its parent's gave (the same paths, order and values).

import { describe, expect, it } from "vitest";
import { isPlainObject } from "../../../src/config/index.js";
import { leaves } from "../../../src/plan/values.js";

/** The leaves as a map per level, merged into the level above: the plain statement of what leaves is. */
function leavesLevelByLevel(body: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) for (const [p, v] of leavesLevelByLevel(value, path)) out.set(p, v);
    else out.set(path, value);
  }
  return out;
}

describe("leaves", () => {
  it.each([
    ["a flat body", { a: 1, b: "x", c: null, d: undefined }],
    ["nested mappings", { aSide: { accessPoint: { port: { uuid: "u" }, linkProtocol: { type: "DOT1Q", vlanTag: 100 } } }, bandwidth: 50 }],
    ["lists and empty mappings as leaves", { notifications: [{ type: "ALL" }], empty: {}, inner: { empty: {}, none: undefined } }],
    ["a mapping whose fields are all absent", { inner: { gone: undefined }, after: 1 }],
    ["a dotted key written beside the mapping it names", { "a.b": 1, a: { b: 2, c: 3 }, "a.c": 4 }],
    ["integer-like keys", { "2": "two", "1": { "0": "zero" }, x: true }],
  ] as [string, Record<string, unknown>][])("%s", (_, body) => {
    const expected = leavesLevelByLevel(body);
    expect([...leaves(body)]).toEqual([...expected]);
    expect([...leaves(body, "spec")]).toEqual([...leavesLevelByLevel(body, "spec")]);
  });
});
