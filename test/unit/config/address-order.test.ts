// The natural order of addresses: digit runs by value, everything else by character code, inside
// forEach keys too; never a locale's collation.

import { describe, expect, it } from "vitest";
import { compareAddresses } from "../../../src/config/address.js";

describe("compareAddresses", () => {
  const cases: Array<[string, string[], string[]]> = [
    ["numbers by value", ["connections.r10", "connections.r2", "connections.r0", "connections.r1", "connections.r11"], ["connections.r0", "connections.r1", "connections.r2", "connections.r10", "connections.r11"]],
    ["inside forEach keys", ['routeFilters.f["10"]', 'routeFilters.f["9"]', 'routeFilters.f["a2"]', 'routeFilters.f["a10"]'], ['routeFilters.f["9"]', 'routeFilters.f["10"]', 'routeFilters.f["a2"]', 'routeFilters.f["a10"]']],
    ["kinds before names", ["ports.a1", "connections.z9", "connections.a10"], ["connections.a10", "connections.z9", "ports.a1"]],
    ["a block before its instances", ['connections.v["1"]', "connections.v", "connections.v-2"], ["connections.v", "connections.v-2", 'connections.v["1"]']],
    ["leading zeros after the plain number", ["connections.r02", "connections.r2", "connections.r1"], ["connections.r1", "connections.r2", "connections.r02"]],
    ["numbers longer than any integer", ["x.n123456789012345678901234567890", "x.n99999999999999999999999999999"], ["x.n99999999999999999999999999999", "x.n123456789012345678901234567890"]],
    ["case by character code, not locale", ["x.b", "x.B", "x.a"], ["x.B", "x.a", "x.b"]],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      expect([...input].sort(compareAddresses)).toEqual(expected);
    });
  }

  it("is zero only for equal addresses", () => {
    expect(compareAddresses("connections.r2", "connections.r2")).toBe(0);
    expect(compareAddresses("connections.r2", "connections.r02")).not.toBe(0);
  });
});
