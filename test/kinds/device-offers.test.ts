// netform's plan-time check of a device's type, management type, licence, core and package, held to the
// simulator's own order rule over every combination around the catalogue: a device plan accepts is an order
// the service accepts, and a refused one is refused at the field the service names. The terms are one list
// on both sides.

import { expect, it } from "vitest";
import type { ConfigResource } from "../../src/config/index.js";
import { devices } from "../../src/kinds/devices/index.js";
import { TERM_LENGTHS } from "../../src/kinds/devices/spec.js";
import { SimError } from "../../src/simulator/core/errors.js";
import type { JsonObject } from "../../src/simulator/core/world.js";
import { DEVICE_TYPES, LICENSE_MODES, MANAGEMENT_TYPES } from "../../src/simulator/network-edge/device-catalogue.js";
import { TERM_LENGTHS as SERVICE_TERM_LENGTHS, resolveOffer } from "../../src/simulator/network-edge/device-rules.js";
import { useSimulator } from "../support/sim.js";
import { useKindContext } from "./kind-harness.js";

const t = useSimulator();
const kindCtx = useKindContext(t);

/** The field the service refuses the order at, or undefined when it accepts it. */
function serviceRefuses(spec: Record<string, unknown>): string | undefined {
  try {
    resolveOffer(spec as JsonObject);
    return undefined;
  } catch (e) {
    if (e instanceof SimError) return e.details[0]?.property;
    throw e;
  }
}

it("refuses exactly the combinations the service refuses, at the same field", async () => {
  const codes = [...DEVICE_TYPES.map((d) => d.code), "NOPE"];
  const packages = [undefined, ...new Set(DEVICE_TYPES.flatMap((d) => d.packages.map((p) => p.code)))];
  const creates: ConfigResource[] = [];
  for (const deviceTypeCode of codes)
    for (const deviceManagementType of MANAGEMENT_TYPES)
      for (const licenseMode of LICENSE_MODES)
        for (const core of [1, 2, 3, 4, 8, 16])
          for (const packageCode of packages) {
            const spec = { deviceTypeCode, deviceManagementType, licenseMode, core, ...(packageCode ? { packageCode } : {}) };
            creates.push({ kind: "devices", address: `devices.d${creates.length}`, spec } as unknown as ConfigResource);
          }
  const diagnostics = await devices.preflight!(kindCtx.ctx, creates, { resources: new Map() } as never);
  const refusedAt = new Map(diagnostics.map((d) => [d.address, d.path]));
  const disagreements = creates.filter((c) => refusedAt.get(c.address) !== serviceRefuses(c.spec)).map((c) => ({ spec: c.spec, netform: refusedAt.get(c.address), service: serviceRefuses(c.spec) }));
  expect(disagreements).toEqual([]);
  expect(refusedAt.size).toBeGreaterThan(0);
  expect(refusedAt.size).toBeLessThan(creates.length);
});

it("offers the terms the service offers", () => {
  expect(TERM_LENGTHS).toEqual(SERVICE_TERM_LENGTHS);
});
