// How a lookup's where matches an object the service returned: plain values, each operator, OR groups, a
// field holding a list; and which conditions narrow the service's own search (equality and `in`) rather
// than being evaluated on its answers.

import { describe, expect, it } from "vitest";
import { likePattern, matches, type WhereFields } from "../../../src/lookups/search.js";

const FIELDS: WhereFields = {
  name: { at: "name", property: "/name" },
  bandwidth: { at: "bandwidth" },
  metroCode: { at: "location.metroCode", property: "/location/metroCode" },
  status: { at: "status", anyCase: true },
  metros: { at: "metros", each: "code" },
  packages: { at: "packages", each: "" },
  date: { at: "date" },
};

const PORT = { name: "dc-port-1", bandwidth: 10000, location: { metroCode: "DC" }, status: "Active", metros: [{ code: "DC" }, { code: "SV" }], packages: ["essentials", "advantage"], date: "2024-03-01" };

const CASES: Array<[string, Record<string, unknown>, boolean]> = [
  ["a plain value", { name: "dc-port-1" }, true],
  ["a plain value that differs", { name: "dc-port-2" }, false],
  ["a nested field", { metroCode: "DC" }, true],
  ["a number as text", { bandwidth: "10000" }, true],
  ["any case where the service mixes it", { status: "ACTIVE" }, true],
  ["not", { name: { not: "dc-port-1" } }, false],
  ["in", { metroCode: { in: ["SV", "DC"] } }, true],
  ["notIn", { metroCode: { notIn: ["SV", "DC"] } }, false],
  ["like with %", { name: { like: "dc-%" } }, true],
  ["like without regard to case", { name: { like: "DC-PORT-_" } }, true],
  ["like anchored at both ends", { name: { like: "port%" } }, false],
  ["like with characters a regular expression would read", { name: { like: "dc.port%" } }, false],
  ["notLike", { name: { notLike: "dc-%" } }, false],
  ["gt on numbers as numbers", { bandwidth: { gt: 9000 } }, true],
  ["gte and lt together (a range)", { bandwidth: { gte: 10000, lt: 10001 } }, true],
  ["lte on ISO dates", { date: { lte: "2024-02-28" } }, false],
  ["an operator on a field the object lacks", { bandwidth: { gt: 1 }, name: "dc-port-1", date: { gt: "2024" } }, true],
  ["one item of a list of objects", { metros: "SV" }, true],
  ["one value of a list of values", { packages: { like: "adv%" } }, true],
  ["an OR group that holds", { name: { like: "dc-%" }, or: [{ metroCode: "SV" }, { metroCode: "DC" }] }, true],
  ["no OR group holds", { or: [{ metroCode: "SV" }, { bandwidth: { lt: 100 } }] }, false],
  ["a field the kind does not have", { colour: "blue" }, false],
];

describe("matching a where", () => {
  it.each(CASES)("%s", (_what, where, expected) => {
    expect(matches(FIELDS, where, PORT)).toBe(expected);
  });

  it("reads LIKE patterns as the service does: % any run, _ one character", () => {
    expect(likePattern("a%b_").test("aXYZbQ")).toBe(true);
    expect(likePattern("a%b_").test("aXYZb")).toBe(false);
    expect(likePattern("50%").test("50% off")).toBe(true);
  });
});
