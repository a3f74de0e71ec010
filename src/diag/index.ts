// Errors and diagnostics shared by every layer: typed errors (user or internal) and positioned
// diagnostics (file:line:col, address, field, rule). Imports nothing of the domain.

export * from "./errors.js";
export * from "./diagnostics.js";
