// The billing accounts a network-edge order in a metro may use (GET /ne/v1/accounts/{metro}): one read
// per metro, however many lookups name it. A metro's answer holds accounts not yet usable beside the active
// one (equinix/ne-go's ne_accounts.json: "STAGED" and "PROCESSING" accounts with a referenceId and no
// number, the active one "Active"), so a lookup may name the status, in any case.

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { METRO } from "./fabric-search.js";
import { readEach, type WhereFields } from "./search.js";
import { builtOnce, whereSchema } from "./where.js";
import type { Body, LookupDefinition } from "./types.js";

const FIELDS: WhereFields = { metroCode: { at: "metroCode" }, accountName: { at: "accountName" }, accountNumber: { at: "accountNumber" }, accountStatus: { at: "accountStatus", anyCase: true } };
const ATTRIBUTES = ["accountNumber", "accountName", "accountUcmId", "accountStatus", "creditHold"];

export const edgeAccounts: LookupDefinition = {
  name: "edgeAccount",
  noun: "network-edge account",
  description: "the billing account of network-edge orders in a metro, by metro and name or number",
  get where() {
    return builtOnce(this, () => whereSchema({
    metroCode: METRO("metros").schema.describe("the metro of the order"),
    accountName: z.string().min(1).optional().describe("the account's name"),
    accountNumber: z.union([z.string().regex(/^\d+$/), z.number().int()]).optional().describe("the account number"),
    accountStatus: z.string().min(1).optional().describe("the account's status (Active, Staged, Processing...), in any case"),
  }));
  },
  fields: FIELDS,
  attributes: ATTRIBUTES,
  sensitive: SecretPaths.NONE,
  find: (ctx, wheres) =>
    readEach(FIELDS, wheres, (w) => ({
      key: String(w.metroCode),
      read: async () => {
        const page = await ctx.api.call<{ accounts?: Body[] }>("GET", `/ne/v1/accounts/${String(w.metroCode)}`);
        // The answer is the metro's: each account is marked with it, so that the where matches as a whole.
        return (page.accounts ?? []).map((account) => ({ ...account, metroCode: w.metroCode }));
      },
    })),
  valueOf: (body) => body,
  describe: (body) => ({ ...(typeof body.accountName === "string" ? { name: body.accountName } : {}), ...(body.accountNumber !== undefined ? { uuid: String(body.accountNumber) } : {}) }),
};
