// The incumbent provider's device examples that carry vendor settings (zero-touch pairs and clusters,
// join tokens, Infoblox and Netskope management networks, a Versa pair's identity), translated into netform's YAML and adapted to
// the simulator's seeded account, project and metros: each validates, plans, applies, reads back with its
// settings, and plans again with nothing to change; its passwords, keys and tokens, written in the clear as
// the examples write them, appear in no output and not in the state.

import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace, type CliResult } from "./cli.js";
import { ACCOUNT, CONFIG_HEADER, idOf, out, runner } from "./service.js";

// Devices take minutes of simulated time, pairs and clusters longest: a fast clock.
const t = useSimulator({ speed: 4000 });

const ADDRESS = "devices.example";

/** The SSH key and ACL template the examples name by ssh_key and acl_template_id. */
const AROUND = `sshKeys:
  ops-key:
    keyValue: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7e2eExampleKey ops@example.com
aclTemplates:
  mgmt:
    inboundRules: [{ protocol: TCP, subnet: 198.51.100.0/24, dstPort: 22 }]
`;
const SSH_KEY = `userPublicKey: { username: netops, keyName: "\${sshKeys.ops-key.keyName}" }`;
const ACL = `aclDetails: [{ interfaceType: WAN, uuid: "\${aclTemplates.mgmt.uuid}" }]`;

interface Example {
  /** The incumbent's example, under examples/resources/equinix_network_device/. */
  file: string;
  /** The device's fields, as YAML under its name. */
  device: string;
  /** The settings the service answers on the primary and on the secondary (strings, no secrets). */
  primary?: Record<string, string>;
  secondary?: Record<string, string>;
  /** Values that must appear nowhere. */
  secrets: string[];
}

const C8000V_BYOL = `deviceTypeCode: C8000V
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    packageCode: network-essentials
    notifications: [netops@example.com, noc@example.com, ops@example.com]
    termlength: 12
    version: 17.11.01a
    interfaceCount: 10
    core: 2
    tier: 1
    ${SSH_KEY}`;

const C8000V_ZTP = (vendorConfig: string, secondaryConfig: string, hostNamePrefix: string) => `${C8000V_BYOL}
    connectivity: PRIVATE
    vendorConfig: ${vendorConfig}
    secondary:
      virtualDeviceName: tf-c8000v-byol-secondary
      metroCode: SV
      hostNamePrefix: ${hostNamePrefix}
      notifications: [netops@example.com, noc@example.com]
      vendorConfig: ${secondaryConfig}`;

const FORTIGATE_ZTP = (vendorConfig: string, secondaryConfig: string) => `virtualDeviceName: TF_FTNT-FIREWALL
    deviceTypeCode: FG-VM
    metroCode: SV
    interfaceCount: 10
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    connectivity: PRIVATE
    packageCode: VM02
    notifications: [netops@example.com]
    version: 7.6.3
    hostNamePrefix: test
    core: 2
    termlength: 1
    vendorConfig: ${vendorConfig}
    secondary:
      virtualDeviceName: TF_FTNT-FIREWALL-secondary
      metroCode: SV
      hostNamePrefix: fg-vm-znpd
      notifications: [netops@example.com, noc@example.com]
      vendorConfig: ${secondaryConfig}`;

const GRID_MEMBER = `deviceTypeCode: INFOBLOX-GRID-MEMBER
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    connectivity: PRIVATE
    packageCode: STD
    notifications: [netops@example.com]
    version: 9.0.5
    core: 8
    termlength: 1`;
const LAN1 = (ip: string, password: string) => `{ adminPassword: ${password}, ipAddress: ${ip}, subnetMaskIp: 255.255.255.0, gatewayIp: 10.30.0.1 }`;
const lan1 = (ip: string) => ({ ipAddress: ip, subnetMaskIp: "255.255.255.0", gatewayIp: "10.30.0.1" });

const ZTP_STATIC = (ip: string) => `{ restApiSupportRequirement: "true", ipAddressType: STATIC, ipAddress: ${ip}, gatewayIp: 10.10.0.1, subnetMaskIp: 255.255.255.0, managementInterfaceId: "6" }`;
const ztpStatic = (ip: string) => ({ restApiSupportRequirement: "true", ipAddressType: "STATIC", ipAddress: ip, gatewayIp: "10.10.0.1", subnetMaskIp: "255.255.255.0", managementInterfaceId: "6" });
const FG_STATIC = (ip: string) => `{ gatewayIp: 10.20.0.1, ipAddress: ${ip}, ipAddressType: STATIC, subnetMaskIp: 255.255.255.0, managementInterfaceId: "6" }`;
const fgStatic = (ip: string) => ({ gatewayIp: "10.20.0.1", ipAddress: ip, ipAddressType: "STATIC", subnetMaskIp: "255.255.255.0", managementInterfaceId: "6" });

const NPA = (ip: string) => `{ hostname: test, privateCidrMask: "24", ipAddressType: STATIC, ipAddress: ${ip}, gatewayIp: 10.40.0.1, primaryNameServer: 10.40.0.53, secondaryNameServer: 10.40.1.53, dnsSearchDomain: corp.example.com }`;
const npa = (ip: string) => ({ hostname: "test", privateCidrMask: "24", ipAddressType: "STATIC", ipAddress: ip, gatewayIp: "10.40.0.1", primaryNameServer: "10.40.0.53", secondaryNameServer: "10.40.1.53", dnsSearchDomain: "corp.example.com" });

const EXAMPLES: Example[] = [
  {
    file: "6wind_vsr_ha_device.tf",
    device: `virtualDeviceName: 6WIND-VSR
    deviceTypeCode: 6WIND-VSR
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    interfaceCount: 10
    packageCode: STD
    notifications: [netops@example.com]
    version: 3.10.8
    core: 2
    termlength: 1
    vendorConfig: { hostname: test, token: vsr-join-7f3a91 }
    ${SSH_KEY}
    secondary:
      virtualDeviceName: 6WIND-VSR-Sec
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { hostname: test, token: vsr-join-7f3a91 }`,
    primary: { hostname: "test" },
    secondary: { hostname: "test" },
    secrets: ["vsr-join-7f3a91"],
  },
  {
    file: "f5xc_single.tf",
    device: `virtualDeviceName: tf-f5xc
    deviceTypeCode: F5XC
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    connectivity: INTERNET-ACCESS
    packageCode: STD
    notifications: [netops@example.com, noc@example.com, ops@example.com]
    termlength: 1
    ${ACL}
    version: 9.2025.17
    interfaceCount: 8
    core: 8
    vendorConfig: { token: f5xc-site-token-2c8e, hostname: f5xc-edge }`,
    primary: { hostname: "f5xc-edge" },
    secrets: ["f5xc-site-token-2c8e"],
  },
  {
    file: "infoblox_niosx_ha_device.tf",
    device: `virtualDeviceName: TF_INFOBLOX-NIOS-X
    deviceTypeCode: INFOBLOX-NIOSX
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    connectivity: INTERNET-ACCESS
    licenseMode: BYOL
    packageCode: STD
    notifications: [netops@example.com]
    version: "4.0"
    core: 3
    interfaceCount: 5
    termlength: 1
    vendorConfig: { hostname: test, token: niosx-join-51d0 }
    secondary:
      virtualDeviceName: TF_INFOBLOX-NIOS-X-Sec
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { hostname: test, token: niosx-join-51d0 }`,
    primary: { hostname: "test" },
    secondary: { hostname: "test" },
    secrets: ["niosx-join-51d0"],
  },
  {
    file: "c8000v_ha_with_cloud_init_rest_api_support.tf",
    device: `virtualDeviceName: tf-c8000v-byol
    ${C8000V_BYOL}
    generateDefaultPassword: true
    vendorConfig: { restApiSupportRequirement: "true" }
    ${ACL}
    secondary:
      virtualDeviceName: tf-c8000v-byol-secondary
      metroCode: SV
      hostNamePrefix: csr1000v-s
      notifications: [netops@example.com, noc@example.com]
      vendorConfig: { restApiSupportRequirement: true }
      ${ACL}`,
    primary: { restApiSupportRequirement: "true" },
    secondary: { restApiSupportRequirement: "true" },
    secrets: [],
  },
  {
    // Its secondary logs in with its own user (the secondary's ssh_key), as the official client sends it.
    file: "add_secondary/c8000v_add_secondary.tf",
    device: `virtualDeviceName: tf-c8000v-primary
    ${C8000V_BYOL}
    secondary:
      virtualDeviceName: tf-c8000v-secondary
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { hostNamePrefix: c8kv-sec }
      userPublicKey: { username: standby, keyName: "\${sshKeys.ops-key.keyName}" }`,
    secondary: { hostNamePrefix: "c8kv-sec" },
    secrets: [],
  },
  {
    file: "c8000v_znpd_ha_dhcp.tf",
    device: `virtualDeviceName: tf-c8000v-byol
    ${C8000V_ZTP(`{ restApiSupportRequirement: "true", ipAddressType: DHCP, managementInterfaceId: "6" }`, `{ restApiSupportRequirement: "true", ipAddressType: DHCP, managementInterfaceId: 6 }`, "c8000v-s")}`,
    primary: { restApiSupportRequirement: "true", ipAddressType: "DHCP", managementInterfaceId: "6" },
    secondary: { restApiSupportRequirement: "true", ipAddressType: "DHCP", managementInterfaceId: "6" },
    secrets: [],
  },
  {
    file: "c8000v_znpd_ha_no_ip_address.tf",
    device: `virtualDeviceName: tf-c8000v-byol
    ${C8000V_ZTP(`{ restApiSupportRequirement: "true", ipAddressType: NO_IP_ADDRESS }`, `{ restApiSupportRequirement: "true", ipAddressType: NO_IP_ADDRESS }`, "csr8000v-s")}`,
    primary: { restApiSupportRequirement: "true", ipAddressType: "NO_IP_ADDRESS" },
    secondary: { restApiSupportRequirement: "true", ipAddressType: "NO_IP_ADDRESS" },
    secrets: [],
  },
  {
    file: "c8000v_znpd_ha_static.tf",
    device: `virtualDeviceName: tf-c8000v-byol
    ${C8000V_ZTP(ZTP_STATIC("10.10.0.2"), ZTP_STATIC("10.10.0.3"), "csr8000v-s")}`,
    primary: ztpStatic("10.10.0.2"),
    secondary: ztpStatic("10.10.0.3"),
    secrets: [],
  },
  {
    file: "fortigate_firewall_ha_device_znpd_dhcp.tf",
    device: FORTIGATE_ZTP(`{ ipAddressType: DHCP, managementInterfaceId: "6" }`, `{ ipAddressType: DHCP, managementInterfaceId: "6" }`),
    primary: { ipAddressType: "DHCP", managementInterfaceId: "6" },
    secondary: { ipAddressType: "DHCP", managementInterfaceId: "6" },
    secrets: [],
  },
  {
    file: "fortigate_firewall_ha_device_znpd_no_ip.tf",
    device: FORTIGATE_ZTP(`{ ipAddressType: NO_IP_ADDRESS }`, `{ ipAddressType: NO_IP_ADDRESS }`),
    primary: { ipAddressType: "NO_IP_ADDRESS" },
    secondary: { ipAddressType: "NO_IP_ADDRESS" },
    secrets: [],
  },
  {
    file: "fortigate_firewall_ha_device_znpd_static.tf",
    device: FORTIGATE_ZTP(FG_STATIC("10.20.0.2"), FG_STATIC("10.20.0.3")),
    primary: fgStatic("10.20.0.2"),
    secondary: fgStatic("10.20.0.3"),
    secrets: [],
  },
  {
    file: "infoblox_single_device.tf",
    device: `virtualDeviceName: TF_INFOBLOX
    ${GRID_MEMBER}
    vendorConfig: ${LAN1("10.30.0.2", "Gr1dAdmin-a71")}`,
    primary: lan1("10.30.0.2"),
    secrets: ["Gr1dAdmin-a71"],
  },
  {
    file: "infoblox_ha_device.tf",
    device: `virtualDeviceName: TF_INFOBLOX
    ${GRID_MEMBER}
    vendorConfig: ${LAN1("10.30.0.2", "Gr1dAdmin-b82")}
    secondary:
      virtualDeviceName: TF_INFOBLOX-Sec
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: ${LAN1("10.30.0.3", "Gr1dAdmin-c93")}`,
    primary: lan1("10.30.0.2"),
    secondary: lan1("10.30.0.3"),
    secrets: ["Gr1dAdmin-b82", "Gr1dAdmin-c93"],
  },
  {
    file: "infoblox_cluster_device.tf",
    device: `virtualDeviceName: TF_INFOBLOX
    ${GRID_MEMBER}
    clusterDetails:
      clusterName: tf-infoblox-cluster
      clusterNodeDetails:
        node0: { vendorConfig: ${LAN1("10.30.0.4", "Gr1dAdmin-d04")} }
        node1: { vendorConfig: ${LAN1("10.30.0.5", "Gr1dAdmin-e15")} }`,
    secrets: ["Gr1dAdmin-d04", "Gr1dAdmin-e15"],
  },
  {
    file: "fortigate_firewall_cluster_device_znpd_static_ip.tf",
    device: `virtualDeviceName: tf-fgvm-cluster-static-znpd
    deviceTypeCode: FG-VM
    metroCode: DC
    deviceManagementType: SELF-CONFIGURED
    connectivity: PRIVATE
    licenseMode: BYOL
    packageCode: VM02
    notifications: [netops@example.com, noc@example.com, ops@example.com]
    termlength: 12
    version: 7.6.2
    interfaceCount: 10
    core: 2
    ${SSH_KEY}
    clusterDetails:
      clusterName: tf-fgvm--cluster
      clusterNodeDetails:
        node0: { vendorConfig: { ipAddress: 10.50.0.2, subnetMaskIp: 255.255.255.0, gatewayIp: 10.50.0.1, managementInterfaceId: "5", hostname: test, ipAddressType: STATIC } }
        node1: { vendorConfig: { ipAddress: 10.50.0.3, subnetMaskIp: 255.255.255.0, gatewayIp: 10.50.0.1, managementInterfaceId: 5, hostname: test, ipAddressType: STATIC } }`,
    secrets: [],
  },
  {
    file: "versa_sdwan_ha_device.tf",
    device: `virtualDeviceName: TF_VERSA-SDWAN
    deviceTypeCode: VERSA_SDWAN
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    packageCode: FLEX_VNF_2
    notifications: [netops@example.com]
    version: 21.2.3
    core: 2
    termlength: 1
    additionalBandwidth: 50
    ${ACL}
    vendorConfig: { controller1: 203.0.113.11, controller2: 203.0.113.12, localId: test@test.com, remoteId: test@test.com, serialNumber: "4" }
    secondary:
      virtualDeviceName: TF_VERSA-SDWAN-Sec
      metroCode: SV
      ${ACL}
      notifications: [netops@example.com]
      vendorConfig: { controller1: 203.0.113.11, controller2: 203.0.113.12, localId: test@test.com, remoteId: test@test.com, serialNumber: 4 }`,
    primary: { controller1: "203.0.113.11", controller2: "203.0.113.12", localId: "test@test.com", remoteId: "test@test.com", serialNumber: "4" },
    secondary: { controller1: "203.0.113.11", controller2: "203.0.113.12", localId: "test@test.com", remoteId: "test@test.com", serialNumber: "4" },
    secrets: [],
  },
  {
    file: "netskope_npa_ha_device.tf",
    device: `virtualDeviceName: NETSKOPE-NPA
    deviceTypeCode: NETSKOPE-NPA
    metroCode: SV
    deviceManagementType: SELF-CONFIGURED
    licenseMode: BYOL
    interfaceCount: 1
    packageCode: STD
    notifications: [netops@example.com]
    connectivity: PRIVATE
    version: R138
    core: 2
    termlength: 1
    vendorConfig: ${NPA("10.40.0.2")}
    secondary:
      virtualDeviceName: NETSKOPE-NPA-Sec
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: ${NPA("10.40.0.3")}`,
    primary: npa("10.40.0.2"),
    secondary: npa("10.40.0.3"),
    secrets: [],
  },
];

const configOf = (example: Example) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
${AROUND}devices:
  example:
    ${example.device}
`;

/** Everything a user or a pipeline could read afterwards: what each run printed, the state, its backup and journal. */
function readable(results: CliResult[], statePath: string): string {
  const files = [statePath, `${statePath}.backup`, `${statePath}.journal`].filter(existsSync).map((f) => readFileSync(f, "utf8"));
  return [...results.flatMap((r) => [r.stdout, r.stderr]), ...files].join("\n");
}

describe("the incumbent's device examples with vendor settings", () => {
  it.each(EXAMPLES)("$file validates, plans, applies, reads back its settings and re-plans clean", { timeout: 120_000 }, async (example) => {
    const ws = workspace(configOf(example));
    const run = runner(t, ws);
    const results: CliResult[] = [];
    const step = async (...args: string[]) => {
      const result = await run(...args);
      results.push(result);
      return result;
    };

    const valid = await step("validate");
    expect(valid.code, out(valid)).toBe(0);
    const plan = await step("plan");
    expect(plan.code, out(plan)).toBe(0);
    expect(plan.stdout).toContain("# devices.example will be created");
    const applied = await step("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    const primary = (await t.call("GET", `/ne/v1/devices/${idOf(ws, ADDRESS)}`)).body;
    expect(primary.status).toBe("PROVISIONED");
    expect(primary.vendorConfig).toEqual(example.primary);
    if (example.secondary) {
      const secondary = (await t.call("GET", `/ne/v1/devices/${String(primary.redundantUuid)}`)).body;
      expect(secondary).toMatchObject({ status: "PROVISIONED", redundancyType: "SECONDARY" });
      expect(secondary.vendorConfig).toEqual(example.secondary);
      if (example.device.includes("username: standby")) expect(secondary.userPublicKey).toMatchObject({ username: "standby" });
    }
    if (example.file.includes("cluster")) expect(primary).toMatchObject({ redundancyType: "CLUSTER", clusterDetails: { numOfNodes: 2 } });

    const again = await step("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);
    const seen = readable(results, ws.statePath);
    for (const secret of example.secrets) expect(seen, `${secret} leaked`).not.toContain(secret);
  });

  it("reports a STATIC management address without its gateway, and a misspelt setting, where they are written", async () => {
    const broken = EXAMPLES.find((e) => e.file === "fortigate_firewall_ha_device_znpd_static.tf")!;
    const ws = workspace(configOf({ ...broken, device: broken.device.replace("{ gatewayIp: 10.20.0.1, ", "{ ").replace("managementInterfaceId: \"6\" }\n    secondary", "managementInterfaceID: \"6\" }\n    secondary") }));
    const result = await runner(t, ws)("validate");
    expect(result.code, out(result)).toBe(1);
    expect(result.stdout).toMatch(/netform\.yaml:\d+:\d+ {2}devices\.example\.vendorConfig\.gatewayIp {2}gatewayIp is required when ipAddressType is STATIC/);
    expect(result.stdout).toMatch(/netform\.yaml:\d+:\d+ {2}devices\.example\.vendorConfig\.managementInterfaceID {2}unknown field "managementInterfaceID"\n {4}hint: did you mean "managementInterfaceId"\?/);
  });
});
