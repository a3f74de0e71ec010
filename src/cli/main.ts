#!/usr/bin/env node
// netform's entry point. The program is one bundle beside this file (netform.cjs, see scripts/bundle.mjs),
// run through V8's code cache (code-cache.ts says why and how); this file only starts it, so that it stays
// small enough to cost nothing.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { commandNamed } from "./args.js";
import { loadWithCodeCache } from "./code-cache.js";

// V8 accepts a code cache only under the flags it was made with, and the HTTP client sets this one when it
// loads (src/api/client.ts says why): set before anything is compiled, the flags are the same at every
// start and at every save.
setFlagsFromString("--liftoff-only");

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "netform.cjs");
const debug = process.argv.includes("--debug");
if (debug || process.env.NODE_DISABLE_COMPILE_CACHE) {
  // With --debug, stack traces give the sources' lines: Node's loader reads the bundle's source map.
  if (debug) process.setSourceMapsEnabled(true);
  createRequire(bundle)(bundle);
} else {
  const named = commandNamed(process.argv.slice(2));
  const program = loadWithCodeCache(bundle, join(here, "compile-cache"), named !== undefined && /^[a-z][a-z-]*$/.test(named) ? named : "program");
  if (program.use === "made") process.once("exit", () => program.save());
  program.run();
}
