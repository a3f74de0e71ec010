// One device price model (issue 19): the price call, a created device's pricingDetails and the order
// summary's PDF quote the same monthly charges for the same order.
import { describe, expect, it } from "vitest";
import { ACCOUNTS } from "../../src/simulator/index.js";
import { pdfText } from "../support/pdf-text.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

interface Order {
  metroCode: string;
  packageCode: string;
  licenseMode: "SUB" | "BYOL";
  deviceManagementType: "PROVIDER-CONFIGURED" | "SELF-CONFIGURED";
  core: number;
  termlength: number;
  additionalBandwidth: number;
}

const ORDERS: Order[] = [
  { metroCode: "SV", packageCode: "network-essentials", licenseMode: "SUB", deviceManagementType: "PROVIDER-CONFIGURED", core: 2, termlength: 12, additionalBandwidth: 15 },
  { metroCode: "DC", packageCode: "network-advantage", licenseMode: "SUB", deviceManagementType: "PROVIDER-CONFIGURED", core: 4, termlength: 36, additionalBandwidth: 100 },
  { metroCode: "LD", packageCode: "network-essentials", licenseMode: "SUB", deviceManagementType: "SELF-CONFIGURED", core: 2, termlength: 1, additionalBandwidth: 0 },
  { metroCode: "SG", packageCode: "network-essentials", licenseMode: "SUB", deviceManagementType: "PROVIDER-CONFIGURED", core: 8, termlength: 24, additionalBandwidth: 500 },
];

const query = (o: Order) =>
  new URLSearchParams({
    accountNumber: String(ACCOUNTS.main.accountNumber),
    metro: o.metroCode,
    vendorPackage: "C8000V",
    softwarePackage: o.packageCode,
    licenseType: o.licenseMode,
    deviceManagementType: o.deviceManagementType,
    core: String(o.core),
    termLength: String(o.termlength),
    additionalBandwidth: String(o.additionalBandwidth),
  }).toString();

/** "DESCRIPTION: CUR 123.45 per month" lines, as the PDF shows them. */
const chargeLines = (currency: string, charges: Array<{ description: string; monthlyRecurringCharges: string }>) =>
  charges.map((c) => `${c.description}: ${currency} ${Number(c.monthlyRecurringCharges).toFixed(2)} per month`);

describe("one device price model", () => {
  it.each(ORDERS)("quotes $metroCode $packageCode $licenseMode $deviceManagementType core $core term $termlength bandwidth $additionalBandwidth alike everywhere", async (order) => {
    const price = await t.call("GET", `/ne/v1/prices?${query(order)}`);
    expect(price.status).toBe(200);
    const quoted = price.body.primary as { currency: string; charges: Array<{ description: string; monthlyRecurringCharges: string }> };

    const created = await t.call("POST", "/ne/v1/devices", {
      body: { deviceTypeCode: "C8000V", version: "17.11.01a", notifications: ["noc@example.com"], accountNumber: ACCOUNTS.main.accountNumber, virtualDeviceName: "priced", ...order },
    });
    expect(created.status).toBe(202);
    const device = (await t.call("GET", `/ne/v1/devices/${created.body.uuid}`)).body;
    expect(device.pricingDetails.primary.currency).toBe(quoted.currency);
    expect(device.pricingDetails.primary.charges).toEqual(quoted.charges);

    const res = await fetch(`${t.url}/ne/v1/orderSummaries?${query(order)}`, { headers: { authorization: `Bearer ${await t.token("demo")}` } });
    const pdf = pdfText(Buffer.from(await res.arrayBuffer()).toString("latin1"));
    for (const line of chargeLines(quoted.currency, quoted.charges)) expect(pdf).toContain(line);
    const total = quoted.charges.reduce((sum, c) => sum + Number(c.monthlyRecurringCharges), 0);
    expect(pdf).toContain(`Total monthly recurring charges: ${quoted.currency} ${total.toFixed(2)}`);
  });
});
