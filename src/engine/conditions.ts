// Checking resources' conditions (config/conditions.ts) against what is known: at plan, preconditions on
// the planned values and postconditions on the objects left as they are; at apply, each precondition
// again just before its object's step (references known only by then included), and each postcondition
// on what the service returned after it.

import { evaluateCondition, isPlainObject, pathSegments, readPath, resourceAt, Sensitive, UNKNOWN, type Condition, type ConfigResource, type Configuration, type ConditionKind } from "../config/index.js";
import { NetformError, type Diagnostic } from "../diag/index.js";
import { isUnknownValue } from "../plan/values.js";
import { lookupFrom, resolveSpec, type AttributeLookup } from "../plan/resolve.js";
import type { Refreshed } from "../plan/diff.js";
import type { Plan } from "../plan/types.js";
import type { Body } from "../kinds/index.js";
import type { StateFile, StateStore } from "../state/index.js";

/** A field's value of one resource, UNKNOWN until it is known; undefined when the object has no such field. */
export type FieldValue = (address: string, path: readonly string[]) => unknown;

export type ConditionFailure = { condition: Condition; kind: ConditionKind; why: "false" | "unknown" | "error"; error?: string };

/** The conditions of one kind that do not hold (or, `unknownFails`, cannot be known) with these values. */
export function failedConditions(config: Configuration, resource: ConfigResource, kind: ConditionKind, self: FieldValue, others: FieldValue, unknownFails: boolean): ConditionFailure[] {
  const failures: ConditionFailure[] = [];
  for (const condition of resource[kind] ?? []) {
    const result = evaluateCondition(condition.expression, ([head, ...rest]) => {
      if (head === "self") return self(resource.address, rest);
      if (head === "var") return variable(config, rest[0]!);
      return others(`${head}.${rest[0]}`, rest.slice(1));
    });
    if ("error" in result) failures.push({ condition, kind, why: "error", error: result.error });
    else if ("unknown" in result) {
      if (unknownFails) failures.push({ condition, kind, why: "unknown" });
    } else if (!result.value) failures.push({ condition, kind, why: "false" });
  }
  return failures;
}

function variable(config: Configuration, name: string): unknown {
  const value = config.variables.get(name)?.value?.value;
  if (value instanceof Sensitive) return value.reveal();
  // A variable without a value (validate's reading) is not known.
  return value === undefined || !isPlainData(value) ? UNKNOWN : value;
}

const isPlainData = (v: unknown): boolean => v === null || ["string", "number", "boolean"].includes(typeof v) || Array.isArray(v) || isPlainObject(v);

/**
 * A resource's value as configured (its references resolved by `lookup`), else as `observed` reports it:
 * what a condition reads of an object the plan or the apply is about to make or change.
 */
export function configuredOrObserved(config: Configuration, lookup: AttributeLookup, observed: (address: string) => Body | undefined): FieldValue {
  return (address, path) => {
    const resource = resourceAt(config, address);
    if (resource) {
      const configured = readPath(resolveSpec(resource.spec, lookup).spec, path);
      if (configured !== undefined) return isUnknownValue(configured) ? UNKNOWN : configured;
    }
    const body = observed(address);
    return body === undefined ? UNKNOWN : (readPath(body, path) ?? null);
  };
}

/** A value as the service returned it: what a postcondition reads of its own object. */
export const observedValue =
  (observed: (address: string) => Body | undefined): FieldValue =>
  (address, path) => {
    const body = observed(address);
    return body === undefined ? UNKNOWN : (readPath(body, path) ?? null);
  };

/** A failure at plan: an error at the condition, with the user's message. */
export function conditionDiagnostic(resource: ConfigResource, failure: ConditionFailure, context: string): Diagnostic {
  const { condition } = failure;
  return {
    severity: "error",
    code: failure.kind === "preconditions" ? "condition.precondition" : "condition.postcondition",
    address: resource.address,
    path: condition.path,
    ...(condition.position ? { file: condition.position.file, line: condition.position.line, column: condition.position.column } : { file: resource.file, line: resource.position.line, column: resource.position.column }),
    message: `${failure.kind === "preconditions" ? "precondition" : "postcondition"} failed${context}: ${condition.message}`,
    hint: failure.why === "error" ? `the condition ${condition.source} cannot be evaluated: ${failure.error}` : `the condition ${condition.source} is false`,
  };
}

/** A failure at apply: the step's error, naming the object, the condition and the user's message. */
export function conditionError(resource: ConfigResource, failure: ConditionFailure): NetformError {
  const { condition } = failure;
  const what = failure.kind === "preconditions" ? "precondition" : "postcondition";
  const where = condition.position ? ` (${condition.position.file}:${condition.position.line}:${condition.position.column})` : "";
  const why = failure.why === "unknown" ? "could not be checked: a value it reads is still unknown" : failure.why === "error" ? `cannot be evaluated: ${failure.error}` : "is false";
  return new NetformError({
    code: `condition.${what}`,
    message: `${what} failed: ${condition.message} (the condition ${condition.source} ${why}${where})`,
    hint:
      failure.kind === "postconditions"
        ? "the object exists and is recorded in the state as the service returned it; fix the configuration (or the object), then plan and apply again"
        : "nothing was sent for this object; fix the configuration, then plan and apply again",
  });
}

/** Preconditions of what the plan makes, changes or keeps, and postconditions of what it leaves as it is: errors at each condition. */
export function planConditions(config: Configuration, plan: Plan, state: StateFile, refreshed: ReadonlyMap<string, Refreshed>): Diagnostic[] {
  const changes = new Map(plan.changes.map((c) => [c.address, c]));
  // What is created or replaced has new attributes, not known until apply.
  const made = (address: string) => ["create", "replace"].includes(changes.get(address)?.action ?? "create");
  const observed = (address: string): Body | undefined => {
    if (made(address)) return undefined;
    const fresh = refreshed.get(address);
    return fresh?.status === "present" ? fresh.body : state.resources[address]?.attributes;
  };
  const known = lookupFrom(state, refreshed);
  const values = configuredOrObserved(config, (address, attribute) => (made(address) ? undefined : known(address, attribute)), observed);
  const diagnostics: Diagnostic[] = [];
  for (const change of plan.changes) {
    const resource = resourceAt(config, change.address);
    if (!resource || change.action === "delete") continue;
    for (const f of failedConditions(config, resource, "preconditions", values, values, false)) diagnostics.push(conditionDiagnostic(resource, f, ""));
    if (change.action !== "no-op") continue;
    for (const f of failedConditions(config, resource, "postconditions", observedValue(observed), values, false)) diagnostics.push(conditionDiagnostic(resource, f, " on the object as the service reports it"));
  }
  return diagnostics;
}

/** The values an apply step's conditions read: the state as the steps before it left it. */
export function appliedValues(config: Configuration, store: StateStore): { configured: FieldValue; observed: FieldValue } {
  const observed = (address: string): Body | undefined => store.resource(address)?.attributes;
  const lookup: AttributeLookup = (address, attribute) => {
    const value = store.attribute(address, pathSegments(attribute));
    return value === undefined ? undefined : { value };
  };
  return { configured: configuredOrObserved(config, lookup, observed), observed: observedValue(observed) };
}
