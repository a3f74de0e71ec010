// The device-type catalogue of the network-edge service (sections 2.10 and 4.10): which virtual devices
// can be ordered, where, with which software packages, versions, cores and licences. It is data in code,
// so that the catalogue calls and the device-create rules read one and the same source: a device can be
// created exactly when the catalogue offers its combination.

import { METRO_BY_CODE, type Region } from "../core/metros-data.js";
import type { JsonObject } from "../core/world.js";

export const LICENSE_MODES = ["SUB", "BYOL"] as const;
export type LicenseMode = (typeof LICENSE_MODES)[number];

export const MANAGEMENT_TYPES = ["SELF-CONFIGURED", "PROVIDER-CONFIGURED"] as const;
export type ManagementType = (typeof MANAGEMENT_TYPES)[number];

/**
 * A licence mode as a request writes it, in the specification's spelling: the official client sends "Sub"
 * (equinix/ne-go's DeviceLicenseModeSubscription), and the service reads it without regard to case.
 */
export const licenseModeSpelling = (raw: string): string => raw.toUpperCase();

/**
 * A management type as a request writes it, in the specification's spelling: the official description and
 * the official client call the provider-managed type EQUINIX-CONFIGURED, which the service takes; the
 * simulator answers PROVIDER-CONFIGURED, as the specification writes it.
 */
export const managementSpelling = (raw: string): string => (raw === "EQUINIX-CONFIGURED" ? "PROVIDER-CONFIGURED" : raw);

export const CATEGORIES = ["ROUTER", "FIREWALL", "SDWAN"] as const;
export type Category = (typeof CATEGORIES)[number];

export type ThroughputUnit = "Mbps" | "Gbps";

/** What a BYOL order of the type must bring: nothing (the licence is registered later), an uploaded file, or a token. */
export type ByolCredential = "none" | "licenseFileId" | "licenseToken";

export interface Throughput {
  value: number;
  unit: ThroughputUnit;
}

export interface VersionDef {
  version: string;
  versionDate: string;
  retireDate?: string;
  stable: boolean;
  upgradesTo: string[];
  licenseModes: LicenseMode[];
}

export interface PackageDef {
  code: string;
  name: string;
  licenseType: string;
  versions: VersionDef[];
  /** Throughput of a non-tiered package. */
  throughput?: Throughput;
}

export interface CoreDef {
  core: number;
  memory: number;
  flavor: "Small" | "Medium" | "Large" | "X-Large";
  packages: string[];
  /** Throughput tiers offered with this core (8000-series only). */
  tiers?: number[];
}

export interface AdditionalField {
  name: string;
  required: boolean;
  isSameValueAllowedForPrimaryAndSecondary: boolean;
}

export interface SupportedService {
  name: string;
  required: boolean;
  packageCodes: string[];
  supportedForClustering: boolean;
}

export interface ManagementDef {
  licenses: Partial<Record<LicenseMode, CoreDef[]>>;
  clustering: boolean;
  services: SupportedService[];
  additionalFields: AdditionalField[];
}

export interface DeviceTypeDef {
  code: string;
  name: string;
  description: string;
  vendor: string;
  category: Category;
  /** Allowed interface counts; the first is the default. */
  interfaceCounts: number[];
  clusterInterfaceCounts?: number[];
  interfaceName: (id: number) => string;
  metros: string[];
  packages: PackageDef[];
  management: Partial<Record<ManagementType, ManagementDef>>;
  byolCredential: ByolCredential;
  /**
   * A BYOL order with PRIVATE connectivity (zero-touch) needs no licence credential: the device is licensed
   * once its owner reaches it over the private network.
   */
  zeroTouchLicense?: boolean;
  /** Cisco 8000-series: throughput is chosen as a tier (0 to 3). */
  tiered: boolean;
  /** Reachability checks (ping) are offered for self-configured devices of this type. */
  pingSupported: boolean;
  vendorTermsUrl: string;
}

/** Throughput of each 8000-series tier. */
export const TIER_THROUGHPUT: Readonly<Record<number, Throughput>> = {
  0: { value: 15, unit: "Mbps" },
  1: { value: 100, unit: "Mbps" },
  2: { value: 1, unit: "Gbps" },
  3: { value: 10, unit: "Gbps" },
};
export const DEFAULT_TIER = 2;

/** Metros whose network-edge pods can host cluster devices. */
const CLUSTER_METROS = new Set(["DC", "SV", "NY", "LD", "FR", "SG", "CH", "DA"]);

const version = (v: string, versionDate: string, upgradesTo: string[], extra: Partial<VersionDef> = {}): VersionDef => ({
  version: v,
  versionDate,
  stable: false,
  upgradesTo,
  licenseModes: ["SUB", "BYOL"],
  ...extra,
});

const C8000V_VERSIONS = [
  version("17.06.01a", "2021-08-02", ["17.09.01a", "17.11.01a"], { retireDate: "2026-12-31" }),
  version("17.09.01a", "2022-07-29", ["17.11.01a", "17.12.02"]),
  version("17.11.01a", "2023-04-03", ["17.12.02"], { stable: true }),
  version("17.12.02", "2023-12-15", []),
];

const c8000vCores = (withLarge: boolean): CoreDef[] => [
  { core: 2, memory: 8, flavor: "Small", packages: ["network-essentials", "network-advantage"], tiers: [0, 1, 2] },
  { core: 4, memory: 16, flavor: "Medium", packages: ["network-essentials", "network-advantage", "network-premier"], tiers: [0, 1, 2, 3] },
  { core: 8, memory: 16, flavor: "Large", packages: ["network-essentials", "network-advantage", "network-premier"], tiers: [0, 1, 2, 3] },
  ...(withLarge ? [{ core: 16, memory: 32, flavor: "X-Large" as const, packages: ["network-advantage", "network-premier"], tiers: [0, 1, 2, 3] }] : []),
];

const routerServices = (packages: string[]): SupportedService[] => [
  { name: "BGP", required: false, packageCodes: packages, supportedForClustering: false },
  { name: "VPN", required: false, packageCodes: packages, supportedForClustering: false },
  { name: "ACL", required: false, packageCodes: packages, supportedForClustering: true },
];

const HOST_NAME_FIELD: AdditionalField = { name: "hostNamePrefix", required: false, isSameValueAllowedForPrimaryAndSecondary: false };

const PA_VERSIONS = [
  version("10.1.9", "2023-02-14", ["10.2.4", "11.0.2"], { retireDate: "2026-06-30" }),
  version("10.2.4", "2023-05-10", ["11.0.2"], { stable: true }),
  version("11.0.2", "2023-07-19", []),
];
const PA_CORES: CoreDef[] = [
  { core: 2, memory: 8, flavor: "Small", packages: ["VM100"] },
  { core: 4, memory: 16, flavor: "Medium", packages: ["VM100", "VM300"] },
  { core: 8, memory: 32, flavor: "Large", packages: ["VM300"] },
];

// 7.6 is what the incumbent provider's zero-touch FortiGate examples order (fortigate_firewall_ha_device_znpd_*.tf
// 7.6.3, fortigate_firewall_cluster_device_znpd_static_ip.tf 7.6.2).
const FG_VERSIONS = [
  version("7.0.14", "2024-02-05", ["7.2.8", "7.4.3", "7.6.2", "7.6.3"]),
  version("7.2.8", "2024-04-10", ["7.4.3", "7.6.2", "7.6.3"], { stable: true }),
  version("7.4.3", "2024-03-14", ["7.6.2", "7.6.3"]),
  version("7.6.2", "2025-01-23", ["7.6.3"]),
  version("7.6.3", "2025-04-08", []),
];
const FG_CORES: CoreDef[] = [
  { core: 2, memory: 4, flavor: "Small", packages: ["VM02"] },
  { core: 4, memory: 8, flavor: "Medium", packages: ["VM04"] },
  { core: 8, memory: 16, flavor: "Large", packages: ["VM08"] },
];

/** Versa's sizes, the same whoever configures the device. */
const VERSA_LICENSES: Partial<Record<"SUB" | "BYOL", CoreDef[]>> = {
  BYOL: [
    { core: 2, memory: 4, flavor: "Small", packages: ["FLEX_VNF_2"] },
    { core: 4, memory: 8, flavor: "Medium", packages: ["FLEX_VNF_4"] },
  ],
};

const VERSA_VERSIONS = [
  version("21.2.3", "2022-06-20", ["22.1.1"], { licenseModes: ["BYOL"] }),
  version("22.1.1", "2023-03-08", [], { stable: true, licenseModes: ["BYOL"] }),
];

/** A setting in vendorConfig that the type asks for; `same` when both devices of a pair may share its value. */
const setting = (name: string, required: boolean, same: boolean): AdditionalField => ({ name, required, isSameValueAllowedForPrimaryAndSecondary: same });

/** The single "STD" package of the appliances sold only as BYOL, with the versions their orders name. */
const standardPackage = (versions: Array<[string, string]>): PackageDef[] => [
  {
    code: "STD",
    name: "Standard",
    licenseType: "BYOL",
    versions: versions.map(([v, date], i) => version(v, date, versions.slice(i + 1).map(([later]) => later), { stable: i === versions.length - 1, licenseModes: ["BYOL"] })),
  },
];

/** A self-configured, BYOL-only appliance: the shape of every type the incumbent's newer examples order. */
const selfConfiguredByol = (cores: CoreDef[], additionalFields: AdditionalField[], clustering = false): DeviceTypeDef["management"] => ({
  "SELF-CONFIGURED": { licenses: { BYOL: cores }, clustering, services: [], additionalFields },
});

/**
 * Appliances the incumbent provider's examples order (6wind_vsr_ha_device.tf, f5xc_single.tf,
 * infoblox_niosx_ha_device.tf, infoblox_{single,ha,cluster}_device.tf, netskope_npa_ha_device.tf): each with the
 * package, version, cores and interface count its example names. The specification's categories are ROUTER,
 * FIREWALL and SDWAN; DNS and access appliances take the nearest of them.
 */
const APPLIANCES: DeviceTypeDef[] = [
  {
    code: "6WIND-VSR",
    name: "6WIND Virtual Service Router",
    description: "6WIND VSR software router for secure gateways and carrier-grade networking at the cloud edge.",
    vendor: "6WIND",
    category: "ROUTER",
    interfaceCounts: [10],
    interfaceName: (id) => `eth${id - 1}`,
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG"],
    packages: standardPackage([["3.10.8", "2025-03-04"]]),
    management: selfConfiguredByol(
      [
        { core: 2, memory: 4, flavor: "Small", packages: ["STD"] },
        { core: 4, memory: 8, flavor: "Medium", packages: ["STD"] },
      ],
      // The pair's example gives both devices the same host name and token.
      [setting("hostname", false, true), setting("token", true, true)],
    ),
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://docs.example.net/vendor-terms/6WIND-VSR",
  },
  {
    code: "F5XC",
    name: "F5 Distributed Cloud Customer Edge",
    description: "F5 Distributed Cloud Customer Edge site: multicloud networking and application security, registered with a site token.",
    vendor: "F5",
    category: "ROUTER",
    interfaceCounts: [8],
    interfaceName: (id) => `eth${id - 1}`,
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"],
    packages: standardPackage([["9.2025.17", "2025-06-10"]]),
    management: selfConfiguredByol([{ core: 8, memory: 32, flavor: "Large", packages: ["STD"] }], [setting("hostname", false, true), setting("token", true, true)]),
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://docs.example.net/vendor-terms/F5XC",
  },
  {
    code: "INFOBLOX-NIOSX",
    name: "Infoblox NIOS-X",
    description: "Infoblox NIOS-X DNS, DHCP and IP address management server, joined to its portal with a join token.",
    vendor: "Infoblox",
    category: "ROUTER",
    interfaceCounts: [5],
    interfaceName: (id) => `eth${id - 1}`,
    metros: ["DC", "SV", "NY", "LD", "FR", "SG"],
    packages: standardPackage([["4.0", "2025-02-18"]]),
    // The incumbent provider's documentation: the join token is required for INFOBLOX-NIOSX.
    management: selfConfiguredByol([{ core: 3, memory: 8, flavor: "Small", packages: ["STD"] }], [setting("hostname", false, true), setting("token", true, true)]),
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://docs.example.net/vendor-terms/INFOBLOX-NIOSX",
  },
  {
    code: "INFOBLOX-GRID-MEMBER",
    name: "Infoblox Grid Member",
    description: "Infoblox NIOS grid member for DNS, DHCP and IP address management, on a private LAN1 network.",
    vendor: "Infoblox",
    category: "ROUTER",
    interfaceCounts: [4],
    clusterInterfaceCounts: [4],
    interfaceName: (id) => (id === 1 ? "MGMT" : `LAN${id - 1}`),
    metros: ["DC", "SV", "NY", "LD", "FR", "SG", "DA"],
    packages: standardPackage([["9.0.5", "2024-11-12"]]),
    // LAN1's address, mask and gateway, and the admin password: every example gives them, per device or per
    // node. Each device has its own address; a pair shares the network.
    management: selfConfiguredByol(
      [{ core: 8, memory: 32, flavor: "Large", packages: ["STD"] }],
      [setting("adminPassword", true, true), setting("ipAddress", true, false), setting("subnetMaskIp", true, true), setting("gatewayIp", true, true)],
      true,
    ),
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://docs.example.net/vendor-terms/INFOBLOX-GRID-MEMBER",
  },
  {
    code: "NETSKOPE-NPA",
    name: "Netskope Private Access Publisher",
    description: "Netskope Private Access publisher: zero-trust access to private applications, on one interface.",
    vendor: "Netskope",
    category: "FIREWALL",
    interfaceCounts: [1],
    interfaceName: () => "eth0",
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG"],
    packages: standardPackage([["R138", "2025-05-20"]]),
    management: selfConfiguredByol([{ core: 2, memory: 4, flavor: "Small", packages: ["STD"] }], [setting("hostname", false, true), setting("ipAddress", false, false)]),
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://docs.example.net/vendor-terms/NETSKOPE-NPA",
  },
];

export const DEVICE_TYPES: readonly DeviceTypeDef[] = [
  {
    code: "C8000V",
    name: "C8000V router",
    description: "Extend your enterprise network to public and private clouds with the Catalyst 8000V series.",
    vendor: "Cisco",
    category: "ROUTER",
    interfaceCounts: [10, 24],
    interfaceName: (id) => `GigabitEthernet${id}`,
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY", "CH", "DA", "SY", "HK"],
    packages: [
      { code: "network-essentials", name: "Network Essentials", licenseType: "SMART_LICENSE", versions: C8000V_VERSIONS },
      { code: "network-advantage", name: "Network Advantage", licenseType: "SMART_LICENSE", versions: C8000V_VERSIONS },
      { code: "network-premier", name: "Network Premier", licenseType: "SMART_LICENSE", versions: C8000V_VERSIONS.slice(1) },
    ],
    management: {
      "PROVIDER-CONFIGURED": {
        licenses: { SUB: c8000vCores(false), BYOL: c8000vCores(false) },
        clustering: false,
        services: routerServices(["network-essentials", "network-advantage", "network-premier"]),
        additionalFields: [HOST_NAME_FIELD],
      },
      "SELF-CONFIGURED": {
        licenses: { SUB: c8000vCores(true), BYOL: c8000vCores(true) },
        clustering: false,
        services: [],
        additionalFields: [HOST_NAME_FIELD],
      },
    },
    byolCredential: "none",
    tiered: true,
    pingSupported: false,
    vendorTermsUrl: "https://www.cisco.com/c/en/us/about/legal/cloud-and-software/end_user_license_agreement.html",
  },
  {
    code: "PA-VM",
    name: "Palo Alto Networks VM-Series Firewall",
    description: "Next-generation firewall that protects cloud and virtualised workloads.",
    vendor: "Palo Alto Networks",
    category: "FIREWALL",
    interfaceCounts: [10, 18],
    clusterInterfaceCounts: [10],
    interfaceName: (id) => (id === 1 ? "management" : `ethernet1/${id - 1}`),
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY", "CH"],
    packages: [
      { code: "VM100", name: "VM-100", licenseType: "CAPACITY", versions: PA_VERSIONS, throughput: { value: 2, unit: "Gbps" } },
      { code: "VM300", name: "VM-300", licenseType: "CAPACITY", versions: PA_VERSIONS, throughput: { value: 4, unit: "Gbps" } },
    ],
    management: {
      "SELF-CONFIGURED": {
        licenses: { SUB: PA_CORES, BYOL: PA_CORES },
        clustering: true,
        services: [],
        additionalFields: [HOST_NAME_FIELD, { name: "panoramaIpAddress", required: false, isSameValueAllowedForPrimaryAndSecondary: true }],
      },
    },
    byolCredential: "licenseToken",
    tiered: false,
    pingSupported: true,
    vendorTermsUrl: "https://www.paloaltonetworks.com/legal/eula",
  },
  {
    code: "FG-VM",
    name: "Fortinet FortiGate Firewall",
    description: "FortiGate next-generation firewall for hybrid and multi-cloud edges.",
    vendor: "Fortinet",
    category: "FIREWALL",
    interfaceCounts: [10, 18],
    clusterInterfaceCounts: [10],
    interfaceName: (id) => `port${id}`,
    metros: ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY", "SY"],
    packages: [
      { code: "VM02", name: "FortiGate-VM02", licenseType: "VCPU", versions: FG_VERSIONS, throughput: { value: 1, unit: "Gbps" } },
      { code: "VM04", name: "FortiGate-VM04", licenseType: "VCPU", versions: FG_VERSIONS, throughput: { value: 2, unit: "Gbps" } },
      { code: "VM08", name: "FortiGate-VM08", licenseType: "VCPU", versions: FG_VERSIONS, throughput: { value: 5, unit: "Gbps" } },
    ],
    management: {
      "PROVIDER-CONFIGURED": {
        licenses: { SUB: FG_CORES },
        clustering: false,
        services: routerServices(["VM02", "VM04", "VM08"]),
        additionalFields: [HOST_NAME_FIELD],
      },
      "SELF-CONFIGURED": {
        licenses: { SUB: FG_CORES, BYOL: FG_CORES },
        clustering: true,
        services: [],
        additionalFields: [HOST_NAME_FIELD],
      },
    },
    byolCredential: "licenseFileId",
    // The incumbent provider's zero-touch FortiGate pairs and cluster order BYOL without a licence file.
    zeroTouchLicense: true,
    tiered: false,
    pingSupported: true,
    vendorTermsUrl: "https://www.fortinet.com/content/dam/fortinet/assets/legal/EULA.pdf",
  },
  {
    code: "VERSA_SDWAN",
    name: "Versa Networks SDWAN",
    description: "Versa FlexVNF secure SD-WAN branch at the cloud edge, managed from the customer's Versa Director.",
    vendor: "Versa Networks",
    category: "SDWAN",
    interfaceCounts: [10],
    interfaceName: (id) => `vni-0/${id - 1}`,
    metros: ["DC", "SV", "NY", "LD", "FR", "SG", "DA"],
    packages: [
      { code: "FLEX_VNF_2", name: "Flex VNF 2", licenseType: "BYOL", versions: VERSA_VERSIONS, throughput: { value: 500, unit: "Mbps" } },
      { code: "FLEX_VNF_4", name: "Flex VNF 4", licenseType: "BYOL", versions: VERSA_VERSIONS, throughput: { value: 1, unit: "Gbps" } },
    ],
    management: {
      "PROVIDER-CONFIGURED": {
        licenses: VERSA_LICENSES,
        clustering: false,
        services: [],
        additionalFields: [
          { name: "localId", required: true, isSameValueAllowedForPrimaryAndSecondary: false },
          { name: "remoteId", required: true, isSameValueAllowedForPrimaryAndSecondary: false },
          { name: "controller1", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
          { name: "controller2", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
        ],
      },
      // Self-configured, the customer's own Director pairs the two devices of an HA pair under one identity,
      // so both carry the same localId and remoteId (the incumbent orders exactly that against the service).
      "SELF-CONFIGURED": {
        licenses: VERSA_LICENSES,
        clustering: false,
        services: [],
        additionalFields: [
          { name: "localId", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
          { name: "remoteId", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
          { name: "controller1", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
          { name: "controller2", required: true, isSameValueAllowedForPrimaryAndSecondary: true },
        ],
      },
    },
    byolCredential: "none",
    tiered: false,
    pingSupported: false,
    vendorTermsUrl: "https://versa-networks.com/legal/eula",
  },
  ...APPLIANCES,
];

export const DEVICE_TYPE_BY_CODE: ReadonlyMap<string, DeviceTypeDef> = new Map(DEVICE_TYPES.map((t) => [t.code, t]));

export const LICENSE_NAMES: Readonly<Record<LicenseMode, string>> = { SUB: "Subscription", BYOL: "Bring your own license" };

/** How version details name the licence modes (the official description's example). */
const VERSION_LICENSE_NAMES: Readonly<Record<LicenseMode, string>> = { SUB: "Subscription", BYOL: "BYOL" };

export const DEFAULT_DNS_SERVERS = ["8.8.8.8", "4.0.0.53"];
export const DEFAULT_NTP_SERVERS = ["time.google.com", "pool.ntp.org"];

export function metroClusterSupported(metroCode: string): boolean {
  return CLUSTER_METROS.has(metroCode);
}

export function typeSupportsClusters(type: DeviceTypeDef): boolean {
  return Object.values(type.management).some((m) => m.clustering);
}

export function findPackage(type: DeviceTypeDef, code: string): PackageDef | undefined {
  return type.packages.find((p) => p.code === code);
}

export function findVersion(pkg: PackageDef, v: string): VersionDef | undefined {
  return pkg.versions.find((d) => d.version === v);
}

/** Every metro the device service is offered in, with whether it can host clusters. */
export function serviceMetros(): Array<{ metroCode: string; metroDescription: string; region: Region; clusterSupported: boolean }> {
  const codes = [...new Set(DEVICE_TYPES.flatMap((t) => t.metros))].sort();
  return codes.map((code) => {
    const info = METRO_BY_CODE.get(code)!;
    return { metroCode: code, metroDescription: info.name, region: info.region, clusterSupported: metroClusterSupported(code) };
  });
}

// ── rendering (the device-type record of section 2.10) ─────────────────────────────────────

function versionJson(pkg: PackageDef, v: VersionDef): JsonObject {
  return {
    version: v.version,
    imageName: `${pkg.code}-${v.version}`,
    versionDate: v.versionDate,
    ...(v.retireDate ? { retireDate: v.retireDate } : {}),
    status: "ACTIVE",
    stableVersion: String(v.stable),
    supportedLicenseTypes: v.licenseModes.map((m) => VERSION_LICENSE_NAMES[m]),
    allowedUpgradableVersions: v.upgradesTo,
    upgradeAllowed: v.upgradesTo.length > 0,
    releaseNotesLink: `https://docs.example.net/release-notes/${encodeURIComponent(pkg.code)}/${v.version}`,
  };
}

function coreJson(type: DeviceTypeDef, core: CoreDef): JsonObject {
  return {
    core: core.core,
    memory: core.memory,
    unit: "GB",
    flavor: core.flavor,
    ...(type.tiered ? { tier: DEFAULT_TIER } : {}),
    supported: true,
    packageCodes: type.packages.map((pkg) => ({
      packageCode: pkg.code,
      excludedVersions: [],
      excludedClusterVersions: [],
      ...(core.tiers ? { supportedLicenseTiers: core.tiers.map(String) } : {}),
      throughputs: packageThroughputs(type, pkg, core).map((t) => ({ supported: true, throughput: String(t.value), throughputUnit: t.unit })),
      supported: core.packages.includes(pkg.code),
    })),
  };
}

/** Throughput options of a package on a core: one per tier for tiered types, the package's own otherwise. */
export function packageThroughputs(type: DeviceTypeDef, pkg: PackageDef, core: CoreDef): Throughput[] {
  if (type.tiered) return (core.tiers ?? []).map((tier) => TIER_THROUGHPUT[tier]!);
  return pkg.throughput ? [pkg.throughput] : [];
}

function managementJson(type: DeviceTypeDef, key: ManagementType, def: ManagementDef): JsonObject {
  const licenseOptions: JsonObject = {};
  for (const mode of LICENSE_MODES) {
    const cores = def.licenses[mode];
    if (!cores) continue;
    licenseOptions[mode] = {
      type: mode,
      name: LICENSE_NAMES[mode],
      fileUploadSupportedCluster: mode === "BYOL" && def.clustering && type.byolCredential === "licenseFileId",
      supported: true,
      cores: cores.map((c) => coreJson(type, c)),
    };
  }
  return {
    type: key,
    licenseOptions,
    supportedServices: def.services.map((s) => ({ ...s, packageCodes: [...s.packageCodes] })),
    additionalFields: def.additionalFields.map((f) => ({ ...f })),
    clusteringDetails: { clusteringEnabled: def.clustering, maxAllowedNodes: def.clustering ? 2 : 0 },
    ...(key === "SELF-CONFIGURED" ? { defaultAcls: { dnsServers: DEFAULT_DNS_SERVERS, ntpServers: DEFAULT_NTP_SERVERS } } : {}),
  };
}

export function deviceTypeJson(type: DeviceTypeDef): JsonObject {
  const managementTypes: JsonObject = {};
  for (const key of MANAGEMENT_TYPES) {
    const def = type.management[key];
    if (def) managementTypes[key] = managementJson(type, key, def);
  }
  const clusters = typeSupportsClusters(type);
  return {
    deviceTypeCode: type.code,
    name: type.name,
    description: type.description,
    vendor: type.vendor,
    category: type.category,
    maxInterfaceCount: Math.max(...type.interfaceCounts),
    defaultInterfaceCount: type.interfaceCounts[0]!,
    ...(type.clusterInterfaceCounts
      ? { clusterMaxInterfaceCount: Math.max(...type.clusterInterfaceCounts), clusterDefaultInterfaceCount: type.clusterInterfaceCounts[0]! }
      : {}),
    availableMetros: type.metros.map((code) => {
      const info = METRO_BY_CODE.get(code)!;
      return { metroCode: code, metroDescription: info.name, region: info.region, clusterSupported: clusters && metroClusterSupported(code) };
    }),
    softwarePackages: type.packages.map((pkg) => ({
      name: pkg.name,
      packageCode: pkg.code,
      licenseType: pkg.licenseType,
      versionDetails: pkg.versions.map((v) => versionJson(pkg, v)),
    })),
    deviceManagementTypes: managementTypes,
  };
}
