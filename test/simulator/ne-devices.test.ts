import { beforeEach, describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { DURATIONS } from "../../src/simulator/network-edge/device-model.js";
import { seedAclTemplate } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";

const SPEED = 1000;
const t = useSimulator({ speed: SPEED });

/** The configuration documentation's example device, exactly as netform sends it. */
const EXAMPLE = {
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
  virtualDeviceName: "edge-1",
};

const FIREWALL = {
  deviceTypeCode: "PA-VM",
  metroCode: "DC",
  deviceManagementType: "SELF-CONFIGURED",
  licenseMode: "SUB",
  core: 2,
  virtualDeviceName: "fw-1",
  notifications: ["sec@example.com"],
};

async function create(body: object, client: "demo" | "limited" = "demo", query = "") {
  return t.call("POST", `/ne/v1/devices${query}`, { body, client });
}

async function provisioned(sim: TestSim, body: object): Promise<string> {
  const res = await sim.call("POST", "/ne/v1/devices", { body });
  expect(res.status).toBe(202);
  await sim.waitFor(`/ne/v1/devices/${res.body.uuid}`, "/status", "PROVISIONED");
  return res.body.uuid as string;
}

async function licenseFile(type: string, metro = "DC"): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob(["LICENSE"]), "device.lic");
  const res = await t.call("POST", `/ne/v1/devices/licenseFiles?metroCode=${metro}&deviceTypeCode=${type}&licenseType=BYOL`, { raw: form });
  return res.body.fileId as string;
}

/** The state events the simulator recorded for a device, in order: each at the time its clock set it. */
async function stateEvents(uuid: string): Promise<Array<{ state: string; time: number }>> {
  const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data as Array<{ assetUuid: string; type: string; state?: string; time: number }>;
  return events.filter((e) => e.assetUuid === uuid && e.type === "equinix.network_edge.device.state").map((e) => ({ state: e.state!, time: e.time }));
}

/** Statuses a device passes through, as seen by polling. */
async function statusesUntil(uuid: string, last: string): Promise<string[]> {
  const seen: string[] = [];
  await t.eventually(async () => {
    const status = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body.status as string;
    if (seen[seen.length - 1] !== status) seen.push(status);
    return status === last ? true : undefined;
  }, `${uuid} ${last}`);
  return seen;
}

describe("POST /ne/v1/devices", () => {
  it("accepts the configuration documentation's example and provisions it on the clock", async () => {
    const res = await create(EXAMPLE);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const first = await t.call("GET", `/ne/v1/devices/${res.body.uuid}`);
    expect(first.body).toMatchObject({
      uuid: res.body.uuid,
      name: "edge-1",
      licenseStatus: "APPLYING_LICENSE",
      deviceTypeCode: "C8000V",
      deviceTypeVendor: "Cisco",
      deviceTypeCategory: "ROUTER",
      metroCode: "DC",
      metroName: "Washington, D.C.",
      region: "AMER",
      packageCode: "network-essentials",
      version: "17.11.01a",
      licenseType: "SUB",
      deviceManagementType: "PROVIDER-CONFIGURED",
      core: { core: 2, memory: 8, unit: "GB", tier: 2 },
      throughput: 1,
      throughputUnit: "Gbps",
      additionalBandwidth: 15,
      termLength: "12",
      accountNumber: "270848",
      accountName: "Example Networks Inc",
      notifications: ["netops@example.com"],
      redundancyType: "PRIMARY",
      connectivity: "INTERNET-ACCESS",
      interfaceCount: 10,
      projectId: PROJECTS.production.projectId,
      createdBy: "demo-user",
      billingEnabled: false,
    });
    // At the tests' speed, INITIALIZING lasts 60 ms of real time.
    expect(first.body.status).toMatch(/^(INITIALIZING|PROVISIONING)$/);
    expect(first.body.sshIpAddress).toBeUndefined();
    expect(first.body.pricingDetails).toMatchObject({ termLength: "12", core: 2, packageCode: "network-essentials", additionalBandwidth: "15", primary: { currency: "USD" } });
    expect(first.body.interfaces[0]).toMatchObject({ id: 1, name: "GigabitEthernet1", type: "MGMT", status: "ASSIGNED", operationStatus: "DOWN" });
    const seen = await statusesUntil(res.body.uuid, "PROVISIONED");
    expect(seen).toEqual(expect.arrayContaining(["PROVISIONING", "PROVISIONED"]));
    const done = await t.call("GET", `/ne/v1/devices/${res.body.uuid}`);
    expect(done.body).toMatchObject({ licenseStatus: "REGISTERED", sshIpFqdnStatus: "ASSIGNED", billingEnabled: true });
    expect(done.body.sshIpAddress).toMatch(/^10\./);
    expect(done.body.interfaces[0].operationStatus).toBe("UP");
    expect(done.body.pricingDetails.primary.billingEnabled).toBe(true);
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { assetUuid: string }) => e.assetUuid === res.body.uuid);
    expect(events.map((e: { state: string }) => e.state)).toEqual(["INITIALIZING", "PROVISIONING", "PROVISIONED"]);
    expect(events[0]).toMatchObject({ type: "equinix.network_edge.device.state", subject: `/ne/v1/devices/${res.body.uuid}` });
  });

  it("passes through PROVISIONING", async () => {
    const res = await create(EXAMPLE);
    await t.waitFor(`/ne/v1/devices/${res.body.uuid}`, "/status", "PROVISIONING");
  });

  it("requires metroCode, virtualDeviceName, notifications, deviceManagementType, core and deviceTypeCode", async () => {
    for (const field of ["metroCode", "virtualDeviceName", "notifications", "deviceManagementType", "core", "deviceTypeCode"]) {
      const body: Record<string, unknown> = { ...EXAMPLE };
      delete body[field];
      const res = await create(body);
      expect(res.status, field).toBe(400);
      expect(res.body, field).toMatchObject({ errorCode: "EQ-2012011", property: field, status: "400" });
    }
  });

  it("applies defaults: licence mode, package, version, tier 2, 15 Mbps, caller's first account", async () => {
    const res = await create({ deviceTypeCode: "C8000V", metroCode: "SV", deviceManagementType: "PROVIDER-CONFIGURED", core: 4, virtualDeviceName: "edge-sv", notifications: ["a@example.com"] });
    expect(res.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(device).toMatchObject({ licenseType: "SUB", packageCode: "network-essentials", version: "17.11.01a", additionalBandwidth: 15, accountNumber: "270848", termLength: "1" });
    expect(device.core.tier).toBe(2);
  });

  it("enforces the name, notification, tier, bandwidth and term limits", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ virtualDeviceName: "ab" }, "virtualDeviceName"],
      [{ virtualDeviceName: "x".repeat(51) }, "virtualDeviceName"],
      [{ notifications: [] }, "notifications"],
      [{ notifications: ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io", "f@x.io"] }, "notifications"],
      [{ notifications: ["not-an-address"] }, "notifications[0]"],
      [{ notifications: "a@x.io" }, "notifications"],
      [{ tier: 4 }, "tier"],
      [{ tier: 3 }, "tier"],
      [{ additionalBandwidth: -1 }, "additionalBandwidth"],
      [{ additionalBandwidth: "15" }, "additionalBandwidth"],
      [{ termlength: 5 }, "termlength"],
      [{ termlength: 6 }, "termlength"],
      [{ licenseMode: "LEASE" }, "licenseMode"],
      [{ core: "2" }, "core"],
      [{ termLength: 12 }, "termLength"],
      [{ hostNamePrefix: "1host" }, "hostNamePrefix"],
      [{ agreeOrderTerms: false }, "agreeOrderTerms"],
      [{ ipType: "DHCP" }, "ipType"],
      [{ connectivity: "WIFI" }, "connectivity"],
      [{ interfaceCount: 12 }, "interfaceCount"],
    ];
    for (const [change, property] of cases) {
      const res = await create({ ...EXAMPLE, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.property, JSON.stringify(change)).toBe(property);
    }
    expect((await create({ ...EXAMPLE, virtualDeviceName: "x".repeat(50), tier: 0, notifications: ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io"] })).status).toBe(202);
  });

  it("validates the combination against the device-type catalogue", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ deviceTypeCode: "NOPE" }, "deviceTypeCode", "EQ-2012025"],
      [{ packageCode: "VM100" }, "packageCode", "EQ-2012025"],
      [{ packageCode: "network-premier" }, "packageCode", "EQ-2012025"],
      [{ version: "16.09.03" }, "version", "EQ-2012025"],
      [{ core: 3 }, "core", "EQ-2012025"],
      // 16 cores are offered self-configured only.
      [{ core: 16 }, "core", "EQ-2012025"],
      [{ metroCode: "ZH" }, "metroCode", "EQ-2012025"],
      [{ deviceManagementType: "CUSTOMER-CONFIGURED" }, "deviceManagementType", "EQ-2012025"],
      [{ throughput: 7, throughputUnit: "Gbps" }, "throughput", "EQ-2012025"],
    ];
    for (const [change, property, code] of cases) {
      const res = await create({ ...EXAMPLE, ...change });
      expect(res.body, JSON.stringify(change)).toMatchObject({ errorCode: code, property });
    }
    expect((await create({ ...EXAMPLE, packageCode: "network-advantage", deviceManagementType: "SELF-CONFIGURED", core: 16, termlength: 36 })).status).toBe(202);
    expect((await create({ ...FIREWALL, deviceManagementType: "PROVIDER-CONFIGURED" })).body.property).toBe("deviceManagementType");
    expect((await create({ ...FIREWALL, tier: 1 })).body.property).toBe("tier");
    expect((await create({ ...FIREWALL, metroCode: "HK" })).body.property).toBe("metroCode");
    const versa = { deviceTypeCode: "VERSA_SDWAN", metroCode: "DC", deviceManagementType: "PROVIDER-CONFIGURED", core: 2, virtualDeviceName: "sdwan-1", notifications: ["n@example.com"] };
    expect((await create({ ...versa, licenseMode: "SUB" })).body.property).toBe("licenseMode");
    expect((await create(versa)).body).toMatchObject({ errorCode: "EQ-2012011", property: "vendorConfig.localId" });
  });

  it("takes the management type and licence mode as the official client spells them, and answers in the specification's spelling", async () => {
    // equinix/ne-go sends EQUINIX-CONFIGURED and "Sub"; the specification writes PROVIDER-CONFIGURED and SUB.
    const res = await create({ ...EXAMPLE, deviceManagementType: "EQUINIX-CONFIGURED", licenseMode: "Sub" });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body).toMatchObject({ deviceManagementType: "PROVIDER-CONFIGURED", licenseType: "SUB" });
  });

  it("takes a numeric throughput on self-configured 8000-series devices instead of a tier", async () => {
    const res = await create({ ...EXAMPLE, deviceManagementType: "SELF-CONFIGURED", core: 4, throughput: 10, throughputUnit: "Gbps" });
    expect(res.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(device.core.tier).toBe(3);
    expect((await create({ ...EXAMPLE, deviceManagementType: "SELF-CONFIGURED", core: 4, throughput: 10, throughputUnit: "Gbps", tier: 3 })).body.property).toBe("throughput");
  });

  it("takes every throughput the catalogue offers for a provider-configured 8000-series package, each as its tier", async () => {
    const types = (await t.call("GET", "/ne/v1/deviceTypes?deviceTypeCode=C8000V")).body.data;
    const cores = types[0].deviceManagementTypes["PROVIDER-CONFIGURED"].licenseOptions.SUB.cores;
    const core = cores.find((c: { core: number }) => c.core === EXAMPLE.core);
    const offered = core.packageCodes.find((p: { packageCode: string }) => p.packageCode === EXAMPLE.packageCode).throughputs;
    expect(offered.length).toBeGreaterThan(0);
    for (const { throughput, throughputUnit } of offered) {
      const res = await create({ ...EXAMPLE, virtualDeviceName: `edge-${throughput}${throughputUnit}`, throughput: Number(throughput), throughputUnit });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect((await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body).toMatchObject({ throughput: Number(throughput), throughputUnit });
    }
  });

  it("requires the BYOL credentials of the type and checks uploaded files", async () => {
    const byolFirewall = { ...FIREWALL, licenseMode: "BYOL" };
    expect((await create(byolFirewall)).body).toMatchObject({ errorCode: "EQ-2012011", property: "licenseToken" });
    expect((await create({ ...byolFirewall, licenseToken: "short" })).body.property).toBe("licenseToken");
    expect((await create({ ...byolFirewall, licenseToken: "V7419162" })).status).toBe(202);
    const fortigate = { ...FIREWALL, deviceTypeCode: "FG-VM", licenseMode: "BYOL" };
    expect((await create(fortigate)).body.property).toBe("licenseFileId");
    expect((await create({ ...fortigate, licenseFileId: "2d732d49-7a00-4839-aeca-8a2ff89da691" })).body).toMatchObject({ errorCode: "EQ-2012010", property: "licenseFileId" });
    const fileId = await licenseFile("FG-VM");
    const ok = await create({ ...fortigate, licenseFileId: fileId });
    expect(ok.status).toBe(202);
    expect((await t.call("GET", `/ne/v1/devices/${ok.body.uuid}`)).body.licenseFileId).toBe(fileId);
    expect((await create({ ...EXAMPLE, licenseFileId: fileId })).body.property).toBe("licenseFileId");
    expect((await create({ ...EXAMPLE, cloudInitFileId: "nope" })).body).toMatchObject({ errorCode: "EQ-2012010", property: "cloudInitFileId" });
    expect((await create({ ...EXAMPLE, licenseMode: "BYOL" })).status).toBe(202);
  });

  it("checks the account and project against the caller", async () => {
    expect((await create({ ...EXAMPLE, accountNumber: 999999 })).body).toMatchObject({ errorCode: "EQ-2010010", property: "accountNumber" });
    expect((await create(EXAMPLE, "limited")).body.property).toBe("accountNumber");
    const forbidden = await create({ ...EXAMPLE, accountNumber: 270849, projectId: PROJECTS.production.projectId }, "limited");
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.property).toBe("projectId");
    const sandbox = await create({ ...EXAMPLE, accountNumber: "270849" }, "limited");
    expect(sandbox.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${sandbox.body.uuid}`, { client: "limited" })).body;
    expect(device).toMatchObject({ projectId: PROJECTS.sandbox.projectId, accountNumber: "270849" });
  });

  it("waits in PENDING_ACCOUNT when ordered against a pending account reference", async () => {
    const body: Record<string, unknown> = { ...EXAMPLE, accountReferenceId: "209809" };
    delete body.accountNumber;
    const res = await create(body);
    const first = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    // The wait lasts 120 ms of real time at the tests' speed: a loaded machine may read after it.
    if (first.status === "PENDING_ACCOUNT") expect(first.accountNumber).toBeUndefined();
    await statusesUntil(res.body.uuid, "PROVISIONED");
    // The states as the simulator's clock set them, whenever this test read: the wait, then the account.
    const events = await stateEvents(res.body.uuid);
    expect(events.map((e) => e.state)).toEqual(["PENDING_ACCOUNT", "INITIALIZING", "PROVISIONING", "PROVISIONED"]);
    expect(events[1]!.time - events[0]!.time).toBe(DURATIONS.accountActivation / SPEED);
    expect((await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body.accountNumber).toBe("270848");
  });

  it("creates a redundant pair: the secondary waits for its primary", async () => {
    const res = await create({ ...EXAMPLE, secondary: { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["netops@example.com"] } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ uuid: expect.any(String), secondaryUuid: expect.any(String) });
    const primary = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(primary).toMatchObject({ redundancyType: "PRIMARY", redundantUuid: res.body.secondaryUuid, plane: "PRIMARY" });
    expect(primary.pricingDetails.secondary.currency).toBe("USD");
    const secondary = (await t.call("GET", `/ne/v1/devices/${res.body.secondaryUuid}`)).body;
    expect(secondary).toMatchObject({ redundancyType: "SECONDARY", redundantUuid: res.body.uuid, metroCode: "NY", name: "edge-1-sec", version: "17.11.01a", accountNumber: "270848" });
    await Promise.all([statusesUntil(res.body.uuid, "PROVISIONED"), statusesUntil(res.body.secondaryUuid, "PROVISIONED")]);
    // As the clock set them: a poll can miss a wait of a few milliseconds at the tests' speed.
    expect((await stateEvents(res.body.secondaryUuid)).map((e) => e.state)).toContain("WAITING_FOR_PRIMARY");
    expect((await stateEvents(res.body.uuid)).map((e) => e.state)).toContain("WAITING_FOR_SECONDARY");
  });

  it("gives a pair's secondary its own user key where the order names one, else the primary's", async () => {
    // The seeded organisation's key is demo-key; a second key for the secondary.
    const value = (await t.call("GET", "/ne/v1/publicKeys")).body.find((k: { keyName: string }) => k.keyName === "demo-key").keyValue as string;
    expect((await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "second-key", keyValue: value } })).status).toBe(201);
    const pair = { ...EXAMPLE, userPublicKey: { username: "netops", keyName: "demo-key" } };
    const own = await create({ ...pair, secondary: { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["n@example.com"], userPublicKey: { username: "standby", keyName: "second-key" } } });
    expect(own.status, JSON.stringify(own.body)).toBe(202);
    expect((await t.call("GET", `/ne/v1/devices/${own.body.secondaryUuid}`)).body.userPublicKey).toMatchObject({ username: "standby", publicKeyName: "second-key" });
    expect((await t.call("GET", `/ne/v1/devices/${own.body.uuid}`)).body.userPublicKey).toMatchObject({ username: "netops", publicKeyName: "demo-key" });
    const inherited = await create({ ...pair, virtualDeviceName: "edge-2", secondary: { metroCode: "NY", virtualDeviceName: "edge-2-sec", notifications: ["n@example.com"] } });
    expect((await t.call("GET", `/ne/v1/devices/${inherited.body.secondaryUuid}`)).body.userPublicKey).toMatchObject({ username: "netops", publicKeyName: "demo-key" });
    const unknown = await create({ ...pair, virtualDeviceName: "edge-3", secondary: { metroCode: "NY", virtualDeviceName: "edge-3-sec", notifications: ["n@example.com"], userPublicKey: { username: "standby", keyName: "no-such-key" } } });
    expect(unknown.body).toMatchObject({ property: "secondary.userPublicKey.keyName" });
  });

  it("checks the secondary's own fields", async () => {
    const secondary = { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["n@example.com"] };
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, metroCode: "ZH" } })).body.property).toBe("secondary.metroCode");
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, notifications: [] } })).body.property).toBe("secondary.notifications");
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, virtualDeviceName: undefined } })).body.property).toBe("secondary.virtualDeviceName");
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, version: "17.12.02" } })).body.property).toBe("secondary.version");
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, core: 4 } })).body.property).toBe("secondary.core");
    expect((await create({ ...EXAMPLE, secondary: { ...secondary, accountNumber: "1" } })).body.property).toBe("secondary.accountNumber");
    expect((await create({ ...EXAMPLE, hostNamePrefix: "edge", secondary: { ...secondary, hostNamePrefix: "edge" } })).body.property).toBe("secondary.hostNamePrefix");
    const versaConfig = { localId: "a@example.com", remoteId: "ctl@example.com", controller1: "54.219.248.29", controller2: "54.177.220.115" };
    const versa = { deviceTypeCode: "VERSA_SDWAN", metroCode: "DC", deviceManagementType: "PROVIDER-CONFIGURED", core: 2, virtualDeviceName: "sdwan-1", notifications: ["n@example.com"], vendorConfig: versaConfig };
    const sameLocalId = await create({ ...versa, secondary: { ...secondary, metroCode: "SV", vendorConfig: { ...versaConfig, remoteId: "other@example.com" } } });
    expect(sameLocalId.body.property).toBe("secondary.vendorConfig.localId");
    const ok = await create({ ...versa, secondary: { ...secondary, metroCode: "SV", vendorConfig: { ...versaConfig, localId: "b@example.com", remoteId: "c@example.com" } } });
    expect(ok.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${ok.body.uuid}`)).body;
    expect(device).toMatchObject({ deviceTypeCategory: "SDWAN", localId: "a@example.com", controller1: "54.219.248.29", licenseType: "BYOL" });
  });

  it("takes a self-configured SD-WAN pair whose devices share one localId and remoteId", async () => {
    const vendorConfig = { localId: "branch@example.com", remoteId: "director@example.com", controller1: "54.219.248.29", controller2: "54.177.220.115" };
    const pair = {
      deviceTypeCode: "VERSA_SDWAN", metroCode: "DC", deviceManagementType: "SELF-CONFIGURED", licenseMode: "BYOL", packageCode: "FLEX_VNF_2", core: 2,
      virtualDeviceName: "sdwan-ha", notifications: ["n@example.com"], vendorConfig,
      secondary: { virtualDeviceName: "sdwan-ha-b", metroCode: "SV", notifications: ["n@example.com"], vendorConfig, purchaseOrderNumber: "PO-2", orderReference: "ref-2" },
      purchaseOrderNumber: "PO-1", orderReference: "ref-1", generateDefaultPassword: true,
    };
    const res = await create(pair);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body).toMatchObject({ localId: "branch@example.com", purchaseOrderNumber: "PO-1", orderReference: "ref-1" });
    expect((await t.call("GET", `/ne/v1/devices/${res.body.secondaryUuid}`)).body).toMatchObject({ localId: "branch@example.com", purchaseOrderNumber: "PO-2", orderReference: "ref-2" });
    expect((await create({ ...pair, virtualDeviceName: "sdwan-ha2", generateDefaultPassword: "yes" })).body.property).toBe("generateDefaultPassword");
  });

  it("creates a cluster that sets up its nodes", async () => {
    const fileA = await licenseFile("FG-VM");
    const fileB = await licenseFile("FG-VM");
    const res = await create({
      ...FIREWALL,
      deviceTypeCode: "FG-VM",
      licenseMode: "BYOL",
      clusterDetails: { clusterName: "fw-cluster", clusterNodeDetails: { node0: { licenseFileId: fileA, vendorConfig: { hostname: "fw-a" } }, node1: { licenseFileId: fileB } } },
    });
    expect(res.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(device.redundancyType).toBe("CLUSTER");
    expect(device.clusterDetails).toMatchObject({ clusterName: "fw-cluster", numOfNodes: 2 });
    expect(device.clusterDetails.nodes.map((n: { node: number }) => n.node)).toEqual([0, 1]);
    const seen = await statusesUntil(res.body.uuid, "PROVISIONED");
    expect(seen).toEqual(expect.arrayContaining(["WAITING_FOR_REPLICA_CLUSTER_NODES", "CLUSTER_SETUP_IN_PROGRESS", "PROVISIONED"]));
  });

  it("takes a cluster node's management settings, keeps its secrets out of the record, and refuses settings of the wrong type", async () => {
    const fmc = { managementType: "FMC", ipAddressType: "STATIC", ipAddress: "10.0.0.10", subnetMaskIp: "255.255.255.0", gatewayIp: "10.0.0.1", managementInterfaceId: "1", token: "reg-token-0", hostname: "fw-a", restApiSupportRequirement: true };
    const cluster = { clusterName: "fmc-cluster", clusterNodeDetails: { node0: { vendorConfig: fmc }, node1: { vendorConfig: { ...fmc, ipAddress: "10.0.0.11", token: "reg-token-1", hostname: "fw-b" } } } };
    const res = await create({ ...FIREWALL, clusterDetails: cluster });
    expect(res.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(device.clusterDetails.nodes.map((n: { hostName?: string }) => n.hostName)).toEqual(["fw-a", "fw-b"]);
    expect(JSON.stringify(device)).not.toContain("reg-token");
    const wrong = { ...cluster, clusterNodeDetails: { ...cluster.clusterNodeDetails, node0: { vendorConfig: { ...fmc, restApiSupportRequirement: "yes" } } } };
    expect((await create({ ...FIREWALL, clusterDetails: wrong })).body.property).toBe("clusterDetails.clusterNodeDetails.node0.vendorConfig.restApiSupportRequirement");
    const unknown = { ...cluster, clusterNodeDetails: { ...cluster.clusterNodeDetails, node1: { vendorConfig: { siteId: "1" } } } };
    expect((await create({ ...FIREWALL, clusterDetails: unknown })).body.property).toBe("clusterDetails.clusterNodeDetails.node1.vendorConfig.siteId");
  });

  it("refuses clusters the catalogue does not allow", async () => {
    const nodes = { node0: {}, node1: {} };
    const cluster = { clusterName: "c-1", clusterNodeDetails: nodes };
    expect((await create({ ...EXAMPLE, clusterDetails: cluster })).body.property).toBe("clusterDetails");
    expect((await create({ ...FIREWALL, metroCode: "TY", clusterDetails: cluster })).body.property).toBe("metroCode");
    expect((await create({ ...FIREWALL, clusterDetails: { clusterName: "c-1", clusterNodeDetails: { node0: {} } } })).body.property).toBe("clusterDetails.clusterNodeDetails.node1");
    expect((await create({ ...FIREWALL, clusterDetails: { clusterNodeDetails: nodes } })).body.property).toBe("clusterDetails.clusterName");
    expect((await create({ ...FIREWALL, clusterDetails: cluster, secondary: { metroCode: "NY", virtualDeviceName: "x-sec", notifications: ["a@b.io"] } })).body.property).toBe("secondary");
    expect((await create({ ...FIREWALL, licenseMode: "BYOL", clusterDetails: cluster })).body.property).toBe("clusterDetails.clusterNodeDetails.node0.licenseToken");
    expect((await create({ ...FIREWALL, clusterDetails: cluster })).status).toBe(202);
  });

  it("adds a secondary to an existing primary", async () => {
    const primaryUuid = await provisioned(t, EXAMPLE);
    const secondary = { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["n@example.com"], version: "17.12.02" };
    expect((await create({ ...EXAMPLE, primaryDeviceUuid: primaryUuid })).body).toMatchObject({ errorCode: "EQ-2012011", property: "secondary" });
    expect((await create({ ...EXAMPLE, primaryDeviceUuid: "0c5d0c8b-0000-4000-8000-000000000000", secondary })).body).toMatchObject({ errorCode: "EQ-2012010", property: "primaryDeviceUuid" });
    expect((await create({ ...FIREWALL, primaryDeviceUuid: primaryUuid, secondary })).body.property).toBe("deviceTypeCode");
    const res = await create({ ...EXAMPLE, primaryDeviceUuid: primaryUuid, secondary });
    expect(res.status).toBe(202);
    expect(res.body.uuid).toBe(primaryUuid);
    expect((await t.call("GET", `/ne/v1/devices/${primaryUuid}`)).body.redundantUuid).toBe(res.body.secondaryUuid);
    const sec = await t.waitFor(`/ne/v1/devices/${res.body.secondaryUuid}`, "/status", "PROVISIONED");
    expect(sec).toMatchObject({ redundancyType: "SECONDARY", version: "17.12.02", redundantUuid: primaryUuid });
    expect((await create({ ...EXAMPLE, primaryDeviceUuid: primaryUuid, secondary })).body.property).toBe("primaryDeviceUuid");
  });

  it("places a device diverse from another and names it", async () => {
    const other = await provisioned(t, EXAMPLE);
    const res = await create({ ...EXAMPLE, virtualDeviceName: "edge-2", diverseFromDeviceUuid: other });
    const device = (await t.call("GET", `/ne/v1/devices/${res.body.uuid}`)).body;
    expect(device).toMatchObject({ diverseFromDeviceUuid: other, diverseFromDeviceName: "edge-1", ibx: "DC2" });
    expect((await create({ ...EXAMPLE, diverseFromDeviceUuid: "nope" })).body).toMatchObject({ errorCode: "EQ-2012010", property: "diverseFromDeviceUuid" });
    const pair = await create({ ...EXAMPLE, diverseFromDeviceUuid: other, secondary: { metroCode: "NY", virtualDeviceName: "edge-2-sec", notifications: ["a@b.io"] } });
    expect(pair.body.property).toBe("diverseFromDeviceUuid");
  });

  it("ends in FAILED when a transition failure is injected, and the secondary fails with its primary", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "devices", count: 1 } } });
    const res = await create({ ...EXAMPLE, secondary: { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["a@b.io"] } });
    const primary = await t.waitFor(`/ne/v1/devices/${res.body.uuid}`, "/status", "FAILED");
    expect(primary.licenseStatus).toBe("REGISTRATION_FAILED");
    await t.waitFor(`/ne/v1/devices/${res.body.secondaryUuid}`, "/status", "FAILED");
    const next = await create(EXAMPLE);
    await t.waitFor(`/ne/v1/devices/${next.body.uuid}`, "/status", "PROVISIONED");
  });

  it("fails cluster set-up with CLUSTER_SETUP_FAILED", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "devices", count: 1 } } });
    const res = await create({ ...FIREWALL, clusterDetails: { clusterName: "c-1", clusterNodeDetails: { node0: {}, node1: {} } } });
    await t.waitFor(`/ne/v1/devices/${res.body.uuid}`, "/status", "CLUSTER_SETUP_FAILED");
  });

  it("answers malformed bodies with 400 and the wrong content type with 415", async () => {
    const malformed = await t.call("POST", "/ne/v1/devices", { raw: "{nope", contentType: "application/json" });
    expect(malformed.body).toMatchObject({ errorCode: "EQ-3046116", property: "body" });
    expect((await t.call("POST", "/ne/v1/devices", { raw: "x", contentType: "text/plain" })).status).toBe(415);
    expect((await t.call("POST", "/ne/v1/devices", { body: [EXAMPLE] })).body.property).toBe("body");
    expect((await t.call("POST", "/ne/v1/devices", { body: { ...EXAMPLE, vendorConfig: "x" } })).body.property).toBe("vendorConfig");
    expect((await t.call("POST", "/ne/v1/devices", { body: { ...EXAMPLE, sshUsers: [{ sshUsername: "x", sshPassword: "secret1" }] } })).body.property).toBe("sshUsers[0].sshUsername");
    expect((await t.call("POST", "/ne/v1/devices", { body: { ...EXAMPLE, aclDetails: [{ interfaceType: "LAN", uuid: "a" }] } })).body.property).toBe("aclDetails[0].interfaceType");
    expect((await t.call("POST", "/ne/v1/devices?dryRun=true", { body: EXAMPLE })).body.property).toBe("dryRun");
  });
});

describe("drafts", () => {
  it("saves, lists, updates, orders and deletes drafts", async () => {
    const draft = await create({ virtualDeviceName: "later", deviceTypeCode: "C8000V", metroCode: "DC" }, "demo", "?draft=true");
    expect(draft.status).toBe(202);
    const saved = (await t.call("GET", `/ne/v1/devices/${draft.body.uuid}`)).body;
    expect(saved).toMatchObject({ status: "DRAFT", name: "later", deviceTypeCode: "C8000V", metroName: "Washington, D.C." });
    const plain = (await t.call("GET", "/ne/v1/devices")).body.data.map((d: { uuid: string }) => d.uuid);
    expect(plain).not.toContain(draft.body.uuid);
    const drafts = (await t.call("GET", "/ne/v1/devices?status=DRAFT")).body.data.map((d: { uuid: string }) => d.uuid);
    expect(drafts).toEqual([draft.body.uuid]);
    expect((await create({ deviceTypeCode: "C8000V" }, "demo", "?draft=true")).body.property).toBe("virtualDeviceName");
    expect((await create({ virtualDeviceName: "xyz", metroCode: "ZH", deviceTypeCode: "C8000V" }, "demo", "?draft=true")).body.property).toBe("metroCode");
    const put = await t.call("PUT", `/ne/v1/devices/${draft.body.uuid}?draft=true`, { body: { virtualDeviceName: "later-2", metroCode: "SV", deviceTypeCode: "C8000V" } });
    expect(put.status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${draft.body.uuid}`)).body).toMatchObject({ name: "later-2", metroCode: "SV", status: "DRAFT" });
    expect((await t.call("PUT", `/ne/v1/devices/${draft.body.uuid}`, { body: { virtualDeviceName: "x-1" } })).body.property).toBe("draft");
    expect((await t.call("PATCH", `/ne/v1/devices/${draft.body.uuid}`, { body: { virtualDeviceName: "x-1" } })).body.property).toBe("uuid");
    const ordered = await create(EXAMPLE, "demo", `?draftUuid=${draft.body.uuid}`);
    expect(ordered.body.uuid).toBe(draft.body.uuid);
    await t.waitFor(`/ne/v1/devices/${draft.body.uuid}`, "/status", "PROVISIONED");
    expect((await create(EXAMPLE, "demo", `?draftUuid=${draft.body.uuid}`)).body.property).toBe("draftUuid");
    const another = await create({ virtualDeviceName: "tmp" }, "demo", "?draft=true");
    expect((await t.call("DELETE", `/ne/v1/devices/${another.body.uuid}`)).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${another.body.uuid}`)).status).toBe(404);
    const running = await provisioned(t, EXAMPLE);
    expect((await t.call("PUT", `/ne/v1/devices/${running}?draft=true`, { body: { virtualDeviceName: "abc" } })).body.property).toBe("uuid");
  });
});

describe("GET /ne/v1/devices and /ne/v1/devices/{uuid}", () => {
  it("lists visible devices with filters, search, sort and pages", async () => {
    const a = (await create({ ...EXAMPLE, virtualDeviceName: "alpha-router" })).body.uuid;
    const b = (await create({ ...EXAMPLE, virtualDeviceName: "bravo-router", metroCode: "LD" })).body.uuid;
    const c = (await create({ ...FIREWALL, virtualDeviceName: "charlie-fw" })).body.uuid;
    const all = await t.call("GET", "/ne/v1/devices");
    expect(all.status).toBe(200);
    expect(all.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 3 });
    expect(all.body.data.map((d: { uuid: string }) => d.uuid)).toEqual([c, b, a]);
    expect((await t.call("GET", "/ne/v1/devices?metroCode=LD")).body.data.map((d: { uuid: string }) => d.uuid)).toEqual([b]);
    expect((await t.call("GET", "/ne/v1/devices?searchText=ROUTER")).body.pagination.total).toBe(2);
    expect((await t.call("GET", "/ne/v1/devices?sort=name")).body.data.map((d: { uuid: string }) => d.uuid)).toEqual([a, b, c]);
    expect((await t.call("GET", "/ne/v1/devices?sort=-vendor,name")).body.data.map((d: { uuid: string }) => d.uuid)).toEqual([c, a, b]);
    expect((await t.call("GET", "/ne/v1/devices?status=INITIALIZING,PROVISIONING")).body.pagination.total).toBe(3);
    expect((await t.call("GET", "/ne/v1/devices?status=PROVISIONED")).body.pagination.total).toBe(0);
    expect((await t.call("GET", "/ne/v1/devices?accountUcmId=A1B2C3D4-0001")).body.pagination.total).toBe(3);
    expect((await t.call("GET", "/ne/v1/devices?accountUcmId=A1B2C3D4-0002")).body.pagination.total).toBe(0);
    expect((await t.call("GET", "/ne/v1/devices?showOnlySubCustomerDevices=true")).body.pagination.total).toBe(0);
    const page = await t.call("GET", "/ne/v1/devices?limit=2");
    expect(page.body.data).toHaveLength(2);
    expect(page.body.pagination.next).toMatch(/offset=2/);
    expect((await t.call("GET", "/ne/v1/devices", { client: "limited" })).body.data).toEqual([]);
  });

  it("refuses bad list parameters", async () => {
    expect((await t.call("GET", "/ne/v1/devices?status=RUNNING")).body).toMatchObject({ errorCode: "EQ-2012025", property: "status" });
    expect((await t.call("GET", "/ne/v1/devices?sort=color")).body.property).toBe("sort");
    expect((await t.call("GET", "/ne/v1/devices?limit=0")).body.property).toBe("limit");
    expect((await t.call("GET", "/ne/v1/devices?accountUcmId=OTHER")).body.property).toBe("accountUcmId");
    expect((await t.call("GET", "/ne/v1/devices?showOnlySubCustomerDevices=maybe")).body.property).toBe("showOnlySubCustomerDevices");
    expect((await t.call("GET", "/ne/v1/devices?color=red")).body).toMatchObject({ errorCode: "EQ-2014010", property: "color" });
  });

  it("answers 404 for unknown devices and devices of other projects", async () => {
    const missing = await t.call("GET", "/ne/v1/devices/0c5d0c8b-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ errorCode: "EQ-3073004", property: "uuid", status: "404" });
    const uuid = (await create(EXAMPLE)).body.uuid;
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`, { client: "limited" })).status).toBe(404);
  });
});

describe("PATCH /ne/v1/devices/{uuid}", () => {
  it("updates name, notifications, term and renewal", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    const res = await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { virtualDeviceName: "edge-renamed", notifications: ["a@example.com", "b@example.com"], termLength: "24", autoRenewalOptOut: true } });
    expect(res.status).toBe(204);
    const device = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body;
    expect(device).toMatchObject({ name: "edge-renamed", notifications: ["a@example.com", "b@example.com"], termLength: "24", lastUpdatedBy: "demo-user" });
    expect(device.pricingDetails.termLength).toBe("24");
    const later = await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body: { termLength: 12, termLengthEffectiveImmediate: false } });
    expect(later.status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body).toMatchObject({ termLength: "24", newTermLength: "12" });
  });

  it("refuses invalid updates", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ virtualDeviceName: "ab" }, "virtualDeviceName"],
      [{ notifications: [] }, "notifications"],
      [{ termLength: 6 }, "termLength"],
      [{ termLength: 1 }, "termLength"],
      [{ core: 4, virtualDeviceName: "abc" }, "core"],
      [{ status: "PROVISIONED" }, "status"],
      [{ clusterName: "cluster-x" }, "clusterName"],
      [{ name: "x" }, "name"],
      [{}, "body"],
    ];
    for (const [body, property] of cases) {
      const res = await t.call("PATCH", `/ne/v1/devices/${uuid}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.property, JSON.stringify(body)).toBe(property);
    }
    expect((await t.call("PATCH", "/ne/v1/devices/0c5d0c8b-0000-4000-8000-000000000000", { body: { virtualDeviceName: "abc" } })).status).toBe(404);
  });
});

describe("DELETE /ne/v1/devices/{uuid}", () => {
  it("deprovisions a device on the clock", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}`)).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body.status).toBe("DEPROVISIONING");
    const gone = await t.waitFor(`/ne/v1/devices/${uuid}`, "/status", "DEPROVISIONED");
    expect(gone).toMatchObject({ deletedBy: "demo-user", billingEnabled: false });
    expect((await t.call("GET", "/ne/v1/devices")).body.data).toEqual([]);
    expect((await t.call("GET", "/ne/v1/devices?status=DEPROVISIONED")).body.pagination.total).toBe(1);
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}`)).body.property).toBe("uuid");
  });

  it("deletes a pair only with deleteRedundantDevice, and a secondary alone", async () => {
    const pair = (await create({ ...EXAMPLE, secondary: { metroCode: "NY", virtualDeviceName: "edge-1-sec", notifications: ["a@b.io"] } })).body;
    await t.waitFor(`/ne/v1/devices/${pair.uuid}`, "/status", "PROVISIONED");
    const refused = await t.call("DELETE", `/ne/v1/devices/${pair.uuid}`);
    expect(refused.body).toMatchObject({ errorCode: "EQ-2010010", property: "deleteRedundantDevice" });
    expect((await t.call("DELETE", `/ne/v1/devices/${pair.secondaryUuid}`)).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${pair.uuid}`)).body.redundantUuid).toBeUndefined();
    await t.waitFor(`/ne/v1/devices/${pair.secondaryUuid}`, "/status", "DEPROVISIONED");

    const both = (await create({ ...EXAMPLE, secondary: { metroCode: "NY", virtualDeviceName: "edge-2-sec", notifications: ["a@b.io"] } })).body;
    expect((await t.call("DELETE", `/ne/v1/devices/${both.uuid}?deleteRedundantDevice=true`)).status).toBe(204);
    await t.waitFor(`/ne/v1/devices/${both.uuid}`, "/status", "DEPROVISIONED");
    await t.waitFor(`/ne/v1/devices/${both.secondaryUuid}`, "/status", "DEPROVISIONED");
  });

  it("accepts a deactivation key and refuses bad input and other projects' devices", async () => {
    const uuid = (await create(FIREWALL)).body.uuid;
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}`, { client: "limited" })).status).toBe(404);
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}?deleteRedundantDevice=yes`)).body.property).toBe("deleteRedundantDevice");
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}`, { body: { deactivationKey: 5 } })).body.property).toBe("deactivationKey");
    expect((await t.call("DELETE", `/ne/v1/devices/${uuid}`, { body: { deactivationKey: "8dfbd5ba3610234d9e55" } })).status).toBe(204);
    expect((await t.call("DELETE", "/ne/v1/devices/0c5d0c8b-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

const WAN_ACL = "5f2d6a3e-1c41-4d8e-9a57-3a1be0c0aa01";
const MGMT_ACL = "5f2d6a3e-1c41-4d8e-9a57-3a1be0c0aa02";

describe("PATCH /ne/v1/devices/{uuid}/acl", () => {
  beforeEach(() => {
    seedAclTemplate(t, WAN_ACL);
    seedAclTemplate(t, MGMT_ACL);
  });

  it("replaces a provisioned device's ACL templates, one per interface, and removes those left out", async () => {
    const uuid = await provisioned(t, { ...EXAMPLE, aclDetails: [{ interfaceType: "WAN", uuid: WAN_ACL }] });
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body).toMatchObject({ aclTemplateUuid: WAN_ACL });
    const url = `/ne/v1/devices/${uuid}/acl`;
    expect((await t.call("PATCH", url, { body: { aclDetails: [{ interfaceType: "MGMT", uuid: MGMT_ACL }] } })).status).toBe(204);
    const device = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body;
    expect(device.mgmtAclTemplateUuid).toBe(MGMT_ACL);
    expect(device.aclTemplateUuid).toBeUndefined();
    expect((await t.call("PATCH", url, { body: { aclDetails: [] } })).status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${uuid}`)).body.mgmtAclTemplateUuid).toBeUndefined();
  });

  it("refuses a missing list, an unknown interface, a device not yet provisioned and a PRIVATE device", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    const url = `/ne/v1/devices/${uuid}/acl`;
    expect((await t.call("PATCH", url, { body: {} })).body).toMatchObject({ errorCode: "EQ-2012011", property: "aclDetails" });
    expect((await t.call("PATCH", url, { body: { aclDetails: [{ interfaceType: "LAN", uuid: WAN_ACL }] } })).body.property).toBe("aclDetails[0].interfaceType");
    const fresh = (await create(EXAMPLE)).body.uuid;
    expect((await t.call("PATCH", `/ne/v1/devices/${fresh}/acl`, { body: { aclDetails: [] } })).body.property).toBe("uuid");
    const privateDevice = await provisioned(t, { ...EXAMPLE, connectivity: "PRIVATE" });
    expect((await t.call("PATCH", `/ne/v1/devices/${privateDevice}/acl`, { body: { aclDetails: [{ interfaceType: "WAN", uuid: WAN_ACL }] } })).body.property).toBe("aclDetails");
  });
});

describe("PUT /ne/v1/devices/{uuid}/additionalBandwidths", () => {
  it("changes the additional bandwidth of a provisioned device and its charges", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    const before = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body.pricingDetails.primary.charges;
    expect((await t.call("PUT", `/ne/v1/devices/${uuid}/additionalBandwidths`, { body: { additionalBandwidth: 100 } })).status).toBe(204);
    const device = (await t.call("GET", `/ne/v1/devices/${uuid}`)).body;
    expect(device.additionalBandwidth).toBe(100);
    expect(device.pricingDetails.additionalBandwidth).toBe("100");
    expect(device.pricingDetails.primary.charges).not.toEqual(before);
  });

  it("refuses missing or invalid values and devices that are not provisioned", async () => {
    const uuid = await provisioned(t, EXAMPLE);
    const url = `/ne/v1/devices/${uuid}/additionalBandwidths`;
    expect((await t.call("PUT", url, { body: {} })).body).toMatchObject({ errorCode: "EQ-2012011", property: "additionalBandwidth" });
    expect((await t.call("PUT", url, { body: { additionalBandwidth: "100" } })).body.property).toBe("additionalBandwidth");
    expect((await t.call("PUT", url, { body: { additionalBandwidth: 100_000 } })).body.property).toBe("additionalBandwidth");
    const fresh = (await create(EXAMPLE)).body.uuid;
    expect((await t.call("PUT", `/ne/v1/devices/${fresh}/additionalBandwidths`, { body: { additionalBandwidth: 50 } })).body.property).toBe("uuid");
    const privateDevice = await provisioned(t, { ...EXAMPLE, connectivity: "PRIVATE" });
    expect((await t.call("GET", `/ne/v1/devices/${privateDevice}`)).body.additionalBandwidth).toBe(0);
    expect((await t.call("PUT", `/ne/v1/devices/${privateDevice}/additionalBandwidths`, { body: { additionalBandwidth: 50 } })).body.property).toBe("additionalBandwidth");
  });
});
