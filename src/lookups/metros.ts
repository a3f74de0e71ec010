// Metros, with their latency and bandwidth maxima to other metros (GET /fabric/v4/metros/{code}, or the
// list when the where names no code: the list takes no other filter).

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { describe, METRO } from "./fabric-search.js";
import { listed, one, readEach, type WhereFields } from "./search.js";
import { builtOnce, whereSchema } from "./where.js";
import type { LookupDefinition } from "./types.js";

/** How the service answers a metro code it does not know: a 400 with this code. */
const METRO_NOT_FOUND = "EQ-3036100";

const FIELDS: WhereFields = { code: { at: "code" }, name: { at: "name" }, region: { at: "region" } };
const ATTRIBUTES = ["code", "name", "region", "href", "type", "equinixAsn", "localVCBandwidthMax", "connectedMetros", "geoScopes"];

export const metros: LookupDefinition = {
  name: "metro",
  noun: "metro",
  description: "a metro, with its latency and bandwidth maxima to the metros it connects to",
  get where() {
    return builtOnce(this, () => whereSchema({
    code: METRO("code").schema.optional().describe("the metro code"),
    name: z.string().min(1).optional().describe("the metro's name (Washington, D.C.)"),
    region: z.enum(["AMER", "EMEA", "APAC"]).optional().describe("AMER, EMEA or APAC"),
  }));
  },
  fields: FIELDS,
  attributes: ATTRIBUTES,
  sensitive: SecretPaths.NONE,
  find: (ctx, wheres) =>
    readEach(FIELDS, wheres, (w) => (typeof w.code === "string" && !w.or ? { key: w.code, read: () => one(ctx, `/fabric/v4/metros/${w.code as string}`, [METRO_NOT_FOUND]) } : { key: "", read: () => listed(ctx, "/fabric/v4/metros") })),
  valueOf: (body) => body,
  describe: (body) => ({ ...describe(body, "code"), ...(typeof body.code === "string" ? { uuid: body.code } : {}) }),
};
