// The embedded simulator: a faithful HTTP implementation of the whole service specification, used by
// the quick start, by every end-to-end test, and by users to rehearse changes. It imports nothing from
// the rest of netform, so it is an independent model of the service: the end-to-end tests catch
// mistakes in the API client and the resource kinds instead of sharing them.

export { createSimulator, startSimulator, MAX_BODY_BYTES } from "./server.js";
export type { SimulatorOptions, RunningSimulator, Simulator, Exchange } from "./server.js";
export { CLIENTS, PROJECTS, ACCOUNTS } from "./auth.js";
export { parseFaultSpec } from "./faults.js";
