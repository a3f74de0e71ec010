// Turns a configuration spec into plain data: references take the referenced resource's attribute
// (or the unknown mark when that resource does not exist yet or is being replaced), templates are
// rendered, secrets are revealed (they are masked again by path when shown or stored), and meta
// keys are dropped. A reference's path below the attribute the kind lists is known to exist only once
// the object is read: `absentReferences` says where one does not.

import { absentPath, Invalid, isLookupAddress, isPlainObject, mapValues, placeDiagnostic, readPath, Reference, Sensitive, Template, Unresolved, type ConfigResource } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import type { StateFile } from "../state/index.js";
import type { Refreshed } from "./diff.js";
import { UNKNOWN_MARK } from "./values.js";

/** An attribute of another resource: its value, or undefined when it is not known yet. */
export type AttributeLookup = (address: string, attribute: string) => { value: unknown } | undefined;

/** An object as known: what the refresh just read when given, else what the state recorded (for a lookup, its value at the last apply). */
export type ObjectLookup = (address: string) => Record<string, unknown> | undefined;

export function objectsFrom(state: Pick<StateFile, "resources" | "lookups">, refreshed?: ReadonlyMap<string, Refreshed>): ObjectLookup {
  return (address) => {
    const fresh = refreshed?.get(address);
    return fresh?.status === "present" ? fresh.body : (state.resources[address]?.attributes ?? state.lookups?.[address]?.attributes);
  };
}

/**
 * References resolved against what is known of each object (objectsFrom). An attribute is a path as
 * formatPath writes it ("aSide.accessPoint.port.uuid", "interfaces[2].id").
 */
export function lookupFrom(state: Pick<StateFile, "resources" | "lookups">, refreshed?: ReadonlyMap<string, Refreshed>): AttributeLookup {
  const objectOf = objectsFrom(state, refreshed);
  return (address, attribute) => {
    const body = objectOf(address);
    const value = body === undefined ? undefined : readPath(body, attribute);
    return value === undefined ? undefined : { value };
  };
}

/**
 * An error at each reference of `resource` whose path the object it names does not have, where that object
 * is known (`objectOf`; undefined for one not made yet): said at plan time, with what the object has there,
 * rather than left unknown until an apply that could never resolve it.
 */
export function absentReferences(resource: ConfigResource, objectOf: ObjectLookup): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ref of resource.references) {
    // A lookup's object is checked whole when it is bound (engine/lookups.ts); the state keeps only a part of it.
    if (isLookupAddress(ref.address)) continue;
    const body = objectOf(ref.address);
    const absent = body === undefined ? undefined : absentPath(body, ref.attribute);
    if (!absent) continue;
    out.push(
      placeDiagnostic(resource, {
        path: ref.path,
        code: "reference.path",
        message: `${ref.expression}: ${ref.address} has no ${ref.attribute}: ${absent.reason}`,
        hint: `${absent.closest ? `did you mean ${absent.closest}? ` : ""}reference a path the object has, as the service returns it (netform state show ${ref.address} shows it)`,
      }),
    );
  }
  return out;
}

export interface Resolved {
  spec: Record<string, unknown>;
  /** Addresses whose unknown attributes the spec uses. */
  waitingFor: Set<string>;
}

export function resolveSpec(spec: Record<string, unknown>, lookup: AttributeLookup): Resolved {
  const waitingFor = new Set<string>();
  const valueOf = (ref: Reference): unknown => {
    const found = lookup(ref.address, ref.attribute);
    if (!found || found.value === undefined) {
      waitingFor.add(ref.address);
      return UNKNOWN_MARK;
    }
    return found.value instanceof Sensitive ? found.value.reveal() : found.value;
  };
  const walk = (v: unknown): unknown => {
    if (v instanceof Sensitive) return walk(v.reveal());
    if (v instanceof Reference) return valueOf(v);
    if (v instanceof Template) {
      let unknown = false;
      const text = v.render((ref) => {
        const value = valueOf(ref);
        if (value === UNKNOWN_MARK) unknown = true;
        return value;
      });
      return unknown ? UNKNOWN_MARK : text;
    }
    if (v instanceof Unresolved || v instanceof Invalid) {
      // The loader refuses these before a plan is made; reaching one is a defect.
      throw new Error(`unresolved value ${String(v)} reached the planner`);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return mapValues(v, walk);
    return v;
  };
  return { spec: walk(spec) as Record<string, unknown>, waitingFor };
}
