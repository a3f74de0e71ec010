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

/** The settings some types require (the catalogue's additionalFields), so that only the offer decides here. */
const EVERY_REQUIRED_SETTING = Object.fromEntries(
  DEVICE_TYPES.flatMap((d) => Object.values(d.management).flatMap((m) => m.additionalFields.filter((f) => f.required).map((f) => [f.name, "x"]))),
);

it("refuses exactly the combinations the service refuses, at the same field", async () => {
  const codes = [...DEVICE_TYPES.map((d) => d.code), "NOPE"];
  const packages = [undefined, ...new Set(DEVICE_TYPES.flatMap((d) => d.packages.map((p) => p.code)))];
  const creates: ConfigResource[] = [];
  for (const deviceTypeCode of codes)
    for (const deviceManagementType of MANAGEMENT_TYPES)
      for (const licenseMode of LICENSE_MODES)
        for (const core of [1, 2, 3, 4, 8, 16])
          for (const packageCode of packages) {
            const spec = { deviceTypeCode, deviceManagementType, licenseMode, core, ...(packageCode ? { packageCode } : {}), vendorConfig: EVERY_REQUIRED_SETTING };
            creates.push({ kind: "devices", address: `devices.d${creates.length}`, spec } as unknown as ConfigResource);
          }
  const diagnostics = await devices.preflight!(kindCtx.ctx, creates, { resources: new Map() } as never, (r) => r.spec);
  const refusedAt = new Map(diagnostics.map((d) => [d.address, d.path]));
  const disagreements = creates.filter((c) => refusedAt.get(c.address) !== serviceRefuses(c.spec)).map((c) => ({ spec: c.spec, netform: refusedAt.get(c.address), service: serviceRefuses(c.spec) }));
  expect(disagreements).toEqual([]);
  expect(refusedAt.size).toBeGreaterThan(0);
  expect(refusedAt.size).toBeLessThan(creates.length);
});

it("refuses, before the order, a device without a setting its type requires, or a pair sharing one it wants distinct, at the field the service names", async () => {
  const byol = { deviceManagementType: "SELF-CONFIGURED", licenseMode: "BYOL", metroCode: "SV", notifications: ["netops@example.com"] };
  const lan = (ip: string) => ({ adminPassword: "Adm1nPass", ipAddress: ip, subnetMaskIp: "255.255.255.0", gatewayIp: "10.30.0.1" });
  const standby = (vendorConfig: object) => ({ virtualDeviceName: "standby-1", metroCode: "SV", notifications: ["netops@example.com"], vendorConfig });
  const grid = { ...byol, deviceTypeCode: "INFOBLOX-GRID-MEMBER", core: 8, connectivity: "PRIVATE" };
  const cases: Array<Record<string, unknown>> = [
    { ...byol, deviceTypeCode: "INFOBLOX-NIOSX", core: 3, vendorConfig: { hostname: "dns-a" } },
    { ...byol, deviceTypeCode: "6WIND-VSR", core: 2, vendorConfig: { token: "t" }, secondary: standby({ hostname: "vsr-b" }) },
    { ...grid, vendorConfig: lan("10.30.0.2"), secondary: standby(lan("10.30.0.2")) },
    { ...grid, clusterDetails: { clusterName: "grid-c", clusterNodeDetails: { node0: { vendorConfig: lan("10.30.0.4") }, node1: { vendorConfig: { ipAddress: "10.30.0.5" } } } } },
    { ...grid, vendorConfig: lan("10.30.0.2"), secondary: standby(lan("10.30.0.3")) },
    { ...byol, deviceTypeCode: "C8000V", core: 2, hostNamePrefix: "edge", secondary: { ...standby({}), hostNamePrefix: "edge" } },
  ];
  const creates = cases.map((spec, i) => ({ kind: "devices", address: `devices.d${i}`, spec: { ...spec, virtualDeviceName: `d${i}-device` } }) as unknown as ConfigResource);
  const refusedAt = new Map((await devices.preflight!(kindCtx.ctx, creates, { resources: new Map() } as never, (r) => r.spec)).map((d) => [d.address, d.path]));
  const service: Array<string | undefined> = [];
  for (const c of creates) {
    const res = await t.call("POST", "/ne/v1/devices", { body: c.spec });
    service.push(res.status === 202 ? undefined : String(res.body.property));
  }
  expect(creates.map((c) => refusedAt.get(c.address))).toEqual(["vendorConfig.token", "secondary.vendorConfig.token", "secondary.vendorConfig.ipAddress", "clusterDetails.clusterNodeDetails.node1.vendorConfig.adminPassword", undefined, "secondary.hostNamePrefix"]);
  expect(service).toEqual(creates.map((c) => refusedAt.get(c.address)));
});

it("offers the terms the service offers", () => {
  expect(TERM_LENGTHS).toEqual(SERVICE_TERM_LENGTHS);
});
