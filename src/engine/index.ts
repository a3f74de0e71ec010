// The engine: one run against a configuration and its state — refresh, plan, apply, destroy, drift,
// import and saved plans. It owns waiting (one poller per apply), ordering (a graph of steps) and the
// state file (a pending record before every mutating call). It never prints: it emits EngineEvents that
// the views render.

export * from "./events.js";
export { configurationSchemaText, dependencyGraph, parseResourceAddress, parseVarFlag, readConfiguration } from "./configuration.js";
export { InterruptedError, interruptedBy, type InterruptSignal } from "./interrupt.js";
export { applyRun, openRun, planRun, configurationHash, defaultStatePath, GENERATOR, type Run, type RunOptions, type Planned, type PlanRequest } from "./run.js";
export { detectDrift, IgnoreRules, IGNORE_FILE } from "./drift.js";
export { importObject } from "./import.js";
export { forgetResource, readState, recordedAt, unlockState } from "./state-commands.js";
export { hasChanges } from "../plan/index.js";
export { checkPlanFile, readPlanFile, savePlanFile, type PlanFile } from "./plan-file.js";
export { Poller, REAL_SERVICE_POLLING, type PollSettings } from "./wait.js";
export type { Endpoint, EndpointResolver } from "./session.js";
