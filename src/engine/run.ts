// One run of netform against a configuration and its state: load and check the configuration, take
// the state lock, open the session with the service, refresh, plan, apply. Commands compose these;
// everything they show comes from the events and the plan, through the views.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { resourceAt, secretsAt, Sensitive, type ConfigResource, type Configuration, type VariableInputs } from "../config/index.js";
import { isKind, KIND_DEFINITIONS } from "../kinds/index.js";
import { hasErrors, type Diagnostic } from "../diag/index.js";
import { makePlan, unknownAddresses, type Refreshed } from "../plan/diff.js";
import { summarize, type Plan, type PlanMode } from "../plan/types.js";
import { StateLock, StateStore } from "../state/index.js";
import { applyPlan, type ApplyOutcome } from "./apply.js";
import { readConfiguration } from "./configuration.js";
import type { EventSink } from "./events.js";
import { interruptedBy, throwIfInterrupted } from "./interrupt.js";
import { checkPlanFile, type PlanFile } from "./plan-file.js";
import { Recorder } from "./records.js";
import { refresh } from "./refresh.js";
import { redactor, secretHasher, secretValues, type SecretHasher } from "./secrets.js";
import { openSession, type EndpointResolver, type Session } from "./session.js";

export const GENERATOR = "netform";

export interface RunOptions {
  configPath: string;
  statePath?: string;
  inputs: Omit<VariableInputs, "env">;
  env: NodeJS.ProcessEnv;
  /** Overrides provider.parallelism. */
  parallelism?: number;
  emit: EventSink;
  operation: "plan" | "apply" | "destroy" | "drift" | "import";
  /** A saved plan made on an empty state carries the lineage the new state must have. */
  lineage?: string;
  /** Where provider.endpoint is: supplied by the composition root, which may start the embedded simulator. */
  resolveEndpoint: EndpointResolver;
  onExchange?: (e: { method: string; path: string; status: number; ms: number }) => void;
  onRetry?: (e: { method: string; path: string; attempt: number; delayMs: number; reason: string }) => void;
  /** Aborted to interrupt the run (its reason the signal's name): every phase honours it. */
  signal?: AbortSignal;
}

export interface Run {
  config: Configuration;
  /** Masks the configuration's secret values in a text (service messages that echo a request). */
  redact: (text: string) => string;
  statePath: string;
  store: StateStore;
  session: Session;
  hash: SecretHasher;
  configDigest: ConfigurationDigest;
  configHash: string;
  /** RunOptions.signal, for the phases to honour. */
  signal?: AbortSignal;
  close(): Promise<void>;
}

export type Opened = { ok: true; run: Run; warnings: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** The default state file: netform.state.json in the configuration's directory. */
export const defaultStatePath = (config: Configuration) => join(config.directory, "netform.state.json");

/**
 * What the configuration hash is made of, per part: each file's content by its path relative to the
 * configuration (so a moved checkout hashes the same), and each variable's value (secret values only as
 * keyed hashes). A saved plan keeps it to name what changed when it is refused.
 */
export interface ConfigurationDigest {
  files: Record<string, string>;
  variables: Record<string, string>;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

export function configurationDigest(config: Configuration, hash: SecretHasher): ConfigurationDigest {
  const files: Record<string, string> = {};
  // config.files are as the diagnostics show them, relative to the working directory.
  for (const file of [...config.files].sort()) files[relative(config.directory, resolve(file)).split(sep).join("/")] = sha256(readFileSync(resolve(file)));
  const variables: Record<string, string> = {};
  for (const [name, { value }] of [...config.variables].sort(([a], [b]) => a.localeCompare(b))) {
    variables[name] = sha256(value instanceof Sensitive ? hash(value.reveal()) : JSON.stringify(value) ?? "undefined");
  }
  return { files, variables };
}

/** A hash of the configuration's files and the variables' values, from their digest. */
export const configurationHash = (digest: ConfigurationDigest): string => sha256(JSON.stringify(digest));

/** Secrets are kept in the state and plan files as keyed hashes: without a key of their own, anyone holding the file can test guesses. */
const stateKeyWarning = (): Diagnostic => ({
  severity: "warning",
  code: "secrets.state-key",
  message: "NETFORM_STATE_KEY is not set: the hashes of this configuration's secrets in the state and plan files are keyed by the state's lineage, which the state file itself holds, so whoever reads it can test guesses of a secret",
  hint: "set NETFORM_STATE_KEY to a random value kept with your other secrets, the same for every run on this state",
});

/** Loads the configuration, takes the lock, opens the state and a session. Diagnostics when the configuration is invalid. */
export async function openRun(options: RunOptions): Promise<Opened> {
  const { signal } = options;
  const { config, diagnostics } = readConfiguration(options.configPath, { ...options.inputs, env: options.env });
  for (const d of diagnostics) options.emit({ type: "diagnostic", diagnostic: d });
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  if (!options.env.NETFORM_STATE_KEY && [...config.resources.values()].some((r) => !r.secrets.empty)) {
    const warning = stateKeyWarning();
    diagnostics.push(warning);
    options.emit({ type: "diagnostic", diagnostic: warning });
  }
  if (options.parallelism !== undefined) config.provider.parallelism = options.parallelism;
  throwIfInterrupted(signal);
  const statePath = options.statePath ? resolve(options.statePath) : defaultStatePath(config);
  const lock = StateLock.acquire(statePath, options.operation);
  const renewal = setInterval(() => lock.renew(), 5 * 60_000);
  renewal.unref();
  // Said once, the moment it happens, whatever phase the run is in: the phases only stop.
  const announce = () => options.emit({ type: "interrupted", signal: interruptedBy(signal!) });
  signal?.addEventListener("abort", announce, { once: true });
  let session: Session | undefined;
  try {
    const store = StateStore.open(statePath, GENERATOR);
    session = await openSession(config, {
      statePath,
      env: options.env,
      resolveEndpoint: options.resolveEndpoint,
      ...(options.onExchange ? { onExchange: options.onExchange } : {}),
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    });
    if (options.lineage && !store.exists) store.adoptLineage(options.lineage);
    throwIfInterrupted(signal);
    const opened = session;
    const hash = secretHasher(store.state.lineage, options.env);
    const configDigest = configurationDigest(config, hash);
    const run: Run = {
      config,
      redact: redactor(secretValues(config)),
      statePath,
      store,
      session: opened,
      hash,
      configDigest,
      configHash: configurationHash(configDigest),
      ...(signal ? { signal } : {}),
      async close() {
        clearInterval(renewal);
        signal?.removeEventListener("abort", announce);
        try {
          await opened.close();
        } finally {
          lock.release();
        }
      },
    };
    return { ok: true, run, warnings: diagnostics };
  } catch (error) {
    clearInterval(renewal);
    signal?.removeEventListener("abort", announce);
    try {
      await session?.close();
    } finally {
      lock.release();
    }
    throw error;
  }
}

export interface PlanRequest {
  mode: PlanMode;
  targets?: string[];
  replace?: string[];
}

export interface Planned {
  plan: Plan;
  diagnostics: Diagnostic[];
  refreshed: Map<string, Refreshed>;
}

export async function planRun(run: Run, request: PlanRequest, emit: EventSink): Promise<Planned> {
  const state = run.store.state;
  // An address that names nothing is a typo: said before a refresh that may take minutes.
  const unknown = unknownAddresses(run.config, state, [...(request.targets ?? []), ...(request.replace ?? [])]);
  if (unknown.length > 0) {
    for (const d of unknown) emit({ type: "diagnostic", diagnostic: d });
    return { plan: { formatVersion: 1, mode: request.mode, lineage: state.lineage, serial: state.serial, configHash: run.configHash, changes: [], summary: summarize([]), requestCount: 0 }, diagnostics: unknown, refreshed: new Map() };
  }
  if (request.targets?.length) emit({ type: "diagnostic", diagnostic: targetingWarning(request.targets, request.mode) });
  const { refreshed, imports, requests } = await refresh(run.session, state, run.config, emit, run.signal);
  const { plan, diagnostics } = makePlan({
    mode: request.mode,
    config: run.config,
    state,
    refreshed,
    imports,
    kinds: run.session.kinds,
    hash: run.hash,
    ...(request.targets?.length ? { targets: request.targets } : {}),
    ...(request.replace?.length ? { replace: request.replace } : {}),
    configHash: run.configHash,
    requestCount: requests,
  });
  const before = run.session.api.requestCount;
  diagnostics.push(...(await preflight(run, plan)));
  plan.requestCount += run.session.api.requestCount - before;
  for (const d of diagnostics) emit({ type: "diagnostic", diagnostic: d });
  return { plan, diagnostics, refreshed };
}

export async function applyRun(run: Run, planned: Planned, emit: EventSink, operation: "apply" | "destroy"): Promise<ApplyOutcome> {
  throwIfInterrupted(run.signal);
  if (planned.plan.mode === "refresh-only") {
    // Only the state changes: record what the service returned (its secrets masked, as always).
    const records = new Recorder(run.store, run.hash);
    for (const [address, found] of planned.refreshed) {
      const recorded = records.recorded(address);
      if (!recorded) continue;
      if (found.status === "present") await records.observed(address, found, secretsAt(run.config, address, recorded.kind));
      else await records.forget(address);
    }
    return { failed: 0, skipped: 0, interrupted: 0 };
  }
  return applyPlan({
    redact: run.redact,
    plan: planned.plan,
    config: run.config,
    store: run.store,
    session: run.session,
    refreshed: planned.refreshed,
    hash: run.hash,
    emit,
    operation,
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

/** Terraform's warning, as its users know it: a targeted plan is partial, and is meant for exceptions. */
function targetingWarning(targets: readonly string[], mode: PlanMode): Diagnostic {
  const related = mode === "destroy" ? "what depends on them" : "what they depend on";
  return {
    severity: "warning",
    code: "plan.targeting",
    message: `targeting is in effect: this plan covers only ${targets.join(", ")} and ${related}, so it may leave other changes out`,
    hint: "use --target for exceptions (recovering from a mistake, an urgent change), then run without it so that the service matches the whole configuration",
  };
}

/** Each kind's plan-time checks against the service, for the objects of that kind the plan creates. */
async function preflight(run: Run, plan: Plan): Promise<Diagnostic[]> {
  const creates = new Map<string, ConfigResource[]>();
  for (const change of plan.changes) {
    const resource = change.action === "create" ? resourceAt(run.config, change.address) : undefined;
    if (!resource) continue;
    const own = creates.get(resource.kind);
    if (own) own.push(resource);
    else creates.set(resource.kind, [resource]);
  }
  const checks = [...creates].map(([kind, own]) => (isKind(kind) ? KIND_DEFINITIONS.get(kind)?.preflight?.(run.session.ctx, own, run.config) : undefined));
  return (await Promise.all(checks)).flatMap((found) => found ?? []);
}

/**
 * A saved plan, ready to apply: refused as stale unless the state, the configuration, the inputs and the
 * secrets are those it was made from; then the objects it changes are read again, for apply to start from.
 */
export async function plannedFromFile(run: Run, file: PlanFile, emit: EventSink): Promise<Planned> {
  checkPlanFile(file, run);
  const { refreshed } = await refresh(run.session, run.store.state, run.config, emit, run.signal);
  return { plan: file.plan, diagnostics: [], refreshed };
}
