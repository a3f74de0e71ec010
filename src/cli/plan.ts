// `netform plan`: refresh, compare, and show what apply would do. With --detailed-exitcode, exit 2
// when there are changes.

import type { Command } from "commander";
import { hasErrors } from "../diag/index.js";
import { savePlanFile } from "../engine/plan-file.js";
import { hasChanges } from "../plan/types.js";
import { renderPlanText } from "../views/plan-text.js";
import { run } from "./program.js";
import { addRunOptions, runInputs, type RunFlags } from "./run-options.js";
import { planWithFlags, textSession, withRun } from "./run-command.js";

export function registerPlan(program: Command): void {
  addRunOptions(program.command("plan").description("show what apply would change, without changing anything"), { planFlags: true })
    .option("--detailed-exitcode", "exit 0 when there is nothing to change, 2 when there are changes, 1 on error")
    .option("--out <file>", "save the plan, so that 'netform apply FILE' applies exactly it")
    .action(
      run(async (ctx, flags: RunFlags) => {
        const { emit } = textSession(ctx.output);
        return withRun(ctx, flags, "plan", emit, async (r) => {
          const { plan, diagnostics } = await planWithFlags(r, flags, emit, ctx.debug, ctx.output);
          if (hasErrors(diagnostics)) return 1;
          ctx.output.out(renderPlanText(plan, ctx.output.c));
          if (flags.out) {
            const { inputs } = runInputs(flags);
            savePlanFile(flags.out, r, plan, flags.config, { vars: inputs.vars, varFiles: [...inputs.varFiles] });
            ctx.output.err(`Saved the plan to ${flags.out}. Apply exactly this plan with: netform apply ${flags.out}`);
          }
          return flags.detailedExitcode && hasChanges(plan) ? 2 : 0;
        });
      }),
    );
}
