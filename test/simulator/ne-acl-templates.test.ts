import { describe, expect, it } from "vitest";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const OFFICE = { protocol: "TCP", srcPort: "any", dstPort: "22", subnet: "198.51.100.0/24", description: "office SSH" };
/** The rule as the service answers it: its sources as `subnets`, the way real answers spell them. */
const { subnet: _officeSubnet, ...officeRest } = OFFICE;
const OFFICE_ANSWERED = { ...officeRest, srcType: "SUBNET", subnets: ["198.51.100.0/24"] };

async function createTemplate(name = "office", inboundRules: unknown[] = [OFFICE]): Promise<string> {
  const res = await t.call("POST", "/ne/v1/aclTemplates", { body: { name, description: "who may reach the device", inboundRules } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.headers.get("location")).toBe(`/ne/v1/aclTemplates/${res.body.uuid}`);
  return res.body.uuid as string;
}

describe("ACL templates", () => {
  it("creates, reads, lists, replaces and deletes a template, numbering its rules in order", async () => {
    const uuid = await createTemplate();
    expect((await t.call("GET", `/ne/v1/aclTemplates/${uuid}`)).body).toMatchObject({
      uuid,
      name: "office",
      description: "who may reach the device",
      inboundRules: [{ ...OFFICE_ANSWERED, seqNo: 1 }],
      virtualDeviceDetails: [],
      createdBy: "demo-user",
    });
    const list = await t.call("GET", "/ne/v1/aclTemplates?limit=10");
    expect(list.body).toMatchObject({ pagination: { offset: 0, limit: 10, total: 1 }, data: [{ uuid, name: "office" }] });

    const replaced = await t.call("PUT", `/ne/v1/aclTemplates/${uuid}`, { body: { name: "office-v2", inboundRules: [{ protocol: "IP", srcPort: "any", dstPort: "any", subnet: "203.0.113.0/24" }, OFFICE] } });
    expect(replaced.status).toBe(204);
    const after = (await t.call("GET", `/ne/v1/aclTemplates/${uuid}`)).body;
    expect(after).toMatchObject({ name: "office-v2", inboundRules: [{ protocol: "IP", subnets: ["203.0.113.0/24"], seqNo: 1 }, { ...OFFICE_ANSWERED, seqNo: 2 }] });
    expect(after.inboundRules[0].subnet).toBeUndefined();
    expect(after.description).toBeUndefined();

    expect((await t.call("DELETE", `/ne/v1/aclTemplates/${uuid}`)).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/aclTemplates/${uuid}`)).status).toBe(404);
  });

  it("takes several subnets, a domain, and up to 10 destination ports, as the real service does", async () => {
    const rules = [
      { protocol: "UDP", subnets: ["192.0.2.0/24", "203.0.113.0/24"], dstPort: "53,1045,2041" },
      { protocol: "TCP", srcType: "DOMAIN", fqdn: "vpn.example.com", dstPort: "1,2,3,4,5,6,7,8,9,10" },
    ];
    const uuid = await createTemplate("mixed", rules);
    const { inboundRules } = (await t.call("GET", `/ne/v1/aclTemplates/${uuid}`)).body;
    expect(inboundRules).toMatchObject([
      { seqNo: 1, srcType: "SUBNET", subnets: ["192.0.2.0/24", "203.0.113.0/24"], protocol: "UDP", srcPort: "any", dstPort: "53,1045,2041" },
      { seqNo: 2, srcType: "DOMAIN", fqdn: "vpn.example.com", protocol: "TCP", dstPort: "1,2,3,4,5,6,7,8,9,10" },
    ]);
    // What the domain resolves to: one address, the same on every read.
    expect(inboundRules[1].subnets).toEqual([expect.stringMatching(/^198\.1[89]\.\d+\.\d+\/32$/)]);
  });

  it("refuses rules the service cannot apply, naming the rule's field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...OFFICE, subnet: "198.51.100.0" }, "inboundRules[0].subnet"],
      [{ ...OFFICE, protocol: "ICMP" }, "inboundRules[0].protocol"],
      [{ ...OFFICE, dstPort: "70000" }, "inboundRules[0].dstPort"],
      [{ ...OFFICE, protocol: "IP" }, "inboundRules[0].dstPort"],
      [{ ...OFFICE, dstPort: "1,2,3,4,5,6,7,8,9,10,11" }, "inboundRules[0].dstPort"],
      [{ ...OFFICE, dstPort: "2000-1000" }, "inboundRules[0].dstPort"],
      [{ ...OFFICE, subnets: ["198.51.100.0/24"] }, "inboundRules[0].subnets"],
      [{ ...officeRest, subnets: ["198.51.100.0/24", "10.0.0.0"] }, "inboundRules[0].subnets[1]"],
      [{ ...OFFICE, srcType: "SUBNET", fqdn: "example.com" }, "inboundRules[0].fqdn"],
      [{ ...OFFICE, fqdn: "example.com" }, "inboundRules[0].subnet"],
      [{ ...officeRest, srcType: "DOMAIN" }, "inboundRules[0].fqdn"],
      [{ ...officeRest, srcType: "DOMAIN", fqdn: "not a domain" }, "inboundRules[0].fqdn"],
      [{ ...officeRest, srcType: "HOST", subnet: "198.51.100.0/24" }, "inboundRules[0].srcType"],
    ];
    for (const [rule, property] of cases) {
      const res = await t.call("POST", "/ne/v1/aclTemplates", { body: { name: "bad", inboundRules: [rule] } });
      expect(res.status, JSON.stringify(rule)).toBe(400);
      expect(res.body).toMatchObject({ property });
    }
    expect((await t.call("POST", "/ne/v1/aclTemplates", { body: { name: "empty", inboundRules: [] } })).body).toMatchObject({ property: "inboundRules" });
  });

  it("refuses a device ACL change naming a template that does not exist, and shows the devices a template is on", async () => {
    const device = seedDevice(t);
    const unknown = "0b9a2c1e-1111-4222-8333-944455556666";
    const refused = await t.call("PATCH", `/ne/v1/devices/${device}/acl`, { body: { aclDetails: [{ interfaceType: "WAN", uuid: unknown }] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ property: "aclDetails[0].uuid" });
    expect(refused.body.errorMessage).toContain(unknown);

    const uuid = await createTemplate();
    expect((await t.call("PATCH", `/ne/v1/devices/${device}/acl`, { body: { aclDetails: [{ interfaceType: "WAN", uuid }] } })).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${device}`)).body).toMatchObject({ aclTemplateUuid: uuid });
    expect((await t.call("GET", `/ne/v1/aclTemplates/${uuid}`)).body).toMatchObject({ virtualDeviceDetails: [{ uuid: device, interfaceType: "WAN" }] });
  });

  it("refuses to delete a template a device still uses, and deletes it once the device no longer does", async () => {
    const device = seedDevice(t);
    const uuid = await createTemplate();
    await t.call("PATCH", `/ne/v1/devices/${device}/acl`, { body: { aclDetails: [{ interfaceType: "WAN", uuid }] } });
    const refused = await t.call("DELETE", `/ne/v1/aclTemplates/${uuid}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ property: "uuid" });
    expect(JSON.stringify(refused.body)).toContain(device);

    expect((await t.call("PATCH", `/ne/v1/devices/${device}/acl`, { body: { aclDetails: [] } })).status).toBe(204);
    expect((await t.call("DELETE", `/ne/v1/aclTemplates/${uuid}`)).status).toBe(204);
  });

  it("refuses a device order naming a template that does not exist", async () => {
    const res = await t.call("POST", "/ne/v1/devices", {
      body: {
        deviceTypeCode: "C8000V", metroCode: "DC", packageCode: "network-essentials", version: "17.11.01a", licenseMode: "SUB",
        deviceManagementType: "PROVIDER-CONFIGURED", core: 2, termlength: 12, notifications: ["netops@example.com"], virtualDeviceName: "edge-acl",
        accountNumber: 270848, aclDetails: [{ interfaceType: "WAN", uuid: "0b9a2c1e-1111-4222-8333-944455556666" }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ property: "aclDetails[0].uuid" });
  });
});
