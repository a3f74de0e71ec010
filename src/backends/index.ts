// The state's backends: where the state and its lock are kept, chosen by the configuration's backend
// block. This layer is the only code besides src/api that speaks to a network, and it speaks only to the
// state's storage.

import { NetformError } from "../diag/index.js";
import type { StateBackend } from "../state/index.js";
import { HttpBackend, httpWorkspaces, type HttpSettings } from "./http.js";
import { LocalBackend, localWorkspacePath, localWorkspaces } from "./local.js";
import { PostgresBackend, postgresWorkspaceName, type PostgresSettings } from "./postgres.js";

export type BackendSettings = ({ type: "local" } & { path: string }) | ({ type: "postgres" } & PostgresSettings) | ({ type: "http" } & HttpSettings);

/**
 * Which of a configuration's states: a workspace's name, and whether it is the default workspace, whose
 * state stays where it was before workspaces.
 */
export interface WorkspaceKey {
  name: string;
  isDefault: boolean;
}

/**
 * The settings of one workspace's state, from the backend block's: locally a file under
 * `netform.state.d/NAME/` beside the default state, in PostgreSQL the state name `NAME-OF-STATE/NAME`, over
 * HTTP the addresses with `{workspace}` replaced.
 */
export function workspaceSettings(settings: BackendSettings, workspace: WorkspaceKey): BackendSettings {
  switch (settings.type) {
    case "local":
      return workspace.isDefault ? settings : { type: "local", path: localWorkspacePath(settings.path, workspace.name) };
    case "postgres":
      return workspace.isDefault ? settings : { ...settings, name: postgresWorkspaceName(settings.name, workspace.name) };
    case "http":
      return { ...settings, workspace: { name: workspace.name, isDefault: workspace.isDefault } };
  }
}

/**
 * The workspaces other than the default that keep a state beside the default one (the backend block's
 * settings; `env` as openBackend takes it, so the database is reached as every other command reaches it).
 */
export async function otherWorkspaces(settings: BackendSettings, env: NodeJS.ProcessEnv): Promise<string[]> {
  switch (settings.type) {
    case "local":
      return localWorkspaces(settings.path);
    case "postgres": {
      // openBackend makes a PostgresBackend of postgres settings.
      const backend = openBackend(settings, env) as PostgresBackend;
      try {
        return await backend.workspaces();
      } finally {
        await backend.close();
      }
    }
    case "http":
      return httpWorkspaces(settings, env);
  }
}

export function openBackend(settings: BackendSettings, env: NodeJS.ProcessEnv): StateBackend {
  switch (settings.type) {
    case "local":
      return new LocalBackend(settings.path);
    case "postgres":
      return new PostgresBackend({ ...settings, ...createTablesFrom(settings, env) });
    case "http":
      return new HttpBackend(settings, env);
  }
}

/** The configuration's createTables, else NETFORM_PG_CREATE_TABLES: a pipeline sets it once for every configuration. */
function createTablesFrom(settings: PostgresSettings, env: NodeJS.ProcessEnv): Pick<PostgresSettings, "createTables"> {
  if (settings.createTables !== undefined) return { createTables: settings.createTables };
  const given = env.NETFORM_PG_CREATE_TABLES?.trim().toLowerCase();
  if (given === undefined || given === "") return {};
  if (given === "true" || given === "1") return { createTables: true };
  if (given === "false" || given === "0") return { createTables: false };
  throw new NetformError({ code: "usage", message: `NETFORM_PG_CREATE_TABLES must be true or false, got "${env.NETFORM_PG_CREATE_TABLES}"`, hint: "set it to false when a DBA created netform's tables, or leave it unset" });
}

export { LocalBackend, PostgresBackend, HttpBackend };
export { postgresDdl, postgresGrants } from "./postgres.js";
export { removeWorkspaceFolder } from "./local.js";
