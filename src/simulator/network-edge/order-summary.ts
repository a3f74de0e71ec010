// The order summary (section 4.11): a printable PDF quote of the monthly charges of a device order
// (device, license, additional bandwidth; for the primary and, for a pair, the secondary), for
// customers whose purchase process needs a formal quote. The charges are those of the one device price
// model (device-model.ts), which the price call and a created device's pricingDetails also quote.
// This area also serves the downtime notification (downtime.ts).

import type { Context } from "hono";
import { ACCOUNTS } from "../core/auth.js";
import { fail, SimError } from "../core/errors.js";
import type { Area, Principal, SimApp, SimEnv } from "../core/context.js";
import { rejectUnknownQuery } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { deviceCharges, type PriceInput } from "./device-model.js";
import { deviceQuote, type DeviceQuote } from "./device-setup.js";
import { defineDowntime, downtimeRoutes, seedDowntime } from "./downtime.js";
import { DEVICE_MANAGEMENT_TYPES, DEVICE_TYPE_BY_CODE, LICENSE_TYPES, licenseModeSpelling, managementSpelling, oneOf, queryInt, visibleDevice } from "./services-shared.js";
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
    licenseType: oneOf(licenseModeSpelling(c.req.query("licenseType") ?? "SUB"), LICENSE_TYPES, "licenseType"),
    managementType: oneOf(managementSpelling(c.req.query("deviceManagementType") ?? "PROVIDER-CONFIGURED"), DEVICE_MANAGEMENT_TYPES, "deviceManagementType"),
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

function writeCharges(doc: PDFKit.PDFDocument, heading: string, account: number, input: PriceInput): void {
  const { currency, charges } = deviceCharges(input);
  const money = (n: number) => `${currency} ${n.toFixed(2)}`;
  doc.moveDown().fontSize(13).text(`${heading} device: account ${account}, metro ${input.metroCode} (${METRO_BY_CODE.get(input.metroCode)!.name})`);
  doc.fontSize(11);
  let total = 0;
  for (const charge of charges) {
    const monthly = Number(charge.monthlyRecurringCharges);
    total += monthly;
    doc.text(`${String(charge.description)}: ${money(monthly)} per month`);
  }
  doc.text(`Total monthly recurring charges: ${money(Math.round(total * 100) / 100)}`);
}

/** What the order summary answers when the PDF library cannot be loaded: what is missing, and how to add it. */
export const PDFKIT_MISSING =
  "The order summary is a PDF, and the PDF library pdfkit is not installed beside netform (an optional dependency, left out of a default install). " +
  "Install it where netform is installed: `npm install -g pdfkit` for a global install, `npm install pdfkit` in a project that depends on netform.";

/**
 * The PDF library, loaded on the first quote: it and its fonts are most of the simulator's start-up
 * otherwise, which every command against the embedded simulator pays. It is an optional peer dependency of
 * the package (a default install leaves it out): when it is not there, the quote is refused with a message
 * that says how to add it, and the rest of the simulator works as it does with it.
 */
async function loadPdfkit(): Promise<typeof import("pdfkit")> {
  try {
    return (await import("pdfkit")).default;
  } catch (err) {
    const { code, message } = err as { code?: unknown; message?: unknown };
    const missing = (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") && typeof message === "string" && /['"]pdfkit['"]/.test(message);
    if (missing) throw new SimError("serviceUnavailable", [], {}, PDFKIT_MISSING);
    throw err;
  }
}

async function renderPdf(q: Quote, priced: DeviceQuote, quotedAt: Date): Promise<Buffer> {
  const PDFDocument = await loadPdfkit();
  // Uncompressed, so that the quoted figures can be read from the bytes (and tested).
  const doc = new PDFDocument({ compress: false, info: { Title: "Network Edge order summary", Author: "Network Edge", CreationDate: quotedAt } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const { primary, secondary } = priced;
  doc.fontSize(18).text("Network Edge order summary");
  doc.fontSize(11).text(`Quote date: ${quotedAt.toISOString()}`);
  doc.moveDown().text(`Device type: ${q.deviceTypeName} (${q.vendorPackage})`);
  doc.text(`Software package: ${q.packageName} (${q.softwarePackage}), license ${primary.licenseMode}, ${primary.management}`);
  doc.text(`Cores: ${primary.core}; throughput: ${q.throughputMbps} Mbps; term: ${primary.termLength} months`);
  if (q.virtualDeviceUuid) doc.text(`Modification of virtual device ${q.virtualDeviceUuid}`);
  writeCharges(doc, "Primary", q.accountNumber, primary);
  if (q.secondary && secondary) writeCharges(doc, "Secondary", q.secondary.accountNumber, secondary);
  doc.moveDown().fontSize(9).text("Prices exclude taxes. This quote is valid for 30 days.");
  doc.end();
  return finished;
}

async function orderSummary(c: Context<SimEnv>, world: World): Promise<Response> {
  const quote = readQuote(c, world);
  // The figures come from the one device price model, read as the price call reads its query.
  const pdf = await renderPdf(quote, deviceQuote(c, world, { priceExistingDevice: false }), new Date(world.now()));
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
