// The state's backends: where the state and its lock are kept, chosen by the configuration's backend
// block. This layer is the only code besides src/api that speaks to a network, and it speaks only to the
// state's storage.

import { NetformError } from "../diag/index.js";
import type { StateBackend } from "../state/index.js";
import { HttpBackend, type HttpSettings } from "./http.js";
import { LocalBackend } from "./local.js";
import { PostgresBackend, type PostgresSettings } from "./postgres.js";

export type BackendSettings = ({ type: "local" } & { path: string }) | ({ type: "postgres" } & PostgresSettings) | ({ type: "http" } & HttpSettings);

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
