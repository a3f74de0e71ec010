// Virtual devices that exist already, by name, metro or type (GET /ne/v1/devices with searchText and
// metroCode): one list per distinct name and metro.

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { METRO } from "./fabric-search.js";
import { listed, one, readEach, type WhereFields } from "./search.js";
import { builtOnce, whereSchema } from "./where.js";
import type { LookupDefinition } from "./types.js";

const FIELDS: WhereFields = { name: { at: "name" }, metroCode: { at: "metroCode" }, deviceTypeCode: { at: "deviceTypeCode" }, status: { at: "status" } };
const ATTRIBUTES = ["uuid", "name", "metroCode", "deviceTypeCode", "status", "redundantUuid", "redundancyType", "accountNumber", "packageCode", "version"];
/**
 * What of a device read here may be secret: its users' passwords, its licence token, and its vendor settings
 * whole. Which vendor settings are secret is the device kind's to say, in a layer this one cannot import:
 * rather than copy that list (and fall behind it), every vendor setting of a device found is masked.
 */
const SECRETS = new SecretPaths(["sshUsers[].sshPassword", "licenseToken", "vendorConfig", "clusterDetails.nodes[].vendorConfig"]);

export const devices: LookupDefinition = {
  name: "device",
  noun: "virtual device",
  description: "an existing virtual device, by name, metro, type or status",
  get where() {
    return builtOnce(this, () => whereSchema({
    name: z.string().min(1).optional().describe("the exact name"),
    metroCode: METRO("metroCode").schema.optional().describe("the metro code"),
    deviceTypeCode: z.string().min(1).optional().describe("the device type code"),
    status: z.string().min(1).optional().describe("PROVISIONED..."),
  }, { uuid: true }));
  },
  fields: FIELDS,
  read: (ctx, uuid) => one(ctx, `/ne/v1/devices/${encodeURIComponent(uuid)}`),
  attributes: ATTRIBUTES,
  sensitive: SECRETS,
  find: (ctx, wheres) =>
    readEach(FIELDS, wheres, (w) => {
      const query = { searchText: typeof w.name === "string" ? w.name : undefined, metroCode: typeof w.metroCode === "string" ? w.metroCode : undefined };
      return { key: JSON.stringify(query), read: () => listed(ctx, "/ne/v1/devices", query) };
    }),
  valueOf: (body) => body,
  describe: (body) => ({ ...(typeof body.name === "string" ? { name: body.name } : {}), ...(typeof body.uuid === "string" ? { uuid: body.uuid } : {}), ...(typeof body.metroCode === "string" ? { metro: body.metroCode } : {}) }),
};
