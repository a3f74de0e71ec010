import { describe, expect, it } from "vitest";
import { ACCOUNTS, PROJECTS } from "../../src/simulator/index.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const PASSWORD = "s3cret-Pw";
/** A metro's status right after a setup began: the fast clock may have finished it already. */
const SETTING_UP = expect.toBeOneOf(["PENDING", "ACTIVE"]);

async function createUser(username: string, deviceUuid: string, client: "demo" | "limited" = "demo"): Promise<string> {
  const res = await t.call("POST", "/ne/v1/sshUsers", { body: { username, password: PASSWORD, deviceUuid }, client });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const location = res.headers.get("location")!;
  expect(location).toMatch(/^\/ne\/v1\/sshUsers\/[0-9a-f-]{36}$/);
  const uuid = location.split("/").pop()!;
  expect(res.body).toEqual({ uuid });
  return uuid;
}

const getUser = (uuid: string, client: "demo" | "limited" = "demo") => t.call("GET", `/ne/v1/sshUsers/${uuid}`, { client });
const associate = (user: string, device: string) => t.call("POST", `/ne/v1/sshUsers/${user}/devices/${device}`, { body: {} });
const dissociate = (user: string, device: string) => t.call("DELETE", `/ne/v1/sshUsers/${user}/devices/${device}`);

/** Polls a user until every metro it is in is ACTIVE. */
const active = (uuid: string) =>
  t.eventually(async () => {
    const body = (await getUser(uuid)).body;
    return Object.values(body.metroStatusMap as Record<string, { status: string }>).every((m) => m.status === "ACTIVE") ? body : undefined;
  }, `${uuid} ACTIVE`);

async function expectProblem(res: Awaited<ReturnType<typeof t.call>>, status: number, code: string, property: string): Promise<void> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ errorCode: code, property, status: String(status) });
}

describe("POST /ne/v1/sshUsers", () => {
  it("creates a user on a device, names it in Location, and sets it up in the device's metro", async () => {
    const device = seedDevice(t, { metroCode: "SV" });
    const uuid = await createUser("netops_1", device);
    const first = await getUser(uuid);
    expect(first.status).toBe(200);
    // At the tests' speed the setup may be over already; the service recorded it as PENDING, ACTIVE to come.
    expect(first.body).toEqual({ uuid, username: "netops_1", deviceUuids: [device], metroStatusMap: { SV: { status: SETTING_UP } } });
    const stored = t.sim.world.get(uuid, "sshUsers")!;
    expect(stored.body.metroStatusMap).toEqual({ SV: { status: "PENDING" } });
    expect(stored.phases.map((p) => p.set)).toEqual([{ "/metroStatusMap/SV": { status: "ACTIVE" } }]);
    expect(await active(uuid)).toEqual({ uuid, username: "netops_1", deviceUuids: [device], metroStatusMap: { SV: { status: "ACTIVE" } } });
    // The password is never in an answer.
    expect(JSON.stringify(await t.call("GET", "/ne/v1/sshUsers"))).not.toContain(PASSWORD);
  });

  it("ends the setup in FAILED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "sshUsers", count: 1 } } });
    const uuid = await createUser("netops", seedDevice(t));
    const failed = await t.eventually(async () => ((await getUser(uuid)).body.metroStatusMap.DC.status === "FAILED" ? true : undefined), "FAILED");
    expect(failed).toBe(true);
  });

  it("checks the username and password as the service's clients do", async () => {
    const device = seedDevice(t);
    const post = (body: Record<string, unknown>) => t.call("POST", "/ne/v1/sshUsers", { body });
    await expectProblem(await post({ password: PASSWORD, deviceUuid: device }), 400, "EQ-2012011", "username");
    await expectProblem(await post({ username: "ab", password: PASSWORD, deviceUuid: device }), 400, "EQ-2010010", "username");
    await expectProblem(await post({ username: "a".repeat(33), password: PASSWORD, deviceUuid: device }), 400, "EQ-2010010", "username");
    await expectProblem(await post({ username: "net ops", password: PASSWORD, deviceUuid: device }), 400, "EQ-2010010", "username");
    await expectProblem(await post({ username: "netops", deviceUuid: device }), 400, "EQ-2012011", "password");
    const short = await post({ username: "netops", password: "short7!", deviceUuid: device });
    await expectProblem(short, 400, "EQ-2010010", "password");
    expect(short.text).not.toContain("short7!");
    await expectProblem(await post({ username: "netops", password: "x".repeat(21), deviceUuid: device }), 400, "EQ-2010010", "password");
    await expectProblem(await post({ username: "netops", password: PASSWORD }), 400, "EQ-2012011", "deviceUuid");
    await expectProblem(await post({ username: "netops", password: PASSWORD, deviceUuid: device, role: "admin" }), 400, "EQ-2010010", "role");
    expect((await t.call("POST", "/ne/v1/sshUsers", { raw: "x", contentType: "text/plain" })).status).toBe(415);
  });

  it("refuses a device that does not exist, that the caller cannot see, or that is not provisioned", async () => {
    const post = (deviceUuid: string, client: "demo" | "limited" = "demo") => t.call("POST", "/ne/v1/sshUsers", { body: { username: "netops", password: PASSWORD, deviceUuid }, client });
    await expectProblem(await post("0a0a0a0a-0000-4000-8000-000000000000"), 400, "VIRTUAL_DEVICE_NOT_FOUND", "deviceUuid");
    await expectProblem(await post(seedDevice(t), "limited"), 400, "VIRTUAL_DEVICE_NOT_FOUND", "deviceUuid");
    await expectProblem(await post(seedDevice(t, { status: "PROVISIONING" })), 400, "SSH_USER_DEVICE_STATE_NOT_VALID", "deviceUuid");
    await expectProblem(await post(seedDevice(t, { status: "DEPROVISIONED" })), 400, "VIRTUAL_DEVICE_NOT_FOUND", "deviceUuid");
  });

  it("refuses a username that is taken", async () => {
    const device = seedDevice(t);
    await createUser("netops", device);
    const again = await t.call("POST", "/ne/v1/sshUsers", { body: { username: "netops", password: PASSWORD, deviceUuid: seedDevice(t) } });
    await expectProblem(again, 400, "SSH_USER_ALREADY_EXISTS", "username");
  });
});

describe("GET /ne/v1/sshUsers", () => {
  it("pages the caller's users and filters them by username, device and account", async () => {
    const [a, b] = [seedDevice(t), seedDevice(t, { metroCode: "SV" })];
    t.sim.world.edit(t.sim.world.get(a, "devices")!, (body) => (body.accountNumber = String(ACCOUNTS.main.accountNumber)));
    const first = await createUser("alpha", a);
    const second = await createUser("bravo", b);
    const third = await createUser("charlie", a);
    const hidden = await createUser("delta", seedDevice(t, { projectId: PROJECTS.sandbox.projectId }), "limited");

    const all = (await t.call("GET", "/ne/v1/sshUsers?verbose=true")).body;
    expect(all.pagination).toMatchObject({ offset: 0, limit: 20, total: 4 });
    expect(all.data.map((u: { uuid: string }) => u.uuid)).toEqual([first, second, third, hidden]);
    expect(all.data[1]).toEqual({ uuid: second, username: "bravo", deviceUuids: [b], metroStatusMap: { SV: { status: SETTING_UP } } });

    const page = (await t.call("GET", "/ne/v1/sshUsers?offset=1&limit=2")).body;
    expect(page.data.map((u: { uuid: string }) => u.uuid)).toEqual([second, third]);
    expect(page.pagination).toMatchObject({ offset: 1, limit: 2, total: 4, next: expect.stringContaining("offset=3"), previous: expect.stringContaining("offset=0") });

    expect((await t.call("GET", "/ne/v1/sshUsers?username=bravo")).body.data.map((u: { uuid: string }) => u.uuid)).toEqual([second]);
    expect((await t.call("GET", "/ne/v1/sshUsers?username=brav")).body.data).toEqual([]);
    expect((await t.call("GET", `/ne/v1/sshUsers?virtualDeviceUuid=${a}`)).body.data.map((u: { uuid: string }) => u.uuid)).toEqual([first, third]);
    expect((await t.call("GET", `/ne/v1/sshUsers?accountUcmId=${ACCOUNTS.main.ucmId}`)).body.data.map((u: { uuid: string }) => u.uuid)).toEqual([first, third]);
    expect((await t.call("GET", "/ne/v1/sshUsers", { client: "limited" })).body.data.map((u: { uuid: string }) => u.uuid)).toEqual([hidden]);
  });

  it("refuses unknown parameters, a bad page and an account that is not the caller's", async () => {
    await expectProblem(await t.call("GET", "/ne/v1/sshUsers?name=x"), 400, "EQ-2014010", "name");
    await expectProblem(await t.call("GET", "/ne/v1/sshUsers?limit=0"), 400, "EQ-2010010", "limit");
    await expectProblem(await t.call("GET", "/ne/v1/sshUsers?verbose=yes"), 400, "EQ-2014010", "verbose");
    await expectProblem(await t.call("GET", `/ne/v1/sshUsers?accountUcmId=${ACCOUNTS.main.ucmId}`, { client: "limited" }), 400, "EQ-2012010", "accountUcmId");
  });
});

describe("GET /ne/v1/sshUsers/{uuid}", () => {
  it("answers 404 for a user that does not exist or that the caller cannot see", async () => {
    await expectProblem(await getUser("0a0a0a0a-0000-4000-8000-000000000000"), 404, "RESOURCE_NOT_FOUND", "uuid");
    const user = await createUser("netops", seedDevice(t));
    await expectProblem(await getUser(user, "limited"), 404, "RESOURCE_NOT_FOUND", "uuid");
  });
});

describe("PUT /ne/v1/sshUsers/{uuid}", () => {
  it("changes the password, and checks it", async () => {
    const user = await createUser("netops", seedDevice(t));
    const res = await t.call("PUT", `/ne/v1/sshUsers/${user}`, { body: { password: "n3w-Password" } });
    expect(res.status, res.text).toBe(204);
    expect(t.sim.world.get(user, "sshUsers")!.meta.password).toBe("n3w-Password");
    await expectProblem(await t.call("PUT", `/ne/v1/sshUsers/${user}`, { body: { password: "short" } }), 400, "EQ-2010010", "password");
    await expectProblem(await t.call("PUT", `/ne/v1/sshUsers/${user}`, { body: {} }), 400, "EQ-2012011", "password");
    await expectProblem(await t.call("PUT", `/ne/v1/sshUsers/${user}`, { body: { password: "n3w-Password", username: "x" } }), 400, "EQ-2010010", "username");
    await expectProblem(await t.call("PUT", "/ne/v1/sshUsers/0a0a0a0a-0000-4000-8000-000000000000", { body: { password: "n3w-Password" } }), 404, "RESOURCE_NOT_FOUND", "uuid");
  });
});

describe("POST and DELETE /ne/v1/sshUsers/{uuid}/devices/{deviceUuid}", () => {
  it("associates more devices, sets the user up in a new metro only, and deletes the user with its last device", async () => {
    const [dc1, dc2, sv] = [seedDevice(t), seedDevice(t), seedDevice(t, { metroCode: "SV" })];
    const user = await createUser("netops", dc1);
    await active(user);

    const same = await associate(user, dc2);
    expect(same.status, same.text).toBe(201);
    expect((await getUser(user)).body).toMatchObject({ deviceUuids: [dc1, dc2], metroStatusMap: { DC: { status: "ACTIVE" } } });
    expect((await associate(user, sv)).status).toBe(201);
    expect((await getUser(user)).body.metroStatusMap).toEqual({ DC: { status: "ACTIVE" }, SV: { status: SETTING_UP } });
    expect((await active(user)).deviceUuids).toEqual([dc1, dc2, sv]);

    const first = await dissociate(user, dc1);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ sshUserToDeviceAssociationDeleted: true, sshUserDeleted: false });
    await dissociate(user, sv);
    expect((await getUser(user)).body).toEqual({ uuid: user, username: "netops", deviceUuids: [dc2], metroStatusMap: { DC: { status: "ACTIVE" } } });
    const last = await dissociate(user, dc2);
    expect(last.body).toEqual({ sshUserToDeviceAssociationDeleted: true, sshUserDeleted: true });
    expect((await getUser(user)).status).toBe(404);
    // The name is free again.
    await createUser("netops", dc1);
  });

  it("refuses unknown, unready or already associated devices, and unknown users", async () => {
    const device = seedDevice(t);
    const user = await createUser("netops", device);
    await expectProblem(await associate(user, "0a0a0a0a-0000-4000-8000-000000000000"), 404, "VIRTUAL_DEVICE_NOT_FOUND", "deviceUuid");
    const sandboxUser = await createUser("sandbox_ops", seedDevice(t, { projectId: PROJECTS.sandbox.projectId }), "limited");
    const unseen = await t.call("POST", `/ne/v1/sshUsers/${sandboxUser}/devices/${device}`, { body: {}, client: "limited" });
    await expectProblem(unseen, 404, "VIRTUAL_DEVICE_NOT_FOUND", "deviceUuid");
    await expectProblem(await associate(user, seedDevice(t, { status: "INITIALIZING" })), 400, "SSH_USER_DEVICE_STATE_NOT_VALID", "deviceUuid");
    await expectProblem(await associate(user, device), 400, "EQ-2010010", "deviceUuid");
    await expectProblem(await associate("0a0a0a0a-0000-4000-8000-000000000000", device), 404, "RESOURCE_NOT_FOUND", "sshUserUuid");
    await expectProblem(await dissociate(user, seedDevice(t)), 404, "RESOURCE_NOT_FOUND", "deviceUuid");
    await expectProblem(await dissociate("0a0a0a0a-0000-4000-8000-000000000000", device), 404, "RESOURCE_NOT_FOUND", "sshUserUuid");
  });

  it("takes the empty JSON body equinix/ne-go sends, and no body at all", async () => {
    const [a, b] = [seedDevice(t), seedDevice(t)];
    const user = await createUser("netops", a);
    expect((await t.call("POST", `/ne/v1/sshUsers/${user}/devices/${b}`, { raw: "{}", contentType: "application/json" })).status).toBe(201);
    expect((await t.call("DELETE", `/ne/v1/sshUsers/${user}/devices/${b}`)).status).toBe(200);
  });
});

describe("users and their devices", () => {
  it("leave with a deleted device, and go with the last one", async () => {
    const [a, b] = [seedDevice(t), seedDevice(t)];
    const user = await createUser("netops", a);
    await associate(user, b);
    t.sim.world.edit(t.sim.world.get(a, "devices")!, (body) => (body.status = "DEPROVISIONED"));
    expect((await getUser(user)).body.deviceUuids).toEqual([b]);
    await t.call("DELETE", `/__sim/objects/${b}`);
    expect((await getUser(user)).status).toBe(404);
    expect((await t.call("GET", "/ne/v1/sshUsers")).body.data).toEqual([]);
  });

  it("named in a device order appear in the API, on the device they were ordered for, one user for a name both devices of a pair take", async () => {
    const order = {
      deviceTypeCode: "C8000V",
      metroCode: "DC",
      packageCode: "network-essentials",
      version: "17.11.01a",
      licenseMode: "SUB",
      deviceManagementType: "PROVIDER-CONFIGURED",
      core: 2,
      notifications: ["netops@example.com"],
      accountNumber: 270848,
      virtualDeviceName: "edge-1",
      sshUsers: [{ sshUsername: "netops", sshPassword: "order-pass" }, { sshUsername: "audit", sshPassword: "order-pass" }],
      secondary: { metroCode: "SV", virtualDeviceName: "edge-1-sec", notifications: ["netops@example.com"], sshUsers: [{ sshUsername: "netops", sshPassword: "order-pass" }] },
    };
    const res = await t.call("POST", "/ne/v1/devices", { body: order });
    expect(res.status, res.text).toBe(202);
    const { uuid: primary, secondaryUuid: secondary } = res.body as { uuid: string; secondaryUuid: string };
    const users = async () => (await t.call("GET", "/ne/v1/sshUsers?verbose=true")).body.data as Array<{ username: string; deviceUuids: string[]; metroStatusMap: Record<string, { status: string }> }>;
    const made = await users();
    expect(made.map((u) => [u.username, u.deviceUuids])).toEqual([
      ["netops", [primary, secondary]],
      ["audit", [primary]],
    ]);
    // Set up once the devices are.
    expect(made[0]!.metroStatusMap).toEqual({ DC: { status: "PENDING" }, SV: { status: "PENDING" } });
    await t.waitFor(`/ne/v1/devices/${primary}`, "/status", "PROVISIONED");
    await t.waitFor(`/ne/v1/devices/${secondary}`, "/status", "PROVISIONED");
    expect((await users())[0]!.metroStatusMap).toEqual({ DC: { status: "ACTIVE" }, SV: { status: "ACTIVE" } });

    // A name already taken is refused with the order, before any device is made.
    const again = await t.call("POST", "/ne/v1/devices", { body: { ...order, virtualDeviceName: "edge-2", secondary: undefined } });
    await expectProblem(again, 400, "SSH_USER_ALREADY_EXISTS", "sshUsers[0].sshUsername");
    // REUSE puts an existing user on the new device.
    const netops = (await t.call("GET", "/ne/v1/sshUsers?username=netops")).body.data[0].uuid as string;
    const reused = await t.call("POST", "/ne/v1/devices", { body: { ...order, virtualDeviceName: "edge-3", secondary: undefined, sshUsers: [{ action: "REUSE", sshUserUuid: netops }] } });
    expect(reused.status, reused.text).toBe(202);
    expect((await getUser(netops)).body.deviceUuids).toEqual([primary, secondary, reused.body.uuid]);
    const unknown = await t.call("POST", "/ne/v1/devices", { body: { ...order, virtualDeviceName: "edge-4", secondary: undefined, sshUsers: [{ action: "REUSE", sshUserUuid: "0a0a0a0a-0000-4000-8000-000000000000" }] } });
    await expectProblem(unknown, 400, "EQ-2012010", "sshUsers[0].sshUserUuid");
  });
});
