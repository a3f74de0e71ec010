// The lookup contract: everything about one lookup kind in one definition, as a kind is for what netform
// manages. Its schema part (where, attributes) is what the configuration layer checks; `find` is how the
// engine reads the service for every lookup of the kind at once, with the API's own filters.

import type { ApiClient } from "../api/index.js";
import type { LookupSchema, ProviderConfig } from "../config/index.js";
import type { WhereFields } from "./search.js";

/** A JSON object as the API returns it. */
export type Body = Record<string, unknown>;

export interface LookupContext {
  api: ApiClient;
  provider: ProviderConfig;
}

/** How a candidate is named when a lookup finds several: enough for the user to narrow `where`. */
export interface Candidate {
  name?: string;
  uuid?: string;
  metro?: string;
}

export interface LookupDefinition extends LookupSchema {
  /** For messages: "port", "service profile". */
  noun: string;
  /**
   * Reads the objects that may match any of `wheres` (one search for several where the API allows, paged
   * through) and returns, for each where in order, the objects that match it exactly.
   */
  find(ctx: LookupContext, wheres: readonly Body[]): Promise<Body[][]>;
  /**
   * The value references read: the one match whole, as the API returned it, with what the kind derives from
   * it (a device type's stableVersion). The state records only part of it (the listed attributes and those
   * the configuration reads), without its secrets.
   */
  valueOf(body: Body, where: Body): Body;
  /** Where each where field is in an object found: for operators, OR groups and reads by uuid, matched on what was read. */
  fields: WhereFields;
  /**
   * The object of one identifier, by the kind's read endpoint (`where: { uuid }`); none when the service
   * says there is none (404). Absent for kinds whose objects have no uuid (a metro, a device type).
   */
  read?(ctx: LookupContext, uuid: string, where: Body): Promise<Body[]>;
  describe(body: Body): Candidate;
}
