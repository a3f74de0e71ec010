// Attribute paths in plain JSON as the service returns it: `readPath` reads fields and `[N]` list items
// ("accessPointTypeConfigs[0].type").

import { describe, expect, it } from "vitest";
import { pathSegments, readPath } from "../../../src/config/index.js";

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
