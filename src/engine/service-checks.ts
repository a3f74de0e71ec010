// Plan-time checks against the service: a plan that passes must apply. Each change of a kind whose operation
// takes `dryRun=true` is sent as a dry run (the service validates it exactly as the real call and changes
// nothing), and each kind's own checks across the plan run beside (what a dry run of one change cannot see:
// two connections of the plan on one port, a catalogue the order must match). A refusal is a located error
// before anything changes; what could not be checked (a value known only after apply, a service that did not
// answer) is listed in the plan, never passed over in silence. Only what the plan changes is checked, so a
// plan with no change asks nothing more.

import { ApiError } from "../api/index.js";
import { placeDiagnostic, resourceAt, type ConfigResource, type FieldPath } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { isKind, KIND_DEFINITIONS, type Body, type KindHandler } from "../kinds/index.js";
import type { Refreshed } from "../plan/diff.js";
import { lookupFrom, resolveSpec } from "../plan/resolve.js";
import type { Plan, ResourceChange, UncheckedChange } from "../plan/types.js";
import { isUnknownValue, leaves } from "../plan/values.js";
import type { StateFile } from "../state/index.js";
import type { Run } from "./run.js";

export interface ServiceChecks {
  diagnostics: Diagnostic[];
  unchecked: UncheckedChange[];
}

/** A change the service refuses only while an object this plan deletes holds what it takes. */
interface Blocked {
  address: string;
  by: string;
}

/** A change the plan makes to a declared resource, as the checks see it. */
interface Checked {
  change: ResourceChange;
  resource: ConfigResource;
  kind: KindHandler;
}

/** A service's refusal (a 4xx), as opposed to a check it could not make (a 5xx, a broken connection). */
const isRefusal = (e: unknown): e is ApiError => e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 429;

/**
 * A property the service names in a refusal ("/aSide/accessPoint/linkProtocol/vlanTag", "aSide.accessPoint.port.uuid",
 * "inboundRules[0].subnet") as a field path of the spec.
 */
export function fieldPathOf(property: string | undefined): FieldPath {
  if (!property) return [];
  return property
    .split(/[/.[\]]/)
    .filter((s) => s !== "")
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The located error for a change the service refuses, in the service's own words. */
export function refusal(resource: Pick<ConfigResource, "address" | "positions">, error: ApiError, what: string): Diagnostic {
  const problem = error.problems[0];
  const reason = problem?.reason ?? problem?.message ?? `HTTP ${error.status}`;
  return placeDiagnostic(
    { address: resource.address, positions: resource.positions },
    {
      path: fieldPathOf(problem?.property),
      code: "plan.service-refuses",
      message: `the service refuses this ${what}${problem ? ` (${problem.code})` : ""}: ${reason}`,
      hint: "nothing was changed; correct the field and plan again",
    },
  );
}

/** Why the service could not answer a check, in words. */
const unanswered = (e: unknown): string => `the service did not answer the check (${e instanceof ApiError ? `HTTP ${e.status}` : e instanceof Error ? e.message : String(e)})`;

/** The plan's changes to declared resources, each with its resolved spec, known values only. */
function checkedChanges(run: Run, plan: Plan): Checked[] {
  const out: Checked[] = [];
  for (const change of plan.changes) {
    if (change.action !== "create" && change.action !== "replace" && change.action !== "update") continue;
    const resource = resourceAt(run.config, change.address);
    const kind = run.session.kinds.get(change.kind);
    if (resource && kind) out.push({ change, resource, kind });
  }
  return out;
}

/**
 * The spec with what the refresh and the state know, and the paths still unknown: what this plan creates or
 * replaces has no attributes yet.
 */
function resolvedFor(plan: Plan, state: StateFile, refreshed: ReadonlyMap<string, Refreshed>): (resource: ConfigResource) => { spec: Body; unknown: string[] } {
  const fresh = new Set(plan.changes.filter((c) => c.action === "create" || c.action === "replace").map((c) => c.address));
  const known = lookupFrom(state, refreshed);
  return (resource) => {
    const { spec } = resolveSpec(resource.spec, (address, attribute) => (fresh.has(address) ? undefined : known(address, attribute)));
    return { spec, unknown: [...leaves(spec)].filter(([, v]) => isUnknownValue(v)).map(([p]) => p) };
  };
}

/**
 * The objects this plan removes before it makes what replaces them, by id: while they exist the service
 * refuses what takes their place (a VLAN, a name), and a dry run cannot know the plan deletes them first.
 */
function removedFirst(plan: Plan): Map<string, string> {
  const removed = new Map<string, string>();
  for (const c of plan.changes) {
    // An earlier run's delete still running counts as one: apply waits for it before it creates anew.
    const deletedFirst = c.action === "delete" || (c.action === "replace" && !c.createBeforeDestroy) || c.awaiting === "delete";
    if (c.id && deletedFirst) removed.set(c.id.toLowerCase(), c.address);
  }
  return removed;
}

/** The object of `removed` a refusal names (by its id, anywhere in the service's answer), if any. */
function blockingRemoved(error: ApiError, removed: ReadonlyMap<string, string>): string | undefined {
  const text = JSON.stringify(error.body ?? "").toLowerCase();
  for (const [id, address] of removed) if (text.includes(id)) return address;
  return undefined;
}

/** The dry run of one change, where the kind's operation takes one: a refusal, an unchecked reason, or nothing. */
async function dryRun(run: Run, item: Checked, state: StateFile, resolved: { spec: Body; unknown: string[] }, removed: ReadonlyMap<string, string>): Promise<Diagnostic | UncheckedChange | Blocked | undefined> {
  const { change, resource, kind } = item;
  const { ctx } = run.session;
  const creating = change.action !== "update";
  const { create, update } = kind.dryRun ?? {};
  const send = creating
    ? create && (() => create(ctx, resolved.spec))
    : update && (() => update(ctx, { id: change.id!, ...parentOf(state, change) }, resolved.spec, change.changes.map((c) => c.path)));
  if (!send) return undefined;
  if (resolved.unknown.length > 0) return { address: change.address, why: `the service's dry run needs ${resolved.unknown.join(", ")}, known only after apply` };
  try {
    await send();
    return undefined;
  } catch (e) {
    if (!isRefusal(e)) return { address: change.address, why: unanswered(e) };
    const blocking = blockingRemoved(e, removed);
    return blocking ? { address: change.address, by: blocking } : refusal(resource, e, creating ? kind.noun : `change to the ${kind.noun}`);
  }
}

/** The parent a nested object lives under, as the state records it. */
function parentOf(state: StateFile, change: ResourceChange): { parent?: string } {
  const parent = state.resources[change.address]?.parent;
  return parent ? { parent } : {};
}

/** Every check of the plan's changes against the service, at once: the dry runs and each kind's checks across the plan. */
export async function checkWithService(run: Run, plan: Plan, state: StateFile, refreshed: ReadonlyMap<string, Refreshed>): Promise<ServiceChecks> {
  const items = checkedChanges(run, plan);
  const resolve = resolvedFor(plan, state, refreshed);
  const removed = removedFirst(plan);
  const dryRuns = items.map((item) => dryRun(run, item, state, resolve(item.resource), removed));
  const creates = new Map<string, ConfigResource[]>();
  for (const { change, resource } of items) if (change.action !== "update") creates.set(resource.kind, [...(creates.get(resource.kind) ?? []), resource]);
  const kindChecks = [...creates].map(([kind, own]) => (isKind(kind) ? KIND_DEFINITIONS.get(kind)?.preflight?.(run.session.ctx, own, run.config, (r) => resolve(r).spec) : undefined));
  const [ran, checked] = await Promise.all([Promise.all(dryRuns), Promise.all(kindChecks)]);
  const diagnostics = checked.flatMap((found) => found ?? []);
  const unchecked: UncheckedChange[] = [];
  for (const outcome of ran) {
    if (outcome === undefined) continue;
    if ("why" in outcome) unchecked.push(outcome);
    else if ("by" in outcome) unchecked.push(waitForRemoval(plan, outcome));
    else diagnostics.push(outcome);
  }
  return { diagnostics, unchecked };
}

/**
 * Orders a change the service refuses only while an object this plan deletes exists after that delete (a
 * replaced object's own new self waits for its delete already), and says that it was checked only so far.
 */
function waitForRemoval(plan: Plan, blocked: Blocked): UncheckedChange {
  const change = plan.changes.find((c) => c.address === blocked.address)!;
  if (blocked.by === blocked.address) return { address: blocked.address, why: "checked with the object it replaces still in place, which apply deletes (or waits to see deleted) first" };
  change.afterDeleting = [...new Set([...(change.afterDeleting ?? []), blocked.by])];
  return { address: blocked.address, why: `checked with ${blocked.by} still in place, which holds what it takes: apply deletes ${blocked.by} first` };
}

/** What a plan made from the state alone leaves unchecked: every change it would make. */
export function uncheckedWithoutRefresh(plan: Plan): UncheckedChange[] {
  return plan.changes
    .filter((c) => c.action === "create" || c.action === "replace" || c.action === "update")
    .map((c) => ({ address: c.address, why: "--refresh=false: the plan asked the service nothing" }));
}
