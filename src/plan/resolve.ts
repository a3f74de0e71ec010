// Turns a configuration spec into plain data: references take the referenced resource's attribute
// (or the unknown mark when that resource does not exist yet or is being replaced), templates are
// rendered, secrets are revealed (they are masked again by path when shown or stored), and meta
// keys are dropped.

import { Invalid, Reference, Sensitive, Template, Unresolved } from "../config/index.js";
import { UNKNOWN_MARK, isPlainObject } from "./values.js";

/** An attribute of another resource: its value, or undefined when it is not known yet. */
export type AttributeLookup = (address: string, attribute: string) => { value: unknown } | undefined;

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
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { spec: walk(spec) as Record<string, unknown>, waitingFor };
}
