// `netform output [NAME] [--json]`: the values the last apply recorded, for a pipeline to pass to the
// next job. Without NAME every output, a sensitive one masked (and given, with --json, as Terraform's
// `output -json` gives it); with NAME the value alone, a string without quotes, ready for a shell.

import type { Command } from "commander";
import { readOutputs } from "../engine/index.js";
import { renderOutputJson, renderOutputRaw, renderOutputsJson, renderOutputsText } from "../views/index.js";
import { NetformError } from "../diag/index.js";
import { run } from "./program.js";
import { addLocatingOptions, stateTarget, type LocatingFlags } from "./run-options.js";

interface OutputFlags extends LocatingFlags {
  json?: boolean;
  raw?: boolean;
}

export function registerOutput(program: Command): void {
  addLocatingOptions(program.command("output [name]"))
    .option("--json", "print JSON: every output as { NAME: { sensitive, value } }, sensitive values included, or with NAME the value")
    .option("--raw", "with NAME: the value alone, as Terraform's output -raw gives it (what NAME prints without a flag)")
    .action(
      run(async ({ output, env }, name: string | undefined, flags: OutputFlags) => {
        if (flags.raw && name === undefined) throw new NetformError({ code: "usage", message: "--raw prints one output's value: name it", hint: "e.g. netform output --raw NAME; for every output, use --json" });
        if (flags.raw && flags.json) throw new NetformError({ code: "usage", message: "--raw and --json cannot be used together", hint: "leave out one of them" });
        const target = stateTarget(flags, output, env);
        // Sensitive values are computed only where they are printed: by name, or in the JSON a program reads.
        const outputs = await readOutputs(target, { ...(name !== undefined ? { only: name } : {}), reveal: name !== undefined || flags.json === true });
        const one = name !== undefined ? outputs[0] : undefined;
        if (one) output.out(flags.json ? renderOutputJson(one) : renderOutputRaw(one));
        else if (flags.json) output.out(renderOutputsJson(outputs));
        else if (outputs.length === 0) output.err(output.c.yellow("No outputs: the state records none. Declare outputs: in the configuration, and apply."));
        else output.out(renderOutputsText(outputs));
        return 0;
      }),
    );
}
