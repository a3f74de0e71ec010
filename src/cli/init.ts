// `netform init`: what every pipeline ported from Terraform runs first. It checks, without changing
// anything on the service, what a run needs: the configuration, the backend (making the local state's
// folder, or the postgres tables where allowed), the endpoint and the credentials, and the lookups, and
// says what it found. Idempotent; exit 0 when all is in place, 1 otherwise.

import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import { initialize } from "../engine/index.js";
import { renderInitReport } from "../views/index.js";
import { resolveEndpoint } from "./endpoint.js";
import { run } from "./program.js";
import { addLocatingOptions, inputAllowed, locatingRequest, lockRequest, type LocatingFlags } from "./run-options.js";
import { quietReporter } from "./run-command.js";

interface InitFlags extends LocatingFlags {
  backend: string;
  input?: string;
  reconfigure?: boolean;
  upgrade?: boolean;
  lock?: string;
  lockTimeout?: string;
  compactWarnings?: boolean;
}

export function registerInit(program: Command): void {
  addLocatingOptions(program.command("init"))
    .option("--backend <true|false>", "false: leave the backend alone (check the configuration, the service and the lookups only)", "true")
    .option("--input <true|false>", "accepted for Terraform's pipelines; init never asks for input", "true")
    .option("--reconfigure", "accepted for Terraform's pipelines; no effect: netform keeps no copy of the backend's settings, each command reads the backend block")
    .option("--upgrade", "accepted for Terraform's pipelines; no effect: netform has no providers or modules to download")
    .option("--lock <true|false>", "accepted for Terraform's pipelines; no effect: init reads the state without taking its lock", "true")
    .option("--lock-timeout <duration>", "accepted for Terraform's pipelines; no effect: init takes no lock")
    .option("--compact-warnings", "show each warning on one line, without its hint (errors in full)")
    .addHelpText(
      "after",
      `
Checks what every run needs, changing nothing on the service: the configuration is valid; the backend is
reached (the local state's folder made; the postgres tables made, or with createTables: false the missing
ones named: netform state ddl prints their SQL for a DBA); the endpoint answers and takes the credentials
(the embedded simulator when provider.endpoint is embedded); each lookup finds exactly one object.
Run it again: it finds the same, and changes nothing. Exit 0 when all is in place, 1 otherwise.`,
    )
    .action(
      run(async (ctx, flags: InitFlags) => {
        inputAllowed(flags);
        lockRequest(flags);
        if (flags.backend !== "true" && flags.backend !== "false") throw new NetformError({ code: "usage", message: `--backend takes true or false, got "${flags.backend}"` });
        const reporter = quietReporter(ctx.output, { compactWarnings: Boolean(flags.compactWarnings) });
        const initialized = await initialize({ ...locatingRequest(flags), env: ctx.env, backend: flags.backend === "true", resolveEndpoint, emit: reporter.emit });
        if (!initialized.ok) return 1;
        ctx.output.out(renderInitReport(initialized.report, ctx.output.c));
        return 0;
      }),
    );
}
