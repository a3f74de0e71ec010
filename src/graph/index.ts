// A generic directed acyclic graph: cycle detection, a stable dependency order, and a concurrent walk
// that skips what depends on a failure. Imports nothing of the domain.

export * from "./dag.js";
export * from "./walk.js";
