// The plan in Terraform's JSON plan representation (`terraform show -json PLANFILE`, format_version 1.2),
// for `plan`, `show --format terraform-json`: policy and review tools written for Terraform (OPA and
// conftest policies, plan summarisers) read it as they read Terraform's. It is made from netform's own
// plan document (plan-json.ts), so values are masked alike; a secret, which netform never prints, is null
// in before/after and `true` at its path in before_sensitive/after_sensitive, as Terraform marks one.
//
// The mapping: each netform kind is a resource type of the provider "netform" (`connections.dc` is type
// connections, name dc; an instance of a forEach has its key as index); a replace is ["delete","create"]
// (["create","delete"] when the new object is made first); an import is Terraform's `importing`; a
// `removed:` block that keeps the object is "forget"; each lookup is a data resource that is read.

import type { Plan } from "../plan/types.js";
import { planDocument, type ResourceChangeDocument } from "./plan-json.js";
import { segments, SENSITIVE_TEXT, type JsonValue } from "./values.js";

export const TERRAFORM_PLAN_FORMAT_VERSION = "1.2";
/** The provider's address in the document, as Terraform writes hostname/namespace/type. */
export const PROVIDER_NAME = "netform.dev/netform/netform";

type Json = JsonValue;
type JsonObject = { [key: string]: Json };

/** `kind.name` or `kind.name["key"]`: type, name and index. */
export function splitAddress(address: string): { type: string; name: string; index?: string } {
  const m = /^([^.]+)\.([^[]+)(?:\["((?:[^"\\]|\\.)*)"\])?$/.exec(address);
  if (!m) return { type: address, name: address };
  return { type: m[1]!, name: m[2]!, ...(m[3] !== undefined ? { index: JSON.parse(`"${m[3]}"`) as string } : {}) };
}

/**
 * A masked value with its secrets taken out: each "(sensitive)" becomes null, and the marks say where, as
 * Terraform's *_sensitive values do (true at a secret, objects and lists around it, nothing elsewhere).
 */
function unmask(value: Json): { value: Json; marks: Json | undefined } {
  if (value === SENSITIVE_TEXT) return { value: null, marks: true };
  if (Array.isArray(value)) {
    const items = value.map(unmask);
    return { value: items.map((i) => i.value), marks: items.some((i) => i.marks !== undefined) ? items.map((i) => i.marks ?? false) : undefined };
  }
  if (value !== null && typeof value === "object") {
    const out: JsonObject = {};
    const marks: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const u = unmask(v);
      out[k] = u.value;
      if (u.marks !== undefined) marks[k] = u.marks;
    }
    return { value: out, marks: Object.keys(marks).length > 0 ? marks : undefined };
  }
  return { value, marks: undefined };
}

const segmentOf = (s: string): string | number => (/^\d+$/.test(s) ? Number(s) : s);

/** Dotted paths as Terraform's nested marks: `{"a": {"b": true}}`, lists as arrays with false elsewhere. */
function marksAt(paths: readonly string[]): JsonObject {
  const root: JsonObject = {};
  for (const path of paths) {
    const segs = segments(path).map(segmentOf);
    let node: JsonObject | Json[] = root;
    segs.forEach((seg, i) => {
      const last = i === segs.length - 1;
      const next = segs[i + 1];
      const container = node as Record<string | number, Json>;
      if (last) container[seg] = true;
      else {
        const existing = container[seg];
        if (existing === undefined || existing === true || existing === false || existing === null || typeof existing !== "object") container[seg] = typeof next === "number" ? [] : {};
        node = container[seg] as JsonObject | Json[];
      }
    });
  }
  const fill = (v: Json): Json => (Array.isArray(v) ? Array.from(v, (x) => (x === undefined ? false : fill(x))) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)])) : v);
  return fill(root) as JsonObject;
}

const ACTION_REASONS: Partial<Record<ResourceChangeDocument["reasonCode"], string>> = {
  "force-new-field": "replace_because_cannot_update",
  "replace-requested": "replace_by_request",
  "failed-state": "replace_because_tainted",
  "cascade-replace": "replace_by_triggers",
  "no-longer-configured": "delete_because_no_resource_config",
  "removed-destroyed": "delete_because_no_resource_config",
};

/** Terraform's actions: an import is a no-op or an update that is `importing`. */
function terraformActions(doc: ResourceChangeDocument): string[] {
  if (doc.actions[0] === "import") return doc.actions.length > 1 ? ["update"] : ["no-op"];
  return [...doc.actions];
}

type TerraformChange = {
  address: string;
  previous_address?: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  index?: string;
  provider_name: string;
  action_reason?: string;
  change: {
    actions: string[];
    before: Json;
    after: Json;
    after_unknown: Json;
    before_sensitive: Json;
    after_sensitive: Json;
    replace_paths?: (string | number)[][];
    importing?: { id: string };
  };
};

/**
 * One side of an object that exists before and after (an update, a no-op) when the plan carries only its
 * field changes: the fields that change, as Terraform needs an object there, never null.
 */
function fromChanges(doc: ResourceChangeDocument, side: "before" | "after"): JsonObject {
  const object: JsonObject = {};
  for (const c of doc.changes) {
    if (side === "after" && c.unknown) continue;
    const segs = segments(c.path);
    let node = object;
    segs.forEach((seg, i) => {
      if (i === segs.length - 1) node[seg] = c[side];
      else {
        const next = node[seg];
        node = (next !== null && typeof next === "object" && !Array.isArray(next) ? next : (node[seg] = {})) as JsonObject;
      }
    });
  }
  return object;
}

function resourceChange(doc: ResourceChangeDocument): TerraformChange {
  const actions = terraformActions(doc);
  const existsBefore = !(actions.length === 1 && actions[0] === "create");
  const existsAfter = !(actions.length === 1 && (actions[0] === "delete" || actions[0] === "forget"));
  const beforeValue = doc.before ?? (existsBefore && doc.changes.length > 0 ? fromChanges(doc, "before") : null);
  const afterValue = doc.after ?? (existsAfter && doc.changes.length > 0 ? fromChanges(doc, "after") : null);
  const before = beforeValue === null ? { value: null, marks: undefined } : unmask(beforeValue);
  const after = afterValue === null ? { value: null, marks: undefined } : unmask(afterValue);
  const replacePaths = doc.changes.filter((c) => c.forcesReplacement).map((c) => segments(c.path).map(segmentOf));
  const reason = ACTION_REASONS[doc.reasonCode];
  return {
    address: doc.address,
    ...(doc.previousAddress !== undefined ? { previous_address: doc.previousAddress } : {}),
    mode: "managed",
    ...splitAddress(doc.address),
    provider_name: PROVIDER_NAME,
    ...(reason !== undefined ? { action_reason: reason } : {}),
    change: {
      actions,
      before: before.value,
      after: after.value,
      after_unknown: afterValue === null ? false : marksAt(doc.afterUnknown),
      before_sensitive: beforeValue === null ? false : (before.marks ?? {}),
      after_sensitive: afterValue === null ? false : (after.marks ?? {}),
      ...(replacePaths.length > 0 ? { replace_paths: replacePaths } : {}),
      ...(doc.importId !== undefined ? { importing: { id: doc.importId } } : {}),
    },
  };
}

const resourceValues = (c: TerraformChange, values: Json, sensitive: Json) => ({
  address: c.address,
  mode: c.mode,
  type: c.type,
  name: c.name,
  ...(c.index !== undefined ? { index: c.index } : {}),
  provider_name: PROVIDER_NAME,
  schema_version: 0,
  values,
  sensitive_values: sensitive === false ? {} : sensitive,
});

/** The document, as an object; `version` is netform's, `timestamp` when the plan was made. */
export function terraformPlanDocument(plan: Plan, meta: { version: string; timestamp: string }): Record<string, unknown> {
  const doc = planDocument(plan);
  const managed = doc.resourceChanges.map(resourceChange);
  const data: TerraformChange[] = (doc.lookups ?? []).map((l) => {
    const found = unmask(l.value);
    return {
      address: l.address,
      mode: "data",
      type: l.kind,
      name: splitAddress(l.address).name,
      provider_name: PROVIDER_NAME,
      change: { actions: ["read"], before: null, after: found.value, after_unknown: {}, before_sensitive: false, after_sensitive: found.marks ?? {} },
    };
  });
  const changes = [...managed, ...data];
  const remaining = changes.filter((c) => c.change.after !== null);
  const prior = managed.filter((c) => c.change.before !== null);
  const outputs = doc.outputChanges ?? [];
  const drifted = new Set(doc.drifted ?? []);
  const configured = new Map<string, Json>();
  for (const c of changes) {
    const key = `${c.mode === "data" ? "data." : ""}${c.type}.${c.name}`;
    if (!configured.has(key) && (c.change.after !== null || c.mode === "data")) {
      configured.set(key, { address: c.mode === "data" ? c.address : `${c.type}.${c.name}`, mode: c.mode, type: c.type, name: c.name, provider_config_key: "netform", schema_version: 0 });
    }
  }
  return {
    format_version: TERRAFORM_PLAN_FORMAT_VERSION,
    terraform_version: meta.version,
    planned_values: {
      ...(outputs.length > 0
        ? { outputs: Object.fromEntries(outputs.filter((o) => o.actions[0] !== "delete").map((o) => [o.name, { sensitive: o.sensitive, ...(o.afterUnknown || o.sensitive ? {} : { value: o.after }) }])) }
        : {}),
      root_module: { resources: remaining.map((c) => resourceValues(c, c.change.after, c.change.after_sensitive)) },
    },
    resource_drift: doc.mode === "refresh-only" ? managed.filter((c) => drifted.has(c.address)) : [],
    resource_changes: doc.mode === "refresh-only" ? [] : changes,
    ...(outputs.length > 0
      ? {
          output_changes: Object.fromEntries(
            outputs.map((o) => [o.name, { actions: [...o.actions], before: o.before, after: o.after, after_unknown: o.afterUnknown, before_sensitive: o.sensitive, after_sensitive: o.sensitive }]),
          ),
        }
      : {}),
    ...(prior.length > 0
      ? {
          prior_state: {
            format_version: "1.0",
            terraform_version: meta.version,
            values: { root_module: { resources: prior.map((c) => resourceValues(c, c.change.before, c.change.before_sensitive)) } },
          },
        }
      : {}),
    configuration: {
      provider_config: { netform: { name: "netform", full_name: PROVIDER_NAME } },
      root_module: { resources: [...configured.values()] },
    },
    relevant_attributes: [],
    timestamp: meta.timestamp,
    applyable: changes.some((c) => c.mode === "managed" && !(c.change.actions.length === 1 && c.change.actions[0] === "no-op")) || (doc.mode === "refresh-only" && drifted.size > 0),
    complete: true,
    errored: false,
  };
}

export const terraformPlanText = (plan: Plan, meta: { version: string; timestamp: string }): string => `${JSON.stringify(terraformPlanDocument(plan, meta), null, 2)}\n`;
