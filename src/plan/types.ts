// A plan is data (DESIGN.md): for each address what will happen and why, the values before and after,
// which of them are unknown until apply and which are secret. The human rendering, the JSON document
// and the apply all read the same object.

export type Action = "create" | "update" | "replace" | "delete" | "import" | "no-op";

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

export interface ResourceChange {
  address: string;
  kind: string;
  action: Action;
  /** Why, in words: "aSide.accessPoint.port.uuid cannot change in place", "declared but missing". */
  reason?: string;
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
  /** replace: create the new object before deleting the old one. */
  createBeforeDestroy?: boolean;
  /** Addresses this one depends on. */
  dependencies: string[];
  /** The object exists but is still in a transition started earlier; apply waits for it. */
  awaiting?: "create" | "update" | "delete";
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
  changes: ResourceChange[];
  summary: PlanSummary;
  /** API requests the refresh made. */
  requestCount: number;
  /** refresh-only: addresses whose recorded attributes differ from what the service returned. */
  drifted?: string[];
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

export const hasChanges = (plan: Plan): boolean => plan.changes.some((c) => c.action !== "no-op" || c.awaiting !== undefined);
