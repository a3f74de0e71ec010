// A lookup kind whose objects belong to another object and are read as its list (GET PARENT/{id}/CHILDREN,
// paged through) or one by one (GET PARENT/{id}/CHILDREN/{uuid}): what is attached to a connection, a
// route filter's rules, a connection's routing protocols. The where names the parent (required: it is in
// the path), and each object found carries the parent's identifier under the same field, so that a list
// of them says whose they are.

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { describe } from "./fabric-search.js";
import { listed, one, readEach, type WhereFields } from "./search.js";
import type { LookupDefinition } from "./types.js";
import { builtOnce, whereSchema } from "./where.js";

export interface ChildListLookup {
  name: string;
  noun: string;
  description: string;
  /** The where field naming the parent ("connectionId"), and what the parent is, for its description. */
  parent: { field: string; noun: string };
  /** The list's path, under the parent of that identifier. */
  list: (parentId: string) => string;
  /** Where fields besides the parent's, each with where it is in the object. */
  where: Readonly<Record<string, { schema: z.ZodType; field: WhereFields[string]; description: string }>>;
  attributes: readonly string[];
  /** Paths of the object that hold secrets; none when absent. */
  sensitive?: SecretPaths;
}

const UUID = z.string().min(1);

export function childListLookup(spec: ChildListLookup): LookupDefinition {
  const fields: WhereFields = { [spec.parent.field]: { at: spec.parent.field }, ...Object.fromEntries(Object.entries(spec.where).map(([k, v]) => [k, v.field])) };
  const own = (parentId: string) => (body: Record<string, unknown>) => ({ ...body, [spec.parent.field]: parentId });
  return {
    name: spec.name,
    noun: spec.noun,
    description: spec.description,
    get where() {
      return builtOnce(this, () => whereSchema(
      {
        [spec.parent.field]: UUID.describe(`the uuid of the ${spec.parent.noun}`),
        ...Object.fromEntries(Object.entries(spec.where).map(([k, v]) => [k, v.schema.optional().describe(v.description)])),
      },
      { uuid: true },
    ));
    },
    fields,
    attributes: [spec.parent.field, ...spec.attributes],
    sensitive: spec.sensitive ?? SecretPaths.NONE,
    find: (ctx, wheres) =>
      readEach(fields, wheres, (w) => {
        const parentId = String(w[spec.parent.field]);
        return { key: parentId, read: async () => (await listed(ctx, spec.list(encodeURIComponent(parentId)))).map(own(parentId)) };
      }),
    read: async (ctx, uuid, where) => {
      const parentId = String(where[spec.parent.field]);
      return (await one(ctx, `${spec.list(encodeURIComponent(parentId))}/${encodeURIComponent(uuid)}`)).map(own(parentId));
    },
    valueOf: (body) => body,
    describe: (body) => describe(body),
  };
}
