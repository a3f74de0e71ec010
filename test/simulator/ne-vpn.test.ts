import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const t = useSimulator();

function vpnBody(virtualDeviceUuid: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    siteName: "Chicago",
    virtualDeviceUuid,
    configName: "Traffic from AWS cloud",
    peerIp: "110.11.12.222",
    peerSharedKey: "5bb2424e888bd",
    remoteAsn: 65413,
    remoteIpAddress: "100.210.1.31",
    password: "pass123",
    localAsn: 65414,
    tunnelIp: "192.168.7.2/30",
    ...overrides,
  };
}

function tunnel(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    configName: "Secondary tunnel",
    peerIp: "110.11.12.223",
    peerSharedKey: "abc123def",
    remoteAsn: 65420,
    remoteIpAddress: "100.210.1.32",
    password: "pass456",
    localAsn: 65421,
    tunnelIp: "192.168.8.2/30",
    ...overrides,
  };
}

async function createVpn(body: Record<string, unknown>, client: "demo" | "limited" = "demo"): Promise<string> {
  const res = await t.call("POST", "/ne/v1/vpn", { body, client });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

/** A redundant pair of provisioned devices; returns [primary, secondary]. */
function seedPair(sim: TestSim): [string, string] {
  const primary = seedDevice(sim);
  const secondary = seedDevice(sim, { redundancyType: "SECONDARY", redundantUuid: primary });
  sim.sim.world.edit(sim.sim.world.get(primary, "devices")!, (body) => (body.redundantUuid = secondary));
  return [primary, secondary];
}

async function expectProblem(method: string, path: string, body: unknown, status: number, code: string, property: string): Promise<void> {
  const res = await t.call(method, path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ errorCode: code, property, status: String(status) });
}

describe("POST /ne/v1/vpn", () => {
  it("creates a VPN that provisions on the clock with its tunnel and BGP session coming up", async () => {
    const device = seedDevice(t);
    const res = await t.call("POST", "/ne/v1/vpn", { body: vpnBody(device) });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/ne/v1/vpn/${res.body.uuid}`);
    const first = await t.call("GET", `/ne/v1/vpn/${res.body.uuid}`);
    expect(first.body).toMatchObject({ uuid: res.body.uuid, virtualDeviceUuid: device, createdBy: "demo-user" });
    expect(["PROVISIONING", "PROVISIONED"]).toContain(first.body.status);
    const done = await t.waitFor(`/ne/v1/vpn/${res.body.uuid}`, "/status", "PROVISIONED");
    expect(done).toMatchObject({
      siteName: "Chicago",
      configName: "Traffic from AWS cloud",
      peerIp: "110.11.12.222",
      peerSharedKey: "5bb2424e888bd",
      password: "pass123",
      remoteAsn: 65413,
      localAsn: 65414,
      tunnelIp: "192.168.7.2/30",
      bgpState: "Established",
      tunnelStatus: "UP",
      useNetworkServiceConnection: false,
      createdByEmail: "demo.user@example.com",
    });
    expect(done.createdDate).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("accepts ASNs given as numeric strings and a VPN without a BGP password", async () => {
    const device = seedDevice(t);
    const uuid = await createVpn(vpnBody(device, { remoteAsn: "65413", localAsn: "4200000000", password: undefined }));
    const vpn = (await t.call("GET", `/ne/v1/vpn/${uuid}`)).body;
    expect(vpn.remoteAsn).toBe(65413);
    expect(vpn.localAsn).toBe(4200000000);
    expect(vpn.password).toBeUndefined();
  });

  it("refuses a configName outside 3 to 50 characters", async () => {
    const device = seedDevice(t);
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { configName: "ab" }), 400, "EQ-2010010", "configName");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { configName: "x".repeat(51) }), 400, "EQ-2010010", "configName");
    await createVpn(vpnBody(device, { configName: "abc" }));
  });

  it("refuses reserved ASNs and equal remote and local ASNs", async () => {
    const device = seedDevice(t);
    for (const asn of [0, 23456, 64496, 64511, 65535, 65552, 131071, 4294967295]) {
      await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { remoteAsn: asn }), 400, "EQ-2010010", "remoteAsn");
      await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { localAsn: asn }), 400, "EQ-2010010", "localAsn");
    }
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { remoteAsn: 65000, localAsn: 65000 }), 400, "EQ-2010010", "remoteAsn");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { remoteAsn: "AS65000" }), 400, "EQ-2010010", "remoteAsn");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { remoteAsn: 4294967296 }), 400, "EQ-2010010", "remoteAsn");
    await createVpn(vpnBody(device, { remoteAsn: 64495, localAsn: 131072 }));
  });

  it("refuses BGP passwords that are not 4 to 25 alphanumerics starting with a letter", async () => {
    const device = seedDevice(t);
    for (const password of ["abc", "1abcd", "pass-word", "a".repeat(26), 42]) {
      await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { password }), 400, "EQ-2010010", "password");
    }
    await createVpn(vpnBody(device, { password: `a${"b".repeat(24)}` }));
  });

  it("refuses a tunnelIp that is not CIDR and peer addresses that are not IPv4", async () => {
    const device = seedDevice(t);
    for (const tunnelIp of ["192.168.7.2", "192.168.7.2/33", "300.1.1.1/30", "fe80::1/64"]) {
      await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { tunnelIp }), 400, "EQ-2010010", "tunnelIp");
    }
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { peerIp: "not-an-ip" }), 400, "EQ-2010010", "peerIp");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { remoteIpAddress: "1.2.3" }), 400, "EQ-2010010", "remoteIpAddress");
  });

  it("keeps peerIp unique per device", async () => {
    const device = seedDevice(t);
    const other = seedDevice(t);
    await createVpn(vpnBody(device));
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { configName: "second" }), 400, "EQ-2010010", "peerIp");
    await createVpn(vpnBody(other));
    await createVpn(vpnBody(device, { peerIp: "110.11.12.250" }));
  });

  it("names every missing required field", async () => {
    const device = seedDevice(t);
    for (const field of ["virtualDeviceUuid", "siteName", "configName", "peerIp", "peerSharedKey", "remoteAsn", "remoteIpAddress", "localAsn", "tunnelIp"]) {
      await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { [field]: undefined }), 400, "EQ-2012011", field);
    }
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { peerSharedKey: 5 }), 400, "EQ-2010010", "peerSharedKey");
  });

  it("allows useNetworkServiceConnection only when the device has a network service connection", async () => {
    const device = seedDevice(t);
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { useNetworkServiceConnection: true }), 400, "EQ-2010010", "useNetworkServiceConnection");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { useNetworkServiceConnection: "yes" }), 400, "EQ-2010010", "useNetworkServiceConnection");
    const uuid = t.sim.world.uuid();
    t.sim.world.create(
      "connections",
      { uuid, state: "PROVISIONED", aSide: { accessPoint: { type: "VD", virtualDevice: { uuid: device } } }, project: { projectId: PROJECTS.production.projectId } },
      { uuid, projectId: PROJECTS.production.projectId },
    );
    const vpn = await createVpn(vpnBody(device, { useNetworkServiceConnection: true }));
    expect((await t.call("GET", `/ne/v1/vpn/${vpn}`)).body.useNetworkServiceConnection).toBe(true);
  });

  it("requires a secondary configuration for a redundant device, validated like the primary", async () => {
    const [primary, secondaryDevice] = seedPair(t);
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary), 400, "EQ-2012011", "secondary");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { secondary: tunnel({ configName: undefined }) }), 400, "EQ-2012011", "secondary.configName");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { secondary: tunnel({ remoteAsn: 23456 }) }), 400, "EQ-2010010", "secondary.remoteAsn");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { secondary: tunnel({ password: "9lives" }) }), 400, "EQ-2010010", "secondary.password");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { secondary: "no" }), 400, "EQ-2010010", "secondary");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(secondaryDevice, { secondary: tunnel() }), 400, "EQ-2010010", "virtualDeviceUuid");
    const uuid = await createVpn(vpnBody(primary, { secondary: tunnel() }));
    const done = await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    expect(done.secondary).toMatchObject({ configName: "Secondary tunnel", virtualDeviceUuid: secondaryDevice, tunnelStatus: "UP", bgpState: "Established" });
    // VpnResponse (2.7) carries the primary's secrets, and documents no secondary at all: not its secrets.
    expect(done).toMatchObject({ peerSharedKey: "5bb2424e888bd", password: "pass123" });
    expect(done.secondary).not.toHaveProperty("peerSharedKey");
    expect(done.secondary).not.toHaveProperty("password");
    const listed = (await t.call("GET", `/ne/v1/vpn?virtualDeviceUuid=${primary}`)).body.data[0];
    expect(listed.secondary).not.toHaveProperty("peerSharedKey");
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { peerIp: "1.1.1.1", secondary: tunnel() }), 400, "EQ-2010010", "secondary.peerIp");
  });

  it("refuses a secondary configuration for a single device", async () => {
    const device = seedDevice(t);
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(device, { secondary: tunnel() }), 400, "EQ-2010010", "secondary");
  });

  it("needs a visible, PROVISIONED device (and a PROVISIONED redundant peer)", async () => {
    await expectProblem("POST", "/ne/v1/vpn", vpnBody("00000000-0000-4000-8000-000000000000"), 404, "VPN_DEVICE_NOT_FOUND", "virtualDeviceUuid");
    const provisioning = seedDevice(t, { status: "PROVISIONING" });
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(provisioning), 400, "VPN_DEVICE_NOT_IN_READY_STATE", "virtualDeviceUuid");
    const primary = seedDevice(t);
    const peer = seedDevice(t, { redundancyType: "SECONDARY", redundantUuid: primary, status: "PROVISIONING" });
    t.sim.world.edit(t.sim.world.get(primary, "devices")!, (body) => (body.redundantUuid = peer));
    await expectProblem("POST", "/ne/v1/vpn", vpnBody(primary, { secondary: tunnel() }), 400, "VPN_DEVICE_NOT_IN_READY_STATE", "secondary");
    const production = seedDevice(t);
    const res = await t.call("POST", "/ne/v1/vpn", { body: vpnBody(production), client: "limited" });
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe("VPN_DEVICE_NOT_FOUND");
  });

  it("answers malformed bodies with 400 and other content types with 415", async () => {
    const malformed = await t.call("POST", "/ne/v1/vpn", { raw: "{oops", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.property).toBe("body");
    const array = await t.call("POST", "/ne/v1/vpn", { body: [1] });
    expect(array.status).toBe(400);
    const text = await t.call("POST", "/ne/v1/vpn", { raw: "hello", contentType: "text/plain" });
    expect(text.status).toBe(415);
  });

  it("ends in FAILED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "vpns", count: 1 } } });
    const uuid = await createVpn(vpnBody(seedDevice(t)));
    const failed = await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "FAILED");
    expect(failed).toMatchObject({ tunnelStatus: "DOWN", bgpState: "Idle" });
  });
});

describe("GET /ne/v1/vpn", () => {
  it("lists the caller's VPNs with filters and pagination", async () => {
    const a = seedDevice(t);
    const b = seedDevice(t);
    const sandbox = seedDevice(t, { projectId: PROJECTS.sandbox.projectId });
    const first = await createVpn(vpnBody(a));
    await createVpn(vpnBody(a, { peerIp: "110.11.12.1" }));
    await createVpn(vpnBody(b));
    const mine = await createVpn(vpnBody(sandbox), "limited");

    const all = await t.call("GET", "/ne/v1/vpn");
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ offset: 0, limit: 20, total: 4 });
    const byDevice = await t.call("GET", `/ne/v1/vpn?virtualDeviceUuid=${a}&limit=1&offset=1`);
    expect(byDevice.body.pagination).toEqual({ offset: 1, limit: 1, total: 2 });
    expect(byDevice.body.data).toHaveLength(1);

    const limited = await t.call("GET", "/ne/v1/vpn", { client: "limited" });
    expect(limited.body.data.map((v: { uuid: string }) => v.uuid)).toEqual([mine]);
    expect((await t.call("GET", `/ne/v1/vpn/${first}`, { client: "limited" })).status).toBe(404);

    await t.waitFor(`/ne/v1/vpn/${first}`, "/status", "PROVISIONED");
    const provisioned = await t.call("GET", "/ne/v1/vpn?statusList=PROVISIONED");
    expect(provisioned.body.data.map((v: { uuid: string }) => v.uuid)).toContain(first);
    const both = await t.call("GET", "/ne/v1/vpn?statusList=PROVISIONED&statusList=PROVISIONING");
    expect(both.body.pagination.total).toBe(4);
    const comma = await t.call("GET", "/ne/v1/vpn?statusList=PROVISIONED,PROVISIONING");
    expect(comma.body.pagination.total).toBe(4);
  });

  it("refuses unknown statuses, unknown parameters and out-of-range pages", async () => {
    const bad = await t.call("GET", "/ne/v1/vpn?statusList=ACTIVE");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: "EQ-2012025", property: "statusList" });
    const unknown = await t.call("GET", "/ne/v1/vpn?status=PROVISIONED");
    expect(unknown.body).toMatchObject({ errorCode: "EQ-2014010", property: "status" });
    expect((await t.call("GET", "/ne/v1/vpn?limit=0")).body.property).toBe("limit");
    expect((await t.call("GET", "/ne/v1/vpn?offset=x")).status).toBe(400);
  });

  it("answers 404 for an unknown VPN", async () => {
    const res = await t.call("GET", "/ne/v1/vpn/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: "VPN_CONFIG_NOT_FOUND", property: "uuid", status: "404" });
  });
});

describe("PUT /ne/v1/vpn/{uuid}", () => {
  it("accepts an update with 202 and re-provisions with the new settings", async () => {
    const device = seedDevice(t);
    const uuid = await createVpn(vpnBody(device));
    await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    const body = { ...vpnBody(device, { configName: "Renamed tunnel", remoteAsn: 65500, password: undefined }), useNetworkServiceConnection: false };
    const res = await t.call("PUT", `/ne/v1/vpn/${uuid}`, { body });
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    const during = (await t.call("GET", `/ne/v1/vpn/${uuid}`)).body;
    expect(during).toMatchObject({ configName: "Renamed tunnel", remoteAsn: 65500, password: "pass123" });
    const done = await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    expect(done).toMatchObject({ bgpState: "Established", tunnelStatus: "UP", lastUpdatedBy: "demo-user" });
  });

  it("applies the rules of 4.7 to updates", async () => {
    const device = seedDevice(t);
    const uuid = await createVpn(vpnBody(device));
    await createVpn(vpnBody(device, { peerIp: "9.9.9.9" }));
    const base = { ...vpnBody(device), useNetworkServiceConnection: false };
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, useNetworkServiceConnection: undefined }, 400, "EQ-2012011", "useNetworkServiceConnection");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, useNetworkServiceConnection: true }, 400, "EQ-2010010", "useNetworkServiceConnection");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, configName: "no" }, 400, "EQ-2010010", "configName");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, peerIp: "9.9.9.9" }, 400, "EQ-2010010", "peerIp");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, localAsn: 65535 }, 400, "EQ-2010010", "localAsn");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, password: "12345" }, 400, "EQ-2010010", "password");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, tunnelIp: "10.0.0.1" }, 400, "EQ-2010010", "tunnelIp");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...base, virtualDeviceUuid: seedDevice(t) }, 400, "EQ-2010010", "virtualDeviceUuid");
    await expectProblem("PUT", "/ne/v1/vpn/00000000-0000-4000-8000-000000000000", base, 404, "VPN_CONFIG_NOT_FOUND", "uuid");
    expect((await t.call("PUT", `/ne/v1/vpn/${uuid}`, { body: { ...base, peerIp: "110.11.12.222" } })).status).toBe(202);
  });

  it("keeps the secondary rules on update of a redundant device's VPN", async () => {
    const [primary] = seedPair(t);
    const uuid = await createVpn(vpnBody(primary, { secondary: tunnel() }));
    const base = { ...vpnBody(primary), useNetworkServiceConnection: false };
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, base, 400, "EQ-2012011", "secondary");
    const res = await t.call("PUT", `/ne/v1/vpn/${uuid}`, { body: { ...base, secondary: tunnel({ configName: "Secondary renamed" }) } });
    expect(res.status).toBe(202);
    const done = await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    expect(done.secondary.configName).toBe("Secondary renamed");
  });
});

describe("DELETE /ne/v1/vpn/{uuid}", () => {
  it("accepts the deletion with 202 and deprovisions on the clock", async () => {
    const device = seedDevice(t);
    const uuid = await createVpn(vpnBody(device));
    await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    const res = await t.call("DELETE", `/ne/v1/vpn/${uuid}`);
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    const gone = await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "DEPROVISIONED");
    expect(gone).toMatchObject({ tunnelStatus: "DOWN", bgpState: "Idle", lastUpdatedBy: "demo-user" });
    expect((await t.call("GET", "/ne/v1/vpn")).body.data).toEqual([]);
    expect((await t.call("GET", "/ne/v1/vpn?statusList=DEPROVISIONED")).body.data.map((v: { uuid: string }) => v.uuid)).toEqual([uuid]);
    // The peer address is free again once the old VPN is gone.
    await createVpn(vpnBody(device));
  });

  it("refuses to delete or update a VPN that is already deleted", async () => {
    const device = seedDevice(t);
    const uuid = await createVpn(vpnBody(device));
    expect((await t.call("DELETE", `/ne/v1/vpn/${uuid}`)).status).toBe(202);
    await expectProblem("DELETE", `/ne/v1/vpn/${uuid}`, undefined, 400, "VPN_ALREADY_DELETED", "uuid");
    await expectProblem("PUT", `/ne/v1/vpn/${uuid}`, { ...vpnBody(device), useNetworkServiceConnection: false }, 400, "VPN_ALREADY_DELETED", "uuid");
  });

  it("answers 404 for a VPN of a project the caller cannot see", async () => {
    const uuid = await createVpn(vpnBody(seedDevice(t)));
    const res = await t.call("DELETE", `/ne/v1/vpn/${uuid}`, { client: "limited" });
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe("VPN_CONFIG_NOT_FOUND");
  });

  it("ends in FAILED when a deletion failure is injected", async () => {
    const uuid = await createVpn(vpnBody(seedDevice(t)));
    await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "PROVISIONED");
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "vpns", count: 1 } } });
    await t.call("DELETE", `/ne/v1/vpn/${uuid}`);
    await t.waitFor(`/ne/v1/vpn/${uuid}`, "/status", "FAILED");
  });
});
