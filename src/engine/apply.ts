// Apply: walks the plan as a graph of steps (create, update, import, wait, delete), each as soon as
// the steps it depends on are done, waits for every transition, and records the state after every step
// — with a `pending` record written before each mutating call, so an interrupted run is picked up by the
// next one without creating anything twice. A failed step skips what depends on it; independent work
// finishes. On interrupt (the signal aborts) no step starts; a step that began sends the call its pending
// record announces, records the answer, and stops at its wait (the next run waits instead). Every call
// that changes the service is preceded, in its turn, by the fence's check that the run still holds the
// state lock; a run that lost it stops the same way, and stores nothing more (fence.ts).

import { OutcomeUnknownError } from "../api/index.js";
import { absentPath, configGraph, formatPath, pathSegments, placeDiagnostic, resourceAt, secretsAt, validateSpec, type ConfigResource, type Configuration, type Reference } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { Graph, walk } from "../graph/index.js";
import { compareFields, updatableBy, type Refreshed } from "../plan/diff.js";
import { resolveSpec } from "../plan/resolve.js";
import { summarize, type Plan, type ResourceChange } from "../plan/types.js";
import { isUnknownValue, leaves } from "../plan/values.js";
import { isLeaving } from "../kinds/common.js";
import { KIND_TYPICAL_SECONDS, timingKeyOf, type Body, type ObjectRef, type Observed, type Operation, type KindHandler } from "../kinds/index.js";
import { isLockLost, type ResourceState, type StateStore } from "../state/index.js";
import type { ChangeOutcome, EventSink, StepKind, StepTiming } from "./events.js";
import { appliedValues, conditionError, failedConditions } from "./conditions.js";
import { CreateBatcher } from "./create-batcher.js";
import { remainingSeconds } from "./estimate.js";
import { InterruptedError } from "./interrupt.js";
import { notAdopted, whyNotOurs } from "./adoption.js";
import { ownedByOthers } from "./refresh.js";
import type { RunFence } from "./fence.js";
import { deposedAddress, Recorder } from "./records.js";
import type { SecretHasher } from "./secrets.js";
import type { Session } from "./session.js";
import { TransitionTimes } from "./transition-times.js";
import { Turns } from "./turns.js";
import { paceOf, Poller } from "./wait.js";

export interface ApplyInput {
  plan: Plan;
  config: Configuration;
  store: StateStore;
  session: Session;
  refreshed: ReadonlyMap<string, Refreshed>;
  hash: SecretHasher;
  emit: EventSink;
  /** Masks secret values in messages that came from the service. */
  redact: (text: string) => string;
  operation: "apply" | "destroy";
  /** Aborted on interrupt: no new step or call starts, and waits stop (the next run resumes them). */
  signal?: AbortSignal;
  /** The run's hold on the state lock, checked before every call that changes the service. */
  fence?: RunFence;
}

/** What every step of one apply shares. */
interface StepContext extends ApplyInput {
  poller: Poller;
  times: TransitionTimes;
  records: Recorder;
  creates: CreateBatcher;
  /** Turns for the mutating calls, by the urgency of their steps. */
  turns: Turns;
  /** Per step id: the typical seconds of work that waits for it (estimate.ts), its calls' urgency. */
  urgency: Map<string, number>;
  /** The configuration's dependency graph, built once per apply. */
  dependencies: Graph;
}

export interface ApplyOutcome {
  failed: number;
  skipped: number;
  /** Steps the interrupt stopped or kept from starting. */
  interrupted: number;
}

/** A step; a delete the service does with the parent's (`deletedWithParent`) sends no request. */
type Step = { change: ResourceChange; kind: StepKind; withParent?: true };

/** The steps of the plan, and the order they must run in. */
export function stepGraph(plan: Plan, dependencies: Graph, state: Readonly<Record<string, ResourceState>>, kinds: ReadonlyMap<string, KindHandler>): { graph: Graph; steps: Map<string, Step> } {
  const steps = new Map<string, Step>();
  const graph = new Graph();
  const add = (id: string, step: Step) => {
    steps.set(id, step);
    graph.addNode(id);
  };
  const changes = new Map(plan.changes.map((c) => [c.address, c]));
  for (const change of plan.changes) {
    const a = change.address;
    switch (change.action) {
      case "create":
        add(`${a}+`, { change, kind: "create" });
        break;
      case "update":
        add(`${a}+`, { change, kind: "update" });
        break;
      case "import":
        add(`${a}+`, { change, kind: "import" });
        break;
      case "replace":
        add(`${a}-`, { change, kind: "delete" });
        add(`${a}+`, { change, kind: "create" });
        if (change.createBeforeDestroy) graph.addEdge(`${a}-`, `${a}+`);
        else graph.addEdge(`${a}+`, `${a}-`);
        break;
      case "delete":
        add(`${a}-`, { change, kind: "delete" });
        break;
      case "no-op":
        if (change.awaiting) add(`${a}+`, { change, kind: "wait" });
        break;
      case "forget":
        // Recorded before the steps run (recordRefactoring): nothing to send.
        break;
      default: {
        const unreachable: never = change.action;
        throw new Error(`unknown action ${String(unreachable)}`);
      }
    }
  }
  // What each address depends on: as the configuration says now, and as the state recorded when it was applied.
  const dependsOnOf = new Map(plan.changes.map((c) => [c.address, new Set([...(dependencies.has(c.address) ? dependencies.dependenciesOf(c.address) : []), ...(state[c.address]?.dependencies ?? [])])]));
  const dependsOn = (address: string): ReadonlySet<string> => dependsOnOf.get(address) ?? new Set();
  // The other way round, so that ordering deletes looks only at each object's own dependents.
  const dependentsOf = new Map<string, ResourceChange[]>();
  for (const change of plan.changes) {
    for (const d of dependsOn(change.address)) {
      const list = dependentsOf.get(d) ?? [];
      list.push(change);
      dependentsOf.set(d, list);
    }
  }
  // Objects the service deletes with their parent, when the parent is deleted too: their step waits for
  // the parent's delete instead of preceding it.
  const deletedWith = new Map<string, string>();
  for (const change of plan.changes) {
    const recorded = state[change.address];
    if (!steps.has(`${change.address}-`) || !recorded?.parent || !kinds.get(change.kind)?.deletedWithParent) continue;
    const parent = [...dependsOn(change.address)].find((d) => state[d]?.id === recorded.parent && steps.has(`${d}-`));
    if (parent === undefined) continue;
    deletedWith.set(change.address, parent);
    steps.get(`${change.address}-`)!.withParent = true;
    graph.addEdge(`${change.address}-`, `${parent}-`);
  }
  for (const change of plan.changes) {
    const a = change.address;
    // Creates and updates after what they depend on is in place, and after what holds what they take is gone.
    if (steps.has(`${a}+`)) for (const d of dependsOn(a)) if (steps.has(`${d}+`)) graph.addEdge(`${a}+`, `${d}+`);
    if (steps.has(`${a}+`)) for (const d of change.afterDeleting ?? []) if (steps.has(`${d}-`)) graph.addEdge(`${a}+`, `${d}-`);
    if (!steps.has(`${a}-`)) continue;
    // An object is deleted only once nothing depends on it: its dependents are deleted first, or have been
    // changed to stop using it.
    for (const other of dependentsOf.get(a) ?? []) {
      if (other.address === a || deletedWith.get(other.address) === a) continue;
      if (steps.has(`${other.address}-`)) graph.addEdge(`${a}-`, `${other.address}-`);
      else if (steps.has(`${other.address}+`) && changes.get(other.address)?.action !== "create") graph.addEdge(`${a}-`, `${other.address}+`);
    }
  }
  return { graph, steps };
}

const OUTCOME_RANK: Readonly<Record<ChangeOutcome["outcome"], number>> = { done: 0, skipped: 1, interrupted: 2, failed: 3 };

export async function applyPlan(applyInput: ApplyInput): Promise<ApplyOutcome> {
  const { ctx } = applyInput.session;
  const { fence } = applyInput;
  const turns = new Turns(ctx.provider.parallelism, fence && (() => fence.check()));
  const input: StepContext = {
    ...applyInput,
    poller: new Poller(ctx, applyInput.session.poll),
    // The times learned before this apply: what its own steps teach is for the next one.
    times: new TransitionTimes(KIND_TYPICAL_SECONDS, structuredClone(applyInput.store.view.timings), () => paceOf(applyInput.session.poll)),
    records: new Recorder(applyInput.store, applyInput.hash),
    creates: new CreateBatcher(ctx, turns),
    turns,
    urgency: new Map(),
    dependencies: configGraph(applyInput.config),
  };
  const { plan, store, emit } = input;
  await adoptFoundObjects(input);
  const { graph, steps } = stepGraph(plan, input.dependencies, store.view.resources, input.session.kinds);
  input.urgency = remainingSeconds(graph, steps, input.times);
  for (const change of plan.changes) if (change.action !== "no-op" || change.awaiting) emit({ type: "planned_change", change, ...remainingOf(input.urgency, change.address) });

  // Steps the interrupt stopped, or kept from starting: what they block is not "skipped because it failed".
  const stoppedByInterrupt = new Set<string>();
  const timings: StepTiming[] = [];
  const timed = (step: Step, started: number, outcome: StepTiming["outcome"]) => {
    const finished = Date.now();
    timings.push({ address: step.change.address, step: step.kind, startedAt: new Date(started).toISOString(), finishedAt: new Date(finished).toISOString(), seconds: (finished - started) / 1000, outcome });
  };
  const outcomes = await walk(graph, {
    concurrency: Number.MAX_SAFE_INTEGER, // API calls are limited by the client (provider.parallelism), waits are not
    priority: (id) => input.urgency.get(id) ?? 0,
    shouldStart: (id) => {
      if (input.signal?.aborted) stoppedByInterrupt.add(id);
      return !input.signal?.aborted;
    },
    visit: async (id) => {
      const step = steps.get(id)!;
      const started = Date.now();
      const { address, action } = step.change;
      emit({ type: "apply_start", address, action, step: step.kind });
      try {
        const objectId = await checkedStep(input, step);
        timed(step, started, "done");
        emit({ type: "apply_complete", address, action, step: step.kind, elapsedMs: Date.now() - started, ...(objectId ? { id: objectId } : {}) });
      } catch (error) {
        fence?.notice(error);
        // A step refused for a lost lock stops as on an interrupt: the run that holds the lock now picks it up.
        const stopped = error instanceof InterruptedError || isLockLost(error);
        timed(step, started, stopped ? "interrupted" : "failed");
        if (stopped) {
          stoppedByInterrupt.add(id);
          const objectId = recordedId(input, step);
          emit({ type: "apply_interrupted", address, action, step: step.kind, elapsedMs: Date.now() - started, ...(objectId ? { id: objectId } : {}) });
          throw error;
        }
        const message = input.redact(error instanceof Error ? error.message : String(error));
        emit({ type: "apply_errored", address, action, step: step.kind, elapsedMs: Date.now() - started, message, ...(error instanceof NetformError ? { code: error.code } : {}) });
        throw error;
      }
    },
    onSkip: (id, blockedBy) => {
      if (stoppedByInterrupt.has(blockedBy)) return;
      const step = steps.get(id)!;
      emit({ type: "apply_skipped", address: step.change.address, action: step.change.action, blockedBy: steps.get(blockedBy)?.change.address ?? blockedBy });
    },
  });
  let failed = 0;
  let skipped = 0;
  let interrupted = 0;
  for (const [id, o] of outcomes) {
    if (stoppedByInterrupt.has(id) || (o.status === "skipped" && stoppedByInterrupt.has(o.blockedBy))) interrupted++;
    else if (o.status === "failed") failed++;
    else if (o.status === "skipped") skipped++;
  }
  // What was done, not what was planned: a change counts once all of its steps finished.
  const outcomeOf = new Map<ResourceChange, ChangeOutcome["outcome"]>();
  for (const [id, step] of steps) {
    const o = outcomes.get(id);
    const stopped = stoppedByInterrupt.has(id) || (o?.status === "skipped" && stoppedByInterrupt.has(o.blockedBy));
    const now: ChangeOutcome["outcome"] = o?.status === "done" ? "done" : stopped || o === undefined ? "interrupted" : o.status === "failed" ? "failed" : "skipped";
    // A change is as far as its least finished step: failed over interrupted over skipped over done.
    const was = outcomeOf.get(step.change);
    if (was === undefined || OUTCOME_RANK[now] > OUTCOME_RANK[was]) outcomeOf.set(step.change, now);
  }
  // What the steps left for a later write is stored before the summary says what was done; a run that
  // lost the lock says so instead (run.ts).
  await store.flushAll();
  if (fence?.lost) throw fence.lost;
  const finished = plan.changes.filter((c) => (outcomeOf.get(c) ?? "done") === "done");
  const changeOutcomes = [...outcomeOf].map(([change, outcome]) => ({ address: change.address, action: change.action, outcome }));
  const ended = failed + skipped + interrupted > 0 ? { outcomes: changeOutcomes } : {};
  emit({ type: "change_summary", operation: input.operation, summary: summarize(finished.filter((c) => c.action !== "no-op")), failed, skipped, interrupted, steps: timings, ...ended });
  return { failed, skipped, interrupted };
}

/** The id the state records for a step's object, if it has one yet (a create stopped at its wait has). */
function recordedId(input: ApplyInput, step: Step): string | undefined {
  const { change } = step;
  const deposed = step.kind === "delete" && change.action === "replace" && change.createBeforeDestroy;
  return input.store.resource(deposed ? deposedAddress(change.address) : change.address)?.id;
}

/** Objects the refresh found for creates an earlier run left unfinished: recorded before anything else. */
async function adoptFoundObjects(input: StepContext): Promise<void> {
  for (const [address, found] of input.refreshed) {
    const recorded = input.records.recorded(address);
    if (!recorded || recorded.id) continue;
    if (found.status === "present") await input.records.observed(address, found, secretsAt(input.config, address, recorded.kind));
    else if (found.status === "absent") await input.records.forget(address);
  }
}

function kindOf(input: ApplyInput, change: ResourceChange): KindHandler {
  return input.session.kinds.get(change.kind)!;
}

/** Runs one step between its object's preconditions and postconditions, with what the steps before it left in the state. */
async function checkedStep(input: StepContext, step: Step): Promise<string | undefined> {
  const resource = step.kind === "delete" ? undefined : resourceAt(input.config, step.change.address);
  if (!resource?.preconditions && !resource?.postconditions) return runStep(input, step);
  const values = appliedValues(input.config, input.store);
  const unmet = failedConditions(input.config, resource, "preconditions", values.configured, values.configured, true)[0];
  if (unmet) throw conditionError(resource, unmet);
  const objectId = await runStep(input, step);
  const broken = failedConditions(input.config, resource, "postconditions", values.observed, values.configured, true)[0];
  if (broken) throw conditionError(resource, broken);
  return objectId;
}

/** Runs one step; returns the object's id when there is one to report. */
async function runStep(input: StepContext, step: Step): Promise<string | undefined> {
  const { change } = step;
  switch (step.kind) {
    case "create":
      return create(input, change);
    case "update":
      return update(input, change);
    case "import":
      return importObject(input, change);
    case "wait":
      return awaitEarlier(input, change);
    case "delete":
      return remove(input, change, step.withParent === true);
    default: {
      const unreachable: never = step.kind;
      throw new Error(`unknown step ${String(unreachable)}`);
    }
  }
}

/** The spec with every reference resolved from the state as it is now (its dependencies are done). */
function resolvedSpec(input: ApplyInput, resource: ConfigResource): Body {
  const read = (address: string, attribute: string): unknown => input.store.attribute(address, pathSegments(attribute));
  const { spec } = resolveSpec(resource.spec, (address, attribute) => {
    const value = read(address, attribute);
    return value === undefined ? undefined : { value };
  });
  // Without references the spec is the one loading the configuration validated, every value known then.
  if (resource.references.length === 0) return spec;
  const unknown = [...leaves(spec)].filter(([, v]) => isUnknownValue(v)).map(([path]) => path);
  if (unknown.length) {
    for (const ref of resource.references) if (read(ref.address, ref.attribute) === undefined) absentAfterCreate(input, resource, ref);
    throw new NetformError({ code: "apply.unknown", message: `${resource.address}: ${unknown.join(", ")} still unknown when it was needed`, hint: "a resource it refers to was not created; see the errors above" });
  }
  const problems = validateSpec(input.config.kinds.get(resource.kind)!, spec, { address: resource.address, positions: resource.positions }).filter((d) => d.severity === "error");
  if (problems.length) {
    const first = problems[0]!;
    throw new NetformError({
      code: "apply.invalid",
      message: `${resource.address}: ${problems.map((d) => `${d.path ? `${d.path}: ` : ""}${d.message}`).join("; ")}`,
      hint: first.file ? `see ${first.file}:${first.line}:${first.column}` : undefined,
    });
  }
  return spec;
}

/**
 * Throws when `ref` names a path that the object it references, made in this run, does not have: the plan
 * could not check it before the object existed. Returns when that object is not recorded as made.
 */
function absentAfterCreate(input: ApplyInput, resource: ConfigResource, ref: Reference): void {
  const record = input.store.resource(ref.address);
  if (record?.id === undefined || record.pending) return;
  const absent = absentPath(record.attributes, ref.attribute);
  if (!absent) return;
  const at = placeDiagnostic(resource, { path: ref.path, code: "reference.path", message: "" });
  const where = at.file ? ` (${at.file}:${at.line}:${at.column})` : "";
  throw new NetformError({
    code: "apply.reference-path",
    message: `${resource.address}: ${formatPath(ref.path)}${where} reads ${ref.expression}, but ${ref.address} as the service returned it has no ${ref.attribute}: ${absent.reason}${absent.closest ? ` (did you mean ${absent.closest}?)` : ""}`,
    hint: `${ref.address} is made and recorded; fix the reference to a path it has (netform state show ${ref.address}), then apply again`,
  });
}

function configResource(input: ApplyInput, address: string): ConfigResource {
  const resource = resourceAt(input.config, address);
  if (!resource) throw new Error(`${address} is not in the configuration`);
  return resource;
}

function dependenciesOf(input: StepContext, address: string): string[] {
  return input.dependencies.has(address) ? input.dependencies.dependenciesOf(address).sort() : [];
}

/** The longest time to the end of the run from the steps of an address (stepGraph's ids: `ADDRESS+` and `ADDRESS-`). */
function remainingOf(urgency: ReadonlyMap<string, number>, address: string): { remainingSeconds?: number } {
  const seconds = [urgency.get(`${address}+`), urgency.get(`${address}-`)].filter((s): s is number => s !== undefined);
  return seconds.length === 0 ? {} : { remainingSeconds: Math.max(...seconds) };
}

/**
 * Waits for the object's transition. A transition this step started whole (`timed`) teaches the state how
 * long the kind's operation takes; one an earlier run started, or a parent's delete carried, does not.
 */
async function waitFor(input: StepContext, change: ResourceChange, ref: ObjectRef, operation: Operation, step: StepKind, timed: boolean, answered?: Body): Promise<Body | undefined> {
  const kind = kindOf(input, change);
  // The call's own answer is the first look at the object: its state is shown from then on, not from the first poll.
  const first = answered === undefined ? undefined : kind.stateOf(answered);
  if (first !== undefined) input.emit({ type: "apply_progress", address: change.address, action: change.action, step, elapsedMs: 0, state: first });
  const key = timingKeyOf(change, operation);
  const started = Date.now();
  const body = await input.poller.wait(kind, ref, {
    address: change.address,
    operation,
    expectedMs: input.times.typical(key, operation).seconds * 1000,
    timeoutMs: input.config.provider.timeouts[change.kind]!,
    onProgress: (state, elapsedMs) => input.emit({ type: "apply_progress", address: change.address, action: change.action, step, elapsedMs, ...(state ? { state } : {}) }),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  if (timed) input.records.timed(key, operation, (Date.now() - started) / 1000);
  return body;
}

/** How many times a mutating call whose outcome stays unknown is observed and sent again. */
const UNKNOWN_OUTCOME_TRIES = 3;

/**
 * Sends a mutating call. When the service may have acted without saying so (OutcomeUnknownError), asks
 * `observe` first: what it finds is the outcome (the call's effect is there, or another call is needed), and
 * only then is the call sent again. An interrupt stops the retries: the pending record leaves the
 * observing to the next run.
 */
async function sendObserving<T>(input: StepContext, stepId: string, send: (urgency: number) => Promise<T>, observe: () => Promise<T | undefined>): Promise<T> {
  const urgency = input.urgency.get(stepId) ?? 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(urgency);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error;
      const observed = await observe();
      if (observed !== undefined) return observed;
      if (attempt >= UNKNOWN_OUTCOME_TRIES || input.signal?.aborted) throw error;
    }
  }
}

/**
 * The object a create may have made, if one that could be its own is there (adoption.ts). `strict`: a
 * candidate that cannot be ours fails the address rather than be passed over, because the create's
 * outcome is unknown and netform cannot tell whether it made a second one.
 */
async function lookFor(input: StepContext, resource: ConfigResource, kind: KindHandler, spec: Body, since: string, strict: boolean): Promise<Observed | undefined> {
  const owned = ownedByOthers(input.store.view.resources, resource.address);
  const found = await kind.lookup(input.session.ctx, spec, owned);
  if (!found) return undefined;
  const why = whyNotOurs(kind, resource, spec, found, { since, identity: await input.session.api.identity(), owned });
  if (!why) return found;
  if (strict) throw notAdopted(resource.address, kind, found, why);
  return undefined;
}

/** Errors after which the create's outcome is still unknown: its pending record stays for the next run. */
const outcomeUnknown = (error: unknown): boolean => error instanceof OutcomeUnknownError || (error instanceof NetformError && error.code === "apply.not-adopted");

async function create(input: StepContext, change: ResourceChange): Promise<string> {
  const resource = configResource(input, change.address);
  const kind = kindOf(input, change);
  const spec = resolvedSpec(input, resource);
  const dependencies = dependenciesOf(input, change.address);
  if (change.awaiting === "delete") await finishEarlierDelete(input, change);
  // A saved plan may be applied to a state lost since its objects were made: look before creating again.
  const existing = input.plan.lookBeforeCreateSince !== undefined ? await lookFor(input, resource, kind, spec, input.plan.lookBeforeCreateSince, false) : undefined;
  const begun = await input.records.beginCreate(resource, spec, dependencies, change.action === "replace" && change.createBeforeDestroy === true);
  const since = input.records.pendingSince(change.address) ?? new Date().toISOString();
  let created: Observed;
  try {
    created = existing ?? (await sendObserving(input, `${change.address}+`, (urgency) => input.creates.create(kind, spec, urgency), () => lookFor(input, resource, kind, spec, since, true)));
  } catch (error) {
    // A run that lost its lock records nothing more: the pending record it stored leads the next run to look.
    if (!outcomeUnknown(error) && !isLockLost(error)) await input.records.refused(change.address, begun);
    throw error;
  }
  input.fence?.created(change.address, created.id);
  await input.records.accepted(resource, created, created.body, spec, dependencies, "create");
  const ready = await waitFor(input, change, created, "create", "create", existing === undefined, created.body);
  await input.records.settled(resource, created, ready ?? created.body, spec, dependencies);
  return created.id;
}

/** An interrupted destroy left the object leaving: it is waited for until gone, and forgotten, before the create. */
async function finishEarlierDelete(input: StepContext, change: ResourceChange): Promise<void> {
  const recorded = input.records.recorded(change.address);
  if (!recorded?.id) return;
  const ref: ObjectRef = { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) };
  await waitFor(input, change, ref, "delete", "wait", false);
  await input.records.forget(change.address);
}

async function update(input: StepContext, change: ResourceChange): Promise<string> {
  const resource = configResource(input, change.address);
  const kind = kindOf(input, change);
  const spec = resolvedSpec(input, resource);
  const recorded = await input.records.begin(change.address, "update");
  const ref: ObjectRef = { id: recorded.id!, ...(recorded.parent ? { parent: recorded.parent } : {}) };
  const paths = change.changes.map((c) => c.path);
  // A secret cannot be read back, so an update that sends one is sent again rather than observed.
  const observable = !change.changes.some((c) => c.sensitive);
  await sendObserving(
    input,
    `${change.address}+`,
    (urgency) => input.turns.take(urgency, async () => {
      await kind.update(input.session.ctx, ref, spec, paths);
      return true;
    }),
    async () => {
      if (!observable) return undefined;
      const body = await kind.observe(input.session.ctx, ref);
      if (body === undefined) return undefined;
      const { changes } = compareFields(resource, kind, spec, body, recorded, input.hash);
      return changes.some((c) => paths.includes(c.path)) ? undefined : true;
    },
  );
  const ready = await waitFor(input, change, ref, "update", "update", true);
  await input.records.settled(resource, ref, ready ?? recorded.attributes, spec, dependenciesOf(input, change.address));
  return ref.id;
}

async function importObject(input: StepContext, change: ResourceChange): Promise<string> {
  const resource = configResource(input, change.address);
  const kind = kindOf(input, change);
  // A nested object lives under the parent its configuration names (which exists by now); the refresh
  // that planned the import keeps it apart from the state's objects.
  const named = kind.parentField ? resolvedSpec(input, resource)[kind.parentField] : undefined;
  const parent = typeof named === "string" ? named : undefined;
  const ref: ObjectRef = { id: change.id ?? change.importId!, ...(parent ? { parent } : {}) };
  const body = await kind.observe(input.session.ctx, ref);
  if (!body) throw new NetformError({ code: "import.missing", message: `${change.address}: the object ${ref.id} to import does not exist`, hint: "check the uuid in import:" });
  await input.records.imported(resource, ref, body, dependenciesOf(input, change.address), { spec: resolvedSpec(input, resource), fixed: (path) => !updatableBy(kind, path) });
  if (change.changes.length > 0) {
    // The import is recorded; the update is a new call, which an interrupt prevents (the next plan shows it).
    if (input.signal?.aborted) throw new InterruptedError();
    await update(input, change);
  }
  return ref.id;
}

async function awaitEarlier(input: StepContext, change: ResourceChange): Promise<string> {
  const resource = configResource(input, change.address);
  const recorded = input.records.recorded(change.address);
  if (!recorded?.id) throw new Error(`${change.address} has no recorded id`);
  const ref: ObjectRef = { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) };
  const body = await waitFor(input, change, ref, change.awaiting ?? "create", "wait", false);
  await input.records.caughtUp(change.address, body, resource.secrets);
  return ref.id;
}

async function remove(input: StepContext, change: ResourceChange, withParent: boolean): Promise<string | undefined> {
  const replacing = change.action === "replace" && change.createBeforeDestroy;
  const address = replacing ? deposedAddress(change.address) : change.address;
  const recorded = input.records.recorded(address);
  if (!recorded) return undefined;
  const kind = kindOf(input, change);
  if (!recorded.id) {
    await input.records.forget(address);
    return undefined;
  }
  const ref: ObjectRef = { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) };
  await input.records.begin(address, "delete");
  if (!withParent) {
    await sendObserving(
      input,
      `${change.address}-`,
      (urgency) => input.turns.take(urgency, async () => {
        await kind.delete(input.session.ctx, ref);
        return true;
      }),
      async () => {
        const body = await kind.observe(input.session.ctx, ref);
        return body === undefined || isLeaving(kind, body) ? true : undefined;
      },
    );
  }
  await waitFor(input, change, ref, "delete", "delete", !withParent);
  await input.records.forget(address);
  return ref.id;
}
