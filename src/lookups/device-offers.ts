// What a network-edge device type offers, as rows of its catalogue (GET /ne/v1/deviceTypes?deviceTypeCode=):
// its platforms (a flavour's cores and memory, with the packages, management types and licence options it
// comes with) and its software (each version of each package, when it was released, whether it is stable).

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { listed, readEach, type WhereFields } from "./search.js";
import type { Body, LookupContext, LookupDefinition } from "./types.js";
import { builtOnce, whereSchema } from "./where.js";

const list = (v: unknown): Body[] => (Array.isArray(v) ? (v as Body[]) : []);
const entries = (v: unknown): [string, Body][] => (v !== null && typeof v === "object" && !Array.isArray(v) ? (Object.entries(v) as [string, Body][]) : []);
const CODE = z.string().min(1).describe("the device type code (C8000V)");

/** The device types of a code: the catalogue's answer for it. */
const typesOf = (ctx: LookupContext, code: string): Promise<Body[]> => listed(ctx, "/ne/v1/deviceTypes", { deviceTypeCode: code });

/**
 * One row per flavour (cores and memory) of a type, gathered over its management types and licence options,
 * with the packages supported with those cores in any of them.
 */
export function platformsOf(type: Body): Body[] {
  const rows = new Map<string, { row: Body; packages: Set<string>; managementTypes: Set<string>; licenseOptions: Set<string> }>();
  for (const [management, def] of entries(type.deviceManagementTypes)) {
    for (const [license, option] of entries(def.licenseOptions)) {
      for (const core of list(option.cores)) {
        const key = `${String(core.core)}/${String(core.memory)}/${String(core.unit)}`;
        let entry = rows.get(key);
        if (!entry) {
          entry = { row: { deviceTypeCode: type.deviceTypeCode, flavor: core.flavor, core: core.core, memory: core.memory, unit: core.unit }, packages: new Set(), managementTypes: new Set(), licenseOptions: new Set() };
          rows.set(key, entry);
        }
        entry.managementTypes.add(management);
        entry.licenseOptions.add(license);
        for (const p of list(core.packageCodes)) if (p.supported !== false && typeof p.packageCode === "string") entry.packages.add(p.packageCode);
      }
    }
  }
  return [...rows.values()].map(({ row, packages, managementTypes, licenseOptions }) => ({ ...row, packageCodes: [...packages], managementTypes: [...managementTypes], licenseOptions: [...licenseOptions] }));
}

/** One row per version of each package of a type. */
export function softwareOf(type: Body): Body[] {
  return list(type.softwarePackages).flatMap((pkg) =>
    list(pkg.versionDetails).map((v) => ({ deviceTypeCode: type.deviceTypeCode, packageCode: pkg.packageCode, packageName: pkg.name, ...v, stableVersion: v.stableVersion === true || v.stableVersion === "true" })),
  );
}

const PLATFORM_FIELDS: WhereFields = {
  deviceTypeCode: { at: "deviceTypeCode" },
  flavor: { at: "flavor", anyCase: true },
  core: { at: "core" },
  packageCode: { at: "packageCodes", each: "" },
  managementType: { at: "managementTypes", each: "" },
  licenseOption: { at: "licenseOptions", each: "" },
};

export const devicePlatforms: LookupDefinition = {
  name: "devicePlatform",
  noun: "device platform",
  description: "a flavour of a network-edge device type (cores, memory), by flavour, cores, package, management type or licence",
  get where() {
    return builtOnce(this, () => whereSchema({
    deviceTypeCode: CODE,
    flavor: z.string().min(1).optional().describe("small, medium, large, xlarge (as the service names them, in any case)"),
    core: z.number().int().positive().optional().describe("the number of cores"),
    packageCode: z.string().min(1).optional().describe("a software package the flavour comes with"),
    managementType: z.enum(["EQUINIX-CONFIGURED", "SELF-CONFIGURED"]).optional().describe("EQUINIX-CONFIGURED or SELF-CONFIGURED"),
    licenseOption: z.string().min(1).optional().describe("BYOL or Sub"),
  }));
  },
  fields: PLATFORM_FIELDS,
  attributes: ["deviceTypeCode", "flavor", "core", "memory", "unit", "packageCodes", "managementTypes", "licenseOptions"],
  sensitive: SecretPaths.NONE,
  find: (ctx, wheres) => readEach(PLATFORM_FIELDS, wheres, (w) => ({ key: String(w.deviceTypeCode), read: async () => (await typesOf(ctx, String(w.deviceTypeCode))).flatMap(platformsOf) })),
  valueOf: (body) => body,
  describe: (body) => ({ name: `${String(body.flavor)} (${String(body.core)} cores, ${String(body.memory)} ${String(body.unit)})` }),
};

const SOFTWARE_FIELDS: WhereFields = {
  deviceTypeCode: { at: "deviceTypeCode" },
  packageCode: { at: "packageCode" },
  version: { at: "version" },
  stable: { at: "stableVersion" },
  status: { at: "status" },
  versionDate: { at: "versionDate" },
};

export const deviceSoftware: LookupDefinition = {
  name: "deviceSoftware",
  noun: "device software version",
  description: "a software version of a network-edge device type's package, by package, version, stability or date",
  get where() {
    return builtOnce(this, () => whereSchema({
    deviceTypeCode: CODE,
    packageCode: z.string().min(1).optional().describe("the software package"),
    version: z.string().min(1).optional().describe("the version (with like: a pattern, as the provider's version_regex)"),
    stable: z.boolean().optional().describe("only versions the service marks stable (true) or not"),
    status: z.string().min(1).optional().describe("ACTIVE..."),
    versionDate: z.string().min(1).optional().describe("the release date (YYYY-MM-DD; with gte/lte a range)"),
  }));
  },
  fields: SOFTWARE_FIELDS,
  attributes: ["deviceTypeCode", "packageCode", "version", "imageName", "versionDate", "status", "stableVersion", "releaseNotesLink"],
  sensitive: SecretPaths.NONE,
  find: (ctx, wheres) => readEach(SOFTWARE_FIELDS, wheres, (w) => ({ key: String(w.deviceTypeCode), read: async () => (await typesOf(ctx, String(w.deviceTypeCode))).flatMap(softwareOf) })),
  valueOf: (body) => body,
  describe: (body) => ({ name: `${String(body.packageCode)} ${String(body.version)}` }),
};
