// The human rendering of a plan, Terraform-like: one block per resource that will change, in the plan's
// own order (the engine's dependency order), then a one-line count. It reads the same Plan object that
// `--format json` prints, so the two can never disagree about what will happen.
//
// Secrets: every value is masked (values.ts) before it is laid out, so a raw secret that the plan carries
// by mistake still prints as "(sensitive)".

import { hasChanges, type Plan, type PlanMode, type PlanSummary, type ResourceChange } from "../plan/types.js";
import type { Colors } from "./output.js";
import { costTextLines } from "./plan-cost.js";
import { outputChangeLines } from "./outputs.js";
import { durationLine } from "./plan-duration.js";
import { lookupBlocks, lookupReadLines } from "./plan-lookups.js";
import { riskLines } from "./plan-risks.js";
import { createdLines, deletedLines, fieldChangeLines, Masks, pad, paintSym, type Sym } from "./values.js";

export function renderPlanText(plan: Plan, c: Colors): string {
  const drifted = new Set(plan.drifted ?? []);
  const blocks = [...lookupBlocks(plan, c), ...plan.changes.map((rc) => renderResource(rc, plan.mode, c, drifted)).filter((lines) => lines.length > 0)];
  const unread = unreadNotes(plan);
  const note = unread.length > 0 ? `\n${unread.flatMap((n) => [n.lead, ...n.fields.map((f) => `  ${f}`)].map((line) => c.dim(line))).join("\n")}\n` : "";
  const outputs = outputChangeLines(plan, c);
  const read = lookupReadLines(plan, c);
  const reads = read.length > 0 ? `${read.join("\n")}\n\n` : "";
  if (!hasChanges(plan) || blocks.length + outputs.length === 0) return `${reads}${noChangesMessage(plan.mode, unread.length > 0, plan.workspace)}\n${note}`;
  const cost = costTextLines(plan, c);
  const risks = riskLines(plan, c);
  const parts = [...(blocks.length > 0 ? [header(plan.mode, plan.workspace), ...blocks.map((lines) => lines.join("\n"))] : []), ...(outputs.length > 0 ? [outputs.join("\n")] : []), footer(plan, c), ...[cost, risks].filter((lines) => lines.length > 0).map((lines) => lines.join("\n"))];
  return `${reads}${parts.join("\n\n")}\n${note}`;
}

/** A note under a plan: what it says, and the fields it is about, each as "address: paths". */
export interface UnreadNote {
  lead: string;
  fields: string[];
}

/**
 * What the plan could not compare or check, so that no plan claims what it did not verify: the secret fields
 * the service does not return (a change made to them outside netform cannot be seen), the declared fields its
 * answers leave out, and the changes the service could not check before apply.
 */
export function unreadNotes(plan: Plan): UnreadNote[] {
  if (plan.mode === "destroy") return [];
  const shown = plan.changes.filter((rc) => rc.action !== "delete");
  const fieldsOf = (pick: (rc: ResourceChange) => string[] | undefined) => shown.filter((rc) => pick(rc)?.length).map((rc) => `${rc.address}: ${pick(rc)!.join(", ")}`);
  const notes: UnreadNote[] = [
    { lead: "Secrets not readable; not compared (the service does not return them; compared only with what netform last sent):", fields: fieldsOf((rc) => rc.notCompared) },
    { lead: "Not in the service's answers; not compared (absent there means the service's default or what was sent):", fields: fieldsOf((rc) => rc.notReturned) },
    { lead: "Not checked with the service before apply (apply may still be refused):", fields: (plan.unchecked ?? []).map((u) => `${u.address}: ${u.why}`) },
  ];
  return notes.filter((n) => n.fields.length > 0);
}

/** " in workspace dev", for a plan of a workspace other than the default. */
export const inWorkspace = (workspace: string | undefined): string => (workspace === undefined ? "" : ` in workspace ${workspace}`);

function header(mode: PlanMode, workspace: string | undefined): string {
  switch (mode) {
    case "normal":
      return `netform will perform the following actions${inWorkspace(workspace)}:`;
    case "destroy":
      return `netform will destroy the following resources${inWorkspace(workspace)}:`;
    case "refresh-only":
      return `netform found these objects changed outside of netform${inWorkspace(workspace)}; the state will be updated to match them:`;
    default: {
      const unreachable: never = mode;
      throw new Error(`unknown plan mode ${String(unreachable)}`);
    }
  }
}

export function noChangesMessage(mode: PlanMode, someNotCompared = false, workspace?: string): string {
  const none = `No changes${inWorkspace(workspace)}.`;
  switch (mode) {
    case "normal":
      return someNotCompared ? `${none} The service matches the configuration, as far as it can be read.` : `${none} The service matches the configuration.`;
    case "destroy":
      // "matches the configuration" would be wrong here: a destroy plan ignores what is declared.
      return `${none} No objects need to be destroyed.`;
    case "refresh-only":
      return `${none} The state matches the service.`;
    default: {
      const unreachable: never = mode;
      throw new Error(`unknown plan mode ${String(unreachable)}`);
    }
  }
}

function footer(plan: Plan, c: Colors): string {
  if (plan.mode === "refresh-only") {
    const n = refreshOnlyCount(plan);
    return `${c.bold("Refresh-only plan:")} ${n} to update in the state, no changes to the service.`;
  }
  const counts = `${c.bold("Plan:")} ${planCounts(plan)}.`;
  return plan.estimatedDuration ? `${counts}\n${durationLine(plan.estimatedDuration)}` : counts;
}

/** refresh-only: how many objects' recorded attributes the apply would update. */
export const refreshOnlyCount = (plan: Plan): number => plan.drifted?.length ?? plan.changes.filter((rc) => rc.action !== "no-op").length;

/** After an apply --refresh-only: what the state now records, by address. */
export function renderRefreshRecorded(plan: Plan): string {
  const drifted = new Set(plan.drifted ?? []);
  const updated = plan.changes.filter((rc) => drifted.has(rc.address) && rc.changes.length > 0).map((rc) => rc.address);
  const removed = plan.changes.filter((rc) => drifted.has(rc.address) && rc.changes.length === 0).map((rc) => rc.address);
  const lines = [`Refresh complete: the state records what the service reports. Nothing on the service changed.`];
  if (updated.length > 0) lines.push(`  updated in the state: ${updated.join(", ")}`);
  if (removed.length > 0) lines.push(`  removed from the state (deleted outside netform): ${removed.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** The summary's counts, and the moves and forgets when there are any (they change only the state). */
export function planCounts(plan: Plan): string {
  const moves = plan.changes.filter((rc) => rc.previousAddress !== undefined).length;
  const forgets = plan.changes.filter((rc) => rc.action === "forget").length;
  return [summaryCounts(plan.summary), ...(forgets > 0 ? [`${forgets} to forget`] : []), ...(moves > 0 ? [`${moves} to move`] : [])].join(", ");
}

export function summaryCounts(s: PlanSummary): string {
  const counts = `${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy`;
  return s.import > 0 ? `${counts}, ${s.import} to import` : counts;
}

// ---------------------------------------------------------------------------------------------------
// One resource

function renderResource(rc: ResourceChange, mode: PlanMode, c: Colors, drifted: ReadonlySet<string>): string[] {
  const masks = Masks.of(rc);
  const lines: string[] = [];
  const comment = (text: string) => `  ${c.bold(`# ${rc.address}`)}${text}`;
  const reasonLine = () => (rc.reason ? [`  ${c.dim(`# (${rc.reason})`)}`] : []);
  // A move is said on its own, whatever else happens to the object at its new address.
  if (rc.previousAddress !== undefined && mode !== "refresh-only") lines.push(`  ${c.bold(`# ${rc.previousAddress} has moved to ${rc.address}`)}`);
  if (rc.awaiting !== undefined) lines.push(comment(`: waiting for the ${rc.awaiting} started by an earlier run`));

  if (mode === "refresh-only") {
    if (rc.action === "no-op" && rc.changes.length === 0 && !drifted.has(rc.address)) return lines;
    if (rc.changes.length === 0) return [comment(" has been deleted outside of netform"), ...reasonLine(), head("-", rc.address, c)];
    lines.push(comment(" has changed outside of netform"), ...reasonLine(), head("~", rc.address, c), ...fieldChangeLines(rc, c, masks));
    return lines;
  }

  switch (rc.action) {
    case "create":
      lines.push(comment(" will be created"), ...reasonLine(), head("+", rc.address, c), ...createdLines(rc, c, masks));
      break;
    case "update":
      lines.push(comment(" will be updated in place"), ...reasonLine(), head("~", rc.address, c), ...fieldChangeLines(rc, c, masks));
      break;
    case "replace": {
      const sym: Sym = rc.createBeforeDestroy ? "+/-" : "-/+";
      const why = rc.reason ? ` (${rc.reason})` : "";
      const order = rc.createBeforeDestroy ? ", creating the new object first" : "";
      lines.push(comment(` must be replaced${why}${order}`), head(sym, rc.address, c), ...fieldChangeLines(rc, c, masks));
      break;
    }
    case "delete":
      lines.push(comment(" will be destroyed"), ...reasonLine(), head("-", rc.address, c), ...deletedLines(rc, c, masks));
      break;
    case "forget":
      lines.push(comment(" will be removed from the state, not destroyed"), ...reasonLine(), head("-", rc.address, c));
      break;
    case "import": {
      const uuid = rc.importId ?? rc.id;
      const then = rc.changes.length > 0 ? ", then updated in place" : "";
      lines.push(comment(` will be imported${uuid ? ` (uuid ${uuid})` : ""}${then}`), ...reasonLine());
      if (rc.changes.length > 0) lines.push(head("~", rc.address, c), ...fieldChangeLines(rc, c, masks));
      break;
    }
    case "no-op":
      break;
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
  return lines;
}

const head = (sym: Sym, address: string, c: Colors): string => `${pad(3 - sym.length)}${paintSym(sym, c)} ${address}`;

