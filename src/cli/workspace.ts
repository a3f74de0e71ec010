// `netform workspace list | show | new | select | delete`: the environments of one configuration, each
// with its own state on the configuration's backend, as Terraform's workspaces. Every other command that
// reads a state works in the selected one: --workspace NAME, else NETFORM_WORKSPACE, else the one `select`
// remembered beside the configuration (.netform/workspace), else default.

import type { Command } from "commander";
import { createWorkspace, deleteWorkspace, listWorkspaces, selectedBy, selectedWorkspace, selectWorkspace } from "../engine/index.js";
import { renderWorkspaceList } from "../views/index.js";
import { run } from "./program.js";
import { stateTarget } from "./run-options.js";

interface WorkspaceFlags {
  config: string;
  var: string[];
  varFile: string[];
  lockTimeout?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** -c, --var and --var-file: where the backend block is, and the variables it may be written with. */
function withBackend(cmd: Command, options: { locks: boolean }): Command {
  cmd
    .option("-c, --config <path>", "the configuration: a file or a directory of *.yaml / *.yml files; its backend block says where the states are", ".")
    .option("--var <NAME=VALUE>", "set a variable the backend block uses (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, []);
  if (options.locks) cmd.option("--lock-timeout <duration>", "wait this long for the workspace's state lock another run holds, e.g. 5m");
  return cmd;
}

export function registerWorkspace(program: Command): void {
  const workspace = program
    .command("workspace")
    .addHelpText(
      "after",
      `
The workspace a command works in: --workspace NAME, else NETFORM_WORKSPACE, else the one
'netform workspace select' remembered in .netform/workspace beside the configuration, else default.
\${workspace} in the configuration is its name.`,
    );
  withBackend(workspace.command("list").description("list the workspaces the backend keeps; * marks the selected one"), { locks: false }).action(
    run(async ({ output, env }, flags: WorkspaceFlags) => {
      const { names, selected } = await listWorkspaces(stateTarget(flags, output, env));
      renderWorkspaceList(output, names, { name: selected.name, by: selectedBy(selected) });
      return 0;
    }),
  );
  workspace
    .command("show")
    .description("print the name of the selected workspace")
    .option("-c, --config <path>", "the configuration whose selected workspace to print (a file or a directory)", ".")
    .action(
      run(({ output, env }, flags: { config: string }) => {
        output.out(selectedWorkspace(flags.config, undefined, env).name);
        return 0;
      }),
    );
  withBackend(workspace.command("new <name>").description("make a workspace with an empty state, and select it"), { locks: true }).action(
    run(async ({ output, env }, name: string, flags: WorkspaceFlags) => {
      const made = await createWorkspace(stateTarget(flags, output, env), name);
      output.out(`Created workspace ${name} (${made.location}), with an empty state.`);
      if (made.selected) output.out(`Switched to workspace ${name}: commands here work in it until another is selected.`);
      else output.err(output.c.yellow(`NETFORM_WORKSPACE=${env.NETFORM_WORKSPACE ?? ""} still selects the workspace here: set it to ${name} to work in the new one.`));
      return 0;
    }),
  );
  withBackend(workspace.command("select <name>").description("work in this workspace from now on (here: it is remembered beside the configuration)"), { locks: true })
    .option("--or-create", "make the workspace, with an empty state, when it does not exist")
    .action(
      run(async ({ output, env }, name: string, flags: WorkspaceFlags & { orCreate?: boolean }) => {
        const { created } = await selectWorkspace(stateTarget(flags, output, env), name, Boolean(flags.orCreate));
        if (created) output.out(`Created workspace ${name}, with an empty state.`);
        output.out(`Switched to workspace ${name}.`);
        return 0;
      }),
    );
  withBackend(workspace.command("delete <name>").description("delete a workspace's state; refused for default, for the selected one, and for one that still manages objects"), { locks: true })
    .option("--force", "delete it even though its state still records objects: the service keeps them, and netform forgets them")
    .action(
      run(async ({ output, env }, name: string, flags: WorkspaceFlags & { force?: boolean }) => {
        const { forgotten } = await deleteWorkspace(stateTarget(flags, output, env), name, Boolean(flags.force));
        output.out(`Deleted workspace ${name}.`);
        if (forgotten.length > 0) output.err(output.c.yellow(`Its state recorded ${forgotten.length} ${forgotten.length === 1 ? "object" : "objects"}, which the service keeps and netform no longer manages: ${forgotten.join(", ")}`));
        return 0;
      }),
    );
}
