// The command line: one file per verb registering itself on the commander program (netform.ts builds
// it, main.ts starts it). A command parses its flags, opens a run, picks the views for its --format, and
// maps the outcome to Terraform's exit codes: 0 success, 1 error, 2 changes present or drift found.

export { createProgram, run, type RunContext } from "./program.js";
