// One run of netform against a configuration and its state: load and check the configuration, take
// the state lock, open the session with the service, refresh, plan, apply. Commands compose these;
// everything they show comes from the events and the plan, through the views.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import type { RetryNotice } from "../api/index.js";
import { compareAddresses, configGraph, expandBlockAddresses, FOR_EACH_LOOKUP_UNKNOWN, secretsAt, Sensitive, type Configuration, type VariableInputs } from "../config/index.js";
import { KIND_TYPICAL_SECONDS } from "../kinds/index.js";
import { hasErrors, NetformError, type Diagnostic } from "../diag/index.js";
import { sameValue } from "../plan/values.js";
import { makePlan, unknownAddresses, type Refreshed } from "../plan/diff.js";
import { lookupFrom, resolveSpec } from "../plan/resolve.js";
import { summarize, type DurationEstimate, type Plan, type PlanMode } from "../plan/types.js";
import { acquireLock, type HeldLock, type StateBackend, type StateKeys, type StateStore } from "../state/index.js";
import { applyPlan, stepGraph, type ApplyOutcome } from "./apply.js";
import { planConditions } from "./conditions.js";
import { estimateDuration } from "./estimate.js";
import { RunFence } from "./fence.js";
import { readConfiguration } from "./configuration.js";
import type { EventSink } from "./events.js";
import { interruptedBy, throwIfInterrupted, unlessInterrupted } from "./interrupt.js";
import { bindLookups, lookupRecords, resolveLookups, type ResolvedLookups } from "./lookups.js";
import { checkPlanFile, type PlanFile } from "./plan-file.js";
import { planCost } from "./pricing.js";
import { Recorder } from "./records.js";
import { planOutputs, recordOutputs } from "./outputs.js";
import { checkWithService, uncheckedWithoutRefresh } from "./service-checks.js";
import { applicableMoves, markMoves, recordRefactoring, stateAfterMoves } from "./refactoring.js";
import { fromState, refresh } from "./refresh.js";
import { assessRisks } from "./risks.js";
import { checkStateKey, reconciledHashes, redactor, secretHasher, secretValues, type SecretHasher } from "./secrets.js";
import { openSession, type EndpointResolver, type PaceNotice, type Session } from "./session.js";
import { backendSettings, defaultStatePath, defaultWorkspaceSettings, loadStore, stateAccess } from "./state-access.js";
import { TransitionTimes } from "./transition-times.js";
import { paceOf } from "./wait.js";
import { isDefaultWorkspace, missingWorkspace, requireWorkspace, selectedWorkspace, type SelectedWorkspace } from "./workspaces.js";

export { defaultStatePath, GENERATOR } from "./state-access.js";

export interface RunOptions {
  configPath: string;
  /** A local state file instead of the one beside the configuration (only with the local backend, in the default workspace). */
  statePath?: string;
  /** --workspace; without it NETFORM_WORKSPACE, then the selection `workspace select` remembered (workspaces.ts). */
  workspace?: string;
  /** How long to wait for a lock another run holds; 0 or absent: refuse at once. */
  lockTimeoutMs?: number;
  /** False: read the state without taking the lock (read-only commands only). */
  lock?: boolean;
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
  onRetry?: (e: RetryNotice) => void;
  onPace?: (e: PaceNotice) => void;
  /** Aborted to interrupt the run (its reason the signal's name): every phase honours it. */
  signal?: AbortSignal;
}

export interface Run {
  config: Configuration;
  /** The workspace the run is in: its state, and the value of ${workspace}. */
  workspace: SelectedWorkspace;
  /** Masks the configuration's secret values in a text (service messages that echo a request). */
  redact: (text: string) => string;
  /** The local state file's path (beside the configuration with another backend). */
  statePath: string;
  backend: StateBackend;
  /** The keys the state and saved plans are sealed with. */
  keys: StateKeys;
  store: StateStore;
  session: Session;
  hash: SecretHasher;
  configDigest: ConfigurationDigest;
  configHash: string;
  /** RunOptions.signal, and the fence's: for the phases to honour. */
  signal?: AbortSignal;
  /** The run's hold on the state lock, when it took one. */
  fence?: RunFence;
  /** The lookups as read when the configuration was opened (a forEach over a list lookup needed them): not read again. */
  prefetched?: ResolvedLookups;
  close(): Promise<void>;
}

export type Opened = { ok: true; run: Run; warnings: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

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
  for (const [name, { value }] of [...config.variables].sort(([a], [b]) => compareAddresses(a, b))) {
    variables[name] = sha256(value instanceof Sensitive ? hash(value.reveal()) : JSON.stringify(value) ?? "undefined");
  }
  return { files, variables };
}

/** A hash of the configuration's files and the variables' values, from their digest. */
export const configurationHash = (digest: ConfigurationDigest): string => sha256(JSON.stringify(digest));


/** Loads the configuration, takes the lock, opens the state and a session. Diagnostics when the configuration is invalid. */
export async function openRun(options: RunOptions): Promise<Opened> {
  const { signal } = options;
  const workspace = selectedWorkspace(options.configPath, options.workspace, options.env);
  const readOptions = { ...options.inputs, env: options.env, workspace: workspace.name };
  const first = readConfiguration(options.configPath, readOptions);
  let config = first.config;
  // A forEach over a list lookup has its instances once the service is read (below): not a warning of a run.
  const fromLookups = config.forEachLookups.size > 0 && !hasErrors(first.diagnostics) && options.operation !== "destroy";
  let diagnostics = fromLookups ? first.diagnostics.filter((d) => d.code !== FOR_EACH_LOOKUP_UNKNOWN) : first.diagnostics;
  for (const d of diagnostics) options.emit({ type: "diagnostic", diagnostic: d });
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  if (options.parallelism !== undefined) config.provider.parallelism = options.parallelism;
  throwIfInterrupted(signal);
  const settings = backendSettings(config, options.statePath, workspace);
  const statePath = settings.type === "local" ? settings.path : defaultStatePath(config);
  // Every workspace works on one service: the embedded simulator's world is beside the default workspace's state.
  const base = defaultWorkspaceSettings(config, options.statePath);
  const servicePath = base.type === "local" ? base.path : defaultStatePath(config);
  const access = stateAccess(settings, options.env);
  const { backend } = access;
  // Said once, the moment it happens, whatever phase the run is in: the phases only stop.
  const announce = () => options.emit({ type: "interrupted", signal: interruptedBy(signal!) });
  signal?.addEventListener("abort", announce, { once: true });
  let lock: HeldLock | undefined;
  let fence: RunFence | undefined;
  let session: Session | undefined;
  let store: StateStore | undefined;
  const closeAll = async () => {
    signal?.removeEventListener("abort", announce);
    try {
      await session?.close();
      // Only a run that holds the lock may write the state: folding the journal is writing it.
      if (lock && !fence?.lost) await store?.fold();
    } catch (error) {
      fence?.notice(error);
      throw fence?.lost && store ? fence.report(store) : error;
    } finally {
      try {
        // A lost lock is another run's now, or nobody's: each backend's release leaves it alone, and
        // ends only what this run holds (its timer, its database session).
        await lock?.release();
      } finally {
        await backend.close();
      }
    }
  };
  try {
    checkStateKey(config, settings.type === "local" ? undefined : backend, options.env);
    await requireWorkspace(backend, workspace);
    if (options.lock !== false) {
      lock = await acquireLock(backend, options.operation, {
        timeoutMs: options.lockTimeoutMs ?? 0,
        onWait: (held) => options.emit({ type: "diagnostic", diagnostic: { severity: "warning", code: "state.lock-wait", message: `waiting for the state lock: ${held.message}` } }),
        ...(signal ? { signal } : {}),
      });
      fence = new RunFence(lock);
    }
    store = await loadStore(access);
    // Deleted while this run waited for its lock.
    if (!store.exists && !isDefaultWorkspace(workspace)) throw missingWorkspace(workspace.name, backend.location, workspace);
    session = await openSession(config, {
      statePath: servicePath,
      env: options.env,
      resolveEndpoint: options.resolveEndpoint,
      ...(options.onExchange ? { onExchange: options.onExchange } : {}),
      ...(options.onPace ? { onPace: options.onPace } : {}),
      onRetry: (e) => {
        // Told however the run is shown: a wait the service asked for is otherwise silence.
        if (e.rateLimited) options.emit({ type: "rate_limited", method: e.method, path: e.path, retryInMs: e.delayMs });
        options.onRetry?.(e);
      },
    });
    if (options.lineage && !store.exists) store.adoptLineage(options.lineage);
    throwIfInterrupted(signal);
    let prefetched: ResolvedLookups | undefined;
    if (fromLookups) {
      const expanded = await expandFromLookups(options, readOptions, config, session, store, diagnostics);
      if (!expanded.ok) {
        await closeAll();
        return { ok: false, diagnostics: expanded.diagnostics };
      }
      ({ config, prefetched } = expanded);
      diagnostics = [...diagnostics, ...expanded.diagnostics];
      if (options.parallelism !== undefined) config.provider.parallelism = options.parallelism;
    }
    const hash = secretHasher({
      // A shared backend has no place beside the state for a key of netform's making, and every runner
      // must hash alike: there, the key is NETFORM_STATE_KEY or nothing.
      ...(settings.type === "local" ? { statePath } : {}),
      lineage: store.view.lineage,
      env: options.env,
      onKeyCreated: (keyPath) => options.emit({ type: "diagnostic", diagnostic: keyCreatedWarning(keyPath) }),
    });
    // Without NETFORM_STATE_KEY, the key an apply makes is announced now, before the plan and its
    // progress, not between the progress lines of the first object that holds a secret.
    if (options.operation === "apply" || options.operation === "import") hash.prepare(config);
    reconcileRecordedHashes(config, store, hash);
    const configDigest = configurationDigest(config, hash);
    const stops = [signal, fence?.signal].filter((s): s is AbortSignal => s !== undefined);
    const runSignal = stops.length > 1 ? AbortSignal.any(stops) : stops[0];
    const run: Run = {
      config,
      workspace,
      redact: redactor(secretValues(config)),
      statePath,
      backend,
      keys: access.keys,
      store,
      session,
      hash,
      configDigest,
      configHash: configurationHash(configDigest),
      ...(runSignal ? { signal: runSignal } : {}),
      ...(fence ? { fence } : {}),
      ...(prefetched ? { prefetched } : {}),
      close: closeAll,
    };
    return { ok: true, run, warnings: diagnostics };
  } catch (error) {
    await closeAll();
    if (signal?.aborted && error instanceof Error && error.name === "AbortError") throwIfInterrupted(signal);
    throw error;
  }
}

/**
 * The configuration again, with what its list lookups found, so that a forEach over one has an instance per
 * object: the lookups are read once (the state's objects left out, as always), and kept for the plan.
 * Diagnostics are those of the second reading not already said by the first.
 */
async function expandFromLookups(
  options: RunOptions,
  readOptions: Parameters<typeof readConfiguration>[1],
  config: Configuration,
  session: Session,
  store: StateStore,
  said: readonly Diagnostic[],
): Promise<{ ok: true; config: Configuration; prefetched: ResolvedLookups; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] }> {
  const resolved = await unlessInterrupted(resolveLookups(session.ctx, config, store.view), options.signal);
  for (const d of resolved.diagnostics) options.emit({ type: "diagnostic", diagnostic: d });
  if (hasErrors(resolved.diagnostics)) return { ok: false, diagnostics: resolved.diagnostics };
  const again = readConfiguration(options.configPath, { ...readOptions, lookupValues: resolved.objects });
  const known = new Set(said.map((d) => JSON.stringify(d)));
  const fresh = again.diagnostics.filter((d) => !known.has(JSON.stringify(d)));
  for (const d of fresh) options.emit({ type: "diagnostic", diagnostic: d });
  if (hasErrors(fresh)) return { ok: false, diagnostics: fresh };
  return { ok: true, config: again.config, prefetched: resolved, diagnostics: fresh };
}

function keyCreatedWarning(keyPath: string): Diagnostic {
  return {
    severity: "warning",
    code: "state.key-created",
    message: `NETFORM_STATE_KEY is not set: netform generated a random key for the secret hashes of the state and keeps it in ${keyPath}`,
    hint: "keep that file with the state (every run that reads the state needs it), or set NETFORM_STATE_KEY from your secret store; see \"Secrets and the state key\" in the README",
  };
}

/**
 * Brings the recorded secret hashes of settled objects to the current key, and records a baseline for
 * secret fields that have none (reconciledHashes): in memory, saved by the next write of the state.
 */
function reconcileRecordedHashes(config: Configuration, store: StateStore, hash: SecretHasher): void {
  // Each record is read before its hashes are replaced (in memory, by a new object), so the store's own serves.
  const state = store.view;
  const records = new Recorder(store, hash);
  for (const resource of config.resources.values()) {
    const recorded = state.resources[resource.address];
    if (!recorded?.id || recorded.pending) continue;
    const { spec } = resolveSpec(resource.spec, lookupFrom(state));
    const hashes = reconciledHashes(recorded.sensitiveHashes, spec, resource.secrets, hash);
    if (hashes) records.rehashed(resource.address, hashes);
  }
}

export interface PlanRequest {
  mode: PlanMode;
  targets?: string[];
  replace?: string[];
  /** False: no price calls, and no cost in the plan (plan --no-cost). */
  cost?: boolean;
  /** False: plan from the state as recorded, reading none of the objects it records (--refresh=false). */
  refresh?: boolean;
}

export interface Planned {
  plan: Plan;
  diagnostics: Diagnostic[];
  refreshed: Map<string, Refreshed>;
}

export async function planRun(run: Run, given: PlanRequest, emit: EventSink): Promise<Planned> {
  const planned = await planInWorkspace(run, given, emit);
  if (!isDefaultWorkspace(run.workspace)) planned.plan.workspace = run.workspace.name;
  return planned;
}

async function planInWorkspace(run: Run, given: PlanRequest, emit: EventSink): Promise<Planned> {
  // The plan is made as if the moved blocks were already recorded; apply records them first.
  const recorded = run.store.snapshot();
  const { moves, diagnostics: moveWarnings } = applicableMoves(run.config, recorded);
  for (const d of moveWarnings) emit({ type: "diagnostic", diagnostic: d });
  const state = stateAfterMoves(recorded, moves);
  const known = [...run.config.resources.keys(), ...Object.keys(state.resources)];
  const request: PlanRequest = {
    ...given,
    ...(given.targets ? { targets: expandBlockAddresses(given.targets, known) } : {}),
    ...(given.replace ? { replace: expandBlockAddresses(given.replace, known) } : {}),
  };
  // An address that names nothing is a typo: said before a refresh that may take minutes.
  const unknown = unknownAddresses(run.config, state, [...(request.targets ?? []), ...(request.replace ?? [])]);
  if (unknown.length > 0) {
    for (const d of unknown) emit({ type: "diagnostic", diagnostic: d });
    return { plan: { formatVersion: 1, mode: request.mode, lineage: state.lineage, serial: state.serial, configHash: run.configHash, changes: [], summary: summarize([]), requestCount: 0 }, diagnostics: unknown, refreshed: new Map() };
  }
  if (request.targets?.length) emit({ type: "diagnostic", diagnostic: targetingWarning(request.targets, request.mode) });
  const { refreshed, imports, requests } = request.refresh === false ? await fromState(run.session, state, run.config, run.signal) : await refresh(run.session, state, run.config, emit, run.signal);
  // A destroy deletes what the state records: it needs no lookup, and one that no longer matches must not stop it.
  const lookups = request.mode === "destroy" ? undefined : await lookupsOf(run);
  if (lookups && hasErrors(lookups.diagnostics)) {
    for (const d of lookups.diagnostics) emit({ type: "diagnostic", diagnostic: d });
    const { plan } = makePlan({ mode: request.mode, config: run.config, state, refreshed, imports, kinds: run.session.kinds, hash: run.hash, configHash: run.configHash, requestCount: requests });
    return { plan, diagnostics: lookups.diagnostics, refreshed };
  }
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
    requestCount: requests + (lookups?.requests ?? 0),
  });
  if (lookups && run.config.lookups.size > 0) plan.lookups = lookups.results;
  markMoves(plan, moves);
  // Outputs and conditions read the lookups as this plan found them (what apply records), not the last apply's.
  const withLookups = lookups && lookups.results.length > 0 ? { ...state, lookups: { ...state.lookups, ...lookupRecords(lookups.results) } } : state;
  const outputChanges = planOutputs(plan, run.config, withLookups, refreshed, run.hash);
  if (outputChanges) plan.outputChanges = outputChanges;
  if (request.mode === "normal") for (const item of planConditions(run.config, plan, withLookups, refreshed)) diagnostics.push(item);
  const before = run.session.api.requestCount;
  // Prices are asked for while the checks run: both only read, and a large plan would wait for each in turn.
  const costing = request.cost !== false && request.mode !== "refresh-only" ? unlessInterrupted(planCost(run.session.api, plan), run.signal) : undefined;
  costing?.catch(() => undefined); // awaited below; a failed check must not leave it unhandled
  if (request.refresh === false) {
    const unchecked = uncheckedWithoutRefresh(plan);
    if (unchecked.length > 0) plan.unchecked = unchecked;
  } else {
    const checks = await unlessInterrupted(checkWithService(run, plan, state, refreshed), run.signal);
    for (const item of checks.diagnostics) diagnostics.push(item);
    if (checks.unchecked.length > 0) plan.unchecked = checks.unchecked;
  }
  if (plan.mode !== "refresh-only" && !hasErrors(diagnostics)) {
    const { risks, diagnostics: problems } = await assessRisks(run.session, run.config, plan);
    for (const item of problems) diagnostics.push(item);
    if (risks.length > 0) plan.risks = risks;
  }
  if (costing) plan.cost = await costing;
  plan.requestCount += run.session.api.requestCount - before;
  if (plan.mode !== "refresh-only") {
    const estimate = estimatedDuration(run, plan);
    if (estimate) plan.estimatedDuration = estimate;
  }
  for (const d of diagnostics) emit({ type: "diagnostic", diagnostic: d });
  return { plan, diagnostics, refreshed };
}

/** How long applying the plan should take, from this state's learned times where it has them. */
function estimatedDuration(run: Run, plan: Plan): DurationEstimate | undefined {
  const state = run.store.view;
  const { graph, steps } = stepGraph(plan, configGraph(run.config), state.resources, run.session.kinds);
  return estimateDuration(graph, steps, new TransitionTimes(KIND_TYPICAL_SECONDS, state.timings, () => paceOf(run.session.poll)));
}

export async function applyRun(run: Run, planned: Planned, emit: EventSink, operation: "apply" | "destroy"): Promise<ApplyOutcome> {
  try {
    return await applyChanges(run, planned, emit, operation);
  } catch (error) {
    run.fence?.notice(error);
    throw run.fence?.lost ? run.fence.report(run.store) : error;
  }
}

async function applyChanges(run: Run, planned: Planned, emit: EventSink, operation: "apply" | "destroy"): Promise<ApplyOutcome> {
  throwIfInterrupted(run.signal);
  await recordRefactoring(planned.plan, new Recorder(run.store, run.hash));
  await recordLookups(run, planned.plan);
  if (planned.plan.mode === "refresh-only") {
    // Only the state changes: record what the service returned (its secrets masked, as always).
    const records = new Recorder(run.store, run.hash);
    for (const [address, found] of planned.refreshed) {
      const recorded = records.recorded(address);
      if (!recorded) continue;
      if (found.status === "present") await records.observed(address, found, secretsAt(run.config, address, recorded.kind));
      else await records.forget(address);
    }
    await recordOutputs(run.config, run.store.view, records, run.hash);
    await run.store.flushAll();
    return { failed: 0, skipped: 0, interrupted: 0 };
  }
  const outcome = await applyPlan({
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
    ...(run.fence ? { fence: run.fence } : {}),
  });
  // Outputs are recorded even after a partial apply: what was made is what the next job may need.
  await recordOutputs(run.config, run.store.view, new Recorder(run.store, run.hash), run.hash);
  return outcome;
}

/**
 * Records the lookups' values the plan worked from, so that the next plan shows what changes since. An
 * apply with nothing else to do still records them when the state has none yet (lookups written in place
 * of uuids already applied); otherwise the state is left as it is.
 */
export async function recordLookups(run: Run, plan: Plan): Promise<void> {
  if (!plan.lookups) return;
  const records = lookupRecords(plan.lookups);
  if (sameValue(run.store.view.lookups ?? {}, records)) return;
  await new Recorder(run.store).lookups(records);
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

/**
 * A saved plan, ready to apply: refused as stale unless the state, the configuration, the inputs and the
 * secrets are those it was made from; then the objects it changes are read again, for apply to start from.
 */
export async function plannedFromFile(run: Run, file: PlanFile, emit: EventSink): Promise<Planned> {
  checkPlanFile(file, run);
  const moves = file.plan.changes.flatMap((c) => (c.previousAddress !== undefined ? [{ from: c.previousAddress, to: c.address }] : []));
  const { refreshed } = await refresh(run.session, stateAfterMoves(run.store.snapshot(), moves), run.config, emit, run.signal);
  if (file.plan.lookups) {
    const lookups = await lookupsOf(run);
    for (const d of lookups.diagnostics) emit({ type: "diagnostic", diagnostic: d });
    if (hasErrors(lookups.diagnostics)) throw staleLookups("a lookup no longer finds exactly one object (see above)");
    const then = new Map(file.plan.lookups.map((l) => [l.address, l.value]));
    const changed = lookups.results.find((l) => !sameValue(then.get(l.address), l.value));
    if (changed) throw staleLookups(`${changed.address} finds another value than when it was made`);
  }
  // A plan made on an empty state still applies when the state was lost after an earlier apply of it: its
  // creates look for what that apply made (since the plan was made) before creating anything.
  const saved = file.stateExisted ? file.plan : { ...file.plan, lookBeforeCreateSince: file.createdAt };
  // Downtime and maintenance are of the hour of the apply, not of the plan's.
  const { risks, diagnostics } = await assessRisks(run.session, run.config, saved);
  for (const d of diagnostics) emit({ type: "diagnostic", diagnostic: d });
  const { risks: _planned, ...rest } = saved;
  const plan = risks.length > 0 ? { ...rest, risks } : rest;
  return { plan, diagnostics, refreshed };
}

/**
 * Resolves the configuration's lookups and puts their values in place (during refresh: read-only), with
 * the requests they took.
 */
async function lookupsOf(run: Run): Promise<ResolvedLookups & { requests: number }> {
  if (run.config.lookups.size === 0) return { results: [], diagnostics: [], objects: new Map(), requests: 0 };
  const before = run.session.api.requestCount;
  const resolved = run.prefetched ?? (await unlessInterrupted(resolveLookups(run.session.ctx, run.config, run.store.view), run.signal));
  // Read once: a later phase of the run (a saved plan's check) reads the service again.
  delete run.prefetched;
  const diagnostics = hasErrors(resolved.diagnostics) ? resolved.diagnostics : bindLookups(run.config, resolved.objects);
  return { ...resolved, diagnostics, requests: run.session.api.requestCount - before };
}

const staleLookups = (why: string) =>
  new NetformError({ code: "plan-file.stale", message: `the saved plan is stale: ${why}`, hint: "make a new plan (netform plan --out FILE), review it, and apply that one" });
