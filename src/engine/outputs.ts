// Outputs: computed from the configuration and what the state records, planned (what apply will record,
// with values not known until apply said as such), recorded after apply, and read back by
// `netform output`. A sensitive output's value is never written anywhere: the plan carries only that it
// changes, the state only its keyed hash, and `output NAME` computes it again from the configuration and
// the environment, and checks it against that hash before printing it.

import { readPath, type ConfigOutput, type Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import type { Refreshed } from "../plan/diff.js";
import { lookupFrom, resolveSpec, type AttributeLookup } from "../plan/resolve.js";
import type { OutputChange, Plan } from "../plan/types.js";
import { isUnknownValue, sameValue } from "../plan/values.js";
import type { OutputState, StateFile } from "../state/index.js";
import { readConfiguration } from "./configuration.js";
import type { Recorder } from "./records.js";
import { secretHasher } from "./secrets.js";
import { backendSettings } from "./state-access.js";
import { readState, type StateTarget } from "./state-commands.js";
import { selectedWorkspace, type SelectedWorkspace } from "./workspaces.js";

/** An output's value from what `lookup` knows; undefined when it is not known (yet). */
function valueOf(output: ConfigOutput, lookup: AttributeLookup): unknown {
  const { spec } = resolveSpec({ value: output.value }, lookup);
  return isUnknownValue(spec.value) ? undefined : spec.value;
}

/**
 * Attributes as `lookup` knows them, and an attribute an existing object does not have as null: an output
 * of a field the service leaves out is empty, not unknown forever.
 */
function existing(lookup: AttributeLookup, state: StateFile): AttributeLookup {
  return (address, attribute) => lookup(address, attribute) ?? (state.resources[address]?.id !== undefined || state.lookups?.[address] ? { value: null } : undefined);
}

const recordOf = (output: ConfigOutput, value: unknown, hash: (v: unknown) => string): OutputState => (output.sensitive ? { sensitive: true, hash: hash(value) } : { value, sensitive: false });

/** Whether `attribute` is `path` or lies inside it: a field below it, or an item of the list it is. */
const within = (attribute: string, path: string): boolean => attribute === path || attribute.startsWith(`${path}.`) || attribute.startsWith(`${path}[`);

/**
 * What apply will record for each output. An attribute of an object the plan creates, replaces or
 * imports is not known until apply; one an update changes takes its planned value when that is known.
 */
export function planOutputs(plan: Plan, config: Configuration, state: StateFile, refreshed: ReadonlyMap<string, Refreshed>, hash: { matches(recorded: string | undefined, value: unknown): boolean }): OutputChange[] | undefined {
  if (config.outputs.size === 0 && Object.keys(state.outputs).length === 0) return undefined;
  const changes = new Map(plan.changes.map((c) => [c.address, c]));
  const known = existing(lookupFrom(state, refreshed), state);
  const lookup: AttributeLookup = (address, attribute) => {
    const change = changes.get(address);
    if (plan.mode === "destroy" || change?.action === "create" || change?.action === "replace" || change?.action === "import" || change?.action === "delete" || change?.action === "forget") return undefined;
    if (change?.action === "update" && change.changes.some((fc) => within(attribute, fc.path) || within(fc.path, attribute))) {
      const planned = change.unknown.some((u) => within(attribute, u) || within(u, attribute)) ? undefined : readPath(change.after ?? {}, attribute);
      return planned === undefined || isUnknownValue(planned) ? undefined : { value: planned };
    }
    return known(address, attribute);
  };
  const out: OutputChange[] = [];
  for (const output of config.outputs.values()) {
    const before = state.outputs[output.name];
    const value = valueOf(output, lookup);
    // A destroy leaves nothing for an output to show but its literals.
    const unknown = value === undefined && plan.mode !== "destroy";
    const gone = value === undefined && plan.mode === "destroy";
    const same = before !== undefined && value !== undefined && before.sensitive === output.sensitive && (before.sensitive ? hash.matches(before.hash, value) : sameValue(before.value, value));
    const action = gone ? (before ? "delete" : "no-op") : same ? "no-op" : before ? "update" : "create";
    out.push({
      name: output.name,
      action,
      ...(before && !before.sensitive && !output.sensitive ? { before: before.value } : {}),
      ...(!unknown && !gone && !output.sensitive ? { after: value } : {}),
      afterUnknown: unknown,
      sensitive: output.sensitive || before?.sensitive === true,
    });
  }
  for (const [name, before] of Object.entries(state.outputs)) {
    if (!config.outputs.has(name)) out.push({ name, action: "delete", ...(before.sensitive ? {} : { before: before.value }), afterUnknown: false, sensitive: before.sensitive });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** After apply: every output whose value is known, computed from the state as apply left it. */
export async function recordOutputs(config: Configuration, state: Readonly<StateFile>, records: Recorder, hash: (v: unknown) => string): Promise<void> {
  const lookup = existing(lookupFrom(state), state);
  const values: Record<string, OutputState> = {};
  for (const output of config.outputs.values()) {
    // A copy: the value may be a part of a recorded object (`state` is the store's own, not a copy).
    const value = structuredClone(valueOf(output, lookup));
    if (value !== undefined) values[output.name] = recordOf(output, value, hash);
  }
  if (!sameValue(state.outputs, values)) await records.outputs(values);
}

export interface OutputView {
  name: string;
  sensitive: boolean;
  /** Absent for a sensitive output, unless it was asked for by name. */
  value?: unknown;
  description?: string;
}

const NO_STATE_HINT = "run apply first: outputs are recorded by apply";

/**
 * The outputs the state records, by name (`only`: that one), as `netform output` shows them. With
 * `reveal`, sensitive values too: each is computed again from the configuration and the environment, and
 * given only when it is the value the last apply recorded.
 */
export async function readOutputs(target: StateTarget, options: { only?: string; reveal: boolean }): Promise<OutputView[]> {
  const state = await readState(target, NO_STATE_HINT);
  const names = Object.keys(state.outputs).sort();
  if (options.only !== undefined && !state.outputs[options.only]) {
    throw new NetformError({ code: "output.unknown", message: `the state has no output ${options.only}`, hint: names.length > 0 ? `the outputs are: ${names.join(", ")}` : "the state records no output: declare outputs: in the configuration, and apply" });
  }
  const workspace = selectedWorkspace(target.configPath, target.workspace, target.env);
  const { config } = readConfiguration(target.configPath, { env: target.env, missing: "unknown", workspace: workspace.name, ...(target.inputs ? { vars: target.inputs.vars, varFiles: target.inputs.varFiles } : {}) });
  return (options.only !== undefined ? [options.only] : names).map((name) => {
    const recorded = state.outputs[name]!;
    const description = config.outputs.get(name)?.description;
    const value = recorded.sensitive ? (options.reveal ? revealed(target, workspace, config, state, name, recorded.hash) : undefined) : recorded.value;
    return { name, sensitive: recorded.sensitive, ...(value !== undefined ? { value } : {}), ...(description ? { description } : {}) };
  });
}

function revealed(target: StateTarget, workspace: SelectedWorkspace, config: Configuration, state: StateFile, name: string, hash: string): unknown {
  const output = config.outputs.get(name);
  const value = output ? valueOf(output, existing(lookupFrom(state), state)) : undefined;
  const settings = backendSettings(config, target.statePath, workspace);
  // A shared backend's hashes are keyed with NETFORM_STATE_KEY alone; a local state's key file sits beside it.
  const hasher = secretHasher({ ...(settings.type === "local" ? { statePath: settings.path } : {}), lineage: state.lineage, env: target.env });
  if (value === undefined || !hasher.matches(hash, value)) {
    throw new NetformError({
      code: "output.sensitive-unavailable",
      message: `output ${name} is sensitive: the state keeps only a hash of it, and the configuration and environment here do not give the value the last apply recorded`,
      hint: "run netform output in the environment of the apply (the same secrets and variables, -c naming the same configuration), or apply again",
    });
  }
  return value;
}
