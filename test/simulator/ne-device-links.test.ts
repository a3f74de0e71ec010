import { describe, expect, it } from "vitest";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

function group(devices: string[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    groupName: "ha-link",
    subnet: "192.168.40.0/29",
    linkDevices: devices.map((deviceUuid, i) => ({ deviceUuid, asn: 65001 + i, interfaceId: 6 })),
    ...overrides,
  };
}

describe("device link groups", () => {
  it("links provisioned devices, provisions on the clock, changes by PATCH and deletes", async () => {
    const [a, b] = [seedDevice(t), seedDevice(t)];
    const created = await t.call("POST", "/ne/v1/links", { body: group([a, b]) });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const uuid = created.body.uuid as string;
    const done = await t.waitFor(`/ne/v1/links/${uuid}`, "/status", "PROVISIONED");
    expect(done).toMatchObject({
      uuid,
      groupName: "ha-link",
      subnet: "192.168.40.0/29",
      linkDevices: [
        { deviceUuid: a, asn: 65001, interfaceId: 6, ipAssigned: "192.168.40.1/29", status: "PROVISIONED", metroCode: "DC" },
        { deviceUuid: b, asn: 65002, interfaceId: 6, ipAssigned: "192.168.40.2/29", status: "PROVISIONED" },
      ],
    });
    // One page, as the real service answers (the official description says a bare array).
    expect((await t.call("GET", `/ne/v1/links?virtualDeviceUuid=${b}`)).body).toMatchObject({ pagination: { offset: 0, total: 1 }, data: [{ uuid, redundancyType: "Primary" }] });
    expect((await t.call("GET", "/ne/v1/links?groupName=other")).body).toMatchObject({ pagination: { total: 0 }, data: [] });

    expect((await t.call("PATCH", `/ne/v1/links/${uuid}`, { body: group([a, b], { groupName: "ha-link-2", subnet: "192.168.41.0/29" }) })).status).toBe(204);
    expect(await t.waitFor(`/ne/v1/links/${uuid}`, "/status", "PROVISIONED")).toMatchObject({ groupName: "ha-link-2", linkDevices: [{ ipAssigned: "192.168.41.1/29" }, {}] });

    expect((await t.call("DELETE", `/ne/v1/links/${uuid}`)).status).toBe(204);
    await expect.poll(async () => (await t.call("GET", `/ne/v1/links/${uuid}`)).status).toBe(404);
    expect((await t.call("DELETE", `/ne/v1/links/${uuid}`)).status).toBe(404);
  });

  it("needs two provisioned devices, and a metro link for each metro when they are in several", async () => {
    const a = seedDevice(t);
    expect((await t.call("POST", "/ne/v1/links", { body: group([a]) })).body).toMatchObject({ property: "linkDevices" });
    const pending = seedDevice(t, { status: "PROVISIONING" });
    expect((await t.call("POST", "/ne/v1/links", { body: group([a, pending]) })).body).toMatchObject({ property: "linkDevices[1].deviceUuid" });
    const far = seedDevice(t, { metroCode: "SV" });
    const across = await t.call("POST", "/ne/v1/links", { body: group([a, far]) });
    expect(across.body).toMatchObject({ property: "metroLinks" });
    const metroLinks = ["DC", "SV"].map((metroCode) => ({ metroCode, throughput: "50", throughputUnit: "Mbps" }));
    const linked = await t.call("POST", "/ne/v1/links", { body: group([a, far], { metroLinks }) });
    expect(linked.status).toBe(202);
    expect((await t.call("GET", `/ne/v1/links/${linked.body.uuid}`)).body).toMatchObject({ metroLinks: [{ metroCode: "DC", throughput: "50", accountNumber: "270848" }, { metroCode: "SV" }] });
    expect((await t.call("POST", "/ne/v1/links", { body: group([a, far], { subnet: "192.168.40.0/31" }) })).body).toMatchObject({ property: "subnet" });
  });
});
