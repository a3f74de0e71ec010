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

/** A seeded DOT1Q port of the production project (Washington, D.C.), as a connection endpoint. */
const DC_PORT = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const DC_SECONDARY_PORT = "c791f8cb-0000-4000-8000-000000000002";

let nextVlan = 3000;
const endpoint = (port: string, vlanTag: number) => ({
  accessPoint: {
    type: "COLO",
    port: { href: `/fabric/v4/ports/${port}`, uuid: port, type: "XF_PORT" },
    linkProtocol: { type: "DOT1Q", vlanTag },
    location: { metroCode: "DC" },
  },
});

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
      order: { purchaseOrderNumber: "PO-FIXTURE" },
      aSide: endpoint(DC_PORT, nextVlan),
      zSide: endpoint(DC_SECONDARY_PORT, nextVlan++),
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
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
