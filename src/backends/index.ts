// The state's backends: where the state and its lock are kept, chosen by the configuration's backend
// block. This layer is the only code besides src/api that speaks to a network, and it speaks only to the
// state's storage.

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
      return new PostgresBackend(settings);
    case "http":
      return new HttpBackend(settings, env);
  }
}

export { LocalBackend, PostgresBackend, HttpBackend };
