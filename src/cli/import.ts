// `netform import ADDR UUID`: adopt an existing object under a declared address.

import type { Command } from "commander";
import { run } from "./program.js";
import { textReporter, withRun } from "./run-command.js";
import { addLocatingOptions, addParallelismOption, runRequest, type RunFlags } from "./run-options.js";
import { importObject } from "../engine/index.js";

export function registerImport(program: Command): void {
  const cmd = addLocatingOptions(program.command("import <address> <uuid>"));
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
