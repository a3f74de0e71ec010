// The engine: one run against a configuration and its state — refresh, plan, apply, destroy, drift,
// import, the state commands and saved plans. It reads configurations with the registry of kinds, owns
// waiting (one poller per apply), ordering (a graph of steps) and the state file, which it writes through
// one recorder (records.ts: a pending record before every mutating call). It never prints: it emits
// EngineEvents that the views render. Where the service is comes from the caller (an EndpointResolver), so
// it never starts the simulator itself.

export * from "./events.js";
export { configurationSchemaText, dependencyGraph, formatConfigurationText, isConfigurationFile, parseDuration, parseResourceAddress, parseVarFlag, readConfiguration } from "./configuration.js";
export { InterruptedError, interruptedBy, type InterruptSignal } from "./interrupt.js";
export { applyRun, openRun, recordLookups, plannedFromFile, planRun, configurationDigest, configurationHash, defaultStatePath, type ConfigurationDigest, GENERATOR, type Run, type RunOptions, type Planned, type PlanRequest } from "./run.js";
export { configurationTopology } from "./topology.js";
export { detectDrift, IgnoreRules, IGNORE_FILE } from "./drift.js";
export { importObject } from "./import.js";
export { readOutputs } from "./outputs.js";
export { backendDdl, type BackendDdl, forgetResource, migrateState, moveResource, pullState, pushState, readState, recordedAt, rekeyState, stateHistory, unlockState, type Rekeyed, type RekeyedHistory, type StateTarget } from "./state-commands.js";
export { createWorkspace, deleteWorkspace, listWorkspaces, selectWorkspace } from "./workspace-commands.js";
export { DEFAULT_WORKSPACE, selectedBy, selectedWorkspace, type SelectedWorkspace } from "./workspaces.js";
export { hasChanges } from "../plan/index.js";
export { checkPlanFile, readPlanFile, savedPaths, savePlanFile, type PlanFile } from "./plan-file.js";
export { planCost, stateCost, PriceBook, type RecordedCost, type StateCost } from "./pricing.js";
export { Poller, REAL_SERVICE_POLLING, type PollSettings } from "./wait.js";
export type { Endpoint, EndpointResolver, PaceNotice } from "./session.js";
export { initialize, type InitOptions, type InitReport, type Initialized } from "./init.js";
