// The planner, pure: from the configuration, the state and what the refresh read, decide per address
// create, update, replace, delete, import or nothing, with the reason and the field changes. No I/O.
// A plan and a drift report are plain data that every rendering (text, markdown, JSON) reads.

export * from "./types.js";
export * from "./cost.js";
export type * from "./drift.js";
export { compareFields, type Refreshed } from "./diff.js";
export { lookupFrom, resolveSpec } from "./resolve.js";
export { hashesUnder, leaves, sameValue, UNKNOWN_MARK } from "./values.js";
