// A lookup kind read through a Fabric search endpoint (`POST .../search` with `filter`, `pagination`):
// ports, service profiles, cloud routers, networks, service tokens, route filters, connections.

import { z } from "zod";
import { readPath, SecretPaths } from "../config/index.js";
import { one, searchEach, type Unfiltered, type WhereFields } from "./search.js";
import { builtOnce, whereSchema } from "./where.js";
import type { Body, Candidate, LookupContext, LookupDefinition } from "./types.js";

export interface FabricSearchLookup {
  name: string;
  noun: string;
  description: string;
  /** The search endpoint. */
  path: string;
  /** Each where field's schema and where it is in the object. */
  where: Readonly<Record<string, { schema: z.ZodType; field: WhereFields[string]; description: string }>>;
  attributes: readonly string[];
  /** Paths of the object that hold secrets; none when absent. */
  sensitive?: SecretPaths;
  /** Where the object's metro is, for listing candidates. */
  metroAt?: string;
  /** The read of one object by its uuid (GET); absent when the kind has none. */
  read?: (uuid: string) => string;
  /** Expressions every search carries (the project, where the API requires it). */
  fixed?(ctx: LookupContext): Body[];
  /** How every object is read when a where names no field the search filters on, for a search that takes no empty filter. */
  unfiltered?: Unfiltered;
}

export function fabricSearchLookup(spec: FabricSearchLookup): LookupDefinition {
  const fields: WhereFields = Object.fromEntries(Object.entries(spec.where).map(([k, v]) => [k, v.field]));
  return {
    name: spec.name,
    noun: spec.noun,
    description: spec.description,
    get where() {
      return builtOnce(this, () => whereSchema(Object.fromEntries(Object.entries(spec.where).map(([k, v]) => [k, v.schema.optional().describe(v.description)])), { uuid: spec.read !== undefined }));
    },
    fields,
    ...(spec.read ? { read: (ctx: LookupContext, uuid: string) => one(ctx, (spec.read as (u: string) => string)(encodeURIComponent(uuid))) } : {}),
    attributes: spec.attributes,
    sensitive: spec.sensitive ?? SecretPaths.NONE,
    find: (ctx, wheres) => searchEach(ctx, spec.path, fields, wheres, spec.fixed?.(ctx) ?? [], spec.unfiltered),
    valueOf: (body) => body,
    describe: (body): Candidate => describe(body, spec.metroAt),
  };
}

export function describe(body: Body, metroAt?: string): Candidate {
  const name = readPath(body, "name");
  const uuid = readPath(body, "uuid");
  const metro = metroAt ? readPath(body, metroAt) : undefined;
  return { ...(typeof name === "string" ? { name } : {}), ...(typeof uuid === "string" ? { uuid } : {}), ...(typeof metro === "string" ? { metro } : {}) };
}

/** Where fields most searchable objects share. */
export const NAME = { schema: z.string().min(1), field: { at: "name", property: "/name" }, description: "the exact name" };
export const STATE = { schema: z.string().min(1), field: { at: "state", property: "/state" }, description: "the state (PROVISIONED, ACTIVE...)" };
export const METRO = (at: string, property?: string) => ({ schema: z.string().regex(/^[A-Z]{2}$/, "must be a metro code: two capital letters"), field: { at, ...(property ? { property } : {}) }, description: "the metro code" });
