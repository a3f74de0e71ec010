import { describe, expect, it } from "vitest";
import { type TestSim, useSimulator } from "../support/sim.js";

const t = useSimulator();

const ROUTER = {
  deviceTypeCode: "C8000V",
  metroCode: "DC",
  packageCode: "network-essentials",
  licenseMode: "SUB",
  deviceManagementType: "PROVIDER-CONFIGURED",
  core: 2,
  notifications: ["netops@example.com"],
  virtualDeviceName: "edge-1",
};
const FIREWALL = { deviceTypeCode: "PA-VM", metroCode: "DC", deviceManagementType: "SELF-CONFIGURED", licenseMode: "SUB", core: 2, virtualDeviceName: "fw-1", notifications: ["sec@example.com"] };

async function provisioned(body: object, on: TestSim = t): Promise<string> {
  const res = await on.call("POST", "/ne/v1/devices", { body });
  expect(res.status).toBe(202);
  await on.waitFor(`/ne/v1/devices/${res.body.uuid}`, "/status", "PROVISIONED");
  return res.body.uuid as string;
}

const MISSING = "0c5d0c8b-0000-4000-8000-000000000000";

describe("soft reboot and reload history", () => {
  // A reboot lasts 90 simulated seconds: at the file's speed of 1000, 90 ms, which a busy machine can spend between
  // two requests. The test that looks at a reboot in progress runs its own simulator, slow enough to see it.
  const slow = useSimulator({ speed: 100 });

  it("reboots a provisioned device and records the reload with its statuses", async () => {
    const uuid = await provisioned(ROUTER, slow);
    const res = await slow.call("POST", `/ne/v1/devices/${uuid}/softReboot`);
    expect(res.status).toBe(201);
    const history = await slow.call("GET", `/ne/v1/devices/${uuid}/softReboot`);
    expect(history.status).toBe(200);
    expect(history.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 1 });
    expect(history.body.data[0]).toMatchObject({ deviceUUID: uuid, requestedBy: "demo-user", status: expect.stringMatching(/REQUEST_ACCEPTED|IN_PROGRESS/) });
    expect((await slow.call("POST", `/ne/v1/devices/${uuid}/softReboot`)).body.property).toBe("virtualDeviceUUID");
    const done = await slow.waitFor(`/ne/v1/devices/${uuid}/softReboot`, "/data/0/status", "SUCCESS");
    expect(done.data[0].completiondDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await slow.call("POST", `/ne/v1/devices/${uuid}/softReboot`)).status).toBe(201);
    const two = await slow.call("GET", `/ne/v1/devices/${uuid}/softReboot?limit=1`);
    expect(two.body.pagination.total).toBe(2);
    expect(two.body.data).toHaveLength(1);
    const events = (await slow.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { type: string }) => e.type.startsWith("equinix.network_edge.device.reboot"));
    expect(events.length).toBeGreaterThan(0);
  });

  it("refuses a reboot of a device that is not provisioned, unknown or of another project", async () => {
    const fresh = (await t.call("POST", "/ne/v1/devices", { body: ROUTER })).body.uuid;
    expect((await t.call("POST", `/ne/v1/devices/${fresh}/softReboot`)).body).toMatchObject({ errorCode: "EQ-2010010", property: "uuid" });
    expect((await t.call("POST", `/ne/v1/devices/${MISSING}/softReboot`)).status).toBe(404);
    expect((await t.call("POST", `/ne/v1/devices/${fresh}/softReboot`, { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", `/ne/v1/devices/${fresh}/softReboot?limit=0`)).body.property).toBe("limit");
  });
});

describe("resize and resource upgrade history", () => {
  it("resizes a device through an upgrade that ends in SUCCESS", async () => {
    const uuid = await provisioned(ROUTER);
    expect((await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { core: 4 } })).status).toBe(204);
    const first = await t.call("GET", `/ne/v1/devices/${uuid}/resourceUpgrade`);
    expect(first.body.data[0]).toMatchObject({ virtualDeviceUuid: uuid, status: expect.stringMatching(/REQUEST_ACCEPTED|IN_PROGRESS/), requestedBy: "demo-user" });
    expect((await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { core: 8 } })).body.property).toBe("core");
    const done = await t.waitFor(`/ne/v1/devices/${uuid}/resourceUpgrade`, "/data/0/status", "SUCCESS");
    expect(done.data[0].completionDate).toMatch(/^\d{4}-/);
    const device = await t.waitFor(`/ne/v1/devices/${uuid}`, "/core/core", 4);
    expect(device.core).toMatchObject({ core: 4, memory: 16 });
    expect(device.pricingDetails.core).toBe(4);
  });

  it("refuses sizes the catalogue does not offer and failed upgrades leave the size", async () => {
    const uuid = await provisioned(ROUTER);
    expect((await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { core: 16 } })).body).toMatchObject({ errorCode: "EQ-2012025", property: "core" });
    expect((await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { core: 2 } })).body.property).toBe("core");
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "deviceUpgrades", count: 1 } } });
    expect((await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { core: 4 } })).status).toBe(204);
    await t.waitFor(`/ne/v1/devices/${uuid}/resourceUpgrade`, "/data/0/status", "FAILED");
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body.core.core).toBe(2);
    expect((await t.call("GET", `/ne/v1/devices/${MISSING}/resourceUpgrade`)).status).toBe(404);
  });
});

describe("interfaces and statistics", () => {
  it("lists the interfaces of a device with their link state", async () => {
    const uuid = await provisioned(ROUTER);
    const res = await t.call("GET", `/ne/v1/devices/${uuid}/interfaces`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body[0]).toMatchObject({ id: 1, name: "GigabitEthernet1", type: "MGMT", status: "ASSIGNED", operationStatus: "UP", assignedType: "Equinix Managed" });
    expect(res.body[1]).toMatchObject({ id: 2, type: "DATA", status: "AVAILABLE", operationStatus: "DOWN" });
    expect(res.body[0].macAddress).toMatch(/^fa16\.[0-9a-f]{4}\.[0-9a-f]{4}$/);
    expect((await t.call("GET", `/ne/v1/devices/${MISSING}/interfaces`)).status).toBe(404);
  });

  it("returns deterministic throughput statistics for a time window", async () => {
    const uuid = await provisioned(ROUTER);
    const start = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const end = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const url = `/ne/v1/devices/${uuid}/interfaces/2/stats?startDateTime=${start}&endDateTime=${end}`;
    const res = await t.call("GET", url);
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({ startDateTime: start, endDateTime: end, unit: "Mbps" });
    expect(res.body.stats.inbound.metrics.length).toBeGreaterThan(0);
    expect(res.body.stats.inbound.metrics[0]).toEqual({ intervalEndDateTime: expect.stringMatching(/Z$/), mean: expect.any(Number) });
    expect(res.body.stats.inbound.max).toBeGreaterThanOrEqual(res.body.stats.inbound.mean);
    expect((await t.call("GET", url)).body).toEqual(res.body);
  });

  it("requires both times in the documented format with the start first", async () => {
    const uuid = await provisioned(ROUTER);
    const base = `/ne/v1/devices/${uuid}/interfaces/1/stats`;
    expect((await t.call("GET", `${base}?startDateTime=2024-01-01T00:00:00Z`)).body).toMatchObject({ errorCode: "EQ-2012011", property: "endDateTime" });
    expect((await t.call("GET", `${base}?endDateTime=2024-01-01T00:00:00Z`)).body.property).toBe("startDateTime");
    expect((await t.call("GET", `${base}?startDateTime=2024-01-01&endDateTime=2024-01-02T00:00:00Z`)).body.property).toBe("startDateTime");
    expect((await t.call("GET", `${base}?startDateTime=2024-01-01T00:00:00.000Z&endDateTime=2024-01-02T00:00:00Z`)).body.property).toBe("startDateTime");
    expect((await t.call("GET", `${base}?startDateTime=2024-01-02T00:00:00Z&endDateTime=2024-01-01T00:00:00Z`)).body.property).toBe("startDateTime");
    const range = "?startDateTime=2024-01-01T00:00:00Z&endDateTime=2024-01-02T00:00:00Z";
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/interfaces/99/stats${range}`)).status).toBe(404);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}/interfaces/abc/stats${range}`)).body.property).toBe("interfaceId");
    const old = await t.call("GET", `${base}${range}`);
    expect(old.body.stats.inbound).toMatchObject({ max: 0, mean: 0 });
  });
});

describe("ping", () => {
  it("pings self-configured devices of the types that support it", async () => {
    const firewall = await provisioned(FIREWALL);
    expect((await t.call("GET", `/ne/v1/devices/${firewall}/ping`)).status).toBe(200);
    const router = await provisioned(ROUTER);
    expect((await t.call("GET", `/ne/v1/devices/${router}/ping`)).body).toMatchObject({ errorCode: "EQ-2010010", property: "uuid" });
    const fresh = (await t.call("POST", "/ne/v1/devices", { body: FIREWALL })).body.uuid;
    expect((await t.call("GET", `/ne/v1/devices/${fresh}/ping`)).body.property).toBe("uuid");
    expect((await t.call("GET", `/ne/v1/devices/${MISSING}/ping`)).status).toBe(404);
  });
});

describe("licence files for an existing device", () => {
  it("applies an uploaded licence to a BYOL device and registers it", async () => {
    const uuid = await provisioned({ ...ROUTER, licenseMode: "BYOL" });
    const form = new FormData();
    form.append("file", new Blob(["LICENSE"]), "c8000v.lic");
    const res = await t.call("POST", `/ne/v1/devices/licenseFiles/${uuid}`, { raw: form });
    expect(res.status).toBe(200);
    const device = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body;
    expect(device).toMatchObject({ licenseFileId: res.body.fileId, status: "PROVISIONED" });
    await t.waitFor(`/ne/v1/devices/${uuid}`, "/licenseStatus", "REGISTERED");
  });

  it("refuses licence files for subscription devices and without a file", async () => {
    const uuid = await provisioned(ROUTER);
    const form = new FormData();
    form.append("file", new Blob(["LICENSE"]), "c8000v.lic");
    expect((await t.call("POST", `/ne/v1/devices/licenseFiles/${uuid}`, { raw: form })).body.property).toBe("uuid");
    const byol = await provisioned({ ...ROUTER, licenseMode: "BYOL", virtualDeviceName: "edge-byol" });
    expect((await t.call("POST", `/ne/v1/devices/licenseFiles/${byol}`, { raw: new FormData() })).body.property).toBe("file");
    expect((await t.call("POST", `/ne/v1/devices/licenseFiles/${MISSING}`, { raw: form })).status).toBe(404);
  });
});
