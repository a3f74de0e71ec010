// `init`: what a pipeline runs first, to learn before it plans that everything a run needs is in place:
// the configuration is valid, the backend is reached and has what it needs (its folder, its tables), the
// service answers with the credentials given, and every lookup finds its object. It changes nothing on the
// service and takes no lock; run again, it finds the same and does nothing more.

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Configuration, VariableInputs } from "../config/index.js";
import { hasErrors, type Diagnostic } from "../diag/index.js";
import type { LookupResult } from "../plan/index.js";
import { emptyState, type StateFile } from "../state/index.js";
import { readConfiguration } from "./configuration.js";
import type { EventSink } from "./events.js";
import { bindLookups, resolveLookups } from "./lookups.js";
import { checkStateKey } from "./secrets.js";
import { openSession, type EndpointResolver } from "./session.js";
import { backendSettings, defaultStatePath, defaultWorkspaceSettings, GENERATOR, loadStore, stateAccess } from "./state-access.js";
import { isDefaultWorkspace, requireWorkspace, selectedWorkspace } from "./workspaces.js";

export interface InitOptions {
  configPath: string;
  statePath?: string;
  workspace?: string;
  inputs: Omit<VariableInputs, "env">;
  env: NodeJS.ProcessEnv;
  /** False (-backend=false): leave the backend alone. */
  backend: boolean;
  resolveEndpoint: EndpointResolver;
  emit: EventSink;
}

/** What init found, for the view to say. */
export interface InitReport {
  configuration: { files: number; resources: number; lookups: number; outputs: number };
  workspace: string;
  /** Absent with -backend=false. */
  backend?: {
    type: string;
    location: string;
    /** The state's serial and how many objects it records, or undefined when there is none yet. */
    state?: { serial: number; resources: number };
  };
  service: {
    endpoint: string;
    embedded: boolean;
    /** How the run signs in: the embedded simulator's client, client credentials, or a ready token. */
    credentials: "embedded" | "client" | "token";
    /** Who the service knows the client as, when it says (client credentials). */
    identity?: string;
    /** Whether init called the service: not with a ready token and no lookups, which need no request. */
    reached: boolean;
  };
  lookups: LookupResult[];
}

export type Initialized = { ok: true; report: InitReport; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

function emitAll(emit: EventSink, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) emit({ type: "diagnostic", diagnostic: d });
}

/** Checks everything a run needs, in the order a run needs it; diagnostics when the configuration or a lookup is wrong, a NetformError for the rest. */
export async function initialize(options: InitOptions): Promise<Initialized> {
  const workspace = selectedWorkspace(options.configPath, options.workspace, options.env);
  // As validate: a pipeline's init may run without the secrets a plan needs, their uses checked then. The
  // backend's inputs are the exception: without them the state cannot be found.
  const loaded = readConfiguration(options.configPath, { ...options.inputs, env: options.env, workspace: workspace.name, missing: "unknown" });
  const { config } = loaded;
  const diagnostics = loaded.diagnostics.map((d): Diagnostic => (d.code === "backend.unset" && options.backend ? { ...d, severity: "error" } : d));
  emitAll(options.emit, diagnostics);
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  const report: InitReport = {
    configuration: { files: config.files.length, resources: config.resources.size, lookups: config.lookups.size, outputs: config.outputs.size },
    workspace: workspace.name,
    service: { endpoint: config.provider.endpoint ?? "", embedded: config.provider.endpoint === "embedded", credentials: "embedded", reached: false },
    lookups: [],
  };
  let state: Pick<StateFile, "lookups" | "resources"> = emptyState(GENERATOR);
  if (options.backend) {
    const found = await reachBackend(config, options, workspace);
    report.backend = found.report;
    state = found.state;
  }
  const base = defaultWorkspaceSettings(config, options.statePath);
  const session = await openSession(config, { statePath: base.type === "local" ? base.path : defaultStatePath(config), env: options.env, resolveEndpoint: options.resolveEndpoint });
  try {
    // The first request: it reaches the endpoint and checks the credentials (a ready token is checked by the lookups, or the first run).
    const identity = await session.api.identity();
    report.service = {
      ...report.service,
      credentials: report.service.embedded ? "embedded" : options.env.NETFORM_TOKEN ? "token" : "client",
      ...(identity !== undefined ? { identity } : {}),
    };
    if (config.lookups.size > 0) {
      const resolved = await resolveLookups(session.ctx, config, state);
      const problems = hasErrors(resolved.diagnostics) ? resolved.diagnostics : bindLookups(config, resolved.objects);
      emitAll(options.emit, problems);
      if (hasErrors(problems)) return { ok: false, diagnostics: [...diagnostics, ...problems] };
      report.lookups = resolved.results;
    }
    report.service.reached = session.api.requestCount > 0;
  } finally {
    await session.close();
  }
  return { ok: true, report, diagnostics };
}

/**
 * Reaches the workspace's backend and lets it make what it needs: the local state's folder; the postgres
 * tables, unless createTables is false (then the backend's error names the missing tables and `netform
 * state ddl`). The state is read, not written, and no lock is taken.
 */
async function reachBackend(config: Configuration, options: InitOptions, workspace: ReturnType<typeof selectedWorkspace>): Promise<{ report: NonNullable<InitReport["backend"]>; state: StateFile }> {
  const settings = backendSettings(config, options.statePath, workspace);
  if (settings.type === "local") mkdirSync(dirname(settings.path), { recursive: true });
  const access = stateAccess(settings, options.env);
  try {
    checkStateKey(config, settings.type === "local" ? undefined : access.backend, options.env);
    if (!isDefaultWorkspace(workspace)) await requireWorkspace(access.backend, workspace);
    const store = await loadStore(access);
    const location = access.backend.location;
    return {
      report: { type: settings.type, location, ...(store.exists ? { state: { serial: store.view.serial, resources: Object.keys(store.view.resources).length } } : {}) },
      state: store.snapshot(),
    };
  } finally {
    await access.backend.close();
  }
}
