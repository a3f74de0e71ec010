// What the benchmarks share: the built command line, run as users run it (a child process), with only the
// environment a benchmark gives it.

import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI = join(root, "dist/cli/main.js");

/** Runs `netform ARGS` in `cwd`; `nodeArgs` go to Node before the program (e.g. a probe to --import). */
export function runCli(args, cwd, env, nodeArgs = []) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolveRun({ code, stdout, stderr }));
  });
}
