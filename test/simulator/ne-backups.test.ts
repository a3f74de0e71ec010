import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
// A backup's first status lasts 5 s of the service's time: 5 ms at the usual test speed, less than a loaded
// machine may take between two requests. Read at this pace, the first answer is still the first status.
const slow = useSimulator({ speed: 50 });

/** Starts a backup (on `sim`: the slow one where a test must see it still running) and returns its id. */
async function backup(deviceUuid: string, name = "nightly", sim = t): Promise<string> {
  const res = await sim.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid, name } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.id as string;
}

async function completed(deviceUuid: string, name = "nightly"): Promise<string> {
  const uuid = await backup(deviceUuid, name);
  await t.waitFor(`/ne/v1/deviceBackups/${uuid}`, "/status", "COMPLETED");
  return uuid;
}

function selfConfigured(): string {
  const device = seedDevice(t);
  t.sim.world.edit(t.sim.world.get(device, "devices")!, (body) => (body.deviceManagementType = "SELF-CONFIGURED"));
  return device;
}

/** A VPN placed straight into the world, on the device. */
function seedVpn(deviceUuid: string, configName = "to-branch"): string {
  const uuid = t.sim.world.uuid();
  t.sim.world.create(
    "vpns",
    { uuid, virtualDeviceUuid: deviceUuid, configName, status: "PROVISIONED", siteName: "Branch", peerIp: "1.2.3.4", localAsn: 65001, remoteAsn: 65002, remoteIpAddress: "10.0.0.2" },
    { uuid, projectId: PROJECTS.production.projectId },
  );
  return uuid;
}

describe("POST /ne/v1/deviceBackups", () => {
  it("accepts a backup with 202 and completes it on the clock", async () => {
    const device = seedDevice(slow);
    const res = await slow.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: device, name: "before upgrade" } });
    expect(res.status).toBe(202);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.uuid).toBe(res.body.id);
    const first = (await slow.call("GET", `/ne/v1/deviceBackups/${res.body.id}`)).body;
    expect(first).toMatchObject({ uuid: res.body.id, name: "before upgrade", deviceUuid: device, type: "CONFIG", deleteAllowed: false, restores: [], createdBy: "demo-user" });
    expect(["REQUEST_ACCEPTED", "PROCESSING"]).toContain(first.status);
    const done = await slow.waitFor(`/ne/v1/deviceBackups/${res.body.id}`, "/status", "COMPLETED");
    expect(done).toMatchObject({ deleteAllowed: true, downloadUrl: `/ne/v1/deviceBackups/${res.body.id}/download` });
  });

  it("allows at most 30 backups per device", async () => {
    const device = seedDevice(t);
    for (let i = 0; i < 30; i++) await backup(device, `backup ${i}`);
    const res = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: device, name: "one too many" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: "EQ-2010010", property: "deviceUuid" });
    expect(res.body.errorMessage).toMatch(/30/);
    await backup(seedDevice(t));
  });

  it("validates the body and the device", async () => {
    const device = seedDevice(t);
    const missing = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: device } });
    expect(missing.body).toMatchObject({ errorCode: "EQ-2012011", property: "name", status: "400" });
    const noDevice = await t.call("POST", "/ne/v1/deviceBackups", { body: { name: "x" } });
    expect(noDevice.body).toMatchObject({ errorCode: "EQ-2012011", property: "deviceUuid" });
    const wrongType = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: device, name: 7 } });
    expect(wrongType.body).toMatchObject({ errorCode: "EQ-2010010", property: "name" });
    const unknown = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: "00000000-0000-4000-8000-000000000000", name: "x" } });
    expect(unknown.body).toMatchObject({ errorCode: "EQ-2012010", property: "deviceUuid" });
    const hidden = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: device, name: "x" }, client: "limited" });
    expect(hidden.body).toMatchObject({ errorCode: "EQ-2012010", property: "deviceUuid" });
    const provisioning = seedDevice(t, { status: "PROVISIONING" });
    const notReady = await t.call("POST", "/ne/v1/deviceBackups", { body: { deviceUuid: provisioning, name: "x" } });
    expect(notReady.body).toMatchObject({ errorCode: "EQ-2010010", property: "deviceUuid" });
    expect((await t.call("POST", "/ne/v1/deviceBackups", { raw: "{", contentType: "application/json" })).status).toBe(400);
  });

  it("takes image snapshots of self-configured devices, and FAILED comes from injected failures", async () => {
    const snapshot = await completed(selfConfigured());
    const view = (await t.call("GET", `/ne/v1/deviceBackups/${snapshot}`)).body;
    expect(view.type).toBe("IMAGE_SNAPSHOT");
    expect(view.downloadUrl).toBeUndefined();
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "deviceBackups", count: 1 } } });
    const failed = await backup(seedDevice(t));
    expect((await t.waitFor(`/ne/v1/deviceBackups/${failed}`, "/status", "FAILED")).deleteAllowed).toBe(true);
  });
});

describe("GET /ne/v1/deviceBackups", () => {
  it("lists a device's backups with status filter and pagination", async () => {
    const device = seedDevice(t);
    const done = await completed(device, "first");
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "deviceBackups", count: 1 } } });
    const failed = await backup(device, "second");
    await t.waitFor(`/ne/v1/deviceBackups/${failed}`, "/status", "FAILED");
    await backup(seedDevice(t), "other device");
    const all = await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}`);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ offset: 0, limit: 20, total: 2 });
    const finished = await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}&status=COMPLETED`);
    expect(finished.body.data.map((b: { uuid: string }) => b.uuid)).toEqual([done]);
    const either = await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}&status=COMPLETED,FAILED`);
    expect(either.body.pagination.total).toBe(2);
    const paged = await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}&limit=1&offset=1`);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.data[0].name).toBe("second");
  });

  it("requires virtualDeviceUuid and refuses bad statuses and unseen devices", async () => {
    expect((await t.call("GET", "/ne/v1/deviceBackups")).body).toMatchObject({ errorCode: "EQ-2012011", property: "virtualDeviceUuid" });
    const device = seedDevice(t);
    expect((await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}&status=DONE`)).body).toMatchObject({ errorCode: "EQ-2012025", property: "status" });
    expect((await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}&bogus=1`)).body).toMatchObject({ errorCode: "EQ-2014010", property: "bogus" });
    const unseen = await t.call("GET", `/ne/v1/deviceBackups?virtualDeviceUuid=${device}`, { client: "limited" });
    expect(unseen.status).toBe(400);
    expect(unseen.body).toMatchObject({ errorCode: "EQ-2012010", property: "virtualDeviceUuid" });
  });

  it("answers 404 for an unknown backup or one of another project", async () => {
    const uuid = await backup(seedDevice(t));
    expect((await t.call("GET", `/ne/v1/deviceBackups/${uuid}`, { client: "limited" })).status).toBe(404);
    const res = await t.call("GET", "/ne/v1/deviceBackups/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(res.body.property).toBe("uuid");
  });
});

describe("PATCH and DELETE /ne/v1/deviceBackups/{uuid}", () => {
  it("renames a backup", async () => {
    const uuid = await backup(seedDevice(t));
    expect((await t.call("PATCH", `/ne/v1/deviceBackups/${uuid}`, { body: { name: "renamed" } })).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/deviceBackups/${uuid}`)).body.name).toBe("renamed");
    expect((await t.call("PATCH", `/ne/v1/deviceBackups/${uuid}`, { body: {} })).body).toMatchObject({ errorCode: "EQ-2012011", property: "name" });
  });

  it("deletes only COMPLETED or FAILED backups", async () => {
    // At the slow pace: at the usual one a backup runs for 60 ms, and a loaded machine may let it finish before the refusal is asked for.
    const device = seedDevice(slow);
    const pending = await backup(device, "nightly", slow);
    const early = await slow.call("DELETE", `/ne/v1/deviceBackups/${pending}`);
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ errorCode: "EQ-2010010", property: "uuid" });
    await slow.waitFor(`/ne/v1/deviceBackups/${pending}`, "/status", "COMPLETED");
    const res = await slow.call("DELETE", `/ne/v1/deviceBackups/${pending}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await slow.call("GET", `/ne/v1/deviceBackups/${pending}`)).status).toBe(404);
    expect((await slow.call("DELETE", `/ne/v1/deviceBackups/${pending}`)).status).toBe(404);
  });
});

describe("GET /ne/v1/deviceBackups/{uuid}/download", () => {
  it("downloads a configuration backup as text", async () => {
    const device = seedDevice(t);
    seedVpn(device);
    const uuid = await completed(device);
    const res = await t.call("GET", `/ne/v1/deviceBackups/${uuid}/download`);
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/^Building configuration/);
    expect(res.body).toMatch(/Current configuration : \d+ bytes/);
    expect(res.body).toContain("neighbor 10.0.0.2 remote-as 65002");
  });

  it("refuses image snapshots and unfinished backups", async () => {
    const snapshot = await completed(selfConfigured());
    const res = await t.call("GET", `/ne/v1/deviceBackups/${snapshot}/download`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: "EQ-2010010", property: "uuid" });
    expect(res.body.errorMessage).toMatch(/image snapshot/);
    // A backup still running, at the slow pace (a minute of backup is 60 ms at the usual one).
    const pending = await backup(seedDevice(slow), "nightly", slow);
    expect((await slow.call("GET", `/ne/v1/deviceBackups/${pending}/download`)).status).toBe(400);
  });
});

describe("restore analysis and restore", () => {
  it("allows a restore when nothing changed since the backup", async () => {
    const device = seedDevice(t);
    const vpn = seedVpn(device);
    const uuid = await completed(device);
    const res = await t.call("GET", `/ne/v1/devices/${device}/restoreAnalysis?backupUuid=${uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ restoreAllowed: true, restoreAllowedAfterDeleteOrEdit: true, deviceBackup: { deviceBackup: { uuid, status: "COMPLETED", deleteAllowed: true } } });
    expect(Object.keys(res.body.services).sort()).toEqual(["ACL", "BGP", "BYOC", "DEVICE_LINKING", "L2_CONNECTION", "L3_CONNECTION", "LICENSE", "VPN"]);
    expect(res.body.services.VPN).toEqual([
      expect.objectContaining({ operationNeededToPerform: "NONE", restorable: true, serviceDetails: expect.objectContaining({ uuid: vpn, serviceId: vpn, serviceName: "to-branch" }) }),
    ]);
    expect(res.body.services.VPN[0].serviceDetails.data.password).toBeUndefined();

    expect((await t.call("PATCH", `/ne/v1/devices/${device}/restore`, { body: { backupUuid: uuid } })).status).toBe(204);
    const during = (await t.call("GET", `/ne/v1/deviceBackups/${uuid}`)).body;
    expect(during.restores).toEqual([expect.objectContaining({ status: "PROCESSING", createdBy: "demo-user" })]);
    const second = await t.call("PATCH", `/ne/v1/devices/${device}/restore`, { body: { backupUuid: uuid } });
    expect(second.body).toMatchObject({ errorCode: "EQ-2010010", property: "backupUuid" });
    await t.waitFor(`/ne/v1/deviceBackups/${uuid}`, "/restores/0/status", "COMPLETED");
  });

  it("asks to delete services added since the backup and marks removed ones unsupported", async () => {
    const device = seedDevice(t);
    const removed = seedVpn(device, "removed later");
    const uuid = await completed(device);
    const added = seedVpn(device, "added later");
    t.sim.world.remove(t.sim.world.get(removed)!);
    const connection = t.sim.world.uuid();
    t.sim.world.create(
      "connections",
      { uuid: connection, name: "to cloud", state: "PROVISIONED", aSide: { accessPoint: { type: "VD", virtualDevice: { uuid: device } } } },
      { uuid: connection, projectId: PROJECTS.production.projectId },
    );
    const res = await t.call("GET", `/ne/v1/devices/${device}/restoreAnalysis?backupUuid=${uuid}`);
    expect(res.body.restoreAllowed).toBe(false);
    expect(res.body.restoreAllowedAfterDeleteOrEdit).toBe(false);
    const ops = Object.fromEntries(res.body.services.VPN.map((e: { serviceDetails: { uuid: string }; operationNeededToPerform: string }) => [e.serviceDetails.uuid, e.operationNeededToPerform]));
    expect(ops).toEqual({ [added]: "DELETE", [removed]: "UNSUPPORTED" });
    expect(res.body.services.L2_CONNECTION).toEqual([expect.objectContaining({ operationNeededToPerform: "DELETE", restorable: false })]);
    const refused = await t.call("PATCH", `/ne/v1/devices/${device}/restore`, { body: { backupUuid: uuid } });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toMatch(/UNSUPPORTED/);
  });

  it("is restorable after deleting what was added", async () => {
    const device = seedDevice(t);
    const uuid = await completed(device);
    const added = seedVpn(device);
    const before = (await t.call("GET", `/ne/v1/devices/${device}/restoreAnalysis?backupUuid=${uuid}`)).body;
    expect(before).toMatchObject({ restoreAllowed: false, restoreAllowedAfterDeleteOrEdit: true });
    t.sim.world.remove(t.sim.world.get(added)!);
    expect((await t.call("GET", `/ne/v1/devices/${device}/restoreAnalysis?backupUuid=${uuid}`)).body.restoreAllowed).toBe(true);
  });

  it("validates the device and the backup", async () => {
    const device = seedDevice(t);
    const uuid = await backup(device);
    const base = `/ne/v1/devices/${device}/restoreAnalysis`;
    expect((await t.call("GET", base)).body).toMatchObject({ errorCode: "EQ-2012011", property: "backupUuid" });
    // A backup still running is refused: read at the slow pace, as a minute is 60 ms at the usual one.
    const running = seedDevice(slow);
    const started = await backup(running, "nightly", slow);
    expect((await slow.call("GET", `/ne/v1/devices/${running}/restoreAnalysis?backupUuid=${started}`)).body).toMatchObject({ errorCode: "EQ-2010010", property: "backupUuid" });
    const otherDevice = await completed(seedDevice(t));
    expect((await t.call("GET", `${base}?backupUuid=${otherDevice}`)).body).toMatchObject({ errorCode: "EQ-2012010", property: "backupUuid" });
    expect((await t.call("GET", `/ne/v1/devices/00000000-0000-4000-8000-000000000000/restoreAnalysis?backupUuid=${uuid}`)).status).toBe(404);
    expect((await t.call("GET", `${base}?backupUuid=${uuid}`, { client: "limited" })).status).toBe(404);
    expect((await t.call("PATCH", `/ne/v1/devices/${device}/restore`, { body: {} })).body).toMatchObject({ errorCode: "EQ-2012011", property: "backupUuid" });
  });
});
