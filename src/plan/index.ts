// The planner, pure: from the configuration, the state and what the refresh read, decide per address
// create, update, replace, delete, import or nothing, with the reason and the field changes. No I/O.
// A plan and a drift report are plain data that every rendering (text, markdown, JSON) reads.

export * from "./types.js";
export type * from "./drift.js";
export { compareFields, makePlan, updatableBy, type PlanInput, type PlanResult, type Refreshed } from "./diff.js";
export { lookupFrom, resolveSpec, type AttributeLookup } from "./resolve.js";
export { UNKNOWN_MARK, isUnknownValue, leaves, masked, sameValue } from "./values.js";
