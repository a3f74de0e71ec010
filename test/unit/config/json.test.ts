// Attribute paths in plain JSON as the service returns it: `readPath` reads fields and `[N]` list items
// ("accessPointTypeConfigs[0].type"), and `absentPath` says why a path is not there, from the deepest level
// it reaches, in words a diagnostic can show.

import { describe, expect, it } from "vitest";
import { absentPath, hasOwnKeys, mapValues, pathSegments, readPath } from "../../../src/config/index.js";

describe("readPath", () => {
  const body = {
    accessPointTypeConfigs: [{ type: "COLO", supportedBandwidths: [50, 100] }, { type: "VD" }],
    aSide: { accessPoint: { linkProtocol: { type: "DOT1Q", vlanTag: 1001 } } },
    labels: { "0": "zero" },
    empty: null,
  };

  it.each([
    ["accessPointTypeConfigs[0].type", "COLO"],
    ["accessPointTypeConfigs[1].type", "VD"],
    ["accessPointTypeConfigs[0].supportedBandwidths[1]", 100],
    ["accessPointTypeConfigs[0].supportedBandwidths", [50, 100]],
    ["aSide.accessPoint.linkProtocol.vlanTag", 1001],
    ["labels.0", "zero"],
    ["empty", null],
    ["accessPointTypeConfigs[2].type", undefined],
    ["accessPointTypeConfigs.0.type", undefined],
    ["aSide.accessPoint.linkProtocol[0]", undefined],
    ["aSide.accessPoint.linkProtocol.vlanTag.x", undefined],
    ["missing.path", undefined],
  ] as const)("%s reads %j", (path, expected) => {
    expect(readPath(body, path)).toEqual(expected);
  });

  it("reads paths given as segments as it reads them written", () => {
    expect(readPath(body, ["accessPointTypeConfigs", 0, "supportedBandwidths", 0])).toBe(50);
    expect(pathSegments("a.b[0][12].c")).toEqual(["a", "b", 0, 12, "c"]);
    expect(pathSegments("bgpIpv4.enabled")).toEqual(["bgpIpv4", "enabled"]);
  });
});

describe("absentPath", () => {
  const body = {
    uuid: "u-1",
    bandwidth: 50,
    accessPointTypeConfigs: [{ type: "COLO" }],
    metros: [],
    aSide: { accessPoint: { linkProtocol: { type: "DOT1Q", vlanTag: 1001 } } },
    empty: {},
    nothing: null,
  };

  it.each([
    ["uuid", undefined],
    ["nothing", undefined],
    ["accessPointTypeConfigs[0].type", undefined],
    ["accessPointTypeConfigs[3].type", { reason: "accessPointTypeConfigs holds 1 item ([0]), so [3] is out of range" }],
    ["metros[0].code", { reason: "metros is an empty list, so it has no item [0]" }],
    ["accessPointTypeConfigs.type", { reason: 'accessPointTypeConfigs is a list of 1 item, not a mapping with a field "type": read one item with [N], e.g. accessPointTypeConfigs[0].type' }],
    ["aSide.accessPoint.linkProtocol.vlanTg", { reason: 'aSide.accessPoint.linkProtocol has no field "vlanTg"; its fields are type, vlanTag', closest: "aSide.accessPoint.linkProtocol.vlanTag" }],
    ["aSide[0]", { reason: "aSide is a mapping, not a list, so it has no item [0]; its fields are accessPoint" }],
    ["bandwidth.value", { reason: 'bandwidth is the number 50, so it has no field "value"' }],
    ["uuid[0]", { reason: 'uuid is the string "u-1", so it has no item [0]' }],
    ["nothing.x", { reason: 'nothing is null, so it has no field "x"' }],
    ["empty.x", { reason: 'empty has no field "x"; it is an empty mapping' }],
    ["description", { reason: 'the object has no field "description"; its fields are uuid, bandwidth, accessPointTypeConfigs, metros, aSide, empty, nothing' }],
  ] as const)("%s: %j", (path, expected) => {
    expect(absentPath(body, path)).toEqual(expected);
  });
});

describe("mapValues and hasOwnKeys", () => {
  // Each mapping as Object.fromEntries of its mapped entries makes it, and as Object.keys sees it.
  const mappings: [string, Record<string, unknown>][] = [
    ["empty", {}],
    ["fields", { a: 1, b: "two", c: null, d: undefined }],
    ["integer-like keys", { b: 1, "10": 2, "2": 3, a: 4 }],
    ["a __proto__ field", JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>],
    ["no prototype", Object.assign(Object.create(null) as Record<string, unknown>, { k: "v" })],
    ["only a non-enumerable field", Object.defineProperty({}, "hidden", { value: 1, enumerable: false })],
    ["only inherited fields", Object.create({ inherited: 1 }) as Record<string, unknown>],
  ];
  const double = (v: unknown, k: string): unknown => (typeof v === "number" ? v * 2 : `${k}:${String(v)}`);

  it.each(mappings)("mapValues of %s is what Object.fromEntries of the mapped entries is", (_, mapping) => {
    const expected = Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, double(v, k)]));
    const actual = mapValues(mapping, double);
    expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    expect(Object.entries(actual)).toEqual(Object.entries(expected));
  });

  it.each(mappings)("hasOwnKeys of %s is whether Object.keys lists a field", (_, mapping) => {
    expect(hasOwnKeys(mapping)).toBe(Object.keys(mapping).length > 0);
  });
});
