// `netform cost`: the running monthly cost of everything the state records, by kind and by metro, from
// the recorded objects and the service's price calls (no refresh: only prices are asked for).

import type { Command } from "commander";
import { stateCost } from "../engine/index.js";
import { renderStateCostJson, renderStateCostText } from "../views/index.js";
import { run } from "./program.js";
import { addLocatingOptions, runRequest, type RunFlags } from "./run-options.js";
import { quietReporter, withRun } from "./run-command.js";

export function registerCost(program: Command): void {
  addLocatingOptions(program.command("cost"))
    .option("--json", "one JSON document: each object's price, the totals by kind, by metro and overall")
    .action(
    run(async (ctx, flags: RunFlags & { json?: boolean }) => {
      // It only reads the state: it takes no lock, and a run in progress does not stop it.
      const request = runRequest({ ...flags, target: [], lock: "false" });
      return withRun(ctx, request, "plan", quietReporter(ctx.output), async (r) => {
        const cost = await stateCost(r.session.api, r.store.view);
        ctx.output.out(flags.json ? renderStateCostJson(cost) : renderStateCostText(cost, ctx.output.c));
        return 0;
      });
    }),
    );
}
