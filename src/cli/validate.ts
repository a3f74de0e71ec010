// `netform validate`: loads the configuration and reports every problem; exit 0 when valid, 1 when not.
// Inputs without a value (variables, environment, secrets) are reported as warnings and their uses are
// checked at plan time, so a pipeline can validate without its secrets.

import type { Command } from "commander";
import { parseVarFlag, readConfiguration } from "../engine/configuration.js";
import { selectedWorkspace } from "../engine/workspaces.js";
import { hasErrors, NetformError } from "../diag/index.js";
import { readFileSync } from "node:fs";
import { renderDiagnosticsJson, renderDiagnosticsTerraformJson, renderDiagnosticsText } from "../views/diagnostics.js";
import { run } from "./program.js";

type Format = "text" | "json" | "terraform-json";

interface ValidateFlags {
  config: string;
  format: string;
  var: string[];
  varFile: string[];
  workspace?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** --var NAME=VALUE flags as a record; a malformed one is a usage error. */
export function varFlags(flags: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const f of flags) {
    const parsed = parseVarFlag(f);
    if (!parsed) throw new NetformError({ code: "usage", message: `--var ${f}: expected NAME=VALUE`, hint: "e.g. --var bandwidth=100" });
    vars[parsed.name] = parsed.value;
  }
  return vars;
}

function format(value: string): Format {
  switch (value) {
    case "text":
    case "json":
    case "terraform-json":
      return value;
    default:
      throw new NetformError({ code: "usage", message: `--format must be text, json or terraform-json, got "${value}"` });
  }
}

/** A configuration file's text, for the byte offsets of Terraform's ranges; undefined when it cannot be read. */
function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function registerValidate(program: Command): void {
  program
    .command("validate")
    .option("-c, --config <path>", "a configuration file or a directory of *.yaml / *.yml files", ".")
    .option("--format <format>", "text, json (netform's document) or terraform-json (Terraform's validate -json diagnostics, with ranges)", "text")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, [])
    .option("--workspace <name>", "the workspace ${workspace} names (default: NETFORM_WORKSPACE, else the one netform workspace select chose, else default)")
    .action(
      run(({ output, env }, flags: ValidateFlags) => {
        const fmt = format(flags.format);
        const { config, diagnostics } = readConfiguration(flags.config, { vars: varFlags(flags.var), varFiles: flags.varFile, env, missing: "unknown", workspace: selectedWorkspace(flags.config, flags.workspace, env).name });
        switch (fmt) {
          case "text":
            renderDiagnosticsText(output, diagnostics, { resources: config.resources.size, files: config.files.length });
            break;
          case "json":
            renderDiagnosticsJson(output, diagnostics);
            break;
          case "terraform-json":
            renderDiagnosticsTerraformJson(output, diagnostics, readSource);
            break;
          default: {
            const never: never = fmt;
            throw new Error(`unknown format ${String(never)}`);
          }
        }
        return hasErrors(diagnostics) ? 1 : 0;
      }),
    );
}
