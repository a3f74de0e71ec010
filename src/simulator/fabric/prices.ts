// Price search (sections 2.11 and 4.12): `POST /fabric/v4/prices/search` with a filter of
// {property, operator, values} expressions. `/type` selects the product and which other properties are
// required; every property, operator and value of the 4.12 table is checked. Prices are deterministic:
// a table per product and bandwidth, scaled by distance (latency between metros) and region.

import { SimError, fail } from "../core/errors.js";
import { canSee, type Area, type Principal } from "../core/context.js";
import { readObject } from "../core/http.js";
import { METRO_BY_CODE, avgLatencyMs, type Region } from "../core/metros-data.js";
import { getPointer, setPointer, type Json, type JsonObject, type World } from "../core/world.js";

type ProductType = "VIRTUAL_CONNECTION_PRODUCT" | "IP_BLOCK_PRODUCT" | "CLOUD_ROUTER_PRODUCT" | "VIRTUAL_PORT_PRODUCT";
const PRODUCT_TYPES: readonly ProductType[] = ["VIRTUAL_CONNECTION_PRODUCT", "IP_BLOCK_PRODUCT", "CLOUD_ROUTER_PRODUCT", "VIRTUAL_PORT_PRODUCT"];

type Operator = "=" | "IN";

type ValueRule =
  | { kind: "text"; allowed: readonly string[] }
  | { kind: "number"; allowed: readonly number[] }
  | { kind: "boolean" }
  | { kind: "accountNumber" }
  | { kind: "metro" }
  | { kind: "ibx" }
  | { kind: "uuid" };

interface PropertyRule {
  operator: Operator;
  /** The product whose search may use the property; undefined: every product. */
  product?: ProductType;
  value: ValueRule;
}

const text = (...allowed: string[]): ValueRule => ({ kind: "text", allowed });
const CONNECTION_BANDWIDTHS = [50, 200, 500, 1000, 2000, 5000, 10000] as const;
const PORT_BANDWIDTHS = [1000, 10000, 100000] as const;
const ROUTER_PACKAGES = ["LAB", "STANDARD"] as const;

const VC: ProductType = "VIRTUAL_CONNECTION_PRODUCT";
const PORT: ProductType = "VIRTUAL_PORT_PRODUCT";

/** The table of section 4.12: every searchable property, its one operator and its values. */
const PROPERTIES: Record<string, PropertyRule> = {
  "/type": { operator: "=", value: { kind: "text", allowed: PRODUCT_TYPES } },
  "/account/accountNumber": { operator: "=", value: { kind: "accountNumber" } },
  "/connection/type": { operator: "=", product: VC, value: text("EVPL_VC", "IP_VC", "VD_CHAIN_VC") },
  "/connection/bandwidth": { operator: "IN", product: VC, value: { kind: "number", allowed: CONNECTION_BANDWIDTHS } },
  "/connection/aSide/accessPoint/type": { operator: "=", product: VC, value: text("COLO", "CLOUD_ROUTER", "VD") },
  "/connection/aSide/accessPoint/location/metroCode": { operator: "=", product: VC, value: { kind: "metro" } },
  "/connection/aSide/accessPoint/port/settings/buyout": { operator: "=", product: VC, value: { kind: "boolean" } },
  "/connection/zSide/accessPoint/type": { operator: "=", product: VC, value: text("CHAINGROUP", "COLO", "SP") },
  "/connection/zSide/accessPoint/location/metroCode": { operator: "=", product: VC, value: { kind: "metro" } },
  "/connection/zSide/accessPoint/profile/uuid": { operator: "=", product: VC, value: { kind: "uuid" } },
  "/connection/zSide/accessPoint/bridge/package/code": { operator: "=", product: VC, value: text("GLOBAL", "REGIONAL", "LOCAL") },
  "/ipBlock/type": { operator: "=", product: "IP_BLOCK_PRODUCT", value: text("IPv4") },
  "/ipBlock/prefixLength": { operator: "=", product: "IP_BLOCK_PRODUCT", value: { kind: "number", allowed: [29] } },
  "/ipBlock/location/metroCode": { operator: "IN", product: "IP_BLOCK_PRODUCT", value: { kind: "metro" } },
  "/router/location/metroCode": { operator: "=", product: "CLOUD_ROUTER_PRODUCT", value: { kind: "metro" } },
  "/router/package/code": { operator: "IN", product: "CLOUD_ROUTER_PRODUCT", value: { kind: "text", allowed: ROUTER_PACKAGES } },
  "/port/location/ibx": { operator: "=", product: PORT, value: { kind: "ibx" } },
  "/port/type": { operator: "=", product: PORT, value: text("XF_PORT") },
  "/port/bandwidth": { operator: "=", product: PORT, value: { kind: "number", allowed: PORT_BANDWIDTHS } },
  "/port/settings/buyout": { operator: "=", product: PORT, value: { kind: "boolean" } },
  "/port/connectivitySource/type": { operator: "=", product: PORT, value: text("BMMR", "COLO", "REMOTE") },
  "/port/serviceType": { operator: "=", product: PORT, value: text("EPL", "MSP") },
  "/port/lag/enabled": { operator: "=", product: PORT, value: { kind: "boolean" } },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IBX = /^([A-Z]{2})\d{1,2}$/;

/** The search's properties with their values, typed (numbers and booleans as such). */
type Criteria = Map<string, Json[]>;

function scalarText(value: Json, property: string): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return fail("invalidProperty", property, "values must be strings, numbers or booleans", JSON.stringify(value));
}

function parseValue(raw: string, rule: ValueRule, property: string): Json {
  switch (rule.kind) {
    case "text":
      return rule.allowed.includes(raw) ? raw : fail("notInAllowedList", property, `allowed values: ${rule.allowed.join(", ")}`, raw);
    case "number": {
      const n = Number(raw);
      return rule.allowed.includes(n) && raw.trim() !== "" ? n : fail("notInAllowedList", property, `allowed values: ${rule.allowed.join(", ")}`, raw);
    }
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : fail("notInAllowedList", property, "allowed values: true, false", raw);
    case "accountNumber":
      return /^\d{1,15}$/.test(raw) ? Number(raw) : fail("invalidProperty", property, "the account number must be an integer", raw);
    case "metro":
      return METRO_BY_CODE.has(raw) ? raw : fail("notInAllowedList", property, "not a Fabric metro code (section 2.4)", raw);
    case "ibx": {
      const metro = IBX.exec(raw)?.[1];
      return metro && METRO_BY_CODE.has(metro) ? raw : fail("invalidProperty", property, "not a known data-center (IBX) code, e.g. DC1", raw);
    }
    case "uuid":
      return UUID.test(raw) ? raw : fail("invalidProperty", property, "must be a UUID", raw);
    default: {
      const unreachable: never = rule;
      return unreachable;
    }
  }
}

function parseExpression(expression: Json, index: number, criteria: Criteria): void {
  const at = `/filter/and/${index}`;
  if (expression === null || typeof expression !== "object" || Array.isArray(expression)) fail("invalidProperty", at, "each expression must be {property, operator, values}");
  const { property, operator, values } = expression as JsonObject;
  if (typeof property !== "string") return fail("missingProperty", `${at}/property`, "property is required");
  const rule = PROPERTIES[property] ?? fail("unsupportedSearchProperty", property, `unsupported price search property; supported: ${Object.keys(PROPERTIES).join(", ")}`);
  if (criteria.has(property)) fail("invalidProperty", property, "the property appears more than once in the filter");
  if (typeof operator !== "string") return fail("missingProperty", `${at}/operator`, `operator is required (${rule.operator} for ${property})`);
  if (operator !== rule.operator) fail("notInAllowedList", `${at}/operator`, `the operator for ${property} is ${rule.operator}`, operator);
  if (!Array.isArray(values) || values.length === 0) return fail("missingProperty", property, "values must be a non-empty array");
  if (rule.operator === "=" && values.length !== 1) fail("invalidProperty", property, "the = operator takes exactly one value");
  const parsed = values.map((v) => parseValue(scalarText(v, property), rule.value, property));
  if (new Set(parsed.map(String)).size !== parsed.length) fail("invalidProperty", property, "values must not repeat");
  criteria.set(property, parsed);
}

function parseFilter(body: JsonObject): Criteria {
  for (const key of Object.keys(body)) if (key !== "filter") fail("invalidProperty", `/${key}`, "the price search body takes only filter");
  const filter = body.filter;
  if (filter === undefined || filter === null) return fail("missingProperty", "/filter", "filter is required");
  if (typeof filter !== "object" || Array.isArray(filter)) return fail("invalidProperty", "/filter", "filter must be an object {and: [...]}");
  for (const key of Object.keys(filter)) if (key !== "and") fail("invalidProperty", `/filter/${key}`, "the price search filter takes only and: [...]");
  const and = filter.and;
  if (!Array.isArray(and) || and.length === 0) return fail("missingProperty", "/filter/and", "filter.and must be a non-empty array of expressions");
  const criteria: Criteria = new Map();
  and.forEach((expression, i) => parseExpression(expression, i, criteria));
  return criteria;
}

// ── the search as a whole ─────────────────────────────────────────────────────────────────

class Search {
  constructor(
    readonly product: ProductType,
    private readonly criteria: Criteria,
  ) {}

  /** The single value of an `=` property, or undefined when the search does not name it. */
  one<T extends Json>(property: string): T | undefined {
    return this.criteria.get(property)?.[0] as T | undefined;
  }

  many<T extends Json>(property: string): T[] | undefined {
    return this.criteria.get(property) as T[] | undefined;
  }

  has(property: string): boolean {
    return this.criteria.has(property);
  }

  require<T extends Json>(property: string, reason: string): T {
    return this.one<T>(property) ?? fail("missingProperty", property, reason);
  }
}

function productOf(criteria: Criteria): ProductType {
  const type = criteria.get("/type")?.[0];
  if (type === undefined) return fail("missingProperty", "/type", `/type is required: one of ${PRODUCT_TYPES.join(", ")}`);
  const product = type as ProductType;
  for (const property of criteria.keys()) {
    const owner = PROPERTIES[property]?.product;
    if (owner !== undefined && owner !== product) fail("invalidProperty", property, `${property} does not apply to ${product}`);
  }
  return product;
}

const round = (n: number): number => Math.round(n * 100) / 100;

const REGION_FACTOR: Record<Region, number> = { AMER: 1, EMEA: 1.1, APAC: 1.25 };
const regionFactor = (metro: string | undefined): number => (metro ? REGION_FACTOR[METRO_BY_CODE.get(metro)?.region ?? "AMER"] : 1);

interface Charge {
  type: "MONTHLY_RECURRING" | "NON_RECURRING";
  price: number;
}

interface Offer {
  code: string;
  name: string;
  description: string;
  charges: Charge[];
  /** The product block's properties (JSON pointers into the price record) with the values priced. */
  echo: Record<string, Json>;
}

const monthly = (price: number): Charge => ({ type: "MONTHLY_RECURRING", price: round(price) });

// ── virtual connections ───────────────────────────────────────────────────────────────────

const CONNECTION_MONTHLY: Record<(typeof CONNECTION_BANDWIDTHS)[number], number> = {
  50: 150, 200: 300, 500: 500, 1000: 700, 2000: 1100, 5000: 1900, 10000: 3000,
};
const BRIDGE_FACTOR: Record<string, number> = { LOCAL: 1, REGIONAL: 1.5, GLOBAL: 2.5 };
const CONNECTION_TYPE_FACTOR: Record<string, number> = { EVPL_VC: 1, IP_VC: 0.9, VD_CHAIN_VC: 0.8 };

/** Longer paths cost more: tiers by the latency between the two metros. */
function distanceFactor(a: string, z: string): number {
  if (a === z) return 1;
  const latency = avgLatencyMs(a, z);
  if (latency < 20) return 1.3;
  if (latency < 80) return 1.8;
  return 2.6;
}

const A = "/connection/aSide/accessPoint";
const Z = "/connection/zSide/accessPoint";

/** The a-side and z-side types a connection type allows, and the defaults when the search omits them. */
const CONNECTION_SIDES: Record<string, { aSide: readonly string[]; zSide: readonly string[] }> = {
  EVPL_VC: { aSide: ["COLO", "VD"], zSide: ["COLO", "SP"] },
  IP_VC: { aSide: ["CLOUD_ROUTER"], zSide: ["COLO", "SP"] },
  VD_CHAIN_VC: { aSide: ["VD"], zSide: ["CHAINGROUP"] },
};

function sideType(search: Search, property: string, allowed: readonly string[], connectionType: string): string {
  const type = search.one<string>(property) ?? allowed[0]!;
  if (!allowed.includes(type)) fail("invalidProperty", property, `${connectionType} connections take ${allowed.join(" or ")} here`, type);
  return type;
}

function checkProfile(world: World, principal: Principal, uuid: string, zMetro: string | undefined): void {
  const property = `${Z}/profile/uuid`;
  const profile = world.get(uuid, "serviceProfiles");
  if (!profile || !canSee(principal, profile)) fail("referenceNotFound", property, `service profile ${uuid} was not found`, uuid);
  const metros = getPointer(world.view(profile!), "/metros");
  const served = Array.isArray(metros) ? metros.map((m) => getPointer(m, "/code")) : [];
  if (zMetro && !served.includes(zMetro)) fail("invalidProperty", `${Z}/location/metroCode`, `service profile ${uuid} is not offered in ${zMetro}`, zMetro);
}

function connectionOffers(search: Search, world: World, principal: Principal): Offer[] {
  const type = search.one<string>("/connection/type") ?? "EVPL_VC";
  const sides = CONNECTION_SIDES[type]!;
  const aType = sideType(search, `${A}/type`, sides.aSide, type);
  const zType = sideType(search, `${Z}/type`, sides.zSide, type);
  const aMetro = search.require<string>(`${A}/location/metroCode`, "the a-side metro is required for connection pricing");
  const zMetro = search.one<string>(`${Z}/location/metroCode`);
  const buyout = search.one<boolean>(`${A}/port/settings/buyout`) ?? false;
  if (search.has(`${A}/port/settings/buyout`) && aType !== "COLO") fail("invalidProperty", `${A}/port/settings/buyout`, "buyout applies to a COLO (port) a-side only");
  const profile = search.one<string>(`${Z}/profile/uuid`);
  const bridge = search.one<string>(`${Z}/bridge/package/code`);
  if (zType === "SP" && profile === undefined) fail("missingProperty", `${Z}/profile/uuid`, "a service profile uuid is required for an SP z-side");
  if (zType !== "SP" && profile !== undefined) fail("invalidProperty", `${Z}/profile/uuid`, "a service profile applies to an SP z-side only");
  if (zType === "CHAINGROUP" && bridge === undefined) fail("missingProperty", `${Z}/bridge/package/code`, "a bridge package code is required for a CHAINGROUP z-side");
  if (zType !== "CHAINGROUP" && bridge !== undefined) fail("invalidProperty", `${Z}/bridge/package/code`, "a bridge package applies to a CHAINGROUP z-side only");
  if (profile !== undefined) checkProfile(world, principal, profile, zMetro);

  const factor = bridge !== undefined ? BRIDGE_FACTOR[bridge]! : distanceFactor(aMetro, zMetro ?? aMetro);
  const local = bridge === undefined && (zMetro ?? aMetro) === aMetro;
  const echoSides: Record<string, Json> = {
    "/connection/type": type,
    [`${A}/type`]: aType,
    [`${A}/location/metroCode`]: aMetro,
    ...(aType === "COLO" ? { [`${A}/port/settings/buyout`]: buyout } : {}),
    [`${Z}/type`]: zType,
    ...(zType === "CHAINGROUP" ? { [`${Z}/bridge/package/code`]: bridge! } : { [`${Z}/location/metroCode`]: zMetro ?? aMetro }),
    ...(profile === undefined ? {} : { [`${Z}/profile/uuid`]: profile }),
  };
  const bandwidths = search.many<number>("/connection/bandwidth") ?? [...CONNECTION_BANDWIDTHS];
  return bandwidths.map((bandwidth) => ({
    code: "ECX00015.PROD",
    name: "Equinix Fabric Virtual Connection Product",
    description: "Equinix Fabric Virtual Connection",
    // A buyout port includes unlimited local connections; remote ones are still charged.
    charges: [monthly(buyout && local ? 0 : CONNECTION_MONTHLY[bandwidth as keyof typeof CONNECTION_MONTHLY] * factor * CONNECTION_TYPE_FACTOR[type]!)],
    echo: { ...echoSides, "/connection/bandwidth": bandwidth },
  }));
}

// ── IP blocks, cloud routers, ports ───────────────────────────────────────────────────────

function ipBlockOffers(search: Search): Offer[] {
  const metros = search.many<string>("/ipBlock/location/metroCode") ?? [undefined];
  return metros.map((metro) => ({
    code: "ECX00005.PROD",
    name: "Equinix Fabric IP Addressing Product",
    description: "Equinix Fabric IP Addressing",
    charges: [monthly(20 * regionFactor(metro))],
    echo: {
      "/ipBlock/type": search.one<string>("/ipBlock/type") ?? "IPv4",
      "/ipBlock/prefixLength": search.one<number>("/ipBlock/prefixLength") ?? 29,
      ...(metro === undefined ? {} : { "/ipBlock/location/metroCode": metro }),
    },
  }));
}

type RouterPackage = (typeof ROUTER_PACKAGES)[number];

/** Section 8: what each cloud router package includes. */
function routerPackageTerms(code: RouterPackage): { monthly: number; terms: string } {
  switch (code) {
    case "LAB":
      return { monthly: 0, terms: "trial package: 50 IPv4 routes, 50 IPv6 routes, 10 Mbps per connection, 10 connections" };
    case "STANDARD":
      return { monthly: 750, terms: "1000 IPv4 routes, 100 IPv6 routes" };
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

function routerOffers(search: Search): Offer[] {
  const metro = search.one<string>("/router/location/metroCode");
  const packages = search.many<RouterPackage>("/router/package/code") ?? [...ROUTER_PACKAGES];
  return packages.map((code) => {
    const { monthly: base, terms } = routerPackageTerms(code);
    return {
      code: "ECX00014.PROD",
      name: "Equinix Cloud Router Product",
      description: `Equinix Cloud Router, ${code} package (${terms})`,
      charges: [monthly(base * regionFactor(metro))],
      echo: { "/router/package/code": code, ...(metro === undefined ? {} : { "/router/location/metroCode": metro }) },
    };
  });
}

const PORT_CHARGES: Record<(typeof PORT_BANDWIDTHS)[number], { monthly: number; once: number }> = {
  1000: { monthly: 500, once: 100 },
  10000: { monthly: 1500, once: 500 },
  100000: { monthly: 6000, once: 1000 },
};

function portOffers(search: Search): Offer[] {
  search.require("/account/accountNumber", "the account number is mandatory for port pricing");
  const ibx = search.one<string>("/port/location/ibx");
  const buyout = search.one<boolean>("/port/settings/buyout") ?? false;
  const source = search.one<string>("/port/connectivitySource/type") ?? "COLO";
  const serviceType = search.one<string>("/port/serviceType") ?? "MSP";
  const lag = search.one<boolean>("/port/lag/enabled") ?? false;
  const bandwidths = search.has("/port/bandwidth") ? [search.one<number>("/port/bandwidth")!] : [...PORT_BANDWIDTHS];
  const region = regionFactor(ibx?.slice(0, 2));
  return bandwidths.map((bandwidth) => {
    const base = PORT_CHARGES[bandwidth as keyof typeof PORT_CHARGES];
    // Buyout ports carry unlimited connections in a higher monthly charge; remote and meet-me-room
    // sources add their circuit; a link aggregation group adds its set-up.
    const monthlyPrice = base.monthly * (buyout ? 3 : 1) * (serviceType === "EPL" ? 1.1 : 1) + (source === "REMOTE" ? 250 : 0);
    const oncePrice = base.once + (source === "BMMR" ? 150 : 0) + (lag ? 100 : 0);
    return {
      code: "ECX00001.PROD",
      name: "Equinix Fabric Port Product",
      description: "Equinix Fabric Port",
      charges: [monthly(monthlyPrice * region), { type: "NON_RECURRING", price: round(oncePrice * region) }],
      echo: {
        "/port/type": search.one<string>("/port/type") ?? "XF_PORT",
        ...(ibx === undefined ? {} : { "/port/location/ibx": ibx }),
        "/port/lag/enabled": lag,
        "/port/physicalPortsQuantity": 1,
        "/port/bandwidth": bandwidth,
        "/port/connectivitySource/type": source,
        "/port/serviceType": serviceType,
        "/port/settings/buyout": buyout,
      },
    };
  });
}

function offersFor(search: Search, world: World, principal: Principal): Offer[] {
  switch (search.product) {
    case "VIRTUAL_CONNECTION_PRODUCT":
      return connectionOffers(search, world, principal);
    case "IP_BLOCK_PRODUCT":
      return ipBlockOffers(search);
    case "CLOUD_ROUTER_PRODUCT":
      return routerOffers(search);
    case "VIRTUAL_PORT_PRODUCT":
      return portOffers(search);
    default: {
      const unreachable: never = search.product;
      return unreachable;
    }
  }
}

/** Prices are quoted for the caller's own accounts; the first one when the search names none. */
function accountFor(search: Search, principal: Principal): number {
  const requested = search.one<number>("/account/accountNumber");
  if (requested === undefined) return principal.accountNumbers[0]!;
  if (!principal.accountNumbers.includes(requested)) fail("referenceNotFound", "/account/accountNumber", `account ${requested} was not found for ${principal.userName}`, requested);
  return requested;
}

function priceRecord(product: ProductType, offer: Offer, accountNumber: number): JsonObject {
  const record: JsonObject = {
    type: product,
    code: offer.code,
    name: offer.name,
    description: offer.description,
    account: { accountNumber },
    charges: offer.charges.map((c) => ({ type: c.type, price: c.price })),
    currency: "USD",
  };
  for (const [pointer, value] of Object.entries(offer.echo)) setPointer(record, pointer, value);
  return record;
}

/**
 * The price API has its own two validation codes (its error schema allows no other): a value outside
 * the allowed list is "Invalid value", every other problem a "Validation failure", with its details.
 */
function asPriceError(e: unknown): never {
  if (!(e instanceof SimError) || e.def.status !== 400) throw e;
  throw new SimError(e.key === "notInAllowedList" ? "priceInvalidValue" : "priceValidation", e.details);
}

async function searchPrices(body: Promise<JsonObject>, world: World, principal: Principal): Promise<JsonObject> {
  const criteria = parseFilter(await body);
  const search = new Search(productOf(criteria), criteria);
  const accountNumber = accountFor(search, principal);
  const data = offersFor(search, world, principal).map((offer) => priceRecord(search.product, offer, accountNumber));
  return { data, pagination: { offset: 0, limit: data.length, total: data.length } };
}

export const pricesArea: Area = {
  name: "fabric-prices",
  routes(app, world) {
    app.post("/fabric/v4/prices/search", async (c) => c.json(await searchPrices(readObject(c), world, c.get("principal")).catch(asPriceError)));
  },
};
