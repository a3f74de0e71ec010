// The calls that come before a device order (section 4.10, paths of the official description): the
// caller's accounts in a metro, the order agreement of an account and its acceptance, vendor and order
// terms, and the price of a device (the same charge model as a device's pricingDetails).

import type { Context } from "hono";
import { ACCOUNTS } from "../core/auth.js";
import { findVisible, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { readObject, rejectUnknownQuery } from "../core/http.js";
import { DEVICE_TYPE_BY_CODE, LICENSE_MODES, MANAGEMENT_TYPES, licenseModeSpelling, managementSpelling, serviceMetros, type LicenseMode, type ManagementType } from "./device-catalogue.js";
import { oneOf, optionalText, queryInteger, queryRequired, rejectUnknownFields, requiredString } from "./device-fields.js";
import { DEVICE_KIND, deviceCharges, type PriceInput } from "./device-model.js";
import { DEFAULT_ADDITIONAL_BANDWIDTH, DEFAULT_TERM_LENGTH, TERM_LENGTHS, callerAccount, deviceType, resolveOffer } from "./device-rules.js";
import type { Json, JsonObject, World } from "../core/world.js";

type Ctx = Context<SimEnv>;

const AGREEMENT_KIND = "deviceAgreements";
/** The current version of the order agreement; accepting it means sending this id as apttusId. */
export const TERMS_VERSION_ID = "c2Z34000002CXRm";
const AGREEMENT_TERMS =
  "By accepting you agree, on behalf of your company, to the terms and conditions of network edge orders as governed by your master country agreement. " +
  "The initial term starts when the device is delivered and renews for an equal period unless either party gives notice.";
const ORDER_TERMS =
  "By clicking \"Accept\" you are agreeing to the terms and conditions of this Order on behalf of your Company. After the Initial Term, the term " +
  "automatically renews for a period equal to the Initial Term unless either Party terminates this Order by written non-renewal notice 90 days " +
  "before the end of the then-current term (30 days for a one-month Initial Term).";

/** The main account has accepted the order agreement; the lab account has not yet. */
export function seedAgreements(world: World): void {
  world.create(AGREEMENT_KIND, { accountNumber: String(ACCOUNTS.main.accountNumber), termsVersionID: TERMS_VERSION_ID, acceptedBy: "demo-user" });
}

// ── accounts ───────────────────────────────────────────────────────────────────────────────────

function accountsByMetro(c: Ctx) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, ["accountUcmId"]);
  const metro = c.req.param("metro")!;
  const metros = serviceMetros();
  if (!metros.some((m) => m.metroCode === metro)) return fail("notFound", "metro", `the device service is not offered in metro ${metro}`, metro);
  const ucmId = c.req.query("accountUcmId");
  const accounts = Object.values(ACCOUNTS)
    .filter((a) => principal.accountNumbers.includes(a.accountNumber) && (ucmId === undefined || a.ucmId === ucmId))
    .map((a) => ({
      accountName: a.accountName,
      accountNumber: a.accountNumber,
      accountUcmId: a.ucmId,
      accountStatus: "Active",
      metros: metros.map((m) => m.metroCode),
      creditHold: false,
      referenceId: "",
    }));
  return c.json({ accountCreateUrl: "https://portal.example.net/accounts/new", accounts });
}

// ── agreements and terms ───────────────────────────────────────────────────────────────────────

function accepted(world: World, accountNumber: number): boolean {
  return world.list(AGREEMENT_KIND).some((a) => a.body.accountNumber === String(accountNumber) && a.body.termsVersionID === TERMS_VERSION_ID);
}

function ownAccount(principal: Principal, raw: string, property: string) {
  const account = Object.values(ACCOUNTS).find((a) => String(a.accountNumber) === raw && principal.accountNumbers.includes(a.accountNumber));
  if (!account) return fail("notFound", property, `account ${raw} is not one of your accounts`, raw);
  return account;
}

function agreementStatus(c: Ctx, world: World) {
  rejectUnknownQuery(c, ["account_number"]);
  const account = ownAccount(c.get("principal"), queryRequired(c, "account_number"), "account_number");
  const valid = accepted(world, account.accountNumber);
  return c.json({
    errorMessage: valid ? "" : `account ${account.accountNumber} has not accepted the current agreement`,
    isValid: String(valid),
    terms: AGREEMENT_TERMS,
    termsVersionID: TERMS_VERSION_ID,
  });
}

async function acceptAgreement(c: Ctx, world: World) {
  const principal = c.get("principal");
  rejectUnknownQuery(c, []);
  const body = await readObject(c);
  rejectUnknownFields(body, ["accountNumber", "apttusId"]);
  const raw = optionalText(body, "accountNumber", "accountNumber");
  if (raw === undefined || raw === "") return fail("missingProperty", "accountNumber", "accountNumber is required");
  const account = ownAccount(principal, raw, "accountNumber");
  const apttusId = requiredString(body, "apttusId", "apttusId");
  if (apttusId !== TERMS_VERSION_ID) fail("invalidProperty", "apttusId", `apttusId must be the current termsVersionID ${TERMS_VERSION_ID}`, apttusId);
  if (!accepted(world, account.accountNumber)) {
    world.create(AGREEMENT_KIND, { accountNumber: String(account.accountNumber), termsVersionID: TERMS_VERSION_ID, acceptedBy: principal.userName, acceptedDate: world.nowIso() });
  }
  return c.json({ status: "SUCCESS" });
}

function vendorTerms(c: Ctx) {
  rejectUnknownQuery(c, ["vendorPackage", "licenseType"]);
  const type = deviceType(queryRequired(c, "vendorPackage"), "vendorPackage");
  oneOf(licenseModeSpelling(queryRequired(c, "licenseType")), LICENSE_MODES, "licenseType");
  return c.json({ terms: type.vendorTermsUrl });
}

function orderTerms(c: Ctx) {
  rejectUnknownQuery(c, []);
  return c.json({ terms: ORDER_TERMS });
}

// ── prices ─────────────────────────────────────────────────────────────────────────────────────

const PRICE_QUERY = [
  "accountNumber", "metro", "vendorPackage", "licenseType", "softwarePackage", "throughput", "throughputUnit", "termLength", "additionalBandwidth",
  "virtualDeviceUuid", "deviceManagementType", "core", "secondaryAccountNumber", "secondaryMetro", "secondaryAdditionalBandwidth", "accountUcmId",
  "orderingContact",
];

function termQuery(c: Ctx): number | undefined {
  const raw = c.req.query("termLength");
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(TERM_LENGTHS as readonly number[]).includes(n)) return fail("notInAllowedList", "termLength", `termLength must be one of ${TERM_LENGTHS.join(", ")}`, raw);
  return n;
}

function bandwidthQuery(c: Ctx, name: string): number | undefined {
  return queryInteger(c, name, 0);
}

function metroQuery(c: Ctx, name: string, metros: readonly string[]): string {
  const metro = queryRequired(c, name);
  if (!metros.includes(metro)) fail("notInAllowedList", name, `offered metros: ${metros.join(", ")}`, metro);
  return metro;
}

/** The quote of a new device: every choice named in the query, with the create defaults. */
function quoteInput(c: Ctx): PriceInput & { metros: readonly string[] } {
  const type = deviceType(queryRequired(c, "vendorPackage"), "vendorPackage");
  const licenseRaw = c.req.query("licenseType");
  const managementRaw = c.req.query("deviceManagementType");
  const management: ManagementType = managementRaw === undefined ? (Object.keys(type.management)[0] as ManagementType) : oneOf(managementSpelling(managementRaw), MANAGEMENT_TYPES, "deviceManagementType");
  const licenses = type.management[management]?.licenses ?? {};
  const mode: LicenseMode | undefined = licenseRaw === undefined ? LICENSE_MODES.find((m) => licenses[m]) : oneOf(licenseModeSpelling(licenseRaw), LICENSE_MODES, "licenseType");
  const core = queryInteger(c, "core") ?? licenses[mode ?? "SUB"]?.[0]?.core;
  const request: JsonObject = {
    deviceTypeCode: type.code,
    deviceManagementType: management,
    ...(mode ? { licenseMode: mode } : {}),
    ...(core === undefined ? {} : { core }),
    ...(c.req.query("softwarePackage") ? { packageCode: c.req.query("softwarePackage")! } : {}),
  };
  const offer = resolveOffer(request, { deviceTypeCode: "vendorPackage", deviceManagementType: "deviceManagementType", licenseMode: "licenseType", core: "core", packageCode: "softwarePackage" });
  return {
    type: offer.type,
    pkg: offer.pkg,
    core: offer.core.core,
    licenseMode: offer.licenseMode,
    management: offer.management,
    termLength: termQuery(c) ?? DEFAULT_TERM_LENGTH,
    additionalBandwidth: bandwidthQuery(c, "additionalBandwidth") ?? DEFAULT_ADDITIONAL_BANDWIDTH,
    metroCode: metroQuery(c, "metro", offer.type.metros),
    metros: offer.type.metros,
  };
}

/** The price of an existing device, with the changes the query asks about (term, bandwidth, core). */
function deviceInput(c: Ctx, world: World, uuid: string): { input: PriceInput & { metros: readonly string[] }; view: JsonObject } {
  const device = findVisible(world, c.get("principal"), DEVICE_KIND, uuid, "virtualDeviceUuid");
  const view = world.view(device);
  const type = DEVICE_TYPE_BY_CODE.get(String(view.deviceTypeCode));
  const pkg = type?.packages.find((p) => p.code === view.packageCode);
  if (!type || !pkg) return fail("invalidProperty", "virtualDeviceUuid", `device ${uuid} has no priced configuration`, uuid);
  const coreNow = Number((view.core as JsonObject | undefined)?.core ?? 0);
  return {
    view,
    input: {
      type,
      pkg,
      core: queryInteger(c, "core") ?? coreNow,
      licenseMode: view.licenseType === "BYOL" ? "BYOL" : "SUB",
      management: view.deviceManagementType === "SELF-CONFIGURED" ? "SELF-CONFIGURED" : "PROVIDER-CONFIGURED",
      termLength: termQuery(c) ?? Number(view.termLength ?? DEFAULT_TERM_LENGTH),
      additionalBandwidth: bandwidthQuery(c, "additionalBandwidth") ?? Number(view.additionalBandwidth ?? 0),
      metroCode: String(view.metroCode),
      metros: type.metros,
    },
  };
}

/** A device quote: the priced inputs of the primary and, for a pair, the secondary; the device priced, if any. */
export interface DeviceQuote {
  primary: PriceInput;
  secondary?: PriceInput;
  view?: JsonObject;
}

/**
 * The inputs a price query asks about (section 4.10), with the create's defaults: one reading for the price
 * call and the order summary, so both quote what the created device's pricingDetails will say. The order
 * summary quotes the configuration its query describes, also for a device to modify; the price call, the
 * device as it is with the changes the query asks about.
 */
export function deviceQuote(c: Ctx, world: World, options: { priceExistingDevice: boolean }): DeviceQuote {
  const principal = c.get("principal");
  for (const name of ["accountNumber", "secondaryAccountNumber"]) {
    const raw = c.req.query(name);
    if (raw !== undefined) callerAccount(principal, raw, name);
  }
  const throughputUnit = c.req.query("throughputUnit");
  if (throughputUnit !== undefined) oneOf(throughputUnit, ["Mbps", "Gbps"] as const, "throughputUnit");
  queryInteger(c, "throughput", 1);
  const uuid = c.req.query("virtualDeviceUuid");
  const { input, view } = uuid === undefined || !options.priceExistingDevice ? { input: quoteInput(c), view: undefined } : deviceInput(c, world, uuid);
  const secondaryMetro = c.req.query("secondaryMetro") === undefined ? undefined : metroQuery(c, "secondaryMetro", input.metros);
  const secondary = secondaryMetro
    ? { ...input, metroCode: secondaryMetro, additionalBandwidth: bandwidthQuery(c, "secondaryAdditionalBandwidth") ?? DEFAULT_ADDITIONAL_BANDWIDTH }
    : undefined;
  return { primary: input, ...(secondary ? { secondary } : {}), ...(view ? { view } : {}) };
}

function price(c: Ctx, world: World) {
  rejectUnknownQuery(c, PRICE_QUERY);
  const { primary, secondary, view } = deviceQuote(c, world, { priceExistingDevice: true });
  const billing: JsonObject = view
    ? { billingEnabled: view.billingEnabled === true, ...(typeof view.billingCommencementDate === "string" ? { billingCommencementDate: view.billingCommencementDate } : {}) }
    : { billingEnabled: false };
  const secondaryBlock: Json | undefined = secondary ? { ...deviceCharges(secondary), billingEnabled: false } : undefined;
  return c.json({ primary: { ...deviceCharges(primary), ...billing }, ...(secondaryBlock ? { secondary: secondaryBlock } : {}), termLength: String(primary.termLength) });
}

export function setupRoutes(app: SimApp, world: World): void {
  app.get("/ne/v1/accounts/:metro", (c) => accountsByMetro(c));
  app.get("/ne/v1/agreements/accounts", (c) => agreementStatus(c, world));
  app.post("/ne/v1/agreements/accounts", (c) => acceptAgreement(c, world));
  app.get("/ne/v1/agreements/vendors", (c) => vendorTerms(c));
  app.get("/ne/v1/agreements/orders", (c) => orderTerms(c));
  app.get("/ne/v1/prices", (c) => price(c, world));
}
