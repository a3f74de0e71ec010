// Device types of the network edge, with their software packages and each package's current stable
// version (GET /ne/v1/deviceTypes, filtered by code when the where gives one).

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { listed, readEach, type WhereFields } from "./search.js";
import { builtOnce, whereSchema } from "./where.js";
import type { Body, LookupDefinition } from "./types.js";

const FIELDS: WhereFields = {
  deviceTypeCode: { at: "deviceTypeCode" },
  vendor: { at: "vendor" },
  category: { at: "category" },
  packageCode: { at: "softwarePackages", each: "packageCode" },
};
const ATTRIBUTES = ["deviceTypeCode", "name", "vendor", "category", "softwarePackages"];

const list = (v: unknown): Body[] => (Array.isArray(v) ? (v as Body[]) : []);

/** Versions compared as their numbers read (16.09.05 after 16.09.03, 19.2R2.7 after 18.4R3-S2). */
const byVersion = (a: Body, b: Body): number => String(a.version ?? "").localeCompare(String(b.version ?? ""), "en", { numeric: true });

/**
 * The newest version the service marks stable, of the package the where names or else the first: the latest
 * version date, and of versions released on one date the highest, as several share a date in real answers
 * (equinix/ne-go's ne_device_types_get.json: 16.09.03 and 16.09.05 both 2020-01-01).
 */
function stableVersion(body: Body, where: Body): string | undefined {
  const packages = list(body.softwarePackages);
  const pkg = packages.find((p) => p.packageCode === where.packageCode) ?? packages[0];
  const stable = list(pkg?.versionDetails).filter((v) => v.stableVersion === "true" || v.stableVersion === true);
  const newest = stable.sort((a, b) => String(b.versionDate ?? "").localeCompare(String(a.versionDate ?? "")) || byVersion(b, a))[0];
  return typeof newest?.version === "string" ? newest.version : undefined;
}

export const deviceTypes: LookupDefinition = {
  name: "deviceType",
  noun: "device type",
  description: "a network-edge device type, with its packages and the current stable version",
  get where() {
    return builtOnce(this, () => whereSchema({
    deviceTypeCode: z.string().min(1).optional().describe("the device type code (C8000V)"),
    vendor: z.string().min(1).optional().describe("the vendor"),
    category: z.enum(["ROUTER", "FIREWALL", "SDWAN"]).optional().describe("ROUTER, FIREWALL or SDWAN"),
    packageCode: z.string().min(1).optional().describe("a software package the type must offer; stableVersion is that package's"),
  }));
  },
  fields: FIELDS,
  attributes: [...ATTRIBUTES, "packages", "stableVersion"],
  sensitive: SecretPaths.NONE,
  find: (ctx, wheres) =>
    readEach(FIELDS, wheres, (w) => {
      const code = typeof w.deviceTypeCode === "string" ? w.deviceTypeCode : undefined;
      return { key: code ?? "", read: () => listed(ctx, "/ne/v1/deviceTypes", { deviceTypeCode: code }) };
    }),
  valueOf: (body, where) => {
    const version = stableVersion(body, where);
    return { ...body, packages: list(body.softwarePackages).map((p) => p.packageCode), ...(version ? { stableVersion: version } : {}) };
  },
  describe: (body) => ({ ...(typeof body.name === "string" ? { name: body.name } : {}), ...(typeof body.deviceTypeCode === "string" ? { uuid: body.deviceTypeCode } : {}) }),
};
