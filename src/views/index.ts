// The only code that writes to the terminal. Plans, drift reports, diagnostics, progress and the state are
// rendered here as text (coloured when the terminal wants it), markdown for pull requests, or JSON for
// pipelines, all from the same data the engine produced.

export { Output, colorWanted, type Colors } from "./output.js";
export { renderError } from "./errors.js";
export { parseFormat, renderDrift, renderPlan, type DocumentFormat } from "./documents.js";
export { progressView, type ProgressView } from "./progress.js";
