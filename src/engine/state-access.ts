// Which backend keeps a configuration's state, and the keys it is sealed with: the configuration's
// backend block, else the state file beside it (or the one --state names).

import { resolve } from "node:path";
import { openBackend, type BackendSettings } from "../backends/index.js";
import type { Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { stateKeys, StateStore, type StateBackend, type StateKeys } from "../state/index.js";

export const GENERATOR = "netform";

/** The state file beside the configuration, where the local backend keeps it unless told otherwise. */
export const defaultStatePath = (config: Pick<Configuration, "directory">) => resolve(config.directory, "netform.state.json");

/** The backend a configuration names; `statePath` (--state) names a local file, and only the local backend takes one. */
export function backendSettings(config: Pick<Configuration, "directory" | "backend">, statePath?: string): BackendSettings {
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
