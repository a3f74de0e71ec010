// Device vendor settings (vendorConfig of POST /ne/v1/devices, section 4.10) as the incumbent provider's
// examples order them: zero-touch pairs with their management network, join tokens, Infoblox grid members
// and Netskope publishers. Values come as strings (the service's client) or typed (the official
// description); the record answers the settings but never the secrets, which are kept beside it; the rules across settings say what
// netform's validate says (test/unit/kinds/device-vendor-config.test.ts).

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const create = (body: object) => t.call("POST", "/ne/v1/devices", { body });
const read = async (uuid: string) => (await t.call("GET", `/ne/v1/devices/${uuid}`)).body;

/** A self-configured BYOL order of a type, one device, in SV. */
const order = (deviceTypeCode: string, fields: object) => ({
  deviceTypeCode,
  metroCode: "SV",
  deviceManagementType: "SELF-CONFIGURED",
  licenseMode: "BYOL",
  virtualDeviceName: `${deviceTypeCode.toLowerCase()}-1`,
  notifications: ["netops@example.com"],
  ...fields,
});

const secondary = (vendorConfig: object, name = "standby-1") => ({ virtualDeviceName: name, metroCode: "SV", notifications: ["netops@example.com"], vendorConfig });

const STATIC = { restApiSupportRequirement: "true", ipAddressType: "STATIC", ipAddress: "10.10.0.2", subnetMaskIp: "255.255.255.0", gatewayIp: "10.10.0.1", managementInterfaceId: "6" };

describe("device vendor settings", () => {
  it("orders a zero-touch C8000V pair with its management network, written as the service's client writes it, and answers it as strings", async () => {
    const res = await create(
      order("C8000V", { packageCode: "network-essentials", version: "17.11.01a", core: 2, tier: 1, connectivity: "PRIVATE", vendorConfig: STATIC, secondary: secondary({ ...STATIC, ipAddress: "10.10.0.3" }) }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await read(res.body.uuid)).vendorConfig).toEqual(STATIC);
    expect((await read(res.body.secondaryUuid)).vendorConfig).toEqual({ ...STATIC, ipAddress: "10.10.0.3" });
    // Typed values (the official description's) are the same settings.
    const typed = await create(order("C8000V", { virtualDeviceName: "typed-1", core: 2, connectivity: "PRIVATE", vendorConfig: { restApiSupportRequirement: true, ipAddressType: "DHCP", managementInterfaceId: 6 } }));
    expect(typed.status, JSON.stringify(typed.body)).toBe(202);
    expect((await read(typed.body.uuid)).vendorConfig).toEqual({ restApiSupportRequirement: "true", ipAddressType: "DHCP", managementInterfaceId: "6" });
  });

  it("orders a zero-touch BYOL FortiGate pair without a licence file, but not one with internet access", async () => {
    const fortigate = (connectivity: string, name: string) =>
      order("FG-VM", { virtualDeviceName: name, packageCode: "VM02", version: "7.6.3", core: 2, connectivity, vendorConfig: { ipAddressType: "NO_IP_ADDRESS" }, secondary: secondary({ ipAddressType: "NO_IP_ADDRESS" }, `${name}-b`) });
    expect((await create(fortigate("PRIVATE", "fg-ztp"))).status).toBe(202);
    expect((await create(fortigate("INTERNET-ACCESS", "fg-inet"))).body).toMatchObject({ errorCode: "EQ-2012011", property: "licenseFileId" });
  });

  it("takes join tokens and keeps them beside the record, never in it; a NIOS-X needs its token", async () => {
    const res = await create(order("INFOBLOX-NIOSX", { version: "4.0", core: 3, interfaceCount: 5, vendorConfig: { hostname: "dns-a", token: "join-secret-1" }, secondary: secondary({ hostname: "dns-a", token: "join-secret-1" }) }));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const primary = await read(res.body.uuid);
    expect(primary.vendorConfig).toEqual({ hostname: "dns-a" });
    expect(JSON.stringify(primary) + JSON.stringify(await read(res.body.secondaryUuid))).not.toContain("join-secret");
    const devices = (await t.call("GET", "/__sim/objects?kind=devices")).body;
    expect(JSON.stringify(devices)).not.toContain("join-secret");
    expect(t.sim.world.get(res.body.uuid, "devices")?.meta.vendorSecrets).toEqual({ token: "join-secret-1" });
    expect((await create(order("INFOBLOX-NIOSX", { virtualDeviceName: "dns-2", core: 3, vendorConfig: { hostname: "dns-b" } }))).body).toMatchObject({ errorCode: "EQ-2012011", property: "vendorConfig.token" });
    for (const [code, core] of [["6WIND-VSR", 2], ["F5XC", 8]] as const) {
      const ok = await create(order(code, { core, vendorConfig: { hostname: "edge", token: "site-token" } }));
      expect(ok.status, `${code} ${JSON.stringify(ok.body)}`).toBe(202);
    }
  });

  it("needs an Infoblox grid member's LAN1 network, per device of a pair and per node of a cluster", async () => {
    const lan = (ip: string) => ({ adminPassword: "Adm1nPass", ipAddress: ip, subnetMaskIp: "255.255.255.0", gatewayIp: "10.30.0.1" });
    const grid = (fields: object) => order("INFOBLOX-GRID-MEMBER", { version: "9.0.5", core: 8, connectivity: "PRIVATE", ...fields });
    const pair = await create(grid({ vendorConfig: lan("10.30.0.2"), secondary: secondary(lan("10.30.0.3")) }));
    expect(pair.status, JSON.stringify(pair.body)).toBe(202);
    expect((await read(pair.body.uuid)).vendorConfig).toEqual({ ipAddress: "10.30.0.2", subnetMaskIp: "255.255.255.0", gatewayIp: "10.30.0.1" });
    expect((await create(grid({ virtualDeviceName: "grid-2", vendorConfig: lan("10.30.0.2"), secondary: secondary(lan("10.30.0.2"), "grid-2b") }))).body).toMatchObject({ property: "secondary.vendorConfig.ipAddress" });
    expect((await create(grid({ virtualDeviceName: "grid-3", vendorConfig: { adminPassword: "Adm1nPass" } }))).body).toMatchObject({ errorCode: "EQ-2012011", property: "vendorConfig.ipAddress" });
    const nodes = { node0: { vendorConfig: lan("10.30.0.4") }, node1: { vendorConfig: { adminPassword: "Adm1nPass", ipAddress: "10.30.0.5" } } };
    expect((await create(grid({ virtualDeviceName: "grid-4", clusterDetails: { clusterName: "grid-c", clusterNodeDetails: nodes } }))).body).toMatchObject({
      errorCode: "EQ-2012011",
      property: "clusterDetails.clusterNodeDetails.node1.vendorConfig.subnetMaskIp",
    });
    const whole = { ...nodes, node1: { vendorConfig: lan("10.30.0.5") } };
    expect((await create(grid({ virtualDeviceName: "grid-5", clusterDetails: { clusterName: "grid-c", clusterNodeDetails: whole } }))).status).toBe(202);
  });

  it("takes a Netskope publisher's static address with a CIDR mask and its name servers", async () => {
    const vendorConfig = { hostname: "npa-1", ipAddressType: "STATIC", ipAddress: "10.40.0.2", gatewayIp: "10.40.0.1", privateCidrMask: 24, primaryNameServer: "10.40.0.53", secondaryNameServer: "10.40.1.53", dnsSearchDomain: "corp.example.com" };
    const res = await create(order("NETSKOPE-NPA", { version: "R138", core: 2, interfaceCount: 1, connectivity: "PRIVATE", vendorConfig }));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await read(res.body.uuid)).vendorConfig).toEqual({ ...vendorConfig, privateCidrMask: "24" });
  });

  it("refuses a setting of the wrong form, an unknown setting, and settings that the rules across them need", async () => {
    const c8000v = (vendorConfig: object) => create(order("C8000V", { core: 2, connectivity: "PRIVATE", vendorConfig }));
    const property = async (vendorConfig: object) => (await c8000v(vendorConfig)).body.property as string;
    expect(await property({ restApiSupportRequirement: "yes" })).toBe("vendorConfig.restApiSupportRequirement");
    expect(await property({ ipAddressType: "STATIK" })).toBe("vendorConfig.ipAddressType");
    expect(await property({ managementInterfaceId: "six" })).toBe("vendorConfig.managementInterfaceId");
    expect(await property({ gatewayIp: "10.0.0.300" })).toBe("vendorConfig.gatewayIp");
    expect(await property({ ipAdress: "10.0.0.2" })).toBe("vendorConfig.ipAdress");
    expect(await property({ hostNamePrefix: "-bad" })).toBe("vendorConfig.hostNamePrefix");
    expect(await property({ ipAddressType: "STATIC", ipAddress: "10.0.0.2", subnetMaskIp: "255.255.255.0" })).toBe("vendorConfig.gatewayIp");
    expect(await property({ ipAddressType: "STATIC", ipAddress: "10.0.0.2", gatewayIp: "10.0.0.1" })).toBe("vendorConfig.subnetMaskIp");
    expect(await property({ connectToCloudVision: true })).toBe("vendorConfig.cvpType");
    expect(await property({ connectToCloudVision: "true", cvpType: "As-a-Service", cvaasPort: "443" })).toBe("vendorConfig.cvpToken");
    expect(await property({ managementType: "FMC", controller1: "10.0.0.9" })).toBe("vendorConfig.activationKey");
    expect((await c8000v({ connectToCloudVision: false, cvpType: "On-Premise" })).status).toBe(202);
  });
});
