// `netform graph`: prints the configuration's dependency graph (DOT or Mermaid) without calling the API.
// It loads the configuration the way `validate` does (unset variables and secrets become unknown values),
// because the graph depends only on references and dependsOn, never on values: a pipeline or a laptop
// without the secrets can still draw it. Diagnostics go to standard error so that standard output stays a
// graph that can be piped to `dot -Tsvg`.
//
// With --topology it prints the network instead (ports, devices, cloud routers, networks, service profiles
// and tokens, joined by connections and device links) as a Mermaid flowchart, marking what the
// configuration adds to the state and what the state holds that the configuration no longer declares.

import type { Command } from "commander";
import { hasErrors, NetformError, type Diagnostic } from "../diag/index.js";
import { configurationTopology, dependencyGraph, readConfiguration, readState, selectedWorkspace, type StateTarget } from "../engine/index.js";
import { type GraphFormat, printGraph, renderTopologyMermaid } from "../views/index.js";
import { run } from "./program.js";
import { printDiagnostic } from "./run-command.js";
import { varFlags } from "./validate.js";

interface GraphFlags {
  config: string;
  state?: string;
  format?: string;
  topology?: boolean;
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
    .option("--format <format>", "dot or mermaid (default: dot; --topology draws only mermaid)")
    .option("--topology", "print the network instead (ports, devices, cloud routers, networks, service profiles and tokens, joined by connections), as a Mermaid flowchart")
    .option("--state <file>", "with --topology: a local state file to compare with (default: the backend block, else netform.state.json beside the configuration)")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, [])
    .option("--workspace <name>", "the workspace ${workspace} names (default: NETFORM_WORKSPACE, else the one netform workspace select chose, else default)")
    .action(
      run(async ({ output, env }, flags: GraphFlags) => {
        const format = graphFormat(flags.format ?? "dot");
        if (flags.topology && flags.format !== undefined && format !== "mermaid") throw new NetformError({ code: "usage", message: `--topology is drawn as a Mermaid flowchart, not ${format}`, hint: "leave out --format, or give --format mermaid" });
        const { config, diagnostics } = readConfiguration(flags.config, { vars: varFlags(flags.var), varFiles: flags.varFile, env, missing: "unknown", workspace: selectedWorkspace(flags.config, flags.workspace, env).name });
        for (const d of diagnostics.filter(worthShowing)) printDiagnostic(output, d);
        // With errors the configuration may be partial (or cyclic): a graph of it would mislead.
        if (hasErrors(diagnostics)) return 1;
        if (flags.topology) {
          output.out(renderTopologyMermaid(configurationTopology(config, await recordedState(flags, env))).trimEnd());
          return 0;
        }
        const { graph, kinds, kindOrder } = dependencyGraph(config);
        printGraph(output, graph, { of: kinds, order: kindOrder }, format);
        return 0;
      }),
    );
}

/** What the state records, to mark what the configuration adds and removes; none when there is no state yet. */
async function recordedState(flags: GraphFlags, env: NodeJS.ProcessEnv) {
  const target: StateTarget = {
    configPath: flags.config,
    ...(flags.state ? { statePath: flags.state } : {}),
    ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}),
    inputs: { vars: varFlags(flags.var), varFiles: flags.varFile },
    env,
  };
  try {
    return await readState(target);
  } catch (error) {
    if (error instanceof NetformError && (error.code === "state.missing" || error.code === "workspace.missing")) return undefined;
    throw error;
  }
}
