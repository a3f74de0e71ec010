// Objects placed straight into a test simulator's world, for tests of one area that need an object of
// another (an attachment needs a connection, a VPN needs a device, a connection a router, network or
// token) without depending on that area's create flow. The shapes are the minimum that the other areas read.

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

export interface RouterFixture {
  projectId?: string;
  state?: string;
  packageCode?: "LAB" | "STANDARD";
  metroCode?: string;
}

/** A provisioned cloud router (STANDARD, in DC, production project unless told otherwise). */
export function seedRouter(t: TestSim, options: RouterFixture = {}): string {
  const uuid = t.sim.world.uuid();
  const projectId = options.projectId ?? PROJECTS.production.projectId;
  const code = options.packageCode ?? "STANDARD";
  const metroCode = options.metroCode ?? "DC";
  t.sim.world.create(
    "routers",
    {
      href: `/fabric/v4/routers/${uuid}`,
      uuid,
      type: "XF_ROUTER",
      name: `fcr-${uuid.slice(0, 8)}`,
      state: options.state ?? "PROVISIONED",
      location: { metroHref: `/fabric/v4/metros/${metroCode}`, metroCode },
      package: { href: `/fabric/v4/routerPackages/${code}`, type: "ROUTER_PACKAGE", code },
      project: { projectId },
      equinixAsn: 30000,
      changeLog: { createdBy: "fixture", createdDateTime: "2024-01-01T00:00:00Z" },
    },
    { uuid, projectId },
  );
  return uuid;
}

export interface NetworkFixture {
  projectId?: string;
  type?: "EVPLAN" | "EPLAN" | "IPWAN" | "EVPTREE" | "EPTREE";
  scope?: "GLOBAL" | "REGIONAL" | "LOCAL";
  region?: "AMER" | "EMEA" | "APAC";
  equinixStatus?: string;
}

/** A provisioned network (a GLOBAL EVPLAN in the production project unless told otherwise). */
export function seedNetwork(t: TestSim, options: NetworkFixture = {}): string {
  const uuid = t.sim.world.uuid();
  const projectId = options.projectId ?? PROJECTS.production.projectId;
  const status = options.equinixStatus ?? "PROVISIONED";
  t.sim.world.create(
    "networks",
    {
      href: `/fabric/v4/networks/${uuid}`,
      uuid,
      type: options.type ?? "EVPLAN",
      name: `lan-${uuid.slice(0, 8)}`,
      scope: options.scope ?? "GLOBAL",
      ...(options.region ? { location: { region: options.region } } : {}),
      state: status === "PROVISIONED" ? "ACTIVE" : "INACTIVE",
      operation: { equinixStatus: status },
      project: { projectId },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      changeLog: { createdBy: "fixture", createdDateTime: "2024-01-01T00:00:00Z" },
    },
    { uuid, projectId },
  );
  return uuid;
}

export interface TokenFixture {
  projectId?: string;
  side?: "aSide" | "zSide";
  /** The port the token stands for (the DC secondary port unless told otherwise) and its VLAN. */
  port?: string;
  vlanTag?: number;
  connectionType?: string;
  bandwidthLimit?: number;
  supportedBandwidths?: number[];
  allowRemoteConnection?: boolean;
  expirationDateTime?: string;
}

/** An unused port token (z-side, on the DC secondary port, up to 1000 Mbps, any metro) in the production project. */
export function seedServiceToken(t: TestSim, options: TokenFixture = {}): string {
  const uuid = t.sim.world.uuid();
  const projectId = options.projectId ?? PROJECTS.production.projectId;
  const port = options.port ?? DC_SECONDARY_PORT;
  const bandwidth: Record<string, number | number[]> = options.supportedBandwidths ? { supportedBandwidths: options.supportedBandwidths } : { bandwidthLimit: options.bandwidthLimit ?? 1000 };
  t.sim.world.create(
    "serviceTokens",
    {
      href: `/fabric/v4/serviceTokens/${uuid}`,
      uuid,
      type: "VC_TOKEN",
      name: `token-${uuid.slice(0, 8)}`,
      state: "INACTIVE",
      expirationDateTime: options.expirationDateTime ?? "2099-01-01T00:00:00.000Z",
      connection: {
        type: options.connectionType ?? "EVPL_VC",
        allowRemoteConnection: options.allowRemoteConnection ?? true,
        allowCustomBandwidth: false,
        ...bandwidth,
        [options.side ?? "zSide"]: {
          accessPointSelectors: [{ type: "COLO", port: { href: `/fabric/v4/ports/${port}`, uuid: port, type: "XF_PORT" }, linkProtocol: { type: "DOT1Q", vlanTag: options.vlanTag ?? nextVlan++ } }],
        },
      },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      project: { projectId },
      changeLog: { createdBy: "fixture", createdDateTime: "2024-01-01T00:00:00Z" },
    },
    { uuid, projectId },
  );
  return uuid;
}

/** An ACL template of the production project letting one subnet in, under the uuid given (or a new one). */
export function seedAclTemplate(t: TestSim, uuid = t.sim.world.uuid()): string {
  const projectId = PROJECTS.production.projectId;
  t.sim.world.create(
    "aclTemplates",
    { uuid, name: `fixture-${uuid.slice(0, 8)}`, inboundRules: [{ protocol: "TCP", srcPort: "any", dstPort: "22", subnet: "198.51.100.0/24", seqNo: 1 }], projectId },
    { uuid, projectId },
  );
  return uuid;
}
