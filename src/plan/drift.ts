// A drift report: how reality differs from what netform recorded (and from the configuration), per
// address, with who changed it and when where the service says so. Data, rendered as text, markdown or
// JSON by the views.

export type DriftStatus =
  /** The object differs from what the state recorded. */
  | "changed"
  /** The state records it, and the service no longer has it. */
  | "deleted"
  /** The configuration declares it, and neither the state nor the service has it. */
  | "missing"
  /**
   * The service matches the state but not the configuration: a change made outside netform that a
   * refresh-only run recorded, which apply would change back. Its fields read service -> configuration.
   */
  | "unapplied";

export interface DriftedField {
  /** Dotted path in the kind's comparable form. */
  path: string;
  /** As recorded in the state ("unapplied": as the service has it). */
  before: unknown;
  /** As the service has it now ("unapplied": as the configuration declares it). */
  after: unknown;
  sensitive?: boolean;
}

export interface DriftEntry {
  address: string;
  kind: string;
  id?: string;
  status: DriftStatus;
  fields: DriftedField[];
  /** Who made the change outside netform, from the object's change log or its cloud events. */
  changedBy?: string;
  changedAt?: string;
  /** Whether the service now also differs from the configuration (an apply would change it back). */
  differsFromConfiguration: boolean;
}

export interface DriftReport {
  formatVersion: 1;
  checkedAt: string;
  /** The workspace whose state was checked; absent for the default workspace. */
  workspace?: string;
  entries: DriftEntry[];
  summary: { changed: number; deleted: number; missing: number; unapplied: number };
  requestCount: number;
}
