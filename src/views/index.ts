// The only code that writes to the terminal. Plans, drift reports, diagnostics, progress, the state and
// the simulator's banner are rendered here as text (coloured when the terminal wants it), markdown for
// pull requests, or JSON for pipelines, all from the same data the engine produced. The CLI reaches the
// views through this index.

export { renderApplyMarkdown } from "./apply-markdown.js";
export { interruptNotice, STOPPED_AT_ONCE_NOTICE } from "./apply-text.js";
export { renderFmt, type FmtReport, type FormattedFile } from "./fmt.js";
export { formatDiagnostic, renderDiagnosticsJson, renderDiagnosticsText, renderSchema } from "./diagnostics.js";
export { parseFormat, renderDrift, renderPlan } from "./documents.js";
export { renderError } from "./errors.js";
export { eventLine } from "./events-json.js";
export { printGraph, type GraphFormat } from "./graph.js";
export { Output } from "./output.js";
export { renderOutputJson, renderOutputRaw, renderOutputsJson, renderOutputsText } from "./outputs.js";
export { renderFailedPlanMarkdown } from "./plan-markdown.js";
export { renderTopologyMermaid } from "./topology.js";
export { renderPlanText, renderRefreshRecorded } from "./plan-text.js";
export { renderStateCostJson, renderStateCostText } from "./plan-cost.js";
export { progressView } from "./progress.js";
export { renderInitReport } from "./init.js";
export { terraformPlanText } from "./plan-terraform-json.js";
export { renderVersion } from "./version.js";
export { renderWorkspaceList } from "./workspaces.js";
export { renderBackendDdl, renderRekeyed, renderStateDocument, renderStateHistory, renderStateList, renderStateResource, renderStateText } from "./state.js";
