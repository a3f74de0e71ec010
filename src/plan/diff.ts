// The planner: compares what the configuration declares with what the service has (as refreshed) and
// what the state recorded, and decides per address what to do and why. Pure: no I/O; the refresh has
// already read everything it needs.

import { configGraph, expandBlockAddresses, hasOwnKeys, isPlainObject, placeDiagnostic, readPath, resourceAt, secretsAt, SENSITIVE_TEXT, type ConfigResource, type Configuration, type RemovedBlock } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { Graph } from "../graph/index.js";
import { isLeaving } from "../kinds/common.js";
import type { Body, KindHandler } from "../kinds/index.js";
import type { ResourceState, StateFile } from "../state/index.js";
import { absentReferences, lookupFrom, objectsFrom, resolveSpec, type AttributeLookup } from "./resolve.js";
import { summarize, type FieldChange, type Plan, type PlanMode, type ReasonCode, type ResourceChange } from "./types.js";
import { hashesUnder, isUnknownValue, leaves, masked, sameValue } from "./values.js";

/** What the refresh found for an address of the state (or an import target). */
export type Refreshed =
  | { status: "present"; id: string; parent?: string; body: Body }
  /** The object is gone from the service. */
  | { status: "gone" }
  /** A create whose outcome was unknown found no object: it never happened. */
  | { status: "absent" }
  /** A create whose outcome was unknown found only an object that cannot be the one it made (`why`). */
  | { status: "foreign"; id: string; description: string; why: string };

export interface PlanInput {
  mode: PlanMode;
  config: Configuration;
  state: StateFile;
  refreshed: ReadonlyMap<string, Refreshed>;
  /** Objects named by `import:` keys, as observed (undefined: not found). */
  imports: ReadonlyMap<string, Refreshed>;
  kinds: ReadonlyMap<string, KindHandler>;
  /** The keyed hash of a secret value, as stored in the state. */
  hash: SecretHashes;
  targets?: readonly string[];
  replace?: readonly string[];
  configHash: string;
  requestCount: number;
}

export interface PlanResult {
  plan: Plan;
  diagnostics: Diagnostic[];
}

/** Whether a changed leaf is covered by `ignoreChanges` (the path itself or an ancestor). */
const ignored = (path: string, ignore: readonly string[]) => ignore.some((i) => path === i || path.startsWith(`${i}.`));

/** Whether a kind changes this leaf in place. */
export function updatableBy(kind: KindHandler, path: string): boolean {
  return Object.keys(kind.updatable).some((k) => path === k || path.startsWith(`${k}.`));
}

/** How the planner compares secrets: the state records keyed hashes of them. */
export interface SecretHashes {
  (value: unknown): string;
  /** Whether a recorded hash is that of `value`. */
  matches(recorded: string | undefined, value: unknown): boolean;
}

interface Comparison {
  changes: FieldChange[];
  desired: Body;
  /** The object as the service has it, in the kind's comparable form ({} when there is none). */
  observed: Body;
  /** Secret fields compared only with the recorded hash: the service does not return them. */
  notCompared: string[];
  /** Declared fields the answer leaves out, not compared (ResourceChange.notReturned). */
  notReturned: string[];
}

/**
 * The answer's comparable form with the fields the kind knows real answers may leave out (KindHandler.mayOmit)
 * taken from the desired form where the answer has none, and the patterns that needed it. "[]" walks the
 * items of a list pairwise, when both forms have as many. Drift fills them from the recorded form alike.
 */
export function withOmissionsFilled(patterns: readonly string[], desired: Body, observed: Body): { filled: Body; omitted: string[] } {
  if (patterns.length === 0) return { filled: observed, omitted: [] };
  const filled = JSON.parse(JSON.stringify(observed)) as Body;
  const omitted = new Set<string>();
  const fill = (want: unknown, have: unknown, segments: readonly string[], pattern: string): void => {
    const [head, ...rest] = segments;
    if (head === undefined) return;
    if (head.endsWith("[]")) {
      const key = head.slice(0, -2);
      const wanted = isPlainObject(want) ? want[key] : undefined;
      const had = isPlainObject(have) ? have[key] : undefined;
      if (!Array.isArray(wanted) || !Array.isArray(had) || wanted.length !== had.length) return;
      wanted.forEach((item, i) => fill(item, had[i], rest, pattern));
      return;
    }
    if (!isPlainObject(want) || !isPlainObject(have)) return;
    if (rest.length > 0) return fill(want[head], have[head], rest, pattern);
    if (want[head] !== undefined && want[head] !== null && (have[head] === undefined || have[head] === null)) {
      have[head] = want[head];
      omitted.add(pattern);
    }
  };
  for (const pattern of patterns) fill(desired, filled, pattern.split("."), pattern);
  return { filled, omitted: [...omitted] };
}

/**
 * A secret field's value as the service has it, and as declared in the same form; undefined when the
 * service does not return it. The kind's own secret fields are read from the answer where the kind says
 * the service returns them; a field that is secret only because a secret fed it (a description) is
 * compared in the kind's comparable form, like any other field.
 */
function serviceSecret(kind: KindHandler, body: Body | undefined, observed: Body, desired: Body, path: string, declared: unknown): { have: unknown; want: unknown } | undefined {
  if (!body) return undefined;
  if (kind.returnedSecrets?.covers(path)) {
    const have = readPath(body, path);
    // An answer without it says nothing of it, like any field real answers leave out: compared with what
    // netform last sent instead. What the state holds in place of a secret is no value of the service either.
    return have === undefined || have === null || have === SENSITIVE_TEXT ? undefined : { have, want: declared };
  }
  const want = readPath(desired, path);
  if (want === undefined) return undefined;
  const have = readPath(observed, path);
  return have === SENSITIVE_TEXT ? undefined : { have, want };
}

/** Whether a leaf lies in one of the fields the service reads only when the object is made. */
const writeOnlyLeaf = (path: string, writeOnly: readonly string[] | undefined): boolean => (writeOnly ?? []).some((w) => path === w || path.startsWith(`${w}.`));

/** Field-by-field differences between the desired spec and the object as observed. */
export function compareFields(
  resource: Pick<ConfigResource, "secrets" | "lifecycle"> & Partial<Pick<ConfigResource, "writeOnly">>,
  kind: KindHandler,
  spec: Body,
  observedBody: Body | undefined,
  prior: ResourceState | undefined,
  hash: SecretHashes,
): Comparison {
  const secrets = resource.secrets;
  const desired = kind.desired(spec);
  const observed = observedBody ? kind.observed(observedBody) : {};
  const { filled, omitted } = observedBody ? withOmissionsFilled(kind.mayOmit ?? [], desired, observed) : { filled: observed, omitted: [] };
  const notReturned = [...omitted];
  const changes: FieldChange[] = [];
  const notCompared: string[] = [];
  const ignore = resource.lifecycle.ignoreChanges;
  for (const [path, want] of leaves(desired)) {
    if (ignored(path, ignore) || secrets.holdsSecret(path)) continue;
    const have = readPath(filled, path);
    if (isUnknownValue(want)) changes.push({ path, before: have, unknown: true });
    else if (sameValue(want, have)) continue;
    // A field the answer leaves out is the service's default or what was sent: never a replacement.
    else if (have === undefined && observedBody && !updatableBy(kind, path)) notReturned.push(path);
    else changes.push({ path, before: have, after: want });
  }
  for (const [path, value] of leaves(spec)) {
    if (!secrets.holdsSecret(path) || ignored(path, ignore)) continue;
    // A secret the service read only when the object was made (a device's first SSH users) changes nothing
    // on it: the write-only warning says so, with what to do instead.
    if (writeOnlyLeaf(path, resource.writeOnly)) {
      notCompared.push(path);
      continue;
    }
    if (isUnknownValue(value)) {
      changes.push({ path, before: SENSITIVE_TEXT, unknown: true, sensitive: true });
      continue;
    }
    // Where the service returns the secret, what it has is compared with what is declared: a secret
    // changed outside netform is restored. Elsewhere only what netform last sent can be compared.
    const service = serviceSecret(kind, observedBody, observed, desired, path, value);
    if (service) {
      if (!sameValue(service.want, service.have)) changes.push({ path, before: service.have === undefined || service.have === null ? undefined : SENSITIVE_TEXT, after: SENSITIVE_TEXT, sensitive: true });
      continue;
    }
    notCompared.push(path);
    const recorded = prior?.sensitiveHashes[path];
    if (!hash.matches(recorded, value)) changes.push({ path, before: recorded ? SENSITIVE_TEXT : undefined, after: SENSITIVE_TEXT, sensitive: true });
  }
  for (const change of changes) if (!updatableBy(kind, change.path)) change.forcesReplacement = true;
  return { changes, desired, observed, notCompared, notReturned };
}

/** A copy without null leaves: in a desired form they mean "absent", which an object as it will be does not show. */
function withoutAbsent(body: Body): Body {
  const out: Body = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === null || value === undefined) continue;
    if (!isPlainObject(value)) {
      out[key] = value;
      continue;
    }
    const inner = withoutAbsent(value);
    // An object that held only absent fields is absent itself.
    if (hasOwnKeys(inner) || !hasOwnKeys(value)) out[key] = inner;
  }
  return out;
}

/** The plan's view of a desired object: masked, with secret leaves shown as such. */
function afterView(resource: ConfigResource, desired: Body, spec: Body): Record<string, unknown> {
  const secrets = resource.secrets;
  const view = masked(withoutAbsent(desired), secrets);
  // Most kinds have no secret: no leaf of the spec to look for.
  if (secrets.empty) return view;
  for (const [path] of leaves(spec)) {
    if (!secrets.holdsSecret(path)) continue;
    let cur = view;
    const keys = path.split(".");
    for (const key of keys.slice(0, -1)) cur = (cur[key] ??= {}) as Record<string, unknown>;
    cur[keys[keys.length - 1]!] = SENSITIVE_TEXT;
  }
  return view;
}

function unknownPaths(desired: Body): string[] {
  const out: string[] = [];
  for (const [path, value] of leaves(desired)) if (isUnknownValue(value)) out.push(path);
  return out;
}

export function makePlan(given: PlanInput): PlanResult {
  const input = withBlockAddresses(given);
  const { config, state } = input;
  const diagnostics: Diagnostic[] = [];
  const graph = configGraph(config);
  const planned = new Map<string, ResourceChange>();
  const forcedReplace = new Set(input.replace ?? []);

  const selected = selection(input, graph);
  for (const item of unknownAddresses(config, state, [...(input.targets ?? []), ...(input.replace ?? [])])) diagnostics.push(item);
  const read = new Map([...input.imports, ...input.refreshed]);
  const known = lookupFrom(state, read);
  const objects = objectsFrom(state, read);
  // What is created or replaced has new attributes, not known until apply.
  const made = (address: string): boolean => {
    const action = planned.get(address)?.action;
    return action === "create" || action === "replace";
  };
  const attribute: AttributeLookup = (address, attr) => (made(address) ? undefined : known(address, attr));

  // The dependency order, worked out once: the changes are planned in it, and listed in it.
  const order = graph.order();
  if (input.mode !== "destroy") {
    for (const address of order) {
      const resource = resourceAt(config, address)!;
      if (!selected.has(address)) continue;
      const fresh = input.refreshed.get(address);
      if (fresh?.status === "foreign") diagnostics.push(notAdoptedDiagnostic(resource, fresh));
      for (const item of absentReferences(resource, (a) => (made(a) ? undefined : objects(a)))) diagnostics.push(item);
      const change = planResource(resource, input, attribute, forcedReplace, (d) => diagnostics.push(d));
      // An object replaced by deleting it first takes what depends on it along: they must be gone before
      // it is deleted and can only be made again once it exists (a BGP instance cannot outlive its DIRECT,
      // a connection cannot keep a device that is being replaced).
      if (change.action === "update" || change.action === "no-op") {
        const replaced = graph
          .dependenciesOf(address)
          .map((d) => planned.get(d))
          .find((c) => c?.action === "replace" && !c.createBeforeDestroy);
        if (replaced) {
          change.action = "replace";
          change.reasonCode = "cascade-replace";
          change.reason = `${replaced.address} is replaced, and ${address} depends on it`;
          change.createBeforeDestroy = resource.lifecycle.createBeforeDestroy;
          delete change.awaiting;
        }
      }
      planned.set(address, change);
    }
  }

  for (const [address, recorded] of Object.entries(state.resources)) {
    const inConfig = resourceAt(config, address) !== undefined;
    if (inConfig && input.mode !== "destroy") continue;
    if (!selected.has(address) && (input.targets?.length ?? 0) > 0) continue;
    const fresh = input.refreshed.get(address);
    // An object that is not ours is no business of this address: only its record goes.
    const gone = fresh?.status === "gone" || fresh?.status === "absent" || fresh?.status === "foreign";
    planned.set(address, {
      address,
      kind: recorded.kind,
      ...deleteDecision(input.mode, gone, config.removals.find((r) => r.from === address)),
      ...(recorded.id ? { id: recorded.id } : {}),
      before: recorded.attributes,
      changes: [],
      unknown: [],
      sensitive: Object.keys(recorded.sensitiveHashes),
      dependencies: recorded.dependencies,
    });
  }

  if (input.mode === "refresh-only") {
    // Nothing is done to the service: each entry says what the state would record instead.
    for (const change of planned.values()) {
      change.action = "no-op";
      change.reasonCode = "refresh-only";
      change.changes = recordedChanges(input, change.address);
      delete change.awaiting;
      delete change.reason;
      const fresh = input.refreshed.get(change.address);
      if (input.state.resources[change.address] && (fresh?.status === "gone" || fresh?.status === "absent")) change.reason = "deleted outside netform: the state entry is removed";
    }
  }

  for (const change of planned.values()) {
    const kept = input.kinds.get(change.kind)?.keptByService;
    const forgets = (change.action === "delete" && change.reasonCode !== "gone-from-service") || change.action === "replace";
    if (kept && forgets) change.reason = change.reason ? `${change.reason}; ${kept}` : kept;
    const again = input.kinds.get(change.kind)?.madeAgainIfAnswerLost;
    if (again && (change.action === "create" || change.action === "replace")) change.reason = change.reason ? `${change.reason}; ${again}` : again;
  }

  for (const change of planned.values()) {
    if (change.action !== "delete" && change.action !== "replace") continue;
    const resource = resourceAt(config, change.address);
    if (resource?.lifecycle.preventDestroy) {
      diagnostics.push({
        severity: "error",
        code: "plan.prevent-destroy",
        address: change.address,
        file: resource.file,
        line: resource.position.line,
        column: resource.position.column,
        message: `${change.address} has lifecycle.preventDestroy set, and this plan would ${change.action === "delete" ? "destroy" : "replace"} it (${change.reason ?? change.action})`,
        hint: "remove preventDestroy first if destroying it is intended, or change the configuration so that it is kept",
      });
    }
  }

  const changes = orderChanges([...planned.values()], order);
  const plan: Plan = {
    formatVersion: 1,
    mode: input.mode,
    lineage: state.lineage,
    serial: state.serial,
    configHash: input.configHash,
    changes,
    summary: summarize(changes),
    requestCount: input.requestCount,
    ...(input.mode === "refresh-only" ? { drifted: driftedAddresses(input, changes) } : {}),
  };
  return { plan, diagnostics };
}

/** An error for each address (of --target, --replace) that is neither declared nor recorded, each once. */
/** --target and --replace as users mean them: the address of a block with forEach is every instance of it. */
function withBlockAddresses(input: PlanInput): PlanInput {
  if (!input.targets?.length && !input.replace?.length) return input;
  const known = [...input.config.resources.keys(), ...Object.keys(input.state.resources)];
  return {
    ...input,
    ...(input.targets ? { targets: expandBlockAddresses(input.targets, known) } : {}),
    ...(input.replace ? { replace: expandBlockAddresses(input.replace, known) } : {}),
  };
}

export function unknownAddresses(config: Configuration, state: StateFile, addresses: readonly string[]): Diagnostic[] {
  return expandBlockAddresses(addresses, [...config.resources.keys(), ...Object.keys(state.resources)])
    .filter((address) => !resourceAt(config, address) && !state.resources[address])
    .map((address) => ({
      severity: "error" as const,
      code: "plan.unknown-address",
      address,
      message: `${address} is neither in the configuration nor in the state`,
      hint: "check the address (KIND.NAME); netform state list shows what the state holds",
    }));
}

/**
 * What --target selects: the targets and everything they depend on, which must exist for them; when
 * destroying, the targets and everything that depends on them, which must go first. Without targets,
 * everything.
 */
function selection(input: PlanInput, graph: Graph): Set<string> {
  const all = new Set([...input.config.resources.keys(), ...Object.keys(input.state.resources)]);
  if (!input.targets?.length) return all;
  const known = new Graph();
  for (const node of graph.nodes) {
    known.addNode(node);
    for (const d of graph.dependenciesOf(node)) known.addEdge(node, d);
  }
  for (const [address, recorded] of Object.entries(input.state.resources)) {
    known.addNode(address);
    for (const d of recorded.dependencies) known.addEdge(address, d);
  }
  const out = new Set<string>();
  for (const t of input.targets) {
    out.add(t);
    if (!known.has(t)) continue;
    const related = input.mode === "destroy" ? known.transitiveDependents(t) : known.transitiveDependencies(t);
    for (const d of related) out.add(d);
  }
  return out;
}

/**
 * Write-only fields whose declared value differs from what was sent when the object was made: the service
 * read them only then, so apply cannot change them; the plan says so instead of passing them over in silence.
 */
function writeOnlyWarnings(resource: ConfigResource, kind: KindHandler, spec: Body, prior: ResourceState, hash: (v: unknown) => string): Diagnostic[] {
  const sent = prior.writeOnlyHashes;
  if (!sent) return [];
  const declared = hashesUnder(spec, resource.writeOnly, hash);
  const changed = [...new Set([...Object.keys(sent), ...Object.keys(declared)])].filter((p) => sent[p] !== declared[p]).sort();
  return changed.map((path) =>
    placeDiagnostic(resource, {
      severity: "warning",
      code: "plan.write-only-changed",
      path: path.split("."),
      message: `${path} changed, but the service reads it only when the object is made, so apply leaves it as it was`,
      hint: writeOnlyHint(kind, path) ?? `to apply it, replace the object (--replace ${resource.address}), or declare the value it was made with`,
    }),
  );
}

/** The kind's own advice for a write-only field that another kind changes in place, for the field or a field above it. */
function writeOnlyHint(kind: KindHandler, path: string): string | undefined {
  const field = Object.keys(kind.writeOnlyHints ?? {}).find((f) => path === f || path.startsWith(`${f}.`));
  return field === undefined ? undefined : kind.writeOnlyHints?.[field];
}

function planResource(resource: ConfigResource, input: PlanInput, attribute: AttributeLookup, forcedReplace: ReadonlySet<string>, warn: (d: Diagnostic) => void): ResourceChange {
  const kind = input.kinds.get(resource.kind)!;
  const prior = input.state.resources[resource.address];
  const { spec } = resolveSpec(resource.spec, attribute);
  // A change is these fields and then its own, assigned onto a new object rather than written after a spread
  // of them ({ ...base, action }): V8 adds every field that follows such a spread on its slowest path, and a
  // plan makes a change for every resource.
  const base = {
    address: resource.address,
    kind: resource.kind,
    dependencies: resource.dependencies,
    sensitive: [...resource.secrets.paths],
  };
  const change = (fields: Omit<ResourceChange, keyof typeof base>): ResourceChange => Object.assign({}, base, fields);
  const fresh = input.refreshed.get(resource.address);

  const created = (reasonCode: ReasonCode, reason?: string): ResourceChange => {
    const desired = kind.desired(spec);
    return change({ action: "create", reasonCode, ...(reason ? { reason } : {}), after: afterView(resource, desired, spec), changes: [], unknown: unknownPaths(desired) });
  };

  // A create an earlier run left unfinished, whose object the refresh found: planned like any existing object.
  const adopted = fresh?.status === "present" ? fresh : undefined;
  const id = prior?.id ?? adopted?.id;
  if (!prior || !id || fresh?.status === "absent") {
    if (!prior && resource.import) {
      const target = input.imports.get(resource.address);
      if (target?.status !== "present") return created("import-missing", `import ${resource.import}: no such object`);
      const { changes, desired, observed, notCompared, notReturned } = compareFields(resource, kind, spec, target.body, undefined, input.hash);
      return change({
        action: "import",
        reasonCode: "import",
        importId: resource.import,
        id: target.id,
        reason: changes.length ? `adopt ${resource.import}, then change ${changes.map((c) => c.path).join(", ")}` : `adopt ${resource.import}`,
        before: masked(observed, resource.secrets),
        after: afterView(resource, desired, spec),
        changes,
        unknown: unknownPaths(desired),
        ...(notCompared.length ? { notCompared } : {}),
        ...(notReturned.length ? { notReturned } : {}),
      });
    }
    if (prior?.pending?.operation === "create" && fresh?.status === "absent") return created("create-not-reached", "the previous run's create did not reach the service");
    return created("create");
  }
  if (fresh?.status === "gone") return created("deleted-outside", "deleted outside netform");
  const observedBody = adopted ? adopted.body : prior.attributes;
  // An interrupted destroy: the object is on its way out, whatever its fields say. (A recorded delete that
  // finds the object as it was never reached the service; the object is planned as any other.)
  if (isLeaving(kind, observedBody)) {
    return { ...created("awaiting-delete", "an earlier delete is still running: wait for it, then create anew"), id, awaiting: "delete" };
  }
  if (!forcedReplace.has(resource.address)) writeOnlyWarnings(resource, kind, spec, prior, input.hash).forEach(warn);
  const { changes, desired, observed, notCompared, notReturned } = compareFields(resource, kind, spec, observedBody, prior, input.hash);
  const common = Object.assign({}, base, {
    id,
    before: masked(observed, resource.secrets),
    after: afterView(resource, desired, spec),
    changes,
    unknown: unknownPaths(desired),
    ...(notCompared.length ? { notCompared } : {}),
    ...(notReturned.length ? { notReturned } : {}),
  });
  // Each outcome below is the common fields and then its own (common is this resource's alone).
  const outcome = (fields: Pick<ResourceChange, "action" | "reasonCode"> & Partial<ResourceChange>): ResourceChange => Object.assign(common, fields);
  const failed = kind.readiness(observedBody, "create");
  if (typeof failed === "object") return outcome({ action: "replace", reasonCode: "failed-state", reason: `the service reports ${failed.failed}`, createBeforeDestroy: resource.lifecycle.createBeforeDestroy });
  if (forcedReplace.has(resource.address)) return outcome({ action: "replace", reasonCode: "replace-requested", reason: "replacement requested (--replace)", createBeforeDestroy: resource.lifecycle.createBeforeDestroy });
  const forcing = changes.filter((c) => c.forcesReplacement);
  if (forcing.length) {
    return outcome({ action: "replace", reasonCode: "force-new-field", reason: `${forcing.map((c) => c.path).join(", ")} cannot change in place`, createBeforeDestroy: resource.lifecycle.createBeforeDestroy });
  }
  if (changes.length) return outcome({ action: "update", reasonCode: "update" });
  // An earlier run started a create or update and stopped before it finished: apply waits for it.
  const awaiting = prior.pending?.operation === "create" || prior.pending?.operation === "update" ? prior.pending.operation : undefined;
  if (awaiting) return outcome({ action: "no-op", reasonCode: "awaiting-earlier", awaiting, reason: `waiting for the ${awaiting} an earlier run started` });
  return outcome({ action: "no-op", reasonCode: "unchanged" });
}

/**
 * An earlier create's outcome is unknown and the object found may be someone else's: netform neither adopts
 * it nor creates another; the user says which it is.
 */
function notAdoptedDiagnostic(resource: ConfigResource, found: Extract<Refreshed, { status: "foreign" }>): Diagnostic {
  return {
    severity: "error",
    code: "plan.not-adopted",
    address: resource.address,
    file: resource.file,
    line: resource.position.line,
    column: resource.position.column,
    ...notAdoptedText(resource.address, found),
  };
}

/** What to tell the user when the object found for an unknown create's outcome is not adopted, and what to do. */
export function notAdoptedText(address: string, found: { id: string; description: string; why: string }): { message: string; hint: string } {
  return {
    message: `${address}: an earlier create's outcome is unknown, and the only matching object found, ${found.description}, is not adopted: ${found.why}`,
    hint: `if it is the object this configuration made, adopt it with netform import ${address} ${found.id}; if it is not, forget the unfinished create with netform state rm ${address} and apply again to create a new one`,
  };
}

/** What becomes of a recorded object the configuration no longer declares; a `removed:` block may keep it on the service. */
function deleteDecision(mode: PlanMode, gone: boolean, removal: RemovedBlock | undefined): Pick<ResourceChange, "action" | "reasonCode" | "reason"> {
  if (mode === "destroy") return { action: "delete", reasonCode: "destroy-requested", reason: "destroy requested" };
  if (gone) return { action: "delete", reasonCode: "gone-from-service", reason: "already gone from the service: only the state entry is removed" };
  if (removal?.destroy === false) return { action: "forget", reasonCode: "removed-not-destroyed", reason: "a removed block with destroy: false: the service keeps it" };
  if (removal) return { action: "delete", reasonCode: "removed-destroyed", reason: "a removed block with destroy: true deletes it" };
  return { action: "delete", reasonCode: "no-longer-configured", reason: "no longer in the configuration" };
}

/** Dependency order (`order`, the configuration graph's) for creates and updates, then deletes in reverse dependency order. */
function orderChanges(changes: ResourceChange[], order: readonly string[]): ResourceChange[] {
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const position = new Map(order.map((a, i) => [a, i]));
  const deletes = changes.filter((c) => c.action === "delete");
  const deleteGraph = new Graph();
  for (const d of deletes) {
    deleteGraph.addNode(d.address);
    for (const dep of d.dependencies) if (byAddress.get(dep)?.action === "delete") deleteGraph.addEdge(d.address, dep);
  }
  const deleteOrder = deleteGraph.reversed().order();
  const rest = changes.filter((c) => c.action !== "delete").sort((a, b) => (position.get(a.address) ?? 0) - (position.get(b.address) ?? 0));
  return [...rest, ...deleteOrder.map((a) => byAddress.get(a)!)];
}

/**
 * refresh-only: the fields whose recorded value differs from what the service reports, recorded -> service.
 * Both sides are masked alike, so a secret the state keeps only as a hash never reads as changed.
 */
function recordedChanges(input: PlanInput, address: string): FieldChange[] {
  const recorded = input.state.resources[address];
  const fresh = input.refreshed.get(address);
  const kind = recorded ? input.kinds.get(recorded.kind) : undefined;
  if (!recorded || !kind || fresh?.status !== "present") return [];
  const secrets = secretsAt(input.config, address, recorded.kind);
  const before = masked(kind.observed(recorded.attributes), secrets);
  const after = masked(kind.observed(fresh.body), secrets);
  const changes: FieldChange[] = [];
  for (const path of [...new Set([...leaves(before).keys(), ...leaves(after).keys()])].sort()) {
    const was = readPath(before, path);
    const now = readPath(after, path);
    if (!sameValue(was, now)) changes.push({ path, before: was, after: now });
  }
  return changes;
}

/** refresh-only: addresses whose record would change (fields differ, or the object is gone). */
function driftedAddresses(input: PlanInput, changes: readonly ResourceChange[]): string[] {
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const out: string[] = [];
  for (const address of Object.keys(input.state.resources)) {
    const fresh = input.refreshed.get(address);
    const change = byAddress.get(address);
    if (!fresh || !change) continue;
    if (fresh.status !== "present" || change.changes.length > 0) out.push(address);
  }
  return out.sort();
}
