// `netform show [PLANFILE]`: a saved plan in any format (e.g. markdown for a pull-request comment), or,
// without one, what the state records.

import type { Command } from "commander";
import { readPlanFile, readState } from "../engine/index.js";
import { parseFormat, renderPlan, renderStateDocument, renderStateText } from "../views/index.js";
import { run } from "./program.js";
import { addStateOptions, statePathOf, type StateFlags } from "./state.js";

export function registerShow(program: Command): void {
  addStateOptions(program.command("show [planfile]").description("show a saved plan, or without one what the state records"))
    .option("--format <format>", "text, markdown or json", "text")
    .action(
      run(({ output }, planFile: string | undefined, flags: StateFlags & { format: string }) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json"] as const);
        if (planFile) {
          output.out(renderPlan(readPlanFile(planFile).plan, format, output.c, planFile));
          return 0;
        }
        const state = readState(statePathOf(flags), "give a plan file, or point -c at the configuration (or --state at the state file)");
        if (format === "json") output.out(renderStateDocument(state));
        else output.out(renderStateText(state, format, output.c));
        return 0;
      }),
    );
}
