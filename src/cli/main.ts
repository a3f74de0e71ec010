#!/usr/bin/env node
// netform's entry point. The program is a bundle beside this file (netform.cjs, or program.cjs when no
// command is named; see scripts/bundle.mjs), run through V8's code cache (code-cache.ts says why and how);
// this file only starts it, so that it stays small enough to cost nothing.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandNamed } from "./args.js";
import { CodeCache } from "./code-cache.js";
import type * as Netform from "./netform.js";
import type { Invocation } from "./program.js";

const here = dirname(fileURLToPath(import.meta.url));
const named = commandNamed(process.argv.slice(2));
// A run that names no command (`netform`, `--help`, `--version`) needs only the program and its list of
// commands: a bundle without the commands, a tenth of the size (scripts/bundle.mjs).
const bundle = join(here, named === undefined ? "program.cjs" : "netform.cjs");
const load = createRequire(bundle);
// undici parses HTTP with WebAssembly. V8 compiles it quickly, then again optimized in the background once
// it is hot, and Node waits for that second compile before it exits: about a tenth of a second on every
// short command; the quick compile parses answers fast enough for any apply. Set here, before anything is
// compiled, because V8 accepts a code cache only under the flags it was made with. Not for program.cjs,
// which calls no service: node:v8 takes a tenth of a bare Node's start to load.
if (named !== undefined) (load("node:v8") as typeof import("node:v8")).setFlagsFromString("--liftoff-only");
// Either spelling: netform.ts turns Terraform's one-dash flags into commander's (args.ts).
const debug = process.argv.includes("--debug") || process.argv.includes("-debug");
let program: typeof Netform;
if (debug || process.env.NODE_DISABLE_COMPILE_CACHE) {
  // With --debug, stack traces give the sources' lines: Node's loader reads the bundle's source map.
  if (debug) process.setSourceMapsEnabled(true);
  program = load(bundle) as typeof Netform;
} else {
  const cache = new CodeCache(join(here, "compile-cache"), named === undefined ? "program" : /^[a-z][a-z-]*$/.test(named) ? named : "other");
  program = cache.run(bundle) as typeof Netform;
  // Saved for the program, each command and `help COMMAND`, not for a mistyped name, which would keep a
  // cache of its own. At exit, so that what the run loaded later (the simulator, the HTTP client) is in it.
  if (named === undefined || named === "help" || program.commandNames.includes(named)) process.once("exit", () => cache.save());
}
const invocation: Invocation = {
  args: process.argv.slice(2),
  env: process.env,
  // Opening standard input costs a handle and some start-up: only a command that reads it does.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
};
// The process ends when its work does (the state saved, connections closed), not at the exit code.
void program.runNetform(invocation).then((code) => {
  process.exitCode = code;
});
