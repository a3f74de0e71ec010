// The seeded world shared by every area: the organisation's projects and accounts, colocation ports in
// metros of all three regions, and service profiles to connect to. Fixed identifiers, so that examples
// and documentation can name them.

import { ACCOUNTS, ORG_ID, PROJECTS } from "./auth.js";
import type { Area } from "./context.js";
import { METRO_BY_CODE } from "./metros-data.js";
import type { JsonObject, World } from "./world.js";

/** Metros with seeded ports: at least six, spread over the three regions. */
export const PORT_METROS = ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"] as const;

/** A stable uuid for seeded objects: a readable prefix per kind and a counter. */
export const seededUuid = (prefix: string, n: number): string => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** The first port keeps the identifier the configuration documentation uses in its example. */
const portUuid = (n: number) => (n === 1 ? "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee" : seededUuid("c791f8cb", n));

function port(n: number, metro: string, priority: "PRIMARY" | "SECONDARY", encapsulation: "DOT1Q" | "QINQ", projectId: string): JsonObject {
  const uuid = portUuid(n);
  const info = METRO_BY_CODE.get(metro)!;
  return {
    href: `/fabric/v4/ports/${uuid}`,
    type: "XF_PORT",
    uuid,
    name: `${ORG_ID}-${metro}1-CX-${priority === "PRIMARY" ? "PRI" : "SEC"}-0${n % 10}`,
    description: `${info.name} ${priority.toLowerCase()} port (${encapsulation})`,
    physicalPortsSpeed: 10_000,
    physicalPortsType: "10GBASE_LR",
    physicalPortsCount: 1,
    connectivitySourceType: "COLO",
    state: "ACTIVE",
    bandwidth: 10_000,
    availableBandwidth: 10_000,
    usedBandwidth: 0,
    location: { metroCode: metro, metroName: info.name, region: info.region, ibx: `${metro}1` },
    redundancy: { group: "1", priority },
    encapsulation: { type: encapsulation, tagProtocolId: encapsulation === "DOT1Q" ? "0x8100" : "0x88A8" },
    lagEnabled: false,
    package: { code: "STANDARD" },
    settings: { sharedPortType: false },
    // The port's account as the specification's SimplifiedAccount has it, with its name.
    account: { accountNumber: ACCOUNTS.main.accountNumber, accountName: ACCOUNTS.main.accountName, orgId: Number(ORG_ID), organizationName: ACCOUNTS.main.accountName },
    project: { projectId },
  };
}

export const SERVICE_PROFILES = [
  { uuid: "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11", name: "CloudExchange Direct", metros: ["SV", "DC", "NY", "LD", "AM", "FR", "SG", "TY"], bandwidths: [50, 100, 200, 500, 1000, 2000, 5000, 10000] },
  { uuid: "4b1e2c3d-5f60-4718-9a2b-3c4d5e6f7a22", name: "Secure Storage Network", metros: ["DC", "NY", "LD", "FR"], bandwidths: [50, 100, 200, 500, 1000] },
  { uuid: "7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e33", name: "Global SaaS Access", metros: ["SV", "LD", "SG", "TY", "AM"], bandwidths: [50, 200, 500, 1000, 10000] },
] as const;

function serviceProfile(p: (typeof SERVICE_PROFILES)[number]): JsonObject {
  return {
    href: `/fabric/v4/serviceProfiles/${p.uuid}`,
    type: "L2_PROFILE",
    uuid: p.uuid,
    name: p.name,
    description: `${p.name} (seeded)`,
    state: "ACTIVE",
    visibility: "PUBLIC",
    notifications: [{ type: "BANDWIDTH_ALERT", emails: ["provider-noc@example.net"] }],
    accessPointTypeConfigs: [
      {
        type: "COLO",
        supportedBandwidths: [...p.bandwidths],
        allowRemoteConnections: true,
        allowCustomBandwidth: false,
        allowBandwidthAutoApproval: true,
        connectionRedundancyRequired: false,
        connectionLabel: "Connection",
        authenticationKey: { required: false },
        linkProtocolConfig: { encapsulationStrategy: "CTAGED", reuseVlanSTag: false, encapsulation: "DOT1Q" },
      },
    ],
    metros: p.metros.map((code) => ({ code, name: METRO_BY_CODE.get(code)!.name, ibxs: [`${code}1`], inTrail: false, displayName: METRO_BY_CODE.get(code)!.name })),
  };
}

/**
 * Endpoints a connection may join besides ports and profiles: a network, a cloud router and a service
 * token (a z-side token on the DC secondary port, as a partner would be handed), one each in the production
 * project, so that every endpoint kind of 2.5 can be rehearsed.
 */
export const SEEDED_ENDPOINTS = {
  network: { uuid: "5a1e7c3b-9d2f-4e6a-8b1c-0d2e3f4a5b01", name: "global-lan", type: "EVPLAN", scope: "GLOBAL" },
  router: { uuid: "6b2f8d4c-0e3a-4f7b-9c2d-1e3f4a5b6c02", name: "fcr-dc", metroCode: "DC" },
  serviceToken: { uuid: "7c3a9e5d-1f4b-4a8c-8d3e-2f4a5b6c7d03", type: "VC_TOKEN", port: portUuid(2), vlanTag: 4001 },
} as const;

/** Who made the seeded objects, as their changeLog says. */
const SEEDED_BY = { createdBy: "provisioning", createdByFullName: "Provisioning", createdByEmail: "provisioning@example.com", createdDateTime: "2024-01-15T09:00:00.000Z" };
const NOC = [{ type: "ALL", emails: ["noc@example.com"] }];

function seededEndpoints(projectId: string): Array<{ kind: string; body: JsonObject }> {
  const { network, router, serviceToken } = SEEDED_ENDPOINTS;
  const account = { accountNumber: ACCOUNTS.main.accountNumber, accountName: ACCOUNTS.main.accountName, orgId: Number(ORG_ID), organizationName: ACCOUNTS.main.accountName };
  const dc = METRO_BY_CODE.get(router.metroCode)!;
  return [
    {
      kind: "networks",
      body: {
        href: `/fabric/v4/networks/${network.uuid}`,
        uuid: network.uuid,
        name: network.name,
        type: network.type,
        scope: network.scope,
        state: "ACTIVE",
        operation: { equinixStatus: "PROVISIONED" },
        account,
        project: { projectId },
        notifications: NOC,
        changeLog: SEEDED_BY,
        links: [{ href: `/fabric/v4/networks/${network.uuid}/connections`, rel: "getConnectionsByNetworkUuid", method: "GET", contentType: "application/json", authenticate: true }],
      },
    },
    {
      kind: "routers",
      body: {
        href: `/fabric/v4/routers/${router.uuid}`,
        uuid: router.uuid,
        name: router.name,
        type: "XF_ROUTER",
        state: "PROVISIONED",
        location: { href: `/fabric/v4/metros/${dc.code}`, metroHref: `/fabric/v4/metros/${dc.code}`, metroCode: dc.code, metroName: dc.name, region: dc.region },
        package: { href: "/fabric/v4/routerPackages/STANDARD", type: "ROUTER_PACKAGE", code: "STANDARD" },
        project: { projectId },
        account,
        notifications: NOC,
        equinixAsn: 30000,
        changeLog: SEEDED_BY,
      },
    },
    {
      kind: "serviceTokens",
      body: {
        href: `/fabric/v4/serviceTokens/${serviceToken.uuid}`,
        uuid: serviceToken.uuid,
        type: serviceToken.type,
        name: "partner-to-dc",
        state: "INACTIVE",
        expirationDateTime: "2099-12-31T00:00:00.000Z",
        connection: {
          type: "EVPL_VC",
          allowRemoteConnection: true,
          allowCustomBandwidth: false,
          supportedBandwidths: [50, 100, 200, 500, 1000],
          zSide: {
            accessPointSelectors: [
              { type: "COLO", port: { href: `/fabric/v4/ports/${serviceToken.port}`, uuid: serviceToken.port, type: "XF_PORT" }, linkProtocol: { type: "DOT1Q", vlanTag: serviceToken.vlanTag } },
            ],
          },
        },
        notifications: NOC,
        account,
        changeLog: SEEDED_BY,
        project: { projectId },
      },
    },
  ];
}

export const coreArea: Area = {
  name: "core",
  define(world) {
    world.defineKind("serviceProfiles", { statePath: "/state", eventType: "equinix.fabric.service_profile", subject: (o) => `/fabric/v4/serviceProfiles/${o.uuid}` });
    world.defineKind("projects", { eventType: "equinix.resourcemanager.project", subject: (o) => `/resourceManager/v1/projects/${o.uuid}` });
    world.defineKind("accounts", { eventType: "equinix.accountmanager.account", subject: (o) => `/accountManager/v1/accounts/${o.uuid}` });
  },
  seed(world: World) {
    for (const p of Object.values(PROJECTS)) {
      world.create("projects", { projectId: p.projectId, name: p.name, organizationId: ORG_ID }, { uuid: p.projectId, projectId: p.projectId });
    }
    for (const a of Object.values(ACCOUNTS)) {
      world.create("accounts", { accountNumber: a.accountNumber, accountName: a.accountName, ucmId: a.ucmId, orgId: ORG_ID, status: "ACTIVE" }, { uuid: a.ucmId });
    }
    let n = 1;
    for (const metro of PORT_METROS) {
      // Two DOT1Q ports (a redundant pair) in the production project and one QINQ port in the sandbox.
      for (const [priority, encapsulation, project] of [
        ["PRIMARY", "DOT1Q", PROJECTS.production.projectId],
        ["SECONDARY", "DOT1Q", PROJECTS.production.projectId],
        ["PRIMARY", "QINQ", PROJECTS.sandbox.projectId],
      ] as const) {
        const body = port(n++, metro, priority, encapsulation, project);
        world.create("ports", body, { projectId: project });
      }
    }
    for (const p of SERVICE_PROFILES) world.create("serviceProfiles", serviceProfile(p));
    const production = PROJECTS.production.projectId;
    for (const { kind, body } of seededEndpoints(production)) world.create(kind, body, { projectId: production });
  },
};
