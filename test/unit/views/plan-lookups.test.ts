// What a plan says of a list lookup: how many objects it found and their names (a long list cut short),
// and against the last apply the objects that appeared and went, with the forEach instances they change.

import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { ListLookupSummary, LookupResult } from "../../../src/plan/types.js";
import { listLookupLines } from "../../../src/views/plan-lookups.js";

const plain = pc.createColors(false);
const lookup = (list: ListLookupSummary): LookupResult => ({ address: "lookups.ports", kind: "port", value: { count: list.names.length, items: [] }, changes: [], list });

const CASES: Array<[string, ListLookupSummary, string[]]> = [
  ["nothing found", { names: [], appeared: [], disappeared: [], instances: [] }, ["    found 0 objects"]],
  ["one object", { names: ["dc-1"], appeared: [], disappeared: [], instances: [] }, ["    found 1 object: dc-1"]],
  [
    "an object appeared and one went, with the instances they change",
    { names: ["dc-1", "dc-3"], appeared: ["dc-3"], disappeared: ["dc-2"], instances: ['connections.up["dc-3"]', 'connections.up["dc-2"]'] },
    ["    found 2 objects: dc-1, dc-3", "    + appeared since the last apply: dc-3", "    - gone since the last apply: dc-2", '    changes connections.up["dc-3"], connections.up["dc-2"]'],
  ],
  [
    "a long list named in part",
    { names: Array.from({ length: 12 }, (_, i) => `p${i}`), appeared: [], disappeared: [], instances: [] },
    ["    found 12 objects: p0, p1, p2, p3, p4, p5, p6, p7, p8, p9 and 2 more"],
  ],
];

describe("a list lookup in the plan", () => {
  it.each(CASES)("%s", (_what, list, lines) => {
    expect(listLookupLines(lookup(list), plain)).toEqual(lines);
  });
});
