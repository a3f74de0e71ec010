// The tolerant reader's vocabulary (DESIGN.md, "Reading the real service"): the specification, the official
// descriptions and the real service do not always spell an answer the same way, so a kind reads every
// spelling known to be used and normalises it to one comparable form. Each kind names its evidence where it
// uses these.

import { isPlainObject } from "../config/index.js";
import type { Body } from "./types.js";

/** The value of a field under the first of its known spellings that the body has. */
export function spelled(body: Body, ...names: readonly string[]): unknown {
  for (const name of names) if (body[name] !== undefined && body[name] !== null) return body[name];
  return undefined;
}

/**
 * A uuid field under either capitalisation: the official descriptions write `connectionUuid`, real answers
 * (equinix/ne-go's recorded BGP peering) `connectionUUID`.
 */
export const uuidField = (body: Body, name: `${string}Uuid`): unknown => spelled(body, name, `${name.slice(0, -4)}UUID`);

/**
 * An enumeration as the service compares it: without regard to case. Real answers mix cases the
 * specification writes in capitals (a device link group's `redundancyType: "Primary"`, a device's
 * `licenseType: "Sub"`), and the official client sends some of them so.
 */
export const enumeration = (v: unknown): unknown => (typeof v === "string" ? v.toUpperCase() : v);

/** The objects of a list field; none when the field is absent or not a list. */
export const objectsOf = (v: unknown): Body[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/**
 * A field the service spells as one value or as a list of them (an ACL rule's `subnet` in the official
 * description, `subnets` in real answers), as a list; undefined when neither is there.
 */
export function oneOrMany(body: Body, single: string, plural: string): unknown[] | undefined {
  const many = body[plural];
  if (Array.isArray(many) && many.length > 0) return many;
  const one = body[single];
  return one === undefined || one === null ? (Array.isArray(many) ? many : undefined) : [one];
}
