// A device's vendor settings as users write them (the incumbent provider's examples: zero-touch pairs,
// join tokens, Infoblox and Netskope management networks): each field in its form, the secrets among them,
// the rules across them, and the strings that are sent and compared. The simulator's device rules say the
// same (test/simulator/ne-device-vendor-config.test.ts).

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { devices } from "../../../src/kinds/devices/index.js";
import { publicVendorConfig, vendorSettingsAsSent } from "../../../src/kinds/devices/vendor-config.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { formatDiagnosticsText } from "../../../src/views/diagnostics.js";

const repo = join(import.meta.dirname, "../../..");

/** The diagnostics `validate` prints for one device `edge` whose other fields are given as YAML lines. */
function problems(fields: string, severity: "error" | "warning" = "error"): string[] {
  const text = `netform: 1
provider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01, accountNumber: 270848 }
devices:
  edge:
    deviceTypeCode: C8000V
    metroCode: SV
    version: 17.11.01a
    licenseMode: BYOL
    deviceManagementType: SELF-CONFIGURED
    core: 2
    notifications: [netops@example.com]
${fields}`;
  const { diagnostics } = buildConfiguration([{ file: join(repo, "netform.yaml"), text }], { kinds: KIND_CATALOG, env: { JOIN_TOKEN: "j0in" }, baseDir: repo });
  return formatDiagnosticsText(diagnostics.filter((d) => d.severity === severity));
}

describe("vendor settings: what users write", () => {
  it("takes a zero-touch pair's management network with yes-or-no and numbers written either way", () => {
    expect(
      problems(`    connectivity: PRIVATE
    vendorConfig: { restApiSupportRequirement: "true", ipAddressType: STATIC, ipAddress: 10.10.0.2, subnetMaskIp: 255.255.255.0, gatewayIp: 10.10.0.1, managementInterfaceId: "6" }
    secondary:
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { restApiSupportRequirement: true, ipAddressType: DHCP, managementInterfaceId: 6 }`),
    ).toEqual([]);
  });

  it("takes join tokens, name servers, a CIDR mask for the static address, and a secondary's host prefix", () => {
    expect(
      problems(`    vendorConfig: { hostname: npa-1, token: "\${secret.JOIN_TOKEN}", ipAddressType: STATIC, ipAddress: 10.20.0.2, gatewayIp: 10.20.0.1, privateCidrMask: 24, primaryNameServer: 10.20.0.53, secondaryNameServer: 10.20.1.53, dnsSearchDomain: corp.example.com }
    secondary:
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { hostNamePrefix: edge-b }`),
    ).toEqual([]);
  });

  it("reports a misspelt field where it is written, with the field meant", () => {
    expect(problems(`    vendorConfig: { ipAdress: 10.10.0.2 }`)).toEqual(['netform.yaml:12:21  devices.edge.vendorConfig.ipAdress  unknown field "ipAdress"', '    hint: did you mean "ipAddress"?']);
    expect(problems(`    clusterDetails: { clusterName: c1, clusterNodeDetails: { node0: { vendorConfig: { gatewayIP: 10.0.0.1 } } } }`)).toEqual([
      'netform.yaml:12:87  devices.edge.clusterDetails.clusterNodeDetails.node0.vendorConfig.gatewayIP  unknown field "gatewayIP"', '    hint: did you mean "gatewayIp"?',
    ]);
  });

  it("reports a value not of the field's form, at the value", () => {
    expect(problems(`    vendorConfig: { ipAddressType: STATIK, restApiSupportRequirement: "yes", managementInterfaceId: six, gatewayIp: 10.0.0.300, managementType: FMX }`)).toEqual([
      'netform.yaml:12:36  devices.edge.vendorConfig.ipAddressType  must be one of DHCP, NO_IP_ADDRESS, STATIC', '    hint: did you mean "STATIC"?',
      "netform.yaml:12:71  devices.edge.vendorConfig.restApiSupportRequirement  restApiSupportRequirement must be true or false",
      'netform.yaml:12:101  devices.edge.vendorConfig.managementInterfaceId  managementInterfaceId must be a whole number, written 6 or "6"',
      "netform.yaml:12:117  devices.edge.vendorConfig.gatewayIp  must be an IPv4 or IPv6 address",
      'netform.yaml:12:145  devices.edge.vendorConfig.managementType  must be one of FMC, FDM, CDO', '    hint: did you mean "FMC"?',
    ]);
  });

  it("takes a cluster node's licence token in the service's form only", () => {
    expect(problems(`    clusterDetails: { clusterName: c1, clusterNodeDetails: { node0: { licenseToken: licenseToken }, node1: { licenseToken: AB12CD34 } } }`)).toEqual([
      "netform.yaml:12:85  devices.edge.clusterDetails.clusterNodeDetails.node0.licenseToken  licenseToken must be 8 letters and digits",
    ]);
  });
});

describe("vendor settings: rules across fields", () => {
  it("needs the address, gateway and mask of a STATIC management address, on the device, its secondary and a cluster's nodes", () => {
    expect(
      problems(`    vendorConfig: { ipAddressType: STATIC, ipAddress: 10.10.0.2 }
    secondary:
      metroCode: SV
      notifications: [netops@example.com]
      vendorConfig: { ipAddressType: STATIC, gatewayIp: 10.10.0.1, subnetMaskIp: 255.255.255.0 }`),
    ).toEqual([
      "netform.yaml:12:5  devices.edge.vendorConfig.gatewayIp  gatewayIp is required when ipAddressType is STATIC", "    hint: give the management address, or set ipAddressType to DHCP or NO_IP_ADDRESS",
      "netform.yaml:12:5  devices.edge.vendorConfig.subnetMaskIp  subnetMaskIp (or privateCidrMask) is required when ipAddressType is STATIC", "    hint: give the management address, or set ipAddressType to DHCP or NO_IP_ADDRESS",
      "netform.yaml:16:7  devices.edge.secondary.vendorConfig.ipAddress  ipAddress is required when ipAddressType is STATIC", "    hint: give the management address, or set ipAddressType to DHCP or NO_IP_ADDRESS",
    ]);
    expect(problems(`    clusterDetails: { clusterName: c1, clusterNodeDetails: { node1: { vendorConfig: { ipAddressType: STATIC, ipAddress: 10.0.0.2, subnetMaskIp: 255.255.255.0 } } } }`)).toEqual([
      "netform.yaml:12:71  devices.edge.clusterDetails.clusterNodeDetails.node1.vendorConfig.gatewayIp  gatewayIp is required when ipAddressType is STATIC", "    hint: give the management address, or set ipAddressType to DHCP or NO_IP_ADDRESS",
    ]);
  });

  it("needs CloudVision's details by its type, and an FMC's address and activation key", () => {
    expect(problems(`    vendorConfig: { connectToCloudVision: true }`)).toEqual([
      "netform.yaml:12:5  devices.edge.vendorConfig.cvpType  cvpType is required when connectToCloudVision is true", "    hint: set cvpType to As-a-Service or On-Premise",
    ]);
    expect(problems(`    vendorConfig: { connectToCloudVision: "true", cvpType: On-Premise, cvpIpAddress: 10.0.0.5, cvpToken: t }`)).toEqual([
      "netform.yaml:12:5  devices.edge.vendorConfig.cvpPort  cvpPort is required when cvpType is On-Premise", "    hint: give CloudVision's details, or set connectToCloudVision to false",
    ]);
    expect(problems(`    vendorConfig: { connectToCloudVision: false, cvpType: On-Premise }`)).toEqual([]);
    expect(problems(`    vendorConfig: { managementType: FMC, controller1: 10.0.0.9 }`)).toEqual([
      "netform.yaml:12:5  devices.edge.vendorConfig.activationKey  activationKey is required when managementType is FMC", "    hint: give the FMC's address (controller1) and the activation key, or choose FDM or CDO",
    ]);
    // A cluster gives the FMC's details on its first node only.
    expect(problems(`    clusterDetails: { clusterName: c1, clusterNodeDetails: { node0: { vendorConfig: { managementType: FMC, controller1: 10.0.0.9, activationKey: k } }, node1: { vendorConfig: { managementType: FMC } } } }`)).toEqual([]);
  });
});

describe("vendor settings: secrets, what is sent, what is compared", () => {
  it("marks passwords, keys and tokens secret on the device and its secondary; a cluster node's settings are secret whole", () => {
    for (const field of ["token", "adminPassword", "activationKey", "panoramaAuthKey", "provisioningKey", "licenseKey", "accountKey", "cvpToken"]) {
      expect(devices.sensitive.covers(`vendorConfig.${field}`), field).toBe(true);
      expect(devices.sensitive.covers(`secondary.vendorConfig.${field}`), field).toBe(true);
    }
    for (const field of ["hostname", "ipAddress", "ipAddressType", "managementInterfaceId", "restApiSupportRequirement"]) expect(devices.sensitive.covers(`vendorConfig.${field}`), field).toBe(false);
    expect(devices.sensitive.covers("clusterDetails.clusterNodeDetails.node0.vendorConfig.ipAddress")).toBe(true);
  });

  it("sends every setting as a string, as the service's client does", () => {
    const sent = vendorSettingsAsSent({
      deviceTypeCode: "C8000V",
      core: 2,
      vendorConfig: { restApiSupportRequirement: true, managementInterfaceId: 6, hostname: "edge" },
      secondary: { metroCode: "SV", vendorConfig: { connectToCloudVision: false, cvpPort: 443 } },
      clusterDetails: { clusterName: "c1", clusterNodeDetails: { node0: { licenseToken: "AB12CD34", vendorConfig: { managementInterfaceId: 5 } }, node1: {} } },
    });
    expect(sent).toEqual({
      deviceTypeCode: "C8000V",
      core: 2,
      vendorConfig: { restApiSupportRequirement: "true", managementInterfaceId: "6", hostname: "edge" },
      secondary: { metroCode: "SV", vendorConfig: { connectToCloudVision: "false", cvpPort: "443" } },
      clusterDetails: { clusterName: "c1", clusterNodeDetails: { node0: { licenseToken: "AB12CD34", vendorConfig: { managementInterfaceId: "5" } }, node1: {} } },
    });
  });

  it("compares the order's settings as strings, without secrets and without the update call's fields", () => {
    const written = publicVendorConfig({ restApiSupportRequirement: true, managementInterfaceId: 6, token: "j0in", ipAddressType: "DHCP" });
    const answered = publicVendorConfig({ restApiSupportRequirement: "True", managementInterfaceId: "6", ipAddressType: "DHCP", disablePassword: true });
    expect(written).toEqual({ restApiSupportRequirement: "true", managementInterfaceId: "6", ipAddressType: "DHCP" });
    expect(answered).toEqual(written);
    expect(devices.handler.desired({ vendorConfig: { connectToCloudVision: true, adminPassword: "pw" } }).vendorConfig).toEqual(
      devices.handler.observed({ vendorConfig: { connectToCloudVision: "true" } }).vendorConfig,
    );
  });
});
