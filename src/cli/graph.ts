// `netform graph`: prints the configuration's dependency graph (DOT or Mermaid) without calling the API.
// It loads the configuration the way `validate` does (unset variables and secrets become unknown values),
// because the graph depends only on references and dependsOn, never on values: a pipeline or a laptop
// without the secrets can still draw it. Diagnostics go to standard error so that standard output stays a
// graph that can be piped to `dot -Tsvg`.

import type { Command } from "commander";
import { hasErrors, NetformError, type Diagnostic } from "../diag/index.js";
import { dependencyGraph, readConfiguration, selectedWorkspace } from "../engine/index.js";
import { type GraphFormat, printGraph } from "../views/index.js";
import { run } from "./program.js";
import { printDiagnostic } from "./run-command.js";
import { varFlags } from "./validate.js";

interface GraphFlags {
  config: string;
  format: string;
  var: string[];
  varFile: string[];
  workspace?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function graphFormat(value: string): GraphFormat {
  switch (value) {
    case "dot":
    case "mermaid":
      return value;
    default:
      throw new NetformError({ code: "usage", message: `--format must be dot or mermaid, got "${value}"` });
  }
}

/**
 * The "no value" warnings that `missing: "unknown"` produces (variables.unset, secret.unset, env.unset) are
 * expected here and say nothing about the graph, so they are not shown; any other warning is.
 */
const worthShowing = (d: Diagnostic): boolean => d.severity === "error" || !d.code.endsWith(".unset");

export function registerGraph(program: Command): void {
  program
    .command("graph")
    .option("-c, --config <path>", "a configuration file or a directory of *.yaml / *.yml files", ".")
    .option("--format <format>", "dot or mermaid", "dot")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, [])
    .option("--workspace <name>", "the workspace ${workspace} names (default: NETFORM_WORKSPACE, else the one netform workspace select chose, else default)")
    .action(
      run(({ output }, flags: GraphFlags) => {
        const format = graphFormat(flags.format);
        const { config, diagnostics } = readConfiguration(flags.config, { vars: varFlags(flags.var), varFiles: flags.varFile, env: process.env, missing: "unknown", workspace: selectedWorkspace(flags.config, flags.workspace, process.env).name });
        for (const d of diagnostics.filter(worthShowing)) printDiagnostic(output, d);
        // With errors the configuration may be partial (or cyclic): a graph of it would mislead.
        if (hasErrors(diagnostics)) return 1;
        const { graph, kinds, kindOrder } = dependencyGraph(config);
        printGraph(output, graph, { of: kinds, order: kindOrder }, format);
        return 0;
      }),
    );
}
