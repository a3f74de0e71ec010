// Objects placed straight into a test simulator's world, for tests of one area that need an object of
// another (an attachment needs a connection, a VPN needs a device) without depending on that area's
// create flow. The shapes are the minimum that the other areas read.

import { PROJECTS } from "../../src/simulator/index.js";
import type { TestSim } from "./sim.js";

export interface ConnectionFixture {
  projectId?: string;
  state?: string;
  name?: string;
}

/** A provisioned port-to-port connection in the production project (or the one given). */
export function seedConnection(t: TestSim, options: ConnectionFixture = {}): string {
  const uuid = t.sim.world.uuid();
  const projectId = options.projectId ?? PROJECTS.production.projectId;
  t.sim.world.create(
    "connections",
    {
      href: `/fabric/v4/connections/${uuid}`,
      uuid,
      type: "EVPL_VC",
      name: options.name ?? `fixture-${uuid.slice(0, 8)}`,
      state: options.state ?? "PROVISIONED",
      bandwidth: 100,
      operation: { equinixStatus: "PROVISIONED", providerStatus: "AVAILABLE" },
      project: { projectId },
    },
    { uuid, projectId },
  );
  return uuid;
}

export interface DeviceFixture {
  projectId?: string;
  status?: string;
  redundancyType?: "PRIMARY" | "SECONDARY" | "CLUSTER";
  /** For a redundant pair: the peer's uuid. */
  redundantUuid?: string;
  metroCode?: string;
}

/** A provisioned virtual device in the production project (or the one given). */
export function seedDevice(t: TestSim, options: DeviceFixture = {}): string {
  const uuid = t.sim.world.uuid();
  const projectId = options.projectId ?? PROJECTS.production.projectId;
  t.sim.world.create(
    "devices",
    {
      uuid,
      name: `fixture-${uuid.slice(0, 8)}`,
      deviceTypeCode: "C8000V",
      status: options.status ?? "PROVISIONED",
      licenseStatus: "REGISTERED",
      metroCode: options.metroCode ?? "DC",
      redundancyType: options.redundancyType ?? "PRIMARY",
      ...(options.redundantUuid ? { redundantUuid: options.redundantUuid } : {}),
      deviceManagementType: "PROVIDER-CONFIGURED",
      projectId,
    },
    { uuid, projectId },
  );
  return uuid;
}
