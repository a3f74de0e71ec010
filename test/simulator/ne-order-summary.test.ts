import { describe, expect, it } from "vitest";
import { ACCOUNTS } from "../../src/simulator/index.js";
import { seedDevice } from "../support/fixtures.js";
import { pdfText } from "../support/pdf-text.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const BASE = `accountNumber=${ACCOUNTS.main.accountNumber}&metro=SV&vendorPackage=C8000V&softwarePackage=network-essentials`;

async function summary(query: string, client: "demo" | "limited" = "demo") {
  const res = await fetch(`${t.url}/ne/v1/orderSummaries?${query}`, { headers: { authorization: `Bearer ${await t.token(client)}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get("content-type"), bytes, text: bytes.toString("latin1") };
}

describe("GET /ne/v1/orderSummaries", () => {
  it("answers a PDF quote of the monthly charges", async () => {
    const res = await summary(BASE);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/pdf;charset=UTF-8");
    expect(res.text.startsWith("%PDF-")).toBe(true);
    const text = pdfText(res.text);
    expect(text).toContain("Network Edge order summary");
    // The create's defaults: 2 cores, a 1-month term, 15 Mbps of additional bandwidth.
    expect(text).toContain("VIRTUAL_DEVICE: USD 370.00 per month");
    expect(text).toContain("DEVICE_LICENSE: USD 80.00 per month");
    expect(text).toContain("DEVICE_MANAGEMENT: USD 75.00 per month");
    expect(text).toContain("ADDITIONAL_BANDWIDTH: USD 18.00 per month");
    expect(text).toContain("Total monthly recurring charges: USD 543.00");
    expect(text).not.toContain("Secondary");
  });

  it("quotes the same figures for the same question", async () => {
    const a = pdfText((await summary(`${BASE}&core=4&termLength=36`)).text);
    const b = pdfText((await summary(`${BASE}&core=4&termLength=36`)).text);
    expect(a.replace(/Quote date: \S+/, "")).toBe(b.replace(/Quote date: \S+/, ""));
    expect(a).toContain("VIRTUAL_DEVICE: USD 472.00 per month");
  });

  it("prices the options: BYOL, bandwidth, the secondary device in its own currency", async () => {
    const byol = pdfText((await summary(`${BASE}&licenseType=BYOL&additionalBandwidth=100`)).text);
    expect(byol).not.toContain("DEVICE_LICENSE");
    expect(byol).toContain("ADDITIONAL_BANDWIDTH: USD 120.00 per month");
    const gbps = pdfText((await summary(`${BASE}&throughput=2&throughputUnit=Gbps`)).text);
    expect(gbps).toContain("throughput: 2000 Mbps");
    const pair = pdfText((await summary(`${BASE}&secondaryMetro=LD&secondaryAccountNumber=${ACCOUNTS.lab.accountNumber}&secondaryAdditionalBandwidth=0`)).text);
    expect(pair).toContain(`Secondary device: account ${ACCOUNTS.lab.accountNumber}, metro LD (London)`);
    // A device in an EMEA metro is billed in euros.
    expect(pair).toContain("VIRTUAL_DEVICE: EUR 370.00 per month");
    expect(pair).toContain("Total monthly recurring charges: EUR 525.00");
    const device = seedDevice(t);
    expect(pdfText((await summary(`${BASE}&virtualDeviceUuid=${device}`)).text)).toContain(`Modification of virtual device ${device}`);
  });

  it("names each missing required parameter", async () => {
    for (const name of ["accountNumber", "metro", "vendorPackage", "softwarePackage"]) {
      const query = BASE.split("&").filter((p) => !p.startsWith(`${name}=`)).join("&");
      const res = await t.call("GET", `/ne/v1/orderSummaries?${query}`);
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ errorCode: "EQ-2012011", property: name, status: "400" });
    }
  });

  it("refuses invalid parameters", async () => {
    const cases: Array<[string, string, string]> = [
      ["accountNumber=abc", "EQ-2014010", "accountNumber"],
      ["accountNumber=999", "EQ-2012010", "accountNumber"],
      ["metro=QQ", "EQ-2012025", "metro"],
      ["metro=MU", "EQ-2012025", "metro"],
      ["vendorPackage=TOASTER", "EQ-2012025", "vendorPackage"],
      ["softwarePackage=VM100", "EQ-2012025", "softwarePackage"],
      ["licenseType=FREE", "EQ-2012025", "licenseType"],
      ["termLength=7", "EQ-2012025", "termLength"],
      ["throughput=fast", "EQ-2014010", "throughput"],
      ["throughput=0", "EQ-2014010", "throughput"],
      ["throughputUnit=Tbps", "EQ-2012025", "throughputUnit"],
      ["additionalBandwidth=-5", "EQ-2014010", "additionalBandwidth"],
      ["deviceManagementType=MANAGED", "EQ-2012025", "deviceManagementType"],
      ["core=0", "EQ-2014010", "core"],
      ["secondaryMetro=ZZ", "EQ-2012025", "secondaryMetro"],
      ["secondaryAccountNumber=1", "EQ-2012010", "secondaryAccountNumber"],
      ["accountUcmId=nobody", "EQ-2012010", "accountUcmId"],
      ["virtualDeviceUuid=00000000-0000-4000-8000-000000000000", "EQ-2012010", "virtualDeviceUuid"],
      ["colour=red", "EQ-2014010", "colour"],
    ];
    for (const [param, code, property] of cases) {
      const name = param.split("=")[0]!;
      const query = [...BASE.split("&").filter((p) => !p.startsWith(`${name}=`)), param].join("&");
      const res = await t.call("GET", `/ne/v1/orderSummaries?${query}`);
      expect(res.body, param).toMatchObject({ errorCode: code, property });
    }
  });

  it("quotes only for the caller's accounts", async () => {
    const res = await t.call("GET", `/ne/v1/orderSummaries?${BASE}`, { client: "limited" });
    expect(res.body).toMatchObject({ errorCode: "EQ-2012010", property: "accountNumber" });
  });
});

describe("GET /ne/v1/notifications", () => {
  it("announces the seeded planned downtime", async () => {
    const res = await t.call("GET", "/ne/v1/notifications");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ notificationType: "planed_downtime", additionalMessage: expect.any(String) });
    expect(Date.parse(res.body.startTime)).toBeGreaterThan(Date.now());
    expect(Date.parse(res.body.endTime)).toBeGreaterThan(Date.parse(res.body.startTime));
    expect(res.body.impactedServices.length).toBeGreaterThan(0);
    for (const s of res.body.impactedServices) {
      expect(s).toMatchObject({ serviceName: expect.any(String), serviceStartTime: res.body.startTime, serviceEndTime: res.body.endTime, errorMessage: expect.any(String) });
      expect(["down", "delay"]).toContain(s.impact);
    }
  });

  it("follows out-of-band changes and says no_downtime when nothing is announced", async () => {
    const [notification] = t.sim.world.list("downtimeNotifications");
    await t.call("PATCH", `/__sim/objects/${notification!.uuid}`, { body: { notificationType: "unplanned_downtime" } });
    expect((await t.call("GET", "/ne/v1/notifications")).body.notificationType).toBe("unplanned_downtime");
    await t.call("DELETE", `/__sim/objects/${notification!.uuid}`);
    const none = await t.call("GET", "/ne/v1/notifications");
    expect(none.body).toMatchObject({ notificationType: "no_downtime", impactedServices: [] });
  });

  it("takes no parameters and needs a token", async () => {
    expect((await t.call("GET", "/ne/v1/notifications?type=x")).body).toMatchObject({ errorCode: "EQ-2014010", property: "type" });
    expect((await t.call("GET", "/ne/v1/notifications", { client: "none" })).status).toBe(401);
  });
});
