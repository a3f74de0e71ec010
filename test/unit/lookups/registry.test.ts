// The registry of lookup kinds: one definition per kind, named as `kind:` spells it, each documenting what
// its where takes and reading something references can use.

import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { LOOKUP_DEFINITIONS } from "../../../src/lookups/index.js";

describe("the registry of lookup kinds", () => {
  it("holds the kinds the configuration guide lists, each under its own name", () => {
    expect([...LOOKUP_DEFINITIONS.keys()]).toEqual([
      "port",
      "serviceProfile",
      "metro",
      "deviceType",
      "devicePlatform",
      "deviceSoftware",
      "edgeAccount",
      "cloudRouter",
      "network",
      "serviceToken",
      "routeFilter",
      "routeFilterRule",
      "routeAggregation",
      "routeAggregationRule",
      "connection",
      "connectionRouteFilter",
      "connectionRouteAggregation",
      "routingProtocol",
      "device",
    ]);
    for (const [name, definition] of LOOKUP_DEFINITIONS) expect(definition.name).toBe(name);
  });

  it.each([...LOOKUP_DEFINITIONS.values()])("$name: every where field is described, unknown fields are refused, and it has attributes", (definition) => {
    for (const [field, schema] of Object.entries(definition.where.shape)) expect((schema as z.ZodType).description, field).toBeTruthy();
    expect(definition.where.safeParse({ nowhere: 1 }).success).toBe(false);
    expect(definition.attributes.length).toBeGreaterThan(0);
  });
});
