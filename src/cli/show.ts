// `netform show [PLANFILE]`: a saved plan in any format (e.g. markdown for a pull-request comment), or,
// without one, what the state records.

import type { Command } from "commander";
import { readPlanFile, readState } from "../engine/index.js";
import { NetformError } from "../diag/index.js";
import { parseFormat, renderPlan, renderStateDocument, renderStateText, terraformPlanText } from "../views/index.js";
import { run } from "./program.js";
import { addLocatingOptions, stateTarget, type LocatingFlags } from "./run-options.js";

export function registerShow(program: Command): void {
  // The locating flags say which state to show when no plan file is given.
  addLocatingOptions(program.command("show [planfile]"))
    .option("--format <format>", "text, markdown, json (netform's documents) or terraform-json (a saved plan in Terraform's JSON plan representation, as terraform show -json PLANFILE)", "text")
    .action(
      run(async ({ output, env }, planFile: string | undefined, flags: LocatingFlags & { format: string }) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json", "terraform-json"] as const);
        if (planFile) {
          const file = readPlanFile(planFile, env);
          output.out(format === "terraform-json" ? terraformPlanText(file.plan, { version: program.version() ?? "", timestamp: file.createdAt }) : renderPlan(file.plan, format, output.c, planFile));
          return 0;
        }
        if (format === "terraform-json") {
          throw new NetformError({ code: "usage", message: "show --format terraform-json shows a saved plan, and none was given", hint: "give the plan file: netform plan --out FILE, then netform show --format terraform-json FILE; for the state, use --format json" });
        }
        const state = await readState(stateTarget(flags, output, env), "give a plan file, or point --state at the state file");
        if (format === "json") output.out(renderStateDocument(state));
        else output.out(renderStateText(state, format, output.c));
        return 0;
      }),
    );
}
