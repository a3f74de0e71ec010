// The plan as a pull-request comment (`plan --format markdown`). What a reviewer must not miss is
// visible without expanding anything: the counts in the title, a warning naming every object that will
// be destroyed or replaced, and a table of every change with its reason. Below them, a dependency graph
// and one collapsible section per resource with its field diff, laid out and masked exactly as the text
// plan lays them out (values.ts), with each line's symbol moved to the first column so that GitHub
// colours the ```diff block.
//
// GitHub refuses comments over 65,536 characters, so the comment is capped (markdown.ts): per-resource
// sections go first, from the end, and a note says how many were left out.

import { changedLookups, hasChanges, type LookupResult, type Plan, type PlanMode, type ResourceChange } from "../plan/types.js";
import { capComment, codeSpan, DEFAULT_MAX_LENGTH, details, escapeHtml, escapeInline, fencedBlock, table } from "./markdown.js";
import type { Colors } from "./output.js";
import { costMarkdown } from "./plan-cost.js";
import { outputChangeLines } from "./outputs.js";
import { lookupLines, lookupPhrase } from "./plan-lookups.js";
import { durationPhrase } from "./plan-duration.js";
import { riskNote } from "./plan-risks.js";
import { noChangesMessage, planCounts, refreshOnlyCount, unreadNotes } from "./plan-text.js";
import { createdLines, deletedLines, fieldChangeLines, gutterLines } from "./values.js";

export interface MarkdownOptions {
  /** The comment's length limit in characters; default 65,000. */
  maxLength?: number;
  /** What the title line starts with, before the counts; default "netform plan". */
  title?: string;
  /** The saved plan file, for the note that tells where the full plan is. */
  planFile?: string;
}

/** More nodes than this make an illegible diagram in a comment; the table says the same more clearly. */
const MAX_GRAPH_NODES = 100;
/** Mermaid refuses to draw more edges than this by default. */
const MAX_GRAPH_EDGES = 500;

export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const name = escapeInline(`${options.title ?? defaultTitle(plan.mode)}${plan.workspace === undefined ? "" : ` (workspace ${plan.workspace})`}`);
  const drifted = new Set(plan.drifted ?? []);
  const shown = plan.changes.filter((rc) => isShown(rc, plan.mode, drifted));
  const unread = notComparedNote(plan);
  const lookups = changedLookups(plan);
  const outputsChange = (plan.outputChanges ?? []).some((o) => o.action !== "no-op");
  if (!hasChanges(plan) || (shown.length + lookups.length === 0 && !outputsChange)) {
    return capComment({ head: () => [`### ${name}: no changes`, noChangesMessage(plan.mode, unread !== "", plan.workspace), unread], rows: 0, sections: [], note: () => "", maxLength });
  }

  const title = `### ${name}: ${plan.mode === "refresh-only" ? `${refreshOnlyCount(plan)} to update in the state` : planCounts(plan)}`;
  const sections = [
    ...lookups.map((lookup) => details(`<code>${escapeHtml(lookup.address)}</code> ${escapeHtml(lookupPhrase(lookup))}`, fencedBlock("diff", gutterLines((c) => lookupLines(lookup, c))))),
    ...shown.flatMap((rc) => {
      const section = resourceSection(rc, plan.mode);
      return section === undefined ? [] : [section];
    }),
    ...(outputsChange ? [details("Changes to Outputs", fencedBlock("diff", gutterLines((c) => outputChangeLines(plan, c).slice(1))))] : []),
  ];
  const graph = dependencyGraph(plan, shown);
  return capComment({
    head: (rowLimit) => [title, plan.estimatedDuration ? `**Estimated duration:** ${durationPhrase(plan.estimatedDuration, codeSpan)}` : "", riskNote(plan), lookupNote(lookups), warning(shown, plan.mode, rowLimit), changeTable(shown, plan.mode, rowLimit, options.planFile), costMarkdown(plan), unread, rowLimit === undefined ? graph : ""],
    rows: shown.length,
    sections,
    note: (left, total) =>
      `> [!NOTE]\n> ${left} of ${total} resource ${total === 1 ? "section was" : "sections were"} left out to keep this comment under ${maxLength.toLocaleString("en-US")} characters. Run ${codeSpan(fullPlanCommand(options.planFile))} for the full plan.`,
    maxLength,
  });
}

/** What the plan could not compare (plan-text.ts says why), as notes. */
function notComparedNote(plan: Plan): string {
  return unreadNotes(plan)
    .map((n) => ["> [!NOTE]", `> ${escapeInline(n.lead)}`, ...n.fields.map((line) => `> - ${escapeInline(line)}`)].join("\n"))
    .join("\n\n");
}

function defaultTitle(mode: PlanMode): string {
  switch (mode) {
    case "normal":
      return "netform plan";
    case "destroy":
      return "netform destroy plan";
    case "refresh-only":
      return "netform refresh-only plan";
    default: {
      const unreachable: never = mode;
      throw new Error(`unknown plan mode ${String(unreachable)}`);
    }
  }
}

/** The resources the comment talks about: those that change, and those apply still waits for. */
function isShown(rc: ResourceChange, mode: PlanMode, drifted: ReadonlySet<string>): boolean {
  if (rc.awaiting !== undefined) return true;
  // A refresh-only plan reports drift as changes of a no-op (the service is not touched).
  return mode === "refresh-only" ? rc.action !== "no-op" || rc.changes.length > 0 || drifted.has(rc.address) : rc.action !== "no-op" || rc.previousAddress !== undefined;
}

/** Changed lookups change what the configuration means without a word of it changing: said before the table. */
function lookupNote(lookups: readonly LookupResult[]): string {
  if (lookups.length === 0) return "";
  const items = lookups.map((l) => `> - ${codeSpan(l.address)} (${escapeInline(l.kind)}): ${l.changes.map((fc) => codeSpan(fc.path)).join(", ")}`);
  return ["> [!IMPORTANT]", `> **${lookups.length === 1 ? "A lookup finds" : `${lookups.length} lookups find`} another value than at the last apply.**`, ...items].join("\n");
}

const limited = <T>(items: readonly T[], limit: number | undefined): T[] => (limit === undefined ? [...items] : items.slice(0, limit));

function warning(shown: readonly ResourceChange[], mode: PlanMode, rowLimit: number | undefined): string {
  if (mode === "refresh-only") return "";
  const lost = shown.filter((rc) => rc.action === "delete" || rc.action === "replace");
  if (lost.length === 0) return "";
  const destroyed = lost.filter((rc) => rc.action === "delete").length;
  const replaced = lost.length - destroyed;
  const counts = [destroyed > 0 ? `${destroyed} to destroy` : "", replaced > 0 ? `${replaced} to replace` : ""].filter((s) => s !== "").join(", ");
  const items = limited(lost, rowLimit).map((rc) => {
    const what = rc.action === "delete" ? "destroyed" : "replaced";
    return `> - ${codeSpan(rc.address)} will be ${what}${rc.reason ? `: ${escapeInline(rc.reason)}` : ""}`;
  });
  const more = lost.length - items.length;
  if (more > 0) items.push(`> - and ${more} more`);
  const consequences = [destroyed > 0 ? "What a destroyed object holds is lost." : "", replaced > 0 ? "A replaced object is deleted and created again, with a new id." : ""];
  const lead = `> **This plan deletes objects (${counts}).** ${consequences.filter((s) => s !== "").join(" ")}`;
  return ["> [!WARNING]", lead, ...items].join("\n");
}

/** Where the full plan is: the saved plan file when there is one, else a new plan (show alone shows the state). */
const fullPlanCommand = (planFile: string | undefined): string => (planFile ? `netform show ${planFile}` : "netform plan");

function changeTable(shown: readonly ResourceChange[], mode: PlanMode, rowLimit: number | undefined, planFile: string | undefined): string {
  const rows = limited(shown, rowLimit).map((rc) => [actionLabel(rc, mode), codeSpan(rc.address), rc.reason ? escapeInline(rc.reason) : ""]);
  const text = table(["Action", "Address", "Reason"], rows);
  const more = shown.length - rows.length;
  return more > 0 ? `${text}\n\n…and ${more} more ${more === 1 ? "change" : "changes"} not listed; run ${codeSpan(fullPlanCommand(planFile))} for the full plan.` : text;
}

function actionLabel(rc: ResourceChange, mode: PlanMode): string {
  if (mode === "refresh-only") return rc.changes.length > 0 ? "changed outside netform" : "deleted outside netform";
  switch (rc.action) {
    case "create":
      return "create";
    case "update":
      return "update";
    case "replace":
      return rc.createBeforeDestroy ? "**replace** (create first)" : "**replace**";
    case "delete":
      return "**destroy**";
    case "import":
      return rc.changes.length > 0 ? "import, update" : "import";
    case "forget":
      return "forget";
    case "no-op":
      if (rc.previousAddress !== undefined) return "move";
      return rc.awaiting !== undefined ? `wait for ${rc.awaiting}` : "no-op";
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// One resource's section

function resourceSection(rc: ResourceChange, mode: PlanMode): string | undefined {
  const lines = gutterLines((c) => bodyLines(rc, mode, c));
  if (lines.length === 0) return undefined;
  const moved = rc.previousAddress !== undefined && rc.action !== "no-op" ? ` (moved from ${rc.previousAddress})` : "";
  return details(`<code>${escapeHtml(rc.address)}</code> ${escapeHtml(`${phrase(rc, mode)}${moved}`)}`, fencedBlock("diff", lines));
}

function bodyLines(rc: ResourceChange, mode: PlanMode, c: Colors): string[] {
  if (mode === "refresh-only") return fieldChangeLines(rc, c);
  switch (rc.action) {
    case "create":
      return createdLines(rc, c);
    case "update":
    case "replace":
    case "import":
      return fieldChangeLines(rc, c);
    case "delete":
      return deletedLines(rc, c);
    case "forget":
      return [`- ${rc.address}`];
    case "no-op":
      return rc.previousAddress !== undefined ? [`  ${rc.previousAddress} -> ${rc.address}`] : [];
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

function phrase(rc: ResourceChange, mode: PlanMode): string {
  if (mode === "refresh-only") return rc.changes.length > 0 ? "has changed outside of netform" : "has been deleted outside of netform";
  switch (rc.action) {
    case "create":
      return "will be created";
    case "update":
      return "will be updated in place";
    case "replace":
      return rc.createBeforeDestroy ? "must be replaced, creating the new object first" : "must be replaced";
    case "delete":
      return "will be destroyed";
    case "forget":
      return "will be removed from the state, not destroyed";
    case "import": {
      const uuid = rc.importId ?? rc.id;
      return `will be imported${uuid ? ` (uuid ${uuid})` : ""}${rc.changes.length > 0 ? ", then updated in place" : ""}`;
    }
    case "no-op":
      if (rc.previousAddress !== undefined) return `has moved from ${rc.previousAddress}`;
      return rc.awaiting !== undefined ? `is waiting for the ${rc.awaiting} started by an earlier run` : "is unchanged";
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Dependency graph

type NodeStyle = "create" | "update" | "replace" | "delete" | "import" | "wait" | "unchanged";

const STYLES: Record<NodeStyle, string> = {
  create: "fill:#dafbe1,stroke:#1a7f37,color:#1f2328",
  update: "fill:#fff8c5,stroke:#9a6700,color:#1f2328",
  replace: "fill:#ffebe9,stroke:#cf222e,color:#1f2328,stroke-width:2px",
  delete: "fill:#ffebe9,stroke:#cf222e,color:#1f2328,stroke-dasharray:5 3",
  import: "fill:#ddf4ff,stroke:#0969da,color:#1f2328",
  wait: "fill:#f6f8fa,stroke:#9a6700,color:#1f2328,stroke-dasharray:2 2",
  unchanged: "fill:#f6f8fa,stroke:#8c959f,color:#59636e",
};

function nodeStyle(rc: ResourceChange | undefined): NodeStyle {
  if (rc === undefined) return "unchanged";
  switch (rc.action) {
    case "create":
    case "update":
    case "replace":
    case "delete":
    case "import":
      return rc.action;
    case "forget":
      return "delete";
    case "no-op":
      return rc.awaiting !== undefined ? "wait" : "unchanged";
    default: {
      const unreachable: never = rc.action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

/** A Mermaid quoted label: `"` cannot be escaped with a backslash, only as an entity. */
const mermaidLabel = (text: string): string => `"${text.replace(/"/g, "#quot;")}"`;

/**
 * The changed resources and what they depend on, coloured by action. Edges point from the dependent to
 * its dependency, and the chart runs right to left, as `netform graph` draws them.
 */
function dependencyGraph(plan: Plan, shown: readonly ResourceChange[]): string {
  const byAddress = new Map(plan.changes.map((rc) => [rc.address, rc]));
  const nodes = [...new Set(shown.flatMap((rc) => [rc.address, ...rc.dependencies]))];
  const edges = shown.flatMap((rc) => rc.dependencies.map((d): [string, string] => [rc.address, d]));
  // Without edges the diagram would only repeat the table.
  if (edges.length === 0) return "";
  if (nodes.length > MAX_GRAPH_NODES || edges.length > MAX_GRAPH_EDGES) {
    return `The dependency graph (${nodes.length} resources, ${edges.length} dependencies) is too large to draw here; run \`netform graph --format mermaid\` for it.`;
  }
  const ids = new Map(nodes.map((n, i) => [n, `n${i}`]));
  const id = (address: string): string => ids.get(address) ?? "";
  const styles = new Map(nodes.map((n) => [n, nodeStyle(byAddress.get(n))]));
  const used = (Object.keys(STYLES) as NodeStyle[]).filter((s) => [...styles.values()].includes(s));
  const lines = [
    "%% An edge A --> B means A depends on B.",
    "flowchart RL",
    ...nodes.map((n) => {
      const style = styles.get(n) ?? "unchanged";
      // The action is in the label too, for whoever cannot tell the colours apart.
      return `  ${id(n)}[${mermaidLabel(style === "unchanged" ? n : `${n} (${style})`)}]:::${style}`;
    }),
    ...edges.map(([from, to]) => `  ${id(from)} --> ${id(to)}`),
    ...used.map((s) => `  classDef ${s} ${STYLES[s]}`),
  ];
  return details("Dependency graph", fencedBlock("mermaid", lines));
}
