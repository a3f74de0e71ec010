// `netform demo`: the quick start. Copies examples/quickstart to a fresh directory and runs, as a user
// would, validate, plan, apply and a second plan that finds nothing to change — against the embedded
// simulator, so it needs no account and no network.

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import type { Output } from "../views/output.js";
import { run } from "./program.js";

const here = dirname(fileURLToPath(import.meta.url));
const QUICKSTART = resolve(here, "../../examples/quickstart");

/** Runs netform itself as a child, showing the command line first, as a shell session would. */
function step(output: Output, dir: string, speed: string, args: string[]): Promise<number> {
  output.out(`\n${output.c.bold(`$ netform ${args.join(" ")}`)}`);
  return new Promise((resolveStep, reject) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...args], {
      cwd: dir,
      stdio: "inherit",
      env: { ...process.env, NETFORM_EMBEDDED_SPEED: speed },
    });
    child.on("error", reject);
    child.on("close", (code) => resolveStep(code ?? 1));
  });
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("the quick start: validate, plan, apply and plan again examples/quickstart on the embedded simulator")
    .option("--dir <dir>", "work in this directory instead of a new temporary one")
    .option("--speed <x>", "how much faster than the real service the simulator runs", "60")
    .action(
      run(async ({ output }, flags: { dir?: string; speed: string }) => {
        if (!(Number(flags.speed) > 0)) throw new NetformError({ code: "usage", message: `--speed must be a positive number, got "${flags.speed}"` });
        const dir = flags.dir ? resolve(flags.dir) : mkdtempSync(join(tmpdir(), "netform-quickstart-"));
        cpSync(QUICKSTART, dir, { recursive: true });
        output.out(`${output.c.bold("netform quick start")} in ${dir}`);
        output.out(output.c.dim("A route filter, a port-to-port connection with DIRECT and BGP routing, and the filter's attachment, on the embedded simulator."));
        const started = Date.now();
        const steps: Array<{ args: string[]; ok: number[] }> = [
          { args: ["validate"], ok: [0] },
          { args: ["plan"], ok: [0] },
          { args: ["apply", "--auto-approve"], ok: [0] },
          { args: ["plan", "--detailed-exitcode"], ok: [0] },
        ];
        for (const s of steps) {
          const code = await step(output, dir, flags.speed, s.args);
          if (!s.ok.includes(code)) {
            output.err(output.c.red(`netform ${s.args.join(" ")} exited ${code}; the demo stops here.`));
            return 1;
          }
        }
        output.out(`\n${output.c.green("Quick start complete")} in ${((Date.now() - started) / 1000).toFixed(1)} s. The last plan found nothing to change.`);
        output.out(`Explore: cd ${dir} && npx netform state list   (npx netform destroy --auto-approve cleans up)`);
        return 0;
      }),
    );
}
