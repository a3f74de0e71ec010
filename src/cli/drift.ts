// `netform drift`: does reality still match what netform applied? Exit 0 when it does, 2 when it has
// drifted (with each field, its old and new value, and who changed it), 1 on error — for a scheduled
// pipeline that pages someone only on drift.

import type { Command } from "commander";
import { parseFormat, renderDrift } from "../views/index.js";
import { run } from "./program.js";
import { addRunOptions, runRequest, type RunFlags } from "./run-options.js";
import { quietReporter, textReporter, withRun } from "./run-command.js";
import { detectDrift, IgnoreRules } from "../engine/index.js";

export function registerDrift(program: Command): void {
  addRunOptions(program.command("drift"), { planFlags: false })
    .option("--format <format>", "text, markdown (for an issue or a comment) or json", "text")
    .action(
      run(async (ctx, flags: RunFlags) => {
        const format = parseFormat(flags.format, ["text", "markdown", "json"] as const);
        const compact = { compactWarnings: Boolean(flags.compactWarnings) };
        const reporter = format === "text" ? textReporter(ctx.output, compact) : quietReporter(ctx.output, compact);
        return withRun(ctx, runRequest(flags), "drift", reporter, async (r) => {
          const report = await detectDrift(r, reporter.emit, IgnoreRules.read(r.config.directory), flags.target.length ? new Set(flags.target) : undefined);
          ctx.output.out(renderDrift(report, format, ctx.output.c));
          return report.entries.length > 0 ? 2 : 0;
        });
      }),
    );
}
