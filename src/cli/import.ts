// `netform import ADDR UUID`: adopt an existing object under a declared address.

import type { Command } from "commander";
import { run } from "./program.js";
import { textReporter, withRun } from "./run-command.js";
import { addParallelismOption, runRequest, type RunFlags } from "./run-options.js";
import { importObject } from "../engine/index.js";

export function registerImport(program: Command): void {
  const cmd = program
    .command("import <address> <uuid>")
    .option("-c, --config <path>", "a configuration file or a directory of *.yaml / *.yml files", ".")
    .option("--state <file>", "the state file (default: netform.state.json beside the configuration)")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", (v: string, p: string[]) => [...p, v], [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", (v: string, p: string[]) => [...p, v], []);
  addParallelismOption(cmd).action(
    run(async (ctx, address: string, uuid: string, flags: RunFlags) => {
      return withRun(ctx, runRequest({ ...flags, target: [] }), "import", textReporter(ctx.output), async (r) => {
        const ref = await importObject(r, address, uuid);
        ctx.output.out(`${ctx.output.c.green("Imported")} ${address} (${ref.id}). It is managed by netform from now on.`);
        ctx.output.out("Run 'netform plan' to see what an apply would change to match the configuration.");
        return 0;
      });
    }),
  );
}
