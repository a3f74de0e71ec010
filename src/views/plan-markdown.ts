// The plan as a pull-request comment (`plan --format markdown`). What a reviewer must not miss is
// visible without expanding anything: the counts in the title, a warning naming every object that will
// be destroyed or replaced, and a table of every change with its reason. Below them, a dependency graph
// and one collapsible section per resource with its field diff, laid out and masked exactly as the text
// plan lays them out (values.ts), with each line's symbol moved to the first column so that GitHub
// colours the ```diff block.
//
// GitHub refuses comments over 65,536 characters, so the comment is capped (markdown.ts): per-resource
// sections go first, from the end, and a note says how many were left out.

import { compareAddresses } from "../config/index.js";
import { isUserError, type Diagnostic } from "../diag/index.js";
import { planTopology, touchedTopology } from "../plan/topology.js";
import { changedLookups, hasChanges, type LookupResult, type Plan, type PlanMode, type ReasonCode, type ResourceChange } from "../plan/types.js";
import { formatDiagnostic } from "./diagnostics.js";
import { capComment, codeSpan, DEFAULT_MAX_LENGTH, details, escapeHtml, escapeInline, fencedBlock, table } from "./markdown.js";
import type { Colors } from "./output.js";
import { costMarkdown, costTotalMarkdown } from "./plan-cost.js";
import { outputChangeLines } from "./outputs.js";
import { lookupLines, lookupPhrase } from "./plan-lookups.js";
import { durationPhrase } from "./plan-duration.js";
import { riskNote } from "./plan-risks.js";
import { noChangesMessage, planCounts, refreshOnlyCount, unreadNotes } from "./plan-text.js";
import { drawTopology } from "./topology.js";
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
/** The topology drawn in a comment: beyond these, what changes is drawn first and the rest counted. */
const MAX_TOPOLOGY_NODES = 60;
const MAX_TOPOLOGY_EDGES = 80;
/** A topology of at most this many nodes is shown open. */
const OPEN_TOPOLOGY_NODES = 20;
/** Tables with more rows than this are collapsed, so that the summary above them stays in view. */
const OPEN_ROWS = 10;
/** Objects the destroy warning names before "and N more". */
const WARNING_ITEMS = 20;
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
  const sorted = [...shown].sort((a, b) => compareAddresses(a.address, b.address));
  const sections = [
    ...lookups.map((lookup) => details(`<code>${escapeHtml(lookup.address)}</code> ${escapeHtml(lookupPhrase(lookup))}`, fencedBlock("diff", gutterLines((c) => lookupLines(lookup, c))))),
    ...sorted.flatMap((rc) => {
      const section = resourceSection(rc, plan.mode);
      return section === undefined ? [] : [section];
    }),
    ...(outputsChange ? [details("Changes to Outputs", fencedBlock("diff", gutterLines((c) => outputChangeLines(plan, c).slice(1))))] : []),
  ];
  const graph = dependencyGraph(plan, sorted);
  const topology = plan.mode === "refresh-only" ? "" : topologySection(plan);
  const where = fullPlanWhere(options.planFile);
  return capComment({
    // The summary first (counts, duration, cost, risks, what is lost), then the long tables collapsed.
    head: (rowLimit) => [
      title,
      summaryLines(plan),
      riskNote(plan),
      lookupNote(lookups),
      warning(sorted, plan.mode, rowLimit),
      unread,
      changeTable(sorted, plan.mode, rowLimit, where),
      topology,
      costMarkdown(plan, rowLimit, where),
      rowLimit === undefined ? graph : "",
    ],
    rows: shown.length,
    sections,
    note: (left, total) => `> [!NOTE]\n> ${left} of ${total} resource ${total === 1 ? "section was" : "sections were"} left out to keep this comment under ${maxLength.toLocaleString("en-US")} characters; ${where}.`,
    maxLength,
  });
}

/** Duration and cost total, one line each, right under the title. */
function summaryLines(plan: Plan): string {
  const lines = [plan.estimatedDuration ? `**Estimated duration:** ${durationPhrase(plan.estimatedDuration, codeSpan)}` : "", costTotalMarkdown(plan)].filter((l) => l !== "");
  // Two spaces end a line without starting a paragraph.
  return lines.join("  \n");
}

/**
 * The plan's comment when the plan fails: the located diagnostics, as the text output gives them, so that
 * the pull request says what is wrong and where without a trip to the run log.
 */
export function renderFailedPlanMarkdown(reported: readonly Diagnostic[], options: MarkdownOptions & { exitCode?: number; error?: unknown } = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const diagnostics = options.error === undefined ? reported : [...reported, errorDiagnostic(options.error)];
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.length - errors.length;
  const counts = [errors.length > 0 ? `${errors.length} ${errors.length === 1 ? "error" : "errors"}` : "", warnings > 0 ? `${warnings} ${warnings === 1 ? "warning" : "warnings"}` : ""].filter((s) => s !== "").join(", ");
  const title = `### ${escapeInline(options.title ?? "netform plan")} failed${counts ? `: ${counts}` : ""}`;
  const items = [...errors, ...diagnostics.filter((d) => d.severity !== "error")].map((d) => fencedBlock("text", formatDiagnostic(d)));
  const lead = errors.length > 0 ? "Nothing was planned. Fix these, then push again:" : `Nothing was planned${options.exitCode !== undefined ? ` (exit code ${options.exitCode})` : ""}; the run log says more.`;
  return capComment({
    head: () => [title, lead],
    rows: 0,
    sections: items,
    note: (left, total) => `> [!NOTE]\n> ${left} of ${total} diagnostics were left out to keep this comment under ${maxLength.toLocaleString("en-US")} characters; every one is in the run log.`,
    maxLength,
  });
}

/**
 * An error that ended the plan, as a diagnostic: a user error with its message and hint; any other only
 * as a defect, its message left to the run log (it may quote what a comment must not show).
 */
function errorDiagnostic(error: unknown): Diagnostic {
  if (isUserError(error)) return { severity: "error", code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  return { severity: "error", code: "internal", message: "netform stopped on an internal error", hint: "the run log has its message; run again with --debug for the stack trace, and report it" };
}

/** The topology of what the plan touches, bounded; "" when the plan touches no port, device, router or connection. */
function topologySection(plan: Plan): string {
  const touched = touchedTopology(planTopology(plan));
  if (touched.nodes.length === 0) return "";
  const drawing = drawTopology(touched, { maxNodes: MAX_TOPOLOGY_NODES, maxEdges: MAX_TOPOLOGY_EDGES });
  const { nodes, edges } = drawing.leftOut;
  const more =
    nodes + edges > 0
      ? `\n\n${nodes} more ${nodes === 1 ? "node" : "nodes"} and ${edges} more connection${edges === 1 ? "" : "s"} are not drawn here, to keep the diagram legible; what changes is drawn first. Run ${codeSpan("netform graph --topology")} for the whole network.`
      : "";
  const summary = `Topology of what this plan touches (${touched.nodes.length} ${touched.nodes.length === 1 ? "node" : "nodes"}, ${touched.edges.length} connection${touched.edges.length === 1 ? "" : "s"})`;
  // A small network is shown open: the picture is the point; a large one waits to be asked for.
  return details(summary, `${fencedBlock("mermaid", drawing.lines)}${more}`, touched.nodes.length <= OPEN_TOPOLOGY_NODES && nodes + edges === 0);
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
  // The table below lists them all: the warning names the first few, so that it stays a warning.
  const items = limited(lost, Math.min(rowLimit ?? WARNING_ITEMS, WARNING_ITEMS)).map((rc) => {
    const what = rc.action === "delete" ? "destroyed" : "replaced";
    return `> - ${codeSpan(rc.address)} will be ${what}${rc.reason ? `: ${escapeInline(rc.reason)}` : ""}`;
  });
  const more = lost.length - items.length;
  if (more > 0) items.push(`> - … and ${more} more, in the table of changes below`);
  const consequences = [destroyed > 0 ? "What a destroyed object holds is lost." : "", replaced > 0 ? "A replaced object is deleted and created again, with a new id." : ""];
  const lead = `> **This plan deletes objects (${counts}).** ${consequences.filter((s) => s !== "").join(" ")}`;
  return ["> [!WARNING]", lead, ...items].join("\n");
}

/** Where the full plan is: the saved plan file when there is one, else the run log or a new plan (show alone shows the state). */
const fullPlanWhere = (planFile: string | undefined): string => (planFile ? `the full plan is in the run log and in ${codeSpan(`netform show ${planFile}`)}` : `the full plan is in the run log, or run ${codeSpan("netform plan")}`);

function changeTable(shown: readonly ResourceChange[], mode: PlanMode, rowLimit: number | undefined, where: string): string {
  const rows = limited(shown, rowLimit).map((rc) => [actionLabel(rc, mode), codeSpan(rc.address), escapeInline(reasonText(rc))]);
  const more = shown.length - rows.length;
  const text = `${table(["Action", "Address", "Reason"], rows)}${more > 0 ? `\n\n… and ${more} more ${more === 1 ? "change" : "changes"} not listed; ${where}.` : ""}`;
  return shown.length > OPEN_ROWS ? details(`All ${shown.length} changes`, text) : text;
}

/** Reasons in words for the changes the planner gives only a code, creates above all. */
const REASON_WORDS: Partial<Record<ReasonCode, string>> = {
  create: "new: not in the state",
  "no-longer-configured": "no longer in the configuration",
  "destroy-requested": "destroy plan",
  "refresh-only": "changed outside netform",
  unchanged: "unchanged",
  import: "adopt an existing object",
  "awaiting-earlier": "an earlier run's change is still running",
};

/** Why, in words: the planner's own, else the words for its code, else the fields that change. */
export function reasonText(rc: ResourceChange): string {
  if (rc.reason) return rc.reason;
  if (rc.previousAddress !== undefined && rc.action === "no-op") return `moved from ${rc.previousAddress}`;
  if ((rc.action === "update" || rc.action === "import") && rc.changes.length > 0) return `${rc.changes.map((c) => c.path).join(", ")} ${rc.changes.length === 1 ? "changes" : "change"}`;
  return REASON_WORDS[rc.reasonCode] ?? "";
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
