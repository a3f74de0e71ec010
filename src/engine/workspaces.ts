// Workspaces: the environments of one configuration (dev, staging, prod), each with a state of its own on
// the configuration's backend, as Terraform's workspaces are. A command works in the workspace --workspace
// names, else NETFORM_WORKSPACE, else the one `netform workspace select` remembered for the configuration
// in `.netform/workspace` beside it, else `default`, whose state is where the state was before workspaces.
// A command only ever reads a workspace that exists: `workspace new` (and `select --or-create`) alone
// make one, so a typo never starts an empty state beside the real one.

import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_WORKSPACE, WORKSPACE_NAME } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { writeFileAtomic, type StateBackend } from "../state/index.js";

export { DEFAULT_WORKSPACE } from "../config/index.js";

/** What selected the workspace a command works in. */
export type WorkspaceSource = "flag" | "environment" | "file" | "default";

export interface SelectedWorkspace {
  name: string;
  source: WorkspaceSource;
  /** The file that remembers the selection for the configuration (read when source is "file"). */
  file: string;
}

export const isDefaultWorkspace = (workspace: Pick<SelectedWorkspace, "name">): boolean => workspace.name === DEFAULT_WORKSPACE;

/** The folder of a configuration given as -c: the directory itself, or the file's. */
function configurationDirectory(configPath: string): string {
  const absolute = resolve(configPath);
  try {
    return statSync(absolute).isDirectory() ? absolute : dirname(absolute);
  } catch {
    // Loading the configuration says what is wrong with the path; here only its folder matters.
    return /\.ya?ml$/.test(absolute) ? dirname(absolute) : absolute;
  }
}

/** Where `workspace select` remembers the selection: beside the configuration, as `.terraform/environment` is beside Terraform's. */
export const selectionFile = (configPath: string): string => join(configurationDirectory(configPath), ".netform", "workspace");

/** A workspace name as given in `where`, checked. */
export function checkedWorkspaceName(name: string, where: string): string {
  if (WORKSPACE_NAME.test(name)) return name;
  throw new NetformError({
    code: "usage",
    message: `${where}: "${name}" is not a workspace name`,
    hint: "a workspace's name is 1 to 63 lowercase letters, digits, '-' and '_', starting with a letter or a digit, e.g. prod or eu-staging",
  });
}

/** The workspace a command works in: `flag` (--workspace), else NETFORM_WORKSPACE, else the remembered selection, else default. */
export function selectedWorkspace(configPath: string, flag: string | undefined, env: NodeJS.ProcessEnv): SelectedWorkspace {
  const file = selectionFile(configPath);
  if (flag !== undefined) return { name: checkedWorkspaceName(flag, "--workspace"), source: "flag", file };
  const fromEnvironment = env.NETFORM_WORKSPACE;
  if (fromEnvironment !== undefined && fromEnvironment !== "") return { name: checkedWorkspaceName(fromEnvironment, "NETFORM_WORKSPACE"), source: "environment", file };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { name: DEFAULT_WORKSPACE, source: "default", file };
    throw new NetformError({ code: "workspace.unreadable", message: `cannot read the selected workspace from ${file}: ${(e as Error).message}`, hint: "select one again with: netform workspace select NAME" });
  }
  const name = text.trim();
  return { name: checkedWorkspaceName(name, file), source: "file", file };
}

/** How the selection came about, for messages: " (selected by NETFORM_WORKSPACE)". */
export function selectedBy(workspace: SelectedWorkspace): string {
  switch (workspace.source) {
    case "flag":
      return " (given with --workspace)";
    case "environment":
      return " (selected by NETFORM_WORKSPACE)";
    case "file":
      return ` (selected with netform workspace select, kept in ${workspace.file})`;
    case "default":
      return "";
    default: {
      const unreachable: never = workspace.source;
      return unreachable;
    }
  }
}

/** Remembers `name` as the configuration's selected workspace. */
export function rememberSelection(configPath: string, name: string): void {
  const file = selectionFile(configPath);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${name}\n`, { mode: 0o644 });
}

/** The error for a workspace without a state; `selected` says how it was selected, when it was. */
export function missingWorkspace(name: string, location: string, selected?: SelectedWorkspace, hint = `create it with: netform workspace new ${name}; or work in one that exists (netform workspace list)`): NetformError {
  return new NetformError({ code: "workspace.missing", message: `workspace ${name}${selected ? selectedBy(selected) : ""} does not exist: there is no state at ${location}`, hint });
}

/**
 * Refuses a workspace without a state before anything is done to it: a lock taken on a state that does
 * not exist would make one on some servers. The default workspace always exists.
 */
export async function requireWorkspace(backend: StateBackend, workspace: SelectedWorkspace): Promise<void> {
  if (isDefaultWorkspace(workspace)) return;
  if ((await backend.read()) === undefined) throw missingWorkspace(workspace.name, backend.location, workspace);
}
