// The state: its versioned format, the one writer that saves every step (journaled, then folded), the backend interface
// it is saved through (and the local file's lock), and its encryption at rest.

export * from "./format.js";
export * from "./store.js";
export * from "./lock.js";
export * from "./backend.js";
export * from "./encryption.js";
export * from "./journal.js";
export { FileJournal } from "./journal-file.js";
export { writeFileAtomic, writeFileAtomicAsync } from "./atomic.js";
