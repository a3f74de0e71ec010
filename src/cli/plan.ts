// `netform plan`: refresh, compare, and show what apply would do. With --detailed-exitcode, exit 2
// when there are changes; with --out, save the plan for `apply FILE`.

import type { Command } from "commander";
import { hasErrors, type Diagnostic } from "../diag/index.js";
import { hasChanges, savePlanFile } from "../engine/index.js";
import { parseFormat, renderFailedPlanMarkdown, renderPlan, terraformPlanText } from "../views/index.js";
import { run } from "./program.js";
import { addRunOptions, runRequest, type RunFlags } from "./run-options.js";
import { planRequested, quietReporter, type Reporter, textReporter, withRun } from "./run-command.js";

export function registerPlan(program: Command): void {
  addRunOptions(program.command("plan"), { planFlags: true })
    .option("--detailed-exitcode", "exit 0 when there is nothing to change, 2 when there are changes, 1 on error")
    .option("--out <file>", "save the plan, so that 'netform apply FILE' applies exactly it")
    .option("--format <format>", "text, markdown (for a pull-request comment), json (netform's plan document) or terraform-json (Terraform's JSON plan representation, for OPA/conftest and tools made for terraform show -json)", "text")
    .action(
      run(async (ctx, flags: RunFlags) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json", "terraform-json"] as const);
        // With a document on standard output, progress would corrupt it: only diagnostics, on stderr.
        const compact = { compactWarnings: Boolean(flags.compactWarnings) };
        const quiet = format === "text" ? textReporter(ctx.output, compact) : quietReporter(ctx.output, compact);
        // The pull-request comment of a failed plan carries its located diagnostics, as the log does.
        const reported: Diagnostic[] = [];
        const reporter: Reporter = {
          ...quiet,
          emit: (event) => {
            if (event.type === "diagnostic") reported.push(event.diagnostic);
            quiet.emit(event);
          },
        };
        let rendered = false;
        const failed = (exitCode: number, error?: unknown) => {
          if (format === "markdown" && !rendered) ctx.output.out(renderFailedPlanMarkdown(reported, { exitCode, ...(error === undefined ? {} : { error }) }));
        };
        let code: number;
        try {
          const request = runRequest(flags);
          code = await withRun(ctx, request, "plan", reporter, async (r) => {
            const { plan, diagnostics } = await planRequested(ctx, r, request, reporter);
            for (const d of diagnostics) if (!reported.includes(d)) reported.push(d);
            if (hasErrors(diagnostics)) return 1;
            rendered = true;
            // The time the saved plan records, so that show --format terraform-json of it says the same.
            const createdAt = new Date().toISOString();
            ctx.output.out(format === "terraform-json" ? terraformPlanText(plan, { version: program.version() ?? "", timestamp: createdAt }) : renderPlan(plan, format, ctx.output.c, flags.out));
            if (flags.out) {
              savePlanFile(flags.out, r, plan, request.configPath, { vars: request.inputs.vars, varFiles: [...request.inputs.varFiles] }, createdAt);
              ctx.output.err(`Saved the plan to ${flags.out}. Apply exactly this plan with: netform apply ${flags.out}`);
            }
            return flags.detailedExitcode && hasChanges(plan) ? 2 : 0;
          });
        } catch (error) {
          failed(1, error);
          throw error;
        }
        if (code !== 0 && code !== 2) failed(code);
        return code;
      }),
    );
}
