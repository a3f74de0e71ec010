// The state file's format, version 1 (DESIGN.md): what netform manages, as the API last returned it,
// with sensitive values replaced by keyed hashes, and a `pending` record for any mutating call whose
// outcome is not yet known.

import { z } from "zod";

export const STATE_VERSION = 1;

export const pendingSchema = z.object({
  operation: z.enum(["create", "update", "delete"]),
  startedAt: z.string(),
  /** The spec sent (secrets removed), for finding the object when the call's outcome is unknown. */
  lookup: z.record(z.string(), z.unknown()).optional(),
});
export type PendingOperation = z.infer<typeof pendingSchema>;

export const resourceStateSchema = z.object({
  kind: z.string(),
  /** The service's identifier; absent while a create is pending and its object not yet known. */
  id: z.string().optional(),
  /** The parent's identifier, for kinds nested under another (a routing protocol under its connection). */
  parent: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()),
  /** Field path -> keyed hash of the sensitive value last applied. */
  sensitiveHashes: z.record(z.string(), z.string()).default({}),
  /** Field path -> keyed hash of a write-only value as sent when the object was made (KindSchema.writeOnly). */
  writeOnlyHashes: z.record(z.string(), z.string()).optional(),
  dependencies: z.array(z.string()).default([]),
  pending: pendingSchema.optional(),
});
export type ResourceState = z.infer<typeof resourceStateSchema>;

/** A lookup's value as the last apply used it: the next plan shows what changed since. */
export const lookupStateSchema = z.object({
  kind: z.string(),
  attributes: z.record(z.string(), z.unknown()),
});
export type LookupState = z.infer<typeof lookupStateSchema>;

/**
 * An output as the last apply computed it. A sensitive one keeps only the keyed hash of its value, like
 * every secret of the state: `netform output NAME` computes it again and checks it against the hash.
 */
export const outputStateSchema = z.union([
  z.object({ value: z.unknown(), sensitive: z.literal(false) }),
  z.object({ sensitive: z.literal(true), hash: z.string() }),
]);
export type OutputState = z.infer<typeof outputStateSchema>;

/** A transition time learned from this state's applies: its moving average, and how many samples it has seen. */
export const timingSchema = z.object({
  seconds: z.number().nonnegative(),
  samples: z.number().int().positive(),
});
export type Timing = z.infer<typeof timingSchema>;

export const stateFileSchema = z.object({
  version: z.literal(STATE_VERSION),
  lineage: z.string(),
  serial: z.number().int().nonnegative(),
  generator: z.string(),
  resources: z.record(z.string(), resourceStateSchema),
  outputs: z.record(z.string(), outputStateSchema).default({}),
  /** Absent until an apply works from a lookup. */
  lookups: z.record(z.string(), lookupStateSchema).optional(),
  /** Kind (or kind/variant) -> operation -> how long it took in this state's applies (absent until an apply timed one). */
  timings: z.record(z.string(), z.partialRecord(z.enum(["create", "update", "delete"]), timingSchema)).optional(),
});
export type StateFile = z.infer<typeof stateFileSchema>;
