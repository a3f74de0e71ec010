// Which backend keeps a configuration's state, and the keys it is sealed with: the configuration's
// backend block, else the state file beside it (or the one --state names), keyed by the workspace.

import { resolve } from "node:path";
import { openBackend, workspaceSettings, type BackendSettings } from "../backends/index.js";
import type { Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { stateKeys, StateStore, type StateBackend, type StateKeys } from "../state/index.js";
import { DEFAULT_WORKSPACE, isDefaultWorkspace, selectedBy, type SelectedWorkspace } from "./workspaces.js";

export const GENERATOR = "netform";

/** The state file beside the configuration, where the local backend keeps it unless told otherwise. */
export const defaultStatePath = (config: Pick<Configuration, "directory">) => resolve(config.directory, "netform.state.json");

/**
 * The backend a configuration names, keyed by the workspace (backends/index.ts); `statePath` (--state) names
 * a local file, and only the local backend takes one, for the default workspace: another workspace's state
 * is where its workspace keeps it.
 */
export function backendSettings(config: Pick<Configuration, "directory" | "backend">, statePath?: string, workspace?: SelectedWorkspace): BackendSettings {
  if (statePath !== undefined && workspace && !isDefaultWorkspace(workspace)) {
    throw new NetformError({
      code: "usage",
      message: `--state names one state file, and workspace ${workspace.name}${selectedBy(workspace)} keeps its own`,
      hint: `leave out --state to work in workspace ${workspace.name}, or select the default workspace to work on ${statePath}`,
    });
  }
  const settings = defaultWorkspaceSettings(config, statePath);
  return workspaceSettings(settings, { name: workspace?.name ?? DEFAULT_WORKSPACE, isDefault: !workspace || isDefaultWorkspace(workspace) });
}

/** The backend block's settings as written: the default workspace's state, and where the others are found. */
export function defaultWorkspaceSettings(config: Pick<Configuration, "directory" | "backend">, statePath?: string): BackendSettings {
  const backend = config.backend;
  if (statePath !== undefined) {
    if (backend && backend.type !== "local") {
      throw new NetformError({
        code: "usage",
        message: `--state names a local state file, and this configuration keeps its state in the ${backend.type} backend`,
        hint: "leave out --state (the backend block says where the state is), or move the state with: netform state migrate --to local",
      });
    }
    return { type: "local", path: resolve(statePath) };
  }
  if (!backend || backend.type === "local") return { type: "local", path: backend?.path ? resolve(config.directory, backend.path) : defaultStatePath(config) };
  if (backend.type === "http") {
    // Files the configuration names are beside it, as the local backend's path is.
    const files = (["clientCertificateFile", "clientPrivateKeyFile", "caCertificateFile"] as const).flatMap((key) => (backend[key] ? [[key, resolve(config.directory, backend[key])]] : []));
    return { ...backend, ...Object.fromEntries(files) };
  }
  return backend;
}

/** A state's backend and its keys, for a command that opens the state itself. */
export interface StateAccess {
  backend: StateBackend;
  keys: StateKeys;
}

export function stateAccess(settings: BackendSettings, env: NodeJS.ProcessEnv): StateAccess {
  return { backend: openBackend(settings, env), keys: stateKeys(env) };
}

export const loadStore = (access: StateAccess): Promise<StateStore> => StateStore.load(access.backend, GENERATOR, access.keys);
