// Saved plans (`plan --out FILE`, `apply FILE`): the plan reviewed on a pull request is exactly what
// runs on merge, or nothing runs. The file records the state it was made from (lineage and serial, or
// that there was none), a hash of the configuration and variables, the inputs given on the command
// line, and which secret fed which field as a keyed hash — never a secret itself.

import { readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { fileProblem, NetformError } from "../diag/index.js";
import { lookupFrom, resolveSpec } from "../plan/resolve.js";
import { REASON_CODES, type Plan } from "../plan/types.js";
import { isUnknownValue, leaves } from "../plan/values.js";
import { seal, stateKeys, unseal, writeFileAtomic } from "../state/index.js";
import type { ConfigurationDigest, Run } from "./run.js";
import { DEFAULT_WORKSPACE, selectedBy } from "./workspaces.js";

export const PLAN_FILE_VERSION = 1;

const secretSchema = z.object({ address: z.string(), path: z.string(), hash: z.string() });

// The plan as the same version of netform wrote it. Loose objects: fields this reader does not name are
// kept, and only a shape that cannot be applied is refused.
const fieldChangeSchema = z.looseObject({
  path: z.string(),
  before: z.unknown(),
  after: z.unknown().optional(),
  unknown: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  forcesReplacement: z.boolean().optional(),
});

const resourceChangeSchema = z.looseObject({
  address: z.string(),
  kind: z.string(),
  action: z.enum(["create", "update", "replace", "delete", "import", "no-op"]),
  reasonCode: z.enum(REASON_CODES),
  reason: z.string().optional(),
  id: z.string().optional(),
  importId: z.string().optional(),
  before: z.record(z.string(), z.unknown()).optional(),
  after: z.record(z.string(), z.unknown()).optional(),
  changes: z.array(fieldChangeSchema),
  unknown: z.array(z.string()),
  sensitive: z.array(z.string()),
  createBeforeDestroy: z.boolean().optional(),
  dependencies: z.array(z.string()),
  awaiting: z.enum(["create", "update", "delete"]).optional(),
});

const count = z.int().nonnegative();

const planSchema = z.looseObject({
  formatVersion: z.literal(1),
  mode: z.enum(["normal", "destroy", "refresh-only"]),
  lineage: z.string(),
  serial: z.number(),
  configHash: z.string(),
  changes: z.array(resourceChangeSchema),
  summary: z.looseObject({ add: count, change: count, replace: count, destroy: count, import: count }),
  requestCount: count,
  drifted: z.array(z.string()).optional(),
});

const planFileSchema = z.object({
  netformPlan: z.literal(PLAN_FILE_VERSION),
  createdAt: z.string(),
  /** Relative to the plan file's directory, so that a moved checkout or another runner finds it. */
  configPath: z.string(),
  /** Relative to the configuration's directory, as are inputs.varFiles. */
  statePath: z.string(),
  /** Where the state was, when a shared backend kept it (its location); absent for a local state file. */
  stateLocation: z.string().optional(),
  /** Whether a state existed when the plan was made. */
  stateExisted: z.boolean(),
  lineage: z.string(),
  serial: z.number(),
  configHash: z.string(),
  /** What configHash was made of, to name what changed; absent from plans made before it was kept. */
  configDigest: z.object({ files: z.record(z.string(), z.string()), variables: z.record(z.string(), z.string()) }).optional(),
  inputs: z.object({ vars: z.record(z.string(), z.string()), varFiles: z.array(z.string()) }),
  secrets: z.array(secretSchema),
  plan: planSchema,
});

export type PlanFile = Omit<z.infer<typeof planFileSchema>, "plan"> & { plan: Plan };

/** Every secret the configuration sends, as (address, path, keyed hash), from the specs as resolved now. */
export function secretFingerprints(run: Run): PlanFile["secrets"] {
  const out: PlanFile["secrets"] = [];
  const state = run.store.view;
  for (const resource of run.config.resources.values()) {
    if (resource.secrets.empty) continue;
    const { spec } = resolveSpec(resource.spec, lookupFrom(state));
    for (const [path, value] of leaves(spec)) {
      if (resource.secrets.holdsSecret(path) && !isUnknownValue(value)) out.push({ address: resource.address, path, hash: run.hash(value) });
    }
  }
  return out.sort((a, b) => `${a.address}.${a.path}`.localeCompare(`${b.address}.${b.path}`));
}

/** A path as stored in a plan file: relative, with forward slashes, whatever the machine. */
const portable = (from: string, to: string): string => relative(from, to).split(sep).join("/") || ".";

/** `createdAt`: when the plan was made, as a document shown from it says (default: now). */
export function savePlanFile(path: string, run: Run, plan: Plan, configPath: string, inputs: PlanFile["inputs"], createdAt = new Date().toISOString()): void {
  const directory = run.config.directory;
  const file: PlanFile = {
    netformPlan: PLAN_FILE_VERSION,
    createdAt,
    configPath: portable(dirname(resolve(path)), resolve(configPath)),
    statePath: portable(directory, run.statePath),
    ...(run.backend.type === "local" ? {} : { stateLocation: run.store.location }),
    stateExisted: run.store.exists,
    lineage: plan.lineage,
    serial: plan.serial,
    configHash: plan.configHash,
    configDigest: run.configDigest,
    inputs: { vars: inputs.vars, varFiles: inputs.varFiles.map((f) => portable(directory, resolve(f))) },
    secrets: secretFingerprints(run),
    plan,
  };
  writeFileAtomic(resolve(path), seal(`${JSON.stringify(file, null, 2)}\n`, file, run.keys));
}

/** Where a saved plan's configuration, state and variable files are, from where the plan file is now. */
export function savedPaths(file: PlanFile, planPath: string): { configPath: string; statePath: string; varFiles: string[] } {
  const configPath = resolve(dirname(resolve(planPath)), file.configPath);
  let directory = configPath;
  try {
    if (!statSync(configPath).isDirectory()) directory = dirname(configPath);
  } catch {
    throw new NetformError({
      code: "plan-file.no-configuration",
      message: `the saved plan ${planPath} was made from the configuration at ${file.configPath} (relative to the plan file), and there is none there`,
      hint: "keep the plan file where it was made relative to the configuration, or make a new plan here",
    });
  }
  return { configPath, statePath: resolve(directory, file.statePath), varFiles: file.inputs.varFiles.map((f) => resolve(directory, f)) };
}

/** A saved plan, opened with the state's key when it was saved encrypted. */
export function readPlanFile(path: string, env: NodeJS.ProcessEnv): PlanFile {
  let json: unknown;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new NetformError({ code: "plan-file.unreadable", message: `cannot read the saved plan ${path}: ${e instanceof SyntaxError ? `not JSON (${e.message})` : fileProblem(e)}`, hint: "make one with: netform plan --out FILE" });
  }
  const plain = unseal(text, stateKeys(env), `the saved plan ${path}`);
  try {
    json = JSON.parse(plain);
  } catch (e) {
    throw new NetformError({ code: "plan-file.unreadable", message: `cannot read the saved plan ${path}: ${(e as Error).message}`, hint: "make one with: netform plan --out FILE" });
  }
  const version = (json as { netformPlan?: unknown } | null)?.netformPlan;
  if (typeof version === "number" && version !== PLAN_FILE_VERSION) {
    throw new NetformError({ code: "plan-file.version", message: `${path} is a saved plan of format ${version}, and this netform reads format ${PLAN_FILE_VERSION}`, hint: "make the plan again with this version of netform: netform plan --out FILE" });
  }
  const parsed = planFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join(".")}: ${issue.message})` : "";
    throw new NetformError({
      code: "plan-file.invalid",
      message: `${path} is not a netform saved plan, or one from another version of netform${where}`,
      hint: "make the plan again with this version of netform: netform plan --out FILE",
    });
  }
  return parsed.data as PlanFile;
}

const stale = (why: string) =>
  new NetformError({
    code: "plan-file.stale",
    message: `the saved plan is stale: ${why}`,
    hint: "make a new plan (netform plan --out FILE), review it, and apply that one",
  });

/** Refuses a saved plan that no longer describes what would happen. */
export function checkPlanFile(file: PlanFile, run: Run): void {
  const planned = file.plan.workspace ?? DEFAULT_WORKSPACE;
  if (planned !== run.workspace.name) {
    throw new NetformError({
      code: "plan-file.workspace",
      message: `the saved plan was made in workspace ${planned}, and this run is in workspace ${run.workspace.name}${selectedBy(run.workspace)}`,
      hint: `apply it in its own workspace: netform apply --workspace ${planned} FILE`,
    });
  }
  const state = run.store.view;
  const where = run.store.location;
  if (!file.stateExisted && run.store.exists) throw stale(`it was made when there was no state, and ${where} now has one (serial ${state.serial})`);
  if (file.stateExisted) {
    if (!run.store.exists) throw stale(`the state ${where} it was made from no longer exists`);
    if (state.lineage !== file.lineage) throw stale(`it was made for state lineage ${file.lineage}, and the state now has lineage ${state.lineage}`);
    if (state.serial !== file.serial) throw stale(`the state changed since (serial ${file.serial} then, ${state.serial} now)`);
  }
  if (run.configHash !== file.configHash) throw stale(file.configDigest ? `${digestDifferences(file.configDigest, run.configDigest).join("; ")} since` : "the configuration or its variables changed since");
  const now = new Map(secretFingerprints(run).map((s) => [`${s.address}.${s.path}`, s.hash]));
  for (const secret of file.secrets) {
    if (now.get(`${secret.address}.${secret.path}`) !== secret.hash) throw stale(`the secret feeding ${secret.address}.${secret.path} changed since`);
  }
}

/** What differs between two configuration digests, in words: "netform.yaml changed", "variable region changed". */
function digestDifferences(then: ConfigurationDigest, now: ConfigurationDigest): string[] {
  const out: string[] = [];
  const compare = (what: string, a: Record<string, string>, b: Record<string, string>) => {
    for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (a[name] === b[name]) continue;
      out.push(`${what}${name} ${a[name] === undefined ? "was added" : b[name] === undefined ? "was removed" : "changed"}`);
    }
  };
  compare("", then.files, now.files);
  compare("variable ", then.variables, now.variables);
  return out.length ? out : ["the configuration changed"];
}
