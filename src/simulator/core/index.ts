// The simulator's core, shared by every area: the world of objects with transitions computed on read,
// the clock, OAuth and the seeded clients, the error table and its problem styles, fault injection, the
// control API, the seeded world and the HTTP server that mounts the areas.

export { SPEED_HEADER, createSimulator, startSimulator } from "./server.js";
export type { SimulatorOptions, RunningSimulator, Exchange } from "./server.js";
export { CLIENTS, PROJECTS, ACCOUNTS } from "./auth.js";
export { parseFaultSpec } from "./faults.js";
