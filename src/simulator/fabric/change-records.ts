// The lifecycle the Fabric's routing-policy objects share (route filters, route aggregations and their
// rules): every create, update and delete is a change that moves the object through a transient state to
// a final one on the clock, and is kept as a change record (`GET .../changes[/{changeId}]`) that the
// object's `change` field references. The official state lists of all four are the same.

import { iso } from "../core/clock.js";
import { fail } from "../core/errors.js";
import type { Actor } from "../core/http.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";

export type PolicyState = "PROVISIONING" | "REPROVISIONING" | "DEPROVISIONING" | "PROVISIONED" | "DEPROVISIONED" | "NOT_PROVISIONED" | "NOT_DEPROVISIONED";
export type ChangeKind = "CREATION" | "UPDATE" | "DELETION";
type ChangeStatus = "REQUESTED" | "COMPLETED" | "FAILED";

/** The operation a change record shows, with the object's base fields after the change as its value. */
export interface ChangeOperation {
  op: "add" | "replace" | "remove";
  path: string;
}

export const stateOf = (world: World, obj: SimObject): PolicyState => world.view(obj).state as PolicyState;

/**
 * The states a change moves through: at once to `transient`, on the clock to `done`, or to `failed` when a
 * transition fault is injected (the official state list's NOT_ states).
 */
function statesOf(kind: ChangeKind): { transient: PolicyState; done: PolicyState; failed: PolicyState } {
  switch (kind) {
    case "CREATION":
      return { transient: "PROVISIONING", done: "PROVISIONED", failed: "NOT_PROVISIONED" };
    case "UPDATE":
      return { transient: "REPROVISIONING", done: "PROVISIONED", failed: "NOT_PROVISIONED" };
    case "DELETION":
      return { transient: "DEPROVISIONING", done: "DEPROVISIONED", failed: "NOT_DEPROVISIONED" };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** What a change record keeps besides its rendered fields: when it completes and whether it fails. */
interface StoredChange extends JsonObject {
  uuid: string;
  type: string;
  completesAt: number;
  failed: boolean;
}

const storedChanges = (obj: SimObject): StoredChange[] => (obj.meta.changes ?? []) as StoredChange[];

const changeHref = (obj: SimObject, changeUuid: string) => `${String(obj.body.href)}/changes/${changeUuid}`;

/**
 * Starts a change of `obj` (its body has `href` and `type`; the change's type is `{type}_{kind}`) and keeps
 * its record. `base` gives the object's request fields, which the record shows as the value after the
 * change. Returns the object as the service answers the accepted request: in its transient state, even
 * when the fast clock of a test has already moved past it.
 */
export function startChange(
  world: World,
  obj: SimObject,
  actor: Actor,
  kind: ChangeKind,
  operation: ChangeOperation,
  set: Record<string, Json>,
  durationMs: number,
  base: (view: JsonObject) => JsonObject,
): JsonObject {
  const changeUuid = world.uuid();
  const type = `${String(obj.body.type)}_${kind}`;
  const { transient, done, failed } = statesOf(kind);
  world.transition(
    obj,
    { ...set, "/state": transient, "/change": { uuid: changeUuid, type, href: changeHref(obj, changeUuid) } },
    [{ afterMs: durationMs, set: { "/state": done } }],
    { "/state": failed },
  );
  const last = obj.phases[obj.phases.length - 1];
  const change: StoredChange = {
    uuid: changeUuid,
    type,
    completesAt: last?.at ?? world.now(),
    failed: last?.set["/state"] === failed,
    createdBy: actor.userName,
    createdByFullName: actor.fullName,
    createdByEmail: actor.email,
    createdDateTime: world.nowIso(),
    data: { ...operation, value: base(world.view(obj)) },
  };
  world.setMeta(obj, "changes", [...storedChanges(obj), change]);
  return { ...world.view(obj), state: transient };
}

function renderChange(world: World, obj: SimObject, change: StoredChange): JsonObject {
  const { completesAt, failed, ...fields } = change;
  const finished = completesAt <= world.now();
  const status: ChangeStatus = !finished ? "REQUESTED" : failed ? "FAILED" : "COMPLETED";
  return {
    href: changeHref(obj, change.uuid),
    ...fields,
    status,
    ...(finished ? { updatedBy: "_system", updatedDateTime: iso(completesAt) } : {}),
  };
}

/** Every change of the object, oldest first, as `GET .../changes` lists them. */
export const changesOf = (world: World, obj: SimObject): JsonObject[] => storedChanges(obj).map((ch) => renderChange(world, obj, ch));

/** One change of the object, or the 404 of `GET .../changes/{changeId}`. */
export function changeOf(world: World, obj: SimObject, changeId: string, noun: string): JsonObject {
  const change = storedChanges(obj).find((ch) => ch.uuid === changeId);
  if (!change) return fail("notFound", "changeId", `${noun} ${obj.uuid} has no change ${changeId}`);
  return renderChange(world, obj, change);
}
