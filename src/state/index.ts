// The state file: its versioned format, the one writer that saves it atomically after every step, and
// the lock that keeps two runs from writing it at once.

export * from "./format.js";
export * from "./store.js";
export * from "./lock.js";
export { writeFileAtomic, writeFileAtomicAsync } from "./atomic.js";
