// `netform show [PLANFILE]`: a saved plan in any format (e.g. markdown for a pull-request comment), or,
// without one, what the state records.

import type { Command } from "commander";
import { readPlanFile, readState } from "../engine/index.js";
import { parseFormat, renderPlan, renderStateDocument, renderStateText } from "../views/index.js";
import { run } from "./program.js";
import { addLocatingOptions, stateTarget, type LocatingFlags } from "./run-options.js";

export function registerShow(program: Command): void {
  // The locating flags say which state to show when no plan file is given.
  addLocatingOptions(program.command("show [planfile]"))
    .option("--format <format>", "text, markdown or json", "text")
    .action(
      run(async ({ output }, planFile: string | undefined, flags: LocatingFlags & { format: string }) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json"] as const);
        if (planFile) {
          output.out(renderPlan(readPlanFile(planFile, process.env).plan, format, output.c, planFile));
          return 0;
        }
        const state = await readState(stateTarget(flags, output), "give a plan file, or point --state at the state file");
        if (format === "json") output.out(renderStateDocument(state));
        else output.out(renderStateText(state, format, output.c));
        return 0;
      }),
    );
}
