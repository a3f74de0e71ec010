// `netform demo`: the quick start. Copies examples/quickstart to a fresh directory and runs, as a user
// would, validate, plan, apply and a second plan that finds nothing to change — against the embedded
// simulator, so it needs no account and no network.

import { spawn } from "node:child_process";
import { accessSync, constants, cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import type { Output } from "../views/index.js";
import { run } from "./program.js";

const here = dirname(fileURLToPath(import.meta.url));
const QUICKSTART = resolve(here, "../../examples/quickstart");

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Where `name` resolves on the user's PATH, leaving out the node_modules/.bin folders that npm adds only
 * for the commands it runs (`npm run`, `npx`): a name found only there does not run from the user's shell. */
function onUserPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (!folder || (basename(folder) === ".bin" && basename(dirname(folder)) === "node_modules")) continue;
    try {
      const candidate = join(folder, name);
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The command line that runs this same netform from any folder in the user's shell: `netform` when that
 * name on their PATH is this program, else node with the absolute path to it. Never `npx netform`, which
 * outside a project that installs netform would fetch whatever the public registry has under that name. */
function netformCommand(env: NodeJS.ProcessEnv): string {
  const self = realpathSync(process.argv[1]!);
  if (onUserPath("netform", env) === self) return "netform";
  const node = onUserPath("node", env) === realpathSync(process.execPath) ? "node" : shellWord(process.execPath);
  return `${node} ${shellWord(self)}`;
}

/**
 * Runs netform itself as a child, showing the command line first, as a shell session would: the process's
 * own entry point again (process.argv[1]), with the terminal handed over. The demo is a process's whole
 * session, which is why it reads the process, not only its invocation.
 */
function step(output: Output, env: NodeJS.ProcessEnv, netform: string, dir: string, speed: string, args: string[]): Promise<number> {
  output.out(`\n${output.c.bold(`$ ${netform} ${args.join(" ")}`)}`);
  return new Promise((resolveStep, reject) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...args], {
      cwd: dir,
      stdio: "inherit",
      env: { ...env, NETFORM_EMBEDDED_SPEED: speed },
    });
    child.on("error", reject);
    child.on("close", (code) => resolveStep(code ?? 1));
  });
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .option("--dir <dir>", "work in this directory instead of a new temporary one")
    .option("--speed <x>", "how much faster than the real service the simulator runs", "60")
    .action(
      run(async ({ output, env }, flags: { dir?: string; speed: string }) => {
        if (!(Number(flags.speed) > 0)) throw new NetformError({ code: "usage", message: `--speed must be a positive number, got "${flags.speed}"` });
        const dir = flags.dir ? resolve(flags.dir) : mkdtempSync(join(tmpdir(), "netform-quickstart-"));
        cpSync(QUICKSTART, dir, { recursive: true });
        output.out(`${output.c.bold("netform quick start")} in ${dir}`);
        output.out(output.c.dim("A route filter, a port-to-port connection with DIRECT and BGP routing, and the filter's attachment, on the embedded simulator."));
        const netform = netformCommand(env);
        const started = Date.now();
        const steps: Array<{ args: string[]; ok: number[] }> = [
          { args: ["validate"], ok: [0] },
          { args: ["plan"], ok: [0] },
          { args: ["apply", "--auto-approve"], ok: [0] },
          { args: ["plan", "--detailed-exitcode"], ok: [0] },
        ];
        for (const s of steps) {
          const code = await step(output, env, netform, dir, flags.speed, s.args);
          if (!s.ok.includes(code)) {
            output.err(output.c.red(`netform ${s.args.join(" ")} exited ${code}; the demo stops here.`));
            return 1;
          }
        }
        output.out(`\n${output.c.green("Quick start complete")} in ${((Date.now() - started) / 1000).toFixed(1)} s. The last plan found nothing to change.`);
        output.out(`Explore: cd ${shellWord(dir)} && ${netform} state list`);
        output.out(`Clean up: cd ${shellWord(dir)} && ${netform} destroy --auto-approve`);
        return 0;
      }),
    );
}
