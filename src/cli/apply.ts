// `netform apply` and `netform destroy`: plan, show the plan, ask for "yes" on a terminal (or take
// --auto-approve; refuse without a terminal rather than hang), then apply with progress. Exit 1 when
// anything failed or the prompt was declined (Ctrl-C and Ctrl-D at it included). An interrupt while
// applying stops starting new work and stops waiting (run-command.ts, interrupts.ts); the state is
// saved, and the next run picks up where this one stopped.

import type { Command } from "commander";
import { hasErrors, NetformError } from "../diag/index.js";
import { applyRun, hasChanges, recordLookups, plannedFromFile, readPlanFile, savedPaths, type Planned, type Run } from "../engine/index.js";
import { type Output, parseFormat, renderPlanText, renderRefreshRecorded } from "../views/index.js";
import { run, type RunContext } from "./program.js";
import { addRunOptions, inputAllowed, runRequest, type RunFlags, type RunRequest } from "./run-options.js";
import { confirm, jsonLinesReporter, markdownReporter, planRequested, textReporter, withRun, type Reporter } from "./run-command.js";

const FORMATS = ["text", "json", "markdown"] as const;

/** Text for people; JSON lines for pipelines; for a pull request or a job summary, a markdown report at the end. */
function reporterFor(output: Output, format: (typeof FORMATS)[number], flags: RunFlags): Reporter {
  if (format === "json") return jsonLinesReporter(output);
  const options = { compactWarnings: Boolean(flags.compactWarnings) };
  return format === "markdown" ? markdownReporter(output, options) : textReporter(output, options);
}

/** Runs the plan's changes. Exit 1 when anything failed, was skipped or was not finished. */
async function execute(r: Run, planned: Planned, reporter: Reporter, operation: "apply" | "destroy"): Promise<number> {
  const outcome = await applyRun(r, planned, reporter.emit, operation);
  return outcome.failed > 0 || outcome.skipped > 0 || outcome.interrupted > 0 ? 1 : 0;
}

/**
 * Apply refuses while the service announces a downtime or maintenance where the plan changes something
 * (the plan's risks), unless --ignore-downtime: finding it out halfway through an apply leaves a half-made
 * change, and a flag says the reviewer chose to go ahead.
 */
function refuseRisks(plan: Planned["plan"], flags: RunFlags, operation: "apply" | "destroy"): void {
  const risks = plan.risks ?? [];
  if (risks.length === 0 || flags.ignoreDowntime) return;
  const what = risks.map((r) => `${r.kind === "downtime" ? "network-edge downtime" : `maintenance ${r.notice?.number ?? r.notice?.id ?? ""}`.trimEnd()} until ${r.window.end ?? "an end the service does not give"}`);
  throw new NetformError({
    code: "apply.risk",
    message: `${operation} refused: the service announces ${what.join("; ")}, where this plan changes something (see the plan's risks)`,
    hint: `${operation} once the window has ended, or add --ignore-downtime to ${operation} anyway`,
  });
}

/**
 * Whether approval can be asked: on a terminal. NETFORM_ASK_ON_STDIN=1 asks on standard input whatever it
 * is, for a wrapper that answers the prompt through a pipe (and for the tests of the prompt, as Node
 * cannot open a pseudo-terminal).
 */
function canAsk({ output, stdin, env }: RunContext): boolean {
  return (Boolean(stdin.isTTY) && output.interactive) || env.NETFORM_ASK_ON_STDIN === "1";
}

/** `apply FILE`: exactly the saved plan, against the state and configuration it was made from, or nothing. */
async function applySaved(ctx: RunContext, path: string, flags: RunFlags): Promise<number> {
  refuseFlagsOfAPlan(flags);
  const file = readPlanFile(path, ctx.env);
  const saved = savedPaths(file, path);
  const reporter = reporterFor(ctx.output, parseFormat(flags.format, FORMATS), flags);
  // The run the plan was made for: its configuration, state and inputs; only --state, --workspace,
  // --parallelism and the lock flags may differ (a workspace other than the plan's is refused). A plan made
  // on another backend, or in another workspace than the default, names its state by them, not by a file.
  const { parallelism, lockTimeoutMs, lock, workspace } = runRequest({ ...flags, target: [] });
  const statePath = flags.state ?? (file.stateLocation === undefined && file.plan.workspace === undefined ? saved.statePath : undefined);
  const request: RunRequest = {
    configPath: saved.configPath,
    ...(statePath ? { statePath } : {}),
    ...(workspace !== undefined ? { workspace } : {}),
    ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}),
    lock,
    inputs: { vars: file.inputs.vars, varFiles: saved.varFiles },
    ...(parallelism !== undefined ? { parallelism } : {}),
    targets: [],
    replace: [],
    mode: file.plan.mode,
    // A saved plan carries its cost: applying it prices nothing again.
    cost: false,
    refresh: true,
  };
  return withRun(
    ctx,
    request,
    "apply",
    reporter,
    async (r) => {
      const operation = file.plan.mode === "destroy" ? "destroy" : "apply";
      const planned = await plannedFromFile(r, file, reporter.emit);
      if (hasErrors(planned.diagnostics)) return 1;
      refuseRisks(planned.plan, flags, operation);
      return execute(r, planned, reporter, operation);
    },
    file.stateExisted ? undefined : file.lineage,
  );
}

/** A saved plan fixed its configuration, inputs, targets and mode when it was made: flags that would change them are refused, not ignored. */
function refuseFlagsOfAPlan(flags: RunFlags): void {
  const given = [
    flags.config !== "." ? "-c/--config" : "",
    flags.var.length ? "--var" : "",
    flags.varFile.length ? "--var-file" : "",
    flags.target.length ? "--target" : "",
    flags.replace?.length ? "--replace" : "",
    flags.destroy ? "--destroy" : "",
    flags.refreshOnly ? "--refresh-only" : "",
    flags.refresh === "false" ? "--refresh=false" : "",
  ].filter(Boolean);
  if (given.length === 0) return;
  throw new NetformError({
    code: "usage",
    message: `apply PLANFILE cannot take ${given.join(", ")}: a saved plan applies exactly the configuration, variables and targets it was made with`,
    hint: `give these flags to 'netform plan --out PLANFILE' instead, then apply that plan`,
  });
}

async function applyCommand(ctx: RunContext, flags: RunFlags, operation: "apply" | "destroy", planFile?: string): Promise<number> {
  const { output } = ctx;
  if (planFile) return applySaved(ctx, planFile, flags);
  const format = parseFormat(flags.format, FORMATS);
  const json = format !== "text";
  if (json && !flags.autoApprove) {
    throw new NetformError({ code: "usage", message: `${operation} --format ${format} cannot ask for approval`, hint: `add --auto-approve, or apply a saved plan: netform ${operation === "apply" ? "apply FILE" : "plan --destroy --out FILE, then netform apply FILE"}` });
  }
  if (!flags.autoApprove && !inputAllowed(flags)) {
    throw new NetformError({
      code: "apply.no-input",
      message: `${operation} needs approval, and --input=false says not to ask for it`,
      hint: `add --auto-approve to ${operation} without asking, or apply a saved plan: netform plan${operation === "destroy" ? " --destroy" : ""} --out FILE, then netform apply FILE`,
    });
  }
  if (!flags.autoApprove && !canAsk(ctx)) {
    throw new NetformError({
      code: "apply.no-terminal",
      message: `${operation} needs approval, and there is no terminal to ask on`,
      hint: `review the plan with 'netform ${operation === "destroy" ? "plan --destroy" : "plan"}', then run 'netform ${operation} --auto-approve'`,
    });
  }
  const reporter = reporterFor(output, format, flags);
  const request = runRequest(flags);
  if (operation === "destroy") request.mode = "destroy";
  return withRun(ctx, request, operation, reporter, async (r, interrupts) => {
    const planned = await planRequested(ctx, r, request, reporter);
    if (hasErrors(planned.diagnostics)) return 1;
    if (!json) output.out(renderPlanText(planned.plan, output.c));
    if (!hasChanges(planned.plan)) {
      if (planned.plan.mode !== "refresh-only") await recordLookups(r, planned.plan);
      return 0;
    }
    const refreshOnly = planned.plan.mode === "refresh-only";
    refuseRisks(planned.plan, flags, operation);
    if (!flags.autoApprove) {
      // As Terraform asks: a "yes" meant for one environment must not be typed into another's prompt.
      const where = planned.plan.workspace === undefined ? "" : ` in workspace ${planned.plan.workspace}`;
      const question =
        operation === "destroy" ? `Do you really want to destroy all these resources${where}?` : refreshOnly ? `Do you want to record these changes in the state${where}?` : `Do you want to perform these actions${where}?`;
      if (!(await confirm(output, question, ctx.stdin, interrupts))) {
        output.err(`${operation === "destroy" ? "Destroy" : "Apply"} cancelled.`);
        return 1;
      }
    }
    const code = await execute(r, planned, reporter, operation);
    if (refreshOnly && !json) output.out(renderRefreshRecorded(planned.plan));
    return code;
  });
}

export function registerApply(program: Command): void {
  addRunOptions(program.command("apply [planfile]"), { planFlags: true })
    .option("--auto-approve", "apply without asking (required without a terminal; a saved plan never asks)")
    .option("--format <format>", "text; json: one JSON object per line for each event; markdown: a report with each step's time as a chart (both need --auto-approve or a saved plan)", "text")
    .option("--ignore-downtime", "apply even while the service announces a downtime or maintenance where the plan changes something")
    .action(run((ctx, planFile: string | undefined, flags: RunFlags) => applyCommand(ctx, flags, "apply", planFile)));
  addRunOptions(program.command("destroy"), { planFlags: false })
    .option("--auto-approve", "destroy without asking (required without a terminal)")
    .option("--refresh <true|false>", "false: plan the destroy from the state as recorded, without reading the objects it records from the service", "true")
    .option("--format <format>", "text; json: one JSON object per line for each event; markdown: a report with each step's time as a chart (both need --auto-approve)", "text")
    .option("--ignore-downtime", "destroy even while the service announces a downtime or maintenance where the plan changes something")
    .action(run((ctx, flags: RunFlags) => applyCommand(ctx, flags, "destroy")));
}
