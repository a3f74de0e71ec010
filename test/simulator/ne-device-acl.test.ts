// GET and POST /ne/v1/devices/{uuid}/acl (getDeviceTemplatesbyUuid, postDeviceTemplatesbyUuid): the ACL
// template on each of a device's interfaces, with its status on the device, and templates added as PATCH sets
// them, except that POST leaves the interfaces it does not name alone.

import { beforeEach, describe, expect, it } from "vitest";
import { seedAclTemplate } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const DEVICE = {
  deviceTypeCode: "C8000V",
  metroCode: "DC",
  packageCode: "network-essentials",
  version: "17.11.01a",
  licenseMode: "SUB",
  deviceManagementType: "PROVIDER-CONFIGURED",
  core: 2,
  termlength: 12,
  notifications: ["netops@example.com"],
  accountNumber: 270848,
  virtualDeviceName: "edge-acl",
};

const WAN_ACL = "5f2d6a3e-1c41-4d8e-9a57-3a1be0c0ab01";
const MGMT_ACL = "5f2d6a3e-1c41-4d8e-9a57-3a1be0c0ab02";

async function device(body: object = DEVICE): Promise<string> {
  const res = await t.call("POST", "/ne/v1/devices", { body });
  expect(res.status, res.text).toBe(202);
  return res.body.uuid as string;
}

describe("GET /ne/v1/devices/{uuid}/acl", () => {
  beforeEach(() => {
    seedAclTemplate(t, WAN_ACL);
    seedAclTemplate(t, MGMT_ACL);
  });

  it("gives the template of each interface, not ready until the device runs, then PROVISIONED", async () => {
    const uuid = await device({ ...DEVICE, aclDetails: [{ interfaceType: "WAN", uuid: WAN_ACL }] });
    const ordered = await t.call("GET", `/ne/v1/devices/${uuid}/acl`);
    expect(ordered.status).toBe(200);
    expect(ordered.body).toEqual({
      aclTemplate: {
        uuid: WAN_ACL,
        name: `fixture-${WAN_ACL.slice(0, 8)}`,
        inboundRules: [expect.objectContaining({ protocol: "TCP", dstPort: "22" })],
        status: "DEVICE_NOT_READY",
      },
    });
    await t.waitFor(`/ne/v1/devices/${uuid}`, "/status", "PROVISIONED");
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/acl`)).body.aclTemplate.status).toBe("PROVISIONED");
  });

  it("gives nothing for a device without templates, and 404 for one the caller cannot see", async () => {
    const uuid = await device();
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/acl`)).body).toEqual({});
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/acl`, { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/acl?accountUcmId=x`)).status).toBe(400);
  });
});

describe("POST /ne/v1/devices/{uuid}/acl", () => {
  beforeEach(() => {
    seedAclTemplate(t, WAN_ACL);
    seedAclTemplate(t, MGMT_ACL);
  });

  it("adds a template to the interface it names and leaves the others' alone, where PATCH removes them", async () => {
    const uuid = await device({ ...DEVICE, aclDetails: [{ interfaceType: "WAN", uuid: WAN_ACL }] });
    await t.waitFor(`/ne/v1/devices/${uuid}`, "/status", "PROVISIONED");
    const acl = `/ne/v1/devices/${uuid}/acl`;
    expect((await t.call("POST", acl, { body: { aclDetails: [{ interfaceType: "MGMT", uuid: MGMT_ACL }] } })).status).toBe(204);
    const both = (await t.call("GET", acl)).body;
    expect([both.aclTemplate.uuid, both.mgmtAclTemplate.uuid]).toEqual([WAN_ACL, MGMT_ACL]);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body).toMatchObject({ aclTemplateUuid: WAN_ACL, mgmtAclTemplateUuid: MGMT_ACL });

    expect((await t.call("PATCH", acl, { body: { aclDetails: [{ interfaceType: "MGMT", uuid: MGMT_ACL }] } })).status).toBe(204);
    expect((await t.call("GET", acl)).body).toEqual({ mgmtAclTemplate: expect.objectContaining({ uuid: MGMT_ACL }) });
  });

  it("refuses what PATCH refuses: no list, an unknown template, a device not yet provisioned, an unknown device", async () => {
    const uuid = await device();
    const acl = `/ne/v1/devices/${uuid}/acl`;
    expect((await t.call("POST", acl, { body: { aclDetails: [{ interfaceType: "WAN", uuid: WAN_ACL }] } })).body.property).toBe("uuid");
    await t.waitFor(`/ne/v1/devices/${uuid}`, "/status", "PROVISIONED");
    expect((await t.call("POST", acl, { body: {} })).body).toMatchObject({ errorCode: "EQ-2012011", property: "aclDetails" });
    expect((await t.call("POST", acl, { body: { aclDetails: [{ interfaceType: "WAN", uuid: "0c5d0c8b-0000-4000-8000-000000000000" }] } })).body.property).toBe("aclDetails[0].uuid");
    expect((await t.call("POST", "/ne/v1/devices/0c5d0c8b-0000-4000-8000-000000000000/acl", { body: { aclDetails: [] } })).status).toBe(404);
  });
});
