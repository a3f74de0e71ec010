// The order summary (section 4.11): a printable PDF quote of the monthly charges of a device order
// (device, license, additional bandwidth; for the primary and, for a pair, the secondary), for
// customers whose purchase process needs a formal quote. The charges are computed from the device-type
// catalogue, the metro's region and the term, so the same question always gets the same figures.
// This area also serves the downtime notification (downtime.ts).

import type { Context } from "hono";
import { ACCOUNTS } from "../core/auth.js";
import { fail } from "../core/errors.js";
import type { Area, Principal, SimApp, SimEnv } from "../core/context.js";
import { rejectUnknownQuery } from "../core/http.js";
import { METRO_BY_CODE, type Region } from "../core/metros-data.js";
import { defineDowntime, downtimeRoutes, seedDowntime } from "./downtime.js";
import { DEVICE_MANAGEMENT_TYPES, DEVICE_TYPE_BY_CODE, LICENSE_TYPES, oneOf, queryInt, visibleDevice } from "./services-shared.js";
import type { World } from "../core/world.js";

const QUERY = [
  "accountNumber", "metro", "vendorPackage", "softwarePackage", "licenseType", "throughput", "throughputUnit", "termLength",
  "additionalBandwidth", "virtualDeviceUuid", "deviceManagementType", "core", "secondaryAccountNumber", "secondaryMetro",
  "secondaryAdditionalBandwidth", "accountUcmId", "orderingContact",
] as const;

const TERM_LENGTHS = ["1", "12", "24", "36"] as const;
type TermLength = (typeof TERM_LENGTHS)[number];
const THROUGHPUT_UNITS = ["Mbps", "Gbps"] as const;

/** Section 8: additional bandwidth of a new device unless another is asked for. */
const DEFAULT_ADDITIONAL_BANDWIDTH_MBPS = 15;
const DEFAULT_CORE = 2;
const CURRENCY = "USD";

// ── the quote ──────────────────────────────────────────────────────────────────────────────

interface Quote {
  accountNumber: number;
  metro: string;
  vendorPackage: string;
  deviceTypeName: string;
  softwarePackage: string;
  packageName: string;
  licenseType: (typeof LICENSE_TYPES)[number];
  managementType: (typeof DEVICE_MANAGEMENT_TYPES)[number];
  core: number;
  throughputMbps: number;
  termLength: TermLength;
  additionalBandwidth: number;
  virtualDeviceUuid: string | undefined;
  secondary: { accountNumber: number; metro: string; additionalBandwidth: number } | undefined;
}

interface Charge {
  description: "VIRTUAL_DEVICE" | "DEVICE_LICENSE" | "ADDITIONAL_BANDWIDTH";
  monthly: number;
}

function regionFactor(region: Region): number {
  switch (region) {
    case "AMER":
      return 1;
    case "EMEA":
      return 1.12;
    case "APAC":
      return 1.2;
    default: {
      const unreachable: never = region;
      return unreachable;
    }
  }
}

function termFactor(term: TermLength): number {
  switch (term) {
    case "1":
      return 1.15;
    case "12":
      return 1;
    case "24":
      return 0.93;
    case "36":
      return 0.88;
    default: {
      const unreachable: never = term;
      return unreachable;
    }
  }
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** Monthly charges of one device of the quote in `metro` with `additionalBandwidth` Mbps. */
function chargesFor(q: Quote, metro: string, additionalBandwidth: number): Charge[] {
  const region = regionFactor(METRO_BY_CODE.get(metro)!.region);
  const term = termFactor(q.termLength);
  const device = (q.core <= 2 ? 240 : q.core <= 4 ? 420 : q.core <= 8 ? 760 : 1380) * region * term;
  const license = q.licenseType === "SUB" ? (120 + 0.18 * q.throughputMbps) * term : 0;
  return [
    { description: "VIRTUAL_DEVICE", monthly: cents(device) },
    { description: "DEVICE_LICENSE", monthly: cents(license) },
    { description: "ADDITIONAL_BANDWIDTH", monthly: cents(additionalBandwidth * 1.6 * region) },
  ];
}

// ── query parameters ───────────────────────────────────────────────────────────────────────

function requiredQuery(c: Context<SimEnv>, name: string): string {
  const value = c.req.query(name);
  if (value === undefined || value.trim() === "") return fail("missingProperty", name, `${name} is required`);
  return value;
}

function accountOf(principal: Principal, raw: number, property: string): number {
  if (!principal.accountNumbers.includes(raw)) fail("referenceNotFound", property, `account ${raw} was not found among the caller's accounts`, raw);
  return raw;
}

function metroOf(name: string, offered: readonly string[], value: string): string {
  if (!METRO_BY_CODE.has(value)) fail("notInAllowedList", name, `metro ${value} is not a known metro`, value);
  if (!offered.includes(value)) fail("notInAllowedList", name, `the device type is not offered in metro ${value}; offered: ${offered.join(", ")}`, value);
  return value;
}

function nonNegative(c: Context<SimEnv>, name: string): number | undefined {
  const value = queryInt(c, name);
  if (value !== undefined && value < 0) fail("invalidQueryParameter", name, `${name} must be 0 or more`, value);
  return value;
}

function throughputMbps(c: Context<SimEnv>, packageThroughput: { value: number; unit: string } | undefined): number {
  const value = queryInt(c, "throughput");
  const unit = oneOf(c.req.query("throughputUnit") ?? "Mbps", THROUGHPUT_UNITS, "throughputUnit");
  if (value !== undefined && value <= 0) fail("invalidQueryParameter", "throughput", "throughput must be positive", value);
  if (value !== undefined) return unit === "Gbps" ? value * 1000 : value;
  if (packageThroughput) return packageThroughput.unit === "Gbps" ? packageThroughput.value * 1000 : packageThroughput.value;
  return 1000;
}

function readQuote(c: Context<SimEnv>, world: World): Quote {
  rejectUnknownQuery(c, QUERY);
  const principal = c.get("principal");
  const accountRaw = queryInt(c, "accountNumber") ?? fail("missingProperty", "accountNumber", "accountNumber is required");
  const metroRaw = requiredQuery(c, "metro");
  const vendorPackage = requiredQuery(c, "vendorPackage");
  const softwarePackage = requiredQuery(c, "softwarePackage");
  const accountNumber = accountOf(principal, accountRaw, "accountNumber");
  const type = DEVICE_TYPE_BY_CODE.get(vendorPackage) ?? fail("notInAllowedList", "vendorPackage", `unknown device type ${vendorPackage}; known: ${[...DEVICE_TYPE_BY_CODE.keys()].join(", ")}`, vendorPackage);
  const pkg = type.packages.find((p) => p.code === softwarePackage);
  if (!pkg) return fail("notInAllowedList", "softwarePackage", `${vendorPackage} has no package ${softwarePackage}; packages: ${type.packages.map((p) => p.code).join(", ")}`, softwarePackage);
  const metro = metroOf("metro", type.metros, metroRaw);
  const core = queryInt(c, "core") ?? DEFAULT_CORE;
  if (core < 1) fail("invalidQueryParameter", "core", "core must be positive", core);
  const ucmId = c.req.query("accountUcmId");
  if (ucmId !== undefined && !Object.values(ACCOUNTS).some((a) => a.ucmId === ucmId && principal.accountNumbers.includes(a.accountNumber))) {
    fail("referenceNotFound", "accountUcmId", `account ${ucmId} was not found among the caller's accounts`, ucmId);
  }
  const virtualDeviceUuid = c.req.query("virtualDeviceUuid");
  if (virtualDeviceUuid !== undefined && !visibleDevice(world, principal, virtualDeviceUuid)) {
    fail("referenceNotFound", "virtualDeviceUuid", `virtual device ${virtualDeviceUuid} was not found`, virtualDeviceUuid);
  }
  const secondaryAccount = queryInt(c, "secondaryAccountNumber");
  const secondaryMetro = c.req.query("secondaryMetro");
  const secondaryBandwidth = nonNegative(c, "secondaryAdditionalBandwidth");
  const isPair = secondaryAccount !== undefined || secondaryMetro !== undefined || secondaryBandwidth !== undefined;
  return {
    accountNumber,
    metro,
    vendorPackage,
    deviceTypeName: type.name,
    softwarePackage,
    packageName: pkg.name,
    licenseType: oneOf(c.req.query("licenseType") ?? "SUB", LICENSE_TYPES, "licenseType"),
    managementType: oneOf(c.req.query("deviceManagementType") ?? "PROVIDER-CONFIGURED", DEVICE_MANAGEMENT_TYPES, "deviceManagementType"),
    core,
    throughputMbps: throughputMbps(c, pkg.throughput),
    termLength: oneOf(c.req.query("termLength") ?? "12", TERM_LENGTHS, "termLength"),
    additionalBandwidth: nonNegative(c, "additionalBandwidth") ?? DEFAULT_ADDITIONAL_BANDWIDTH_MBPS,
    virtualDeviceUuid,
    secondary: isPair
      ? {
          accountNumber: secondaryAccount === undefined ? accountNumber : accountOf(principal, secondaryAccount, "secondaryAccountNumber"),
          metro: secondaryMetro === undefined ? metro : metroOf("secondaryMetro", type.metros, secondaryMetro),
          additionalBandwidth: secondaryBandwidth ?? DEFAULT_ADDITIONAL_BANDWIDTH_MBPS,
        }
      : undefined,
  };
}

// ── the PDF ────────────────────────────────────────────────────────────────────────────────

const money = (n: number) => `${CURRENCY} ${n.toFixed(2)}`;

function writeCharges(doc: PDFKit.PDFDocument, heading: string, account: number, metro: string, charges: Charge[]): void {
  doc.moveDown().fontSize(13).text(`${heading} device: account ${account}, metro ${metro} (${METRO_BY_CODE.get(metro)!.name})`);
  doc.fontSize(11);
  for (const charge of charges) doc.text(`${charge.description}: ${money(charge.monthly)} per month`);
  doc.text(`Total monthly recurring charges: ${money(cents(charges.reduce((sum, ch) => sum + ch.monthly, 0)))}`);
}

async function renderPdf(q: Quote, quotedAt: Date): Promise<Buffer> {
  // Loaded on the first quote: the PDF library and its fonts are most of the simulator's start-up otherwise,
  // which every command against the embedded simulator pays.
  const { default: PDFDocument } = await import("pdfkit");
  // Uncompressed, so that the quoted figures can be read from the bytes (and tested).
  const doc = new PDFDocument({ compress: false, info: { Title: "Network Edge order summary", Author: "Network Edge", CreationDate: quotedAt } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.fontSize(18).text("Network Edge order summary");
  doc.fontSize(11).text(`Quote date: ${quotedAt.toISOString()}`);
  doc.moveDown().text(`Device type: ${q.deviceTypeName} (${q.vendorPackage})`);
  doc.text(`Software package: ${q.packageName} (${q.softwarePackage}), license ${q.licenseType}, ${q.managementType}`);
  doc.text(`Cores: ${q.core}; throughput: ${q.throughputMbps} Mbps; term: ${q.termLength} months`);
  if (q.virtualDeviceUuid) doc.text(`Modification of virtual device ${q.virtualDeviceUuid}`);
  writeCharges(doc, "Primary", q.accountNumber, q.metro, chargesFor(q, q.metro, q.additionalBandwidth));
  if (q.secondary) writeCharges(doc, "Secondary", q.secondary.accountNumber, q.secondary.metro, chargesFor(q, q.secondary.metro, q.secondary.additionalBandwidth));
  doc.moveDown().fontSize(9).text("Prices exclude taxes. This quote is valid for 30 days.");
  doc.end();
  return finished;
}

async function orderSummary(c: Context<SimEnv>, world: World): Promise<Response> {
  const quote = readQuote(c, world);
  const pdf = await renderPdf(quote, new Date(world.now()));
  return c.body(new Uint8Array(pdf), 200, { "Content-Type": "application/pdf;charset=UTF-8" });
}

export const orderSummaryArea: Area = {
  name: "ne-order-summary",
  define(world) {
    defineDowntime(world);
  },
  seed(world) {
    seedDowntime(world);
  },
  routes(app: SimApp, world) {
    app.get("/ne/v1/orderSummaries", (c) => orderSummary(c, world));
    downtimeRoutes(app, world);
  },
};
