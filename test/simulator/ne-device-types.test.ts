import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

describe("GET /ne/v1/deviceTypes", () => {
  it("lists at least three vendors with packages, versions, cores and metros", async () => {
    const res = await t.call("GET", "/ne/v1/deviceTypes");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 20 });
    const vendors = new Set(res.body.data.map((d: { vendor: string }) => d.vendor));
    expect(vendors.size).toBeGreaterThanOrEqual(3);
    const c8000v = res.body.data.find((d: { deviceTypeCode: string }) => d.deviceTypeCode === "C8000V");
    expect(c8000v).toMatchObject({ vendor: "Cisco", category: "ROUTER", defaultInterfaceCount: 10 });
    const metros = c8000v.availableMetros.map((m: { metroCode: string }) => m.metroCode);
    for (const m of ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"]) expect(metros).toContain(m);
    const essentials = c8000v.softwarePackages.find((p: { packageCode: string }) => p.packageCode === "network-essentials");
    const v = essentials.versionDetails.find((d: { version: string }) => d.version === "17.11.01a");
    expect(v).toMatchObject({ status: "ACTIVE", stableVersion: "true", allowedUpgradableVersions: ["17.12.02"] });
    const sub = c8000v.deviceManagementTypes["PROVIDER-CONFIGURED"].licenseOptions.SUB;
    const two = sub.cores.find((c: { core: number }) => c.core === 2);
    expect(two).toMatchObject({ memory: 8, unit: "GB", tier: 2, supported: true });
    expect(two.packageCodes.find((p: { packageCode: string }) => p.packageCode === "network-essentials")).toMatchObject({ supported: true, supportedLicenseTiers: ["0", "1", "2"] });
    expect(c8000v.deviceManagementTypes["SELF-CONFIGURED"].defaultAcls.dnsServers.length).toBeGreaterThan(0);
  });

  it("filters by device type code and category (SDWAN or SD-WAN) and paginates", async () => {
    const one = await t.call("GET", "/ne/v1/deviceTypes?deviceTypeCode=PA-VM");
    expect(one.body.data.map((d: { deviceTypeCode: string }) => d.deviceTypeCode)).toEqual(["PA-VM"]);
    expect(one.body.data[0].deviceManagementTypes["SELF-CONFIGURED"].clusteringDetails).toEqual({ clusteringEnabled: true, maxAllowedNodes: 2 });
    const firewalls = await t.call("GET", "/ne/v1/deviceTypes?category=FIREWALL");
    expect(firewalls.body.data.every((d: { category: string }) => d.category === "FIREWALL")).toBe(true);
    expect(firewalls.body.data.length).toBeGreaterThanOrEqual(2);
    const sdwan = await t.call("GET", "/ne/v1/deviceTypes?category=SD-WAN");
    expect(sdwan.body.data.map((d: { category: string }) => d.category)).toEqual(["SDWAN"]);
    const all = await t.call("GET", "/ne/v1/deviceTypes?limit=100");
    const page = await t.call("GET", "/ne/v1/deviceTypes?offset=1&limit=2");
    expect(page.body.pagination).toMatchObject({ offset: 1, limit: 2, total: all.body.data.length });
    expect(page.body.data).toHaveLength(2);
  });

  it("refuses an unknown category, bad paging and unknown query parameters", async () => {
    const cat = await t.call("GET", "/ne/v1/deviceTypes?category=SWITCH");
    expect(cat.status).toBe(400);
    expect(cat.body).toMatchObject({ errorCode: "EQ-2012025", property: "category", status: "400" });
    expect((await t.call("GET", "/ne/v1/deviceTypes?limit=0")).body.property).toBe("limit");
    expect((await t.call("GET", "/ne/v1/deviceTypes?offset=x")).status).toBe(400);
    const unknown = await t.call("GET", "/ne/v1/deviceTypes?vendor=Cisco");
    expect(unknown.body).toMatchObject({ errorCode: "EQ-2014010", property: "vendor" });
  });

  it("needs a bearer token", async () => {
    expect((await t.call("GET", "/ne/v1/deviceTypes", { client: "none" })).status).toBe(401);
  });
});

describe("GET /ne/v1/deviceTypes/{deviceType}/interfaces", () => {
  it("returns the interface profiles of a configuration", async () => {
    const res = await t.call("GET", "/ne/v1/deviceTypes/C8000V/interfaces?deviceManagementType=PROVIDER-CONFIGURED&core=2&mode=Subscription");
    expect(res.status).toBe(200);
    expect(res.body.interfaceProfiles.map((p: { count: number }) => p.count)).toEqual([10, 24]);
    const first = res.body.interfaceProfiles[0];
    expect(first.default).toBe(true);
    expect(first.interfaces[0]).toEqual({ name: "GigabitEthernet1", description: "MGMT interface", interfaceId: "1", status: "ASSIGNED" });
    expect(first.interfaces[1]).toMatchObject({ interfaceId: "2", status: "AVAILABLE" });
    const cluster = await t.call("GET", "/ne/v1/deviceTypes/FG-VM/interfaces?deviceManagementType=SELF-CONFIGURED&core=2&cluster=true");
    expect(cluster.body.interfaceProfiles.map((p: { count: number }) => p.count)).toEqual([10]);
    expect(cluster.body.interfaceProfiles[0].interfaces[0]).toMatchObject({ name: "port1", description: "SSH interface" });
  });

  it("requires deviceManagementType and core, and checks them against the catalogue", async () => {
    const base = "/ne/v1/deviceTypes/C8000V/interfaces";
    expect((await t.call("GET", `${base}?core=2`)).body).toMatchObject({ errorCode: "EQ-2012011", property: "deviceManagementType" });
    expect((await t.call("GET", `${base}?deviceManagementType=SELF-CONFIGURED`)).body).toMatchObject({ errorCode: "EQ-2012011", property: "core" });
    expect((await t.call("GET", `${base}?deviceManagementType=SELF-CONFIGURED&core=3`)).body).toMatchObject({ errorCode: "EQ-2012025", property: "core" });
    expect((await t.call("GET", `${base}?deviceManagementType=PROVIDER-CONFIGURED&core=2&cluster=true`)).body.property).toBe("cluster");
    expect((await t.call("GET", `${base}?deviceManagementType=PROVIDER-CONFIGURED&core=2&memory=4`)).body.property).toBe("memory");
    expect((await t.call("GET", `${base}?deviceManagementType=PROVIDER-CONFIGURED&core=2&softwarePkg=network-premier`)).body.property).toBe("softwarePkg");
    expect((await t.call("GET", `${base}?deviceManagementType=PROVIDER-CONFIGURED&core=2&version=1.0`)).body.property).toBe("version");
    const unknown = await t.call("GET", "/ne/v1/deviceTypes/NOPE/interfaces?deviceManagementType=SELF-CONFIGURED&core=2");
    expect(unknown.status).toBe(404);
    expect(unknown.body.property).toBe("deviceType");
  });
});

describe("GET /ne/v1/metros", () => {
  it("lists the device-service metros with region and cluster support, filtered by region", async () => {
    const all = await t.call("GET", "/ne/v1/metros?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.data).toContainEqual({ metroCode: "DC", metroDescription: "Washington, D.C.", region: "AMER", clusterSupported: true });
    const emea = await t.call("GET", "/ne/v1/metros?region=EMEA");
    expect(emea.body.data.every((m: { region: string }) => m.region === "EMEA")).toBe(true);
    expect(emea.body.data.map((m: { metroCode: string }) => m.metroCode)).toContain("LD");
    const page = await t.call("GET", "/ne/v1/metros");
    expect(page.body.pagination.limit).toBe(20);
    expect((await t.call("GET", "/ne/v1/metros?region=MARS")).body).toMatchObject({ errorCode: "EQ-2012025", property: "region" });
  });
});

describe("accounts, agreements and terms", () => {
  it("lists the caller's accounts in a metro", async () => {
    const res = await t.call("GET", "/ne/v1/accounts/DC");
    expect(res.status).toBe(200);
    expect(res.body.accounts.map((a: { accountNumber: number }) => a.accountNumber)).toEqual([270848, 270849]);
    expect(res.body.accounts[0]).toMatchObject({ accountStatus: "Active", creditHold: false, accountUcmId: "A1B2C3D4-0001" });
    const limited = await t.call("GET", "/ne/v1/accounts/DC", { client: "limited" });
    expect(limited.body.accounts.map((a: { accountNumber: number }) => a.accountNumber)).toEqual([270849]);
    const byUcm = await t.call("GET", "/ne/v1/accounts/DC?accountUcmId=A1B2C3D4-0002");
    expect(byUcm.body.accounts).toHaveLength(1);
    expect((await t.call("GET", "/ne/v1/accounts/ZZ")).status).toBe(404);
  });

  it("reports and accepts the order agreement of an account", async () => {
    const main = await t.call("GET", "/ne/v1/agreements/accounts?account_number=270848");
    expect(main.body).toMatchObject({ isValid: "true", termsVersionID: expect.any(String) });
    const lab = await t.call("GET", "/ne/v1/agreements/accounts?account_number=270849");
    expect(lab.body.isValid).toBe("false");
    const wrong = await t.call("POST", "/ne/v1/agreements/accounts", { body: { accountNumber: "270849", apttusId: "old" } });
    expect(wrong.body).toMatchObject({ errorCode: "EQ-2010010", property: "apttusId" });
    const ok = await t.call("POST", "/ne/v1/agreements/accounts", { body: { accountNumber: "270849", apttusId: lab.body.termsVersionID } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: "SUCCESS" });
    expect((await t.call("GET", "/ne/v1/agreements/accounts?account_number=270849")).body.isValid).toBe("true");
  });

  it("refuses agreements of accounts that are not the caller's or without the account number", async () => {
    expect((await t.call("GET", "/ne/v1/agreements/accounts?account_number=270848", { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", "/ne/v1/agreements/accounts")).body).toMatchObject({ errorCode: "EQ-2012011", property: "account_number" });
    const missing = await t.call("POST", "/ne/v1/agreements/accounts", { body: { apttusId: "x" } });
    expect(missing.body.property).toBe("accountNumber");
  });

  it("links vendor terms and shows the order terms", async () => {
    const vendor = await t.call("GET", "/ne/v1/agreements/vendors?vendorPackage=C8000V&licenseType=SUB");
    expect(vendor.body.terms).toMatch(/^https:\/\/www\.cisco\.com/);
    expect((await t.call("GET", "/ne/v1/agreements/vendors?vendorPackage=C8000V")).body.property).toBe("licenseType");
    expect((await t.call("GET", "/ne/v1/agreements/vendors?vendorPackage=X&licenseType=SUB")).body.property).toBe("vendorPackage");
    const order = await t.call("GET", "/ne/v1/agreements/orders");
    expect(order.body.terms).toMatch(/Initial Term/);
  });
});

describe("GET /ne/v1/prices", () => {
  it("prices a new device with its charges and a secondary", async () => {
    const res = await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&licenseType=SUB&softwarePackage=network-essentials&core=2&termLength=12&secondaryMetro=LD");
    expect(res.status).toBe(200);
    expect(res.body.termLength).toBe("12");
    expect(res.body.primary.currency).toBe("USD");
    expect(res.body.secondary.currency).toBe("EUR");
    const descriptions = res.body.primary.charges.map((ch: { description: string }) => ch.description);
    expect(descriptions).toEqual(["VIRTUAL_DEVICE", "DEVICE_LICENSE", "DEVICE_MANAGEMENT", "ADDITIONAL_BANDWIDTH"]);
    const monthly = await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&core=2&termLength=1");
    const first = (r: typeof res) => Number(r.body.primary.charges[0].monthlyRecurringCharges);
    expect(first(monthly)).toBeGreaterThan(first(res));
  });

  it("refuses combinations the catalogue does not offer", async () => {
    expect((await t.call("GET", "/ne/v1/prices?metro=DC")).body).toMatchObject({ errorCode: "EQ-2012011", property: "vendorPackage" });
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V")).body.property).toBe("metro");
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&core=3")).body.property).toBe("core");
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=VERSA_SDWAN&metro=TY")).body.property).toBe("metro");
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&termLength=5")).body.property).toBe("termLength");
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&accountNumber=1")).body.property).toBe("accountNumber");
    expect((await t.call("GET", "/ne/v1/prices?vendorPackage=C8000V&metro=DC&softwarePackage=VM100")).body.property).toBe("softwarePackage");
  });
});

describe("POST /ne/v1/devices/licenseFiles", () => {
  it("uploads a licence file before creating a device", async () => {
    const form = new FormData();
    form.append("file", new Blob(["LICENSE-DATA"]), "fg.lic");
    const res = await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=DC&deviceTypeCode=FG-VM&licenseType=BYOL", { raw: form });
    expect(res.status).toBe(200);
    expect(res.body.fileId).toMatch(/^[0-9a-f-]{36}$/);
    const files = (await t.call("GET", "/__sim/objects?kind=files")).body.data;
    expect(files).toContainEqual(expect.objectContaining({ uuid: res.body.fileId, processType: "LICENSE", deviceTypeCode: "FG-VM" }));
  });

  it("refuses a missing file, wrong content type and bad query", async () => {
    const empty = new FormData();
    empty.append("other", "x");
    expect((await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=DC&deviceTypeCode=FG-VM&licenseType=BYOL", { raw: empty })).body.property).toBe("file");
    const json = await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=DC&deviceTypeCode=FG-VM&licenseType=BYOL", { body: {} });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append("file", new Blob(["x"]), "a.lic");
    expect((await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=DC&deviceTypeCode=FG-VM", { raw: form })).body.property).toBe("licenseType");
    expect((await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=ZZ&deviceTypeCode=FG-VM&licenseType=BYOL", { raw: form })).body.property).toBe("metroCode");
    expect((await t.call("POST", "/ne/v1/devices/licenseFiles?metroCode=DC&deviceTypeCode=FG-VM&licenseType=SUB", { raw: form })).body.property).toBe("licenseType");
  });
});
