// Benchmark: how long the command line takes to start, against bare Node (`node -e 0`) on the same machine.
// Each command runs many times and the fastest run counts: the fastest is the one least disturbed by
// whatever else the machine is doing, so the ratio is stable where a mean would not be.
//
// - `netform --help`: the program and its list of commands, no command module.
// - `netform validate`: the quick start's configuration, read and checked (YAML, schemas, rules).
// - `netform plan`: the quick start on the embedded simulator with an empty state: the simulator starts in
//   the process, the plan refreshes nothing and plans four creates.
//
// A command's second run saves V8's compiled code for it and later runs start from that
// (src/cli/code-cache.ts), so the fastest run is one with the cache. The same commands without it
// (NODE_DISABLE_COMPILE_CACHE), as a pipeline's job on a fresh machine runs them, are printed beside them.

import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CLI, root } from "./cli.mjs";

const RUNS = Number(process.env.NETFORM_BENCH_STARTUP_RUNS ?? 15);

function fastest(args, cwd, extraEnv = {}) {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NETFORM_STATE_KEY: "bench", ...extraEnv }, stdio: ["ignore", "ignore", "pipe"] });
    const elapsed = performance.now() - started;
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    best = Math.min(best, elapsed);
  }
  return best;
}

export default async function run() {
  const work = mkdtempSync(join(tmpdir(), "netform-bench-startup-"));
  try {
    cpSync(join(root, "examples/quickstart"), work, { recursive: true });
    const node = fastest(["-e", "0"], work);
    const help = fastest([CLI, "--help"], work);
    const validate = fastest([CLI, "validate"], work);
    const plan = fastest([CLI, "plan"], work);
    const uncached = { NODE_DISABLE_COMPILE_CACHE: "1" };
    const firstHelp = fastest([CLI, "--help"], work, uncached);
    const firstValidate = fastest([CLI, "validate"], work, uncached);
    const firstPlan = fastest([CLI, "plan"], work, uncached);
    return [
      { name: "startup: bare node -e 0 (fastest of the runs)", value: Number(node.toFixed(1)), unit: "ms" },
      { name: "startup: netform --help / node -e 0", value: help / node, unit: "x", goal: "<= 1.5" },
      { name: "startup: netform validate (quick start) / node -e 0", value: validate / node, unit: "x", goal: "<= 3" },
      { name: "startup: netform plan (quick start, embedded, empty state) / node -e 0", value: plan / node, unit: "x" },
      { name: "startup without the code cache (a fresh machine): --help / node -e 0", value: firstHelp / node, unit: "x" },
      { name: "startup without the code cache: validate / node -e 0", value: firstValidate / node, unit: "x" },
      { name: "startup without the code cache: plan / node -e 0", value: firstPlan / node, unit: "x" },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
