// `netform workspace list`: the workspaces as Terraform lists them, the selected one marked with `*`.

import type { Output } from "./output.js";

export function renderWorkspaceList(output: Output, names: readonly string[], selected: { name: string; by: string }): void {
  for (const name of names) output.out(name === selected.name ? `* ${output.c.green(name)}` : `  ${name}`);
  if (!names.includes(selected.name)) {
    output.err(output.c.yellow(`The selected workspace ${selected.name}${selected.by} does not exist: create it with netform workspace new ${selected.name}, or select another.`));
  }
}
