// Metros (sections 2.4 and 4.4): the catalogue of section 2.4 with latency and bandwidth figures
// between metros, the caller's own metros (presence=MY_PORTS), and the list envelope the catalogue
// areas share.

import { SimError, fail } from "../core/errors.js";
import { canSee, type Area, type Principal } from "../core/context.js";
import { pageLink, paginate, queryPage, rejectUnknownQuery } from "../core/http.js";
import { LOCAL_VC_BANDWIDTH_MAX, METROS, METRO_BY_CODE, avgLatencyMs, remoteVcBandwidthMax, type MetroInfo, type Region } from "../core/metros-data.js";
import type { JsonObject, World } from "../core/world.js";

export const metroHref = (code: string): string => `/fabric/v4/metros/${code}`;

/** Metro codes are two capital letters; anything else is a malformed path parameter, not a missing metro. */
const METRO_CODE = /^[A-Z]{2}$/;

/** The largest metros of each region: every metro is connected to its own region and to these hubs. */
const HUBS: Record<Region, readonly string[]> = {
  AMER: ["DC", "NY", "SV", "CH", "DA"],
  EMEA: ["LD", "AM", "FR", "PA"],
  APAC: ["SG", "TY", "HK", "SY"],
};

/** ISO country of each metro, from which its geographic scopes follow. */
const COUNTRY: Record<string, string> = {
  AD: "AE", AM: "NL", BA: "ES", DX: "AE", DB: "IE", DU: "DE", EN: "FI", FR: "DE", GV: "CH", HH: "DE", HE: "FI",
  IL: "TR", LS: "PT", LD: "GB", MD: "ES", MA: "GB", ML: "IT", MU: "DE", MC: "OM", PA: "FR", SA: "ES", SO: "BG",
  SK: "SE", WA: "PL", ZH: "CH", ZW: "NL",
  AT: "US", BG: "CO", BO: "US", CH: "US", CU: "US", DA: "US", DE: "US", HO: "US", LA: "US", MX: "MX", MI: "US",
  MO: "CA", MT: "MX", NY: "US", PH: "US", RJ: "BR", SP: "BR", SE: "US", SV: "US", TR: "CA", DC: "US",
  AE: "AU", BR: "AU", CA: "AU", HK: "HK", JK: "ID", ME: "AU", OS: "JP", PE: "AU", SL: "KR", SH: "CN", SG: "SG",
  SY: "AU", TY: "JP",
};

const EU_COUNTRIES = new Set(["NL", "ES", "IE", "DE", "FI", "PT", "IT", "FR", "BG", "SE", "PL"]);

/** The official GeoScopeType boundaries a metro lies within (may be empty). */
function geoScopes(country: string): string[] {
  if (EU_COUNTRIES.has(country)) return ["EU"];
  switch (country) {
    case "US":
      return ["CONUS"];
    case "CA":
      return ["CANADA"];
    case "GB":
      return ["UK"];
    case "JP":
      return ["JAPAN"];
    case "AU":
      return ["AUSTRALIA"];
    case "BR":
      return ["BRAZIL"];
    case "CH":
      return ["SWITZERLAND"];
    default:
      return [];
  }
}

function connectedMetros(metro: MetroInfo): JsonObject[] {
  const hubs = Object.values(HUBS).flat();
  return METROS.filter((other) => other.code !== metro.code && (other.region === metro.region || hubs.includes(other.code))).map((other) => ({
    href: metroHref(other.code),
    code: other.code,
    avgLatency: avgLatencyMs(metro.code, other.code),
    remoteVCBandwidthMax: remoteVcBandwidthMax(metro.code, other.code),
  }));
}

/** A metro as the API returns it. Each metro has its own fabric ASN, numbered in catalogue order. */
function renderMetro(metro: MetroInfo): JsonObject {
  const country = COUNTRY[metro.code] ?? "";
  return {
    href: metroHref(metro.code),
    type: "XF_METRO",
    code: metro.code,
    region: metro.region,
    name: metro.name,
    country,
    equinixAsn: 60_000 + METROS.indexOf(metro),
    localVCBandwidthMax: LOCAL_VC_BANDWIDTH_MAX,
    geoCoordinates: { latitude: metro.lat, longitude: metro.lon },
    connectedMetros: connectedMetros(metro),
    services: [{ type: "ETHERNET_IP_SERVICE" }],
    geoScopes: geoScopes(country),
  };
}

/** Port states in which a port no longer gives its owner a presence in the metro. */
const GONE_PORT_STATES = new Set(["DEPROVISIONED", "DELETED", "FAILED", "INACTIVE"]);

/** Metros where the caller has a port it can see (the limited client sees only the sandbox's ports). */
function presenceMetros(world: World, principal: Principal): Set<string> {
  const codes = new Set<string>();
  for (const port of world.list("ports")) {
    if (!canSee(principal, port)) continue;
    const body = world.view(port);
    const location = body.location;
    const state = typeof body.state === "string" ? body.state : "";
    if (location && typeof location === "object" && !Array.isArray(location) && typeof location.metroCode === "string" && !GONE_PORT_STATES.has(state)) {
      codes.add(location.metroCode);
    }
  }
  return codes;
}

type Presence = "MY_PORTS";

function readPresence(raw: string | undefined): Presence | undefined {
  if (raw === undefined) return undefined;
  if (raw !== "MY_PORTS") return fail("invalidMetroQuery", "presence", "Allowed value for presence is MY_PORTS", raw);
  return raw;
}

/**
 * The metros API answers every bad query value with its own code (its error schema allows no other),
 * so the shared query checks' problems are re-issued under it, with their details.
 */
function metroQuery<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof SimError && e.def.status === 400) throw new SimError("invalidMetroQuery", e.details);
    throw e;
  }
}

export const metrosArea: Area = {
  name: "fabric-metros",
  routes(app, world) {
    app.get("/fabric/v4/metros", (c) => {
      const { presence, page } = metroQuery(() => {
        rejectUnknownQuery(c, ["presence", "offset", "limit"]);
        return { presence: readPresence(c.req.query("presence")), page: queryPage(c, { defaultLimit: 10, maxLimit: 100 }) };
      });
      const mine = presence === "MY_PORTS" ? presenceMetros(world, c.get("principal")) : undefined;
      const metros = METROS.filter((m) => mine === undefined || mine.has(m.code)).map(renderMetro);
      return c.json(paginate(metros, page, pageLink(c)));
    });

    app.get("/fabric/v4/metros/:metroCode", (c) => {
      metroQuery(() => rejectUnknownQuery(c, []));
      const code = c.req.param("metroCode");
      if (!METRO_CODE.test(code)) fail("invalidMetroCode", "metroCode", "Provide valid metro code: two capital letters", code);
      const metro = METRO_BY_CODE.get(code) ?? fail("metroNotFound", "metroCode", `metro ${code} is not a Fabric metro`, code);
      return c.json(renderMetro(metro));
    });
  },
};
