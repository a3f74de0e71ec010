// A plan is data (DESIGN.md): for each address what will happen and why, the values before and after,
// which of them are unknown until apply and which are secret. The human rendering, the JSON document
// and the apply all read the same object.

import type { PlanCost } from "./cost.js";

/** "forget": the state stops recording the object, and the service keeps it (a `removed:` block with destroy: false). */
export type Action = "create" | "update" | "replace" | "delete" | "import" | "forget" | "no-op";

/** Shown instead of a value not known before apply. */
export const UNKNOWN_TEXT = "(known after apply)";

export interface FieldChange {
  /** Dotted path in the desired form: "bgpIpv4.enabled", "notifications". */
  path: string;
  before: unknown;
  /** The new value; absent when it is unknown until apply. */
  after?: unknown;
  unknown?: boolean;
  sensitive?: boolean;
  /** This change cannot be made in place. */
  forcesReplacement?: boolean;
}

/**
 * Why a change is what it is, from a closed set that pipelines and policy checks can match on; `reason`
 * says the same in words, with the details (which fields, which object).
 */
export const REASON_CODES = [
  /** Declared and not in the state. */
  "create",
  /** A create an earlier run started never reached the service: it is sent again. */
  "create-not-reached",
  /** In the state, but deleted on the service by someone else: made again. */
  "deleted-outside",
  /** `import:` adopts an existing object (and changes it, when there are changes). */
  "import",
  /** `import:` names an object that does not exist: a new one is created. */
  "import-missing",
  /** The service reports the object failed: it is made again. */
  "failed-state",
  /** --replace named it. */
  "replace-requested",
  /** A changed field cannot change in place. */
  "force-new-field",
  /** It depends on an object replaced by deleting it first, so it goes and comes back with it. */
  "cascade-replace",
  /** Fields change in place. */
  "update",
  /** Nothing to do. */
  "unchanged",
  /** An earlier run started a create or update that is still running: apply waits for it. */
  "awaiting-earlier",
  /** An earlier run's delete (an interrupted destroy) is still running: apply waits for it, then creates anew. */
  "awaiting-delete",
  /** In the state, no longer in the configuration. */
  "no-longer-configured",
  /** No longer in the configuration, and already gone from the service: only the state entry goes. */
  "gone-from-service",
  /** A destroy plan deletes it. */
  "destroy-requested",
  /** A refresh-only plan touches nothing on the service. */
  "refresh-only",
  /** A `removed:` block with destroy: false: netform forgets it, and the service keeps it. */
  "removed-not-destroyed",
  /** A `removed:` block with destroy: true deletes it. */
  "removed-destroyed",
] as const;

export type ReasonCode = (typeof REASON_CODES)[number];

export interface ResourceChange {
  address: string;
  kind: string;
  action: Action;
  reasonCode: ReasonCode;
  /** Why, in words: "aSide.accessPoint.port.uuid cannot change in place", "declared but missing". */
  reason?: string;
  /** A `moved:` block: the address the state records the object under, which apply changes to `address` (no API call). */
  previousAddress?: string;
  /** The object's id, for actions on an existing object. */
  id?: string;
  /** import: the uuid adopted. */
  importId?: string;
  /** Masked values: secrets are "(sensitive)", unknowns are "(known after apply)". */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  changes: FieldChange[];
  /** Dotted paths whose values are unknown until apply. */
  unknown: string[];
  /** Dotted paths whose values are secret. */
  sensitive: string[];
  /**
   * Secret fields the service does not return: not readable, so not compared with the service (only the
   * declared value with the hash recorded when netform last sent it). A change made outside netform to
   * one of them cannot be seen.
   */
  notCompared?: string[];
  /**
   * Declared fields the service's answer leaves out, so not compared: a field that cannot change in place,
   * or one the kind knows real answers omit (KindHandler.mayOmit). Absent there means the service's default
   * or what was sent, never a change.
   */
  notReturned?: string[];
  /** replace: create the new object before deleting the old one. */
  createBeforeDestroy?: boolean;
  /** Addresses this one depends on. */
  dependencies: string[];
  /**
   * Addresses this plan deletes that hold what this object takes (a VLAN of a port): the service refuses this
   * change until they are gone, so apply deletes them first. Found by the plan's checks with the service.
   */
  afterDeleting?: string[];
  /** The object exists but is still in a transition started earlier; apply waits for it. */
  awaiting?: "create" | "update" | "delete";
}

/** A change the service could not check at plan time, and why: apply may still be refused. */
export interface UncheckedChange {
  address: string;
  why: string;
}

/**
 * A lookup as this plan resolved it. `changes` lists what differs from the value the last apply recorded
 * (a re-homed port): empty when nothing did, or when no apply recorded one yet.
 */
export interface LookupResult {
  /** `lookups.NAME`. */
  address: string;
  /** The lookup kind: "port". */
  kind: string;
  value: Record<string, unknown>;
  changes: FieldChange[];
  /** The search as written, in words: `metroCode: "DC", priority: "PRIMARY"`. */
  where?: string;
  /** What it found, in words: its name, uuid and metro, `DC-port-1 (c791f8cb-..., DC)`. */
  found?: string;
  /** A list lookup's (many: true) value is `{ count, items }`; this says what it found, for the plan to show. */
  list?: ListLookupSummary;
}

export interface ListLookupSummary {
  /** Each object found, by its name (else its uuid), in the lookup's order. */
  names: string[];
  /** Since the last apply recorded the lookup (by its key, else its name): the objects that appeared, and those gone. */
  appeared: string[];
  disappeared: string[];
  /** The instances of the forEach blocks over the lookup that appear or disappear with them. */
  instances: string[];
}

/**
 * Why now may be a bad time to apply, from what the service announces: its network-edge downtime
 * notification, or a maintenance notice of the configuration's list in progress where the plan changes
 * something. Apply refuses a plan with risks unless told to ignore them.
 */
export interface Risk {
  kind: "downtime" | "maintenance";
  severity: "warning";
  /** The service's own words: its additional message, or the notice's summary. */
  message: string;
  /** When, as the service gives it; `end` is null when the service gives none. */
  window: { start: string; end: string | null };
  /** What is hit: the impacted services ("Device (down): ..."), or the notice's IBXs the plan touches. */
  impacts: string[];
  /** maintenance: the notice's id and number. */
  notice?: { id: string; number?: string; type?: string };
}

/**
 * An output as apply will record it. A sensitive output carries neither value (the plan shows that it
 * changes, never what it is); a value not known until apply carries no `after`.
 */
export interface OutputChange {
  name: string;
  action: "create" | "update" | "delete" | "no-op";
  before?: unknown;
  after?: unknown;
  afterUnknown: boolean;
  sensitive: boolean;
}

export type PlanMode = "normal" | "destroy" | "refresh-only";

export interface PlanSummary {
  add: number;
  change: number;
  replace: number;
  destroy: number;
  import: number;
}

export interface Plan {
  formatVersion: 1;
  mode: PlanMode;
  /** The state the plan was made from; a saved plan applies only to the same lineage and serial. */
  lineage: string;
  serial: number;
  /** A hash of the configuration and variables the plan was made from. */
  configHash: string;
  /** The workspace whose state the plan was made from; absent for the default workspace. */
  workspace?: string;
  changes: ResourceChange[];
  summary: PlanSummary;
  /** API requests the refresh made. */
  requestCount: number;
  /** The lookups resolved for this plan; absent when the configuration has none (or for a destroy). */
  lookups?: LookupResult[];
  /** refresh-only: addresses whose recorded attributes differ from what the service returned. */
  drifted?: string[];
  /** Downtime and maintenance in progress where the plan changes something; absent when none was read. */
  risks?: Risk[];
  /** The outputs apply will record, by name; absent when neither the configuration nor the state has any. */
  outputChanges?: OutputChange[];
  /**
   * Each create first looks its object up (by the identifying fields of its spec, as after an unknown
   * outcome) and adopts one made since this time by the same identity, rather than make a second one.
   */
  lookBeforeCreateSince?: string;
  /** What the changes cost each month; absent when the plan was made without prices (--no-cost, refresh-only). */
  cost?: PlanCost;
  /** How long the apply should take, and the chain of objects that sets it; absent when nothing waits for the service. */
  estimatedDuration?: DurationEstimate;
  /** Changes the service could not check at plan time (a value known only after apply, a check unanswered); absent when every change was checked. */
  unchecked?: UncheckedChange[];
}

/** The apply's duration, estimated from the plan's longest chain of steps, each weighed by its kind's typical time. */
export interface DurationEstimate {
  seconds: number;
  /** The addresses along that chain, first to last. */
  chain: string[];
}

export function summarize(changes: readonly ResourceChange[]): PlanSummary {
  const summary: PlanSummary = { add: 0, change: 0, replace: 0, destroy: 0, import: 0 };
  for (const c of changes) {
    switch (c.action) {
      case "create":
        summary.add++;
        break;
      case "update":
        summary.change++;
        break;
      case "replace":
        summary.replace++;
        break;
      case "delete":
        summary.destroy++;
        break;
      case "import":
        summary.import++;
        if (c.changes.length > 0) summary.change++;
        break;
      case "forget":
      case "no-op":
        break;
      default: {
        const unreachable: never = c.action;
        throw new Error(`unknown action ${String(unreachable)}`);
      }
    }
  }
  return summary;
}

/** Lookups whose value changed since the last apply: the reviewer must see them, and apply records them. */
export const changedLookups = (plan: Plan): LookupResult[] => (plan.lookups ?? []).filter((l) => l.changes.length > 0);

/** Whether applying the plan would change anything: the service, or for a refresh-only plan the state. */
export const hasChanges = (plan: Plan): boolean =>
  (plan.mode === "refresh-only" ? (plan.drifted?.length ?? 0) > 0 : plan.changes.some((c) => c.action !== "no-op" || c.awaiting !== undefined)) ||
  changedLookups(plan).length > 0 ||
  (plan.outputChanges ?? []).some((o) => o.action !== "no-op") ||
  plan.changes.some((c) => c.previousAddress !== undefined);
