// The catalogue calls of the network-edge service (sections 2.10 and 4.10): device types, the interface
// profiles of a type, and the metros the service is offered in. The set-up calls that come before an
// order (accounts, agreements, terms, prices) are in device-setup.ts and mounted here.

import type { Context } from "hono";
import type { Area, SimApp, SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { pageLink, paginate, queryPage, rejectUnknownQuery } from "../core/http.js";
import {
  CATEGORIES, DEVICE_TYPES, DEVICE_TYPE_BY_CODE, LICENSE_MODES, MANAGEMENT_TYPES, deviceTypeJson, findPackage, findVersion, licenseModeSpelling, managementSpelling, serviceMetros,
  type CoreDef, type LicenseMode,
} from "./device-catalogue.js";
import { oneOf, queryBoolean, queryInteger, queryRequired } from "./device-fields.js";
import { interfaceRole } from "./device-model.js";
import { CONNECTIVITY } from "./device-rules.js";
import { seedAgreements, setupRoutes } from "./device-setup.js";
import type { World } from "../core/world.js";

type Ctx = Context<SimEnv>;

const REGIONS = ["AMER", "EMEA", "APAC"] as const;

function listDeviceTypes(c: Ctx) {
  rejectUnknownQuery(c, ["deviceTypeCode", "category", "offset", "limit"]);
  const page = queryPage(c, { defaultLimit: 20 });
  const code = c.req.query("deviceTypeCode");
  const rawCategory = c.req.query("category");
  // The official description spells the SD-WAN category with a hyphen; the specification without.
  const category = rawCategory === undefined ? undefined : oneOf(rawCategory === "SD-WAN" ? "SDWAN" : rawCategory, CATEGORIES, "category");
  const items = DEVICE_TYPES.filter((t) => (code === undefined || t.code === code) && (category === undefined || t.category === category)).map(deviceTypeJson);
  return c.json(paginate(items, page, pageLink(c)));
}

/** The licence mode of the interface lookup: "Subscription" or "BYOL" (SUB accepted as well). */
function lookupMode(c: Ctx): LicenseMode | undefined {
  const raw = c.req.query("mode");
  if (raw === undefined) return undefined;
  return oneOf(raw === "Subscription" ? "SUB" : licenseModeSpelling(raw), LICENSE_MODES, "mode");
}

function matchingCores(c: Ctx, cores: CoreDef[]): CoreDef {
  const core = queryInteger(c, "core");
  if (core === undefined) return fail("missingProperty", "core", "query parameter core is required");
  const found = cores.find((d) => d.core === core);
  if (!found) return fail("notInAllowedList", "core", `cores offered: ${[...new Set(cores.map((d) => d.core))].join(", ")}`, core);
  const memory = queryInteger(c, "memory");
  const unit = c.req.query("unit");
  if (unit !== undefined) oneOf(unit, ["GB", "MB"] as const, "unit");
  const memoryGb = memory === undefined ? undefined : unit === "MB" ? memory / 1024 : memory;
  if (memoryGb !== undefined && memoryGb !== found.memory) fail("invalidQueryParameter", "memory", `${core} cores come with ${found.memory} GB`, memory);
  const flavor = c.req.query("flavor");
  if (flavor !== undefined && flavor !== found.flavor) fail("invalidQueryParameter", "flavor", `${core} cores are the ${found.flavor} flavor`, flavor);
  return found;
}

function allowedInterfaces(c: Ctx) {
  rejectUnknownQuery(c, ["deviceManagementType", "mode", "cluster", "sdwan", "connectivity", "core", "memory", "unit", "flavor", "version", "softwarePkg"]);
  const code = c.req.param("deviceType")!;
  const type = DEVICE_TYPE_BY_CODE.get(code);
  if (!type) return fail("notFound", "deviceType", `no device type ${code}`, code);
  const management = oneOf(managementSpelling(queryRequired(c, "deviceManagementType")), MANAGEMENT_TYPES, "deviceManagementType");
  const def = type.management[management];
  if (!def) return fail("notInAllowedList", "deviceManagementType", `${type.code} is offered as ${Object.keys(type.management).join(", ")}`, management);
  const mode = lookupMode(c);
  const cores = mode === undefined ? LICENSE_MODES.flatMap((m) => def.licenses[m] ?? []) : def.licenses[mode];
  if (!cores) return fail("notInAllowedList", "mode", `${type.code} ${management} is not offered with ${String(mode)}`, mode);
  const core = matchingCores(c, cores);
  const cluster = queryBoolean(c, "cluster") ?? false;
  if (cluster && !def.clustering) fail("invalidQueryParameter", "cluster", `${type.code} ${management} devices cannot be clustered`, "true");
  const sdwan = queryBoolean(c, "sdwan");
  if (sdwan === true && type.category !== "SDWAN") fail("invalidQueryParameter", "sdwan", `${type.code} is not an SD-WAN device`, "true");
  const connectivity = c.req.query("connectivity");
  if (connectivity !== undefined) oneOf(connectivity, CONNECTIVITY, "connectivity");
  const packageCode = c.req.query("softwarePkg");
  const pkg = packageCode === undefined ? undefined : findPackage(type, packageCode);
  if (packageCode !== undefined && (!pkg || !core.packages.includes(packageCode))) {
    fail("notInAllowedList", "softwarePkg", `packages offered with ${core.core} cores: ${core.packages.join(", ")}`, packageCode);
  }
  const version = c.req.query("version");
  if (version !== undefined && !(pkg ? [pkg] : type.packages).some((p) => findVersion(p, version))) {
    fail("notInAllowedList", "version", `no ${type.code} version ${version}`, version);
  }
  const counts = cluster ? (type.clusterInterfaceCounts ?? type.interfaceCounts) : type.interfaceCounts;
  return c.json({
    interfaceProfiles: counts.map((count, i) => ({
      count,
      default: i === 0,
      interfaces: Array.from({ length: count }, (_, k) => {
        const id = k + 1;
        const role = interfaceRole(management, id, undefined);
        return { name: type.interfaceName(id), description: `${role} interface`, interfaceId: String(id), status: role === "DATA" ? "AVAILABLE" : "ASSIGNED" };
      }),
    })),
  });
}

function listMetros(c: Ctx) {
  rejectUnknownQuery(c, ["region", "offset", "limit"]);
  const page = queryPage(c, { defaultLimit: 20 });
  const raw = c.req.query("region");
  const region = raw === undefined ? undefined : oneOf(raw, REGIONS, "region");
  const items = serviceMetros().filter((m) => region === undefined || m.region === region);
  return c.json(paginate(items, page, pageLink(c)));
}

export const deviceTypesArea: Area = {
  name: "ne-device-types",
  seed(world: World) {
    seedAgreements(world);
  },
  routes(app: SimApp, world: World) {
    app.get("/ne/v1/deviceTypes", (c) => listDeviceTypes(c));
    app.get("/ne/v1/deviceTypes/:deviceType/interfaces", (c) => allowedInterfaces(c));
    app.get("/ne/v1/metros", (c) => listMetros(c));
    setupRoutes(app, world);
  },
};
