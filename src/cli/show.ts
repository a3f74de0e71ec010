// `netform show [PLANFILE]`: a saved plan in any format (e.g. markdown for a pull-request comment), or,
// without one, what the state records.

import type { Command } from "commander";
import { readPlanFile, readState } from "../engine/index.js";
import { parseFormat, renderPlan, renderStateDocument, renderStateText } from "../views/index.js";
import { run } from "./program.js";

export function registerShow(program: Command): void {
  program
    .command("show [planfile]")
    .option("--format <format>", "text, markdown or json", "text")
    .option("-c, --config <path>", "the configuration whose backend keeps the state, when no plan file is given", ".")
    .option("--state <file>", "a local state file instead, when no plan file is given")
    .action(
      run(async ({ output }, planFile: string | undefined, flags: { format: string; config: string; state?: string }) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json"] as const);
        if (planFile) {
          output.out(renderPlan(readPlanFile(planFile, process.env).plan, format, output.c, planFile));
          return 0;
        }
        const target = { configPath: flags.config, ...(flags.state ? { statePath: flags.state } : {}), env: process.env };
        const state = await readState(target, "give a plan file, or point --state at the state file");
        if (format === "json") output.out(renderStateDocument(state));
        else output.out(renderStateText(state, format, output.c));
        return 0;
      }),
    );
}
