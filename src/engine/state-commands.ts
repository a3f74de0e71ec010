// The state commands as engine operations, on whichever backend the configuration names: reading what
// the state records, its history and earlier versions; forgetting an object, pushing a state, rekeying
// and migrating (under the lock, so no run writes the state meanwhile); removing a lock a dead run
// left behind; and the SQL a DBA runs to make the postgres backend's tables.

import { dirname, resolve } from "node:path";
import { postgresDdl, postgresGrants } from "../backends/index.js";
import { backendFromText, writeBackendBlock, type BackendConfig } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { acquireLock, parseState, seal, sealedVersion, sealedWith, unseal, type LockInfo, type ResourceState, type StateFile, type StateKeys, type StoredVersion } from "../state/index.js";
import { parseResourceAddress, readConfiguration } from "./configuration.js";
import { Recorder } from "./records.js";
import { otherWorkspaces, workspaceSettings } from "../backends/index.js";
import { backendSettings, defaultWorkspaceSettings, loadStore, stateAccess, type StateAccess } from "./state-access.js";
import { DEFAULT_WORKSPACE, requireWorkspace, selectedWorkspace, type SelectedWorkspace } from "./workspaces.js";

/**
 * Which state a state command works on: the configuration's backend (its block read with the variables
 * given, as a run reads it) in the selected workspace, or the local file --state names.
 */
export interface StateTarget {
  configPath: string;
  statePath?: string;
  /** --workspace; without it NETFORM_WORKSPACE, then the selection `workspace select` remembered (workspaces.ts). */
  workspace?: string;
  /** --var and --var-file: the backend block may be written with variables. */
  inputs?: { vars: Readonly<Record<string, string>>; varFiles: readonly string[] };
  env: NodeJS.ProcessEnv;
  /** How long to wait for a lock another run holds (commands that write). */
  lockTimeoutMs?: number;
  onLockWait?: (message: string) => void;
}

const MISSING_HINT = "run apply first, or point --state at the state file, or -c at the configuration whose backend keeps it";

/**
 * The configuration's backend block; without a configuration, the state file in that directory. A block
 * that cannot be read whole (a mistake, an input without a value) is an error: guessing the rest would
 * read another state.
 */
export function configuredBackend(target: Pick<StateTarget, "configPath" | "env" | "inputs">): { directory: string; backend?: BackendConfig } {
  const { configPath, env } = target;
  const { config, diagnostics } = readConfiguration(configPath, { env, missing: "unknown", ...(target.inputs ? { vars: target.inputs.vars, varFiles: target.inputs.varFiles } : {}) });
  const unreadable = diagnostics.find((d) => d.code === "config.no-files" || d.code === "config.unreadable");
  if (unreadable) return { directory: /\.ya?ml$/.test(configPath) ? dirname(resolve(configPath)) : configPath };
  const wrong = diagnostics.find(
    (d) => (d.severity === "error" && (d.address === "backend" || d.path === "backend" || d.code.startsWith("yaml") || d.code.startsWith("variables."))) || d.code === "backend.unset",
  );
  if (wrong) {
    const where = wrong.file ? `${wrong.file}${wrong.line ? `:${wrong.line}:${wrong.column ?? 1}` : ""}: ` : "";
    const field = wrong.address ? `${wrong.address}${wrong.path ? `.${wrong.path}` : ""}: ` : "";
    throw new NetformError({ code: wrong.code, message: `${where}${field}${wrong.message}`, hint: wrong.hint ?? "fix the configuration's backend block" });
  }
  return { directory: config.directory, ...(config.backend ? { backend: config.backend } : {}) };
}

/** The state's backend in the selected workspace, with that workspace. */
function open(target: StateTarget): StateAccess & { workspace: SelectedWorkspace } {
  const workspace = selectedWorkspace(target.configPath, target.workspace, target.env);
  const settings = backendSettings(configuredBackend(target), target.statePath, workspace);
  return { ...stateAccess(settings, target.env), workspace };
}

async function using<A extends StateAccess, T>(access: A, body: (access: A) => Promise<T>): Promise<T> {
  try {
    return await body(access);
  } finally {
    await access.backend.close();
  }
}

/** Runs `body` on the selected workspace's state, refused when that workspace does not exist. */
async function existing<T>(target: StateTarget, body: (access: StateAccess & { workspace: SelectedWorkspace }) => Promise<T>): Promise<T> {
  return using(open(target), async (access) => {
    await requireWorkspace(access.backend, access.workspace);
    return body(access);
  });
}

/** Runs `body` holding the lock, for a command that writes the state. */
async function locked<T>(target: StateTarget, operation: string, body: (access: StateAccess) => Promise<T>): Promise<T> {
  return existing(target, async (access) => {
    const lock = await acquireLock(access.backend, operation, {
      timeoutMs: target.lockTimeoutMs ?? 0,
      ...(target.onLockWait ? { onWait: (held: NetformError) => target.onLockWait!(held.message) } : {}),
    });
    try {
      await foldLeftoverJournal(access);
      return await body(access);
    } finally {
      await lock.release();
    }
  });
}

/** Whether a run that stopped left steps in the backend's journal that no stored version holds yet. */
const hasLeftoverJournal = async ({ backend }: StateAccess): Promise<boolean> => (await backend.journal?.read()) ? true : false;

/**
 * Saves the steps a stopped run left in the journal as a version of their own, before a command that
 * replaces or rewrites the state: they are objects on the service, which the command must not lose.
 */
async function foldLeftoverJournal(access: StateAccess): Promise<void> {
  if (await hasLeftoverJournal(access)) await (await loadStore(access)).fold();
}

/** What the state records; an error that says so when there is none. */
export async function readState(target: StateTarget, hint = MISSING_HINT): Promise<StateFile> {
  return existing(target, async (access) => {
    const store = await loadStore(access);
    if (!store.exists) throw new NetformError({ code: "state.missing", message: `there is no state in ${access.backend.location}`, hint });
    return store.snapshot();
  });
}

/** What the state records at an address, or the error that says it records nothing there. */
export function recordedAt(state: StateFile, address: string): ResourceState {
  const resource = state.resources[address];
  if (!resource) throw new NetformError({ code: "state.unknown-address", message: `the state has no ${address}`, hint: "netform state list shows the addresses it has" });
  return resource;
}

/** Forgets an object: netform stops managing it, and the service keeps it. */
export async function forgetResource(target: StateTarget, address: string): Promise<void> {
  await locked(target, "state rm", async (access) => {
    const store = await loadStore(access);
    if (!store.exists) throw new NetformError({ code: "state.missing", message: `there is no state in ${access.backend.location}`, hint: MISSING_HINT });
    recordedAt(store.snapshot(), address);
    await new Recorder(store).forget(address);
    await store.fold();
  });
}

/**
 * Moves what the state records at `from` to `to` (a renamed resource): the service is not called, and the
 * next plan finds the object at its new address. Refused when `to` is taken or names another kind.
 */
export async function moveResource(target: StateTarget, from: string, to: string): Promise<{ kind: string; id?: string }> {
  const destination = parseResourceAddress(to);
  if (!destination) throw new NetformError({ code: "usage", message: `${to} is not a resource address`, hint: "write KIND.NAME, e.g. connections.dc-link; netform state list shows the addresses the state has" });
  return locked(target, "state mv", async (access) => {
    const store = await loadStore(access);
    if (!store.exists) throw new NetformError({ code: "state.missing", message: `there is no state in ${access.backend.location}`, hint: MISSING_HINT });
    const recorded = recordedAt(store.snapshot(), from);
    if (store.view.resources[to]) throw new NetformError({ code: "state.move-exists", message: `the state already has ${to}`, hint: `move it away first (netform state mv ${to} ...), or forget it with netform state rm ${to}` });
    if (destination.kind !== recorded.kind) {
      throw new NetformError({ code: "state.move-kind", message: `${from} is one of ${recorded.kind}, and ${to} would make it one of ${destination.kind}`, hint: `an object keeps its kind: move it to ${recorded.kind}.${destination.name}` });
    }
    await new Recorder(store).moved(from, to);
    return { kind: recorded.kind, ...(recorded.id ? { id: recorded.id } : {}) };
  });
}

/** Removes the lock a dead run left, given its id; returns who held it. */
export const unlockState = (target: StateTarget, lockId: string): Promise<LockInfo> => existing(target, (access) => access.backend.forceUnlock(lockId));

/** Every version the backend keeps, newest first. */
export const stateHistory = (target: StateTarget): Promise<StoredVersion[]> => existing(target, (access) => access.backend.history());

/** The state (or, with `serial`, an earlier version of it) as plain JSON, opened with the key. */
export async function pullState(target: StateTarget, serial?: number): Promise<string> {
  return existing(target, async (access) => {
    const { backend, keys } = access;
    // Read without the lock, the steps a stopped run journaled are shown with the state, and left where they are.
    if (serial === undefined && (await hasLeftoverJournal(access))) {
      const store = await loadStore(access);
      if (store.exists && store.unfolded) return `${JSON.stringify(store.snapshot(), null, 2)}\n`;
    }
    const stored = serial === undefined ? await backend.read() : await backend.readVersion(serial);
    if (stored === undefined) {
      throw new NetformError({
        code: "state.missing",
        message: serial === undefined ? `there is no state in ${backend.location}` : `${backend.location} keeps no version with serial ${serial}`,
        hint: serial === undefined ? MISSING_HINT : "netform state history lists the versions it keeps",
      });
    }
    const what = `the state ${backend.location}${serial === undefined ? "" : ` at serial ${serial}`}`;
    const plain = unseal(stored, keys, what);
    parseState(plain, what);
    return plain;
  });
}

/**
 * Replaces the state with `content` (a state as `state pull` gives it). Refused when it is of another
 * lineage or older than the stored one, unless `force`; it is stored with the next serial.
 */
export async function pushState(target: StateTarget, content: string, source: string, force: boolean): Promise<{ lineage: string; serial: number }> {
  const pushed = parseState(content, source);
  return locked(target, "state push", async ({ backend, keys }) => {
    const stored = await backend.read();
    const current = stored === undefined ? undefined : parseState(unseal(stored, keys, `the state ${backend.location}`), `the state ${backend.location}`);
    if (current && !force) {
      if (current.lineage !== pushed.lineage) {
        throw new NetformError({ code: "state.push-lineage", message: `${source} has lineage ${pushed.lineage}, and the state ${backend.location} has lineage ${current.lineage}: they are not versions of one state`, hint: "push it anyway, replacing the other state, with --force" });
      }
      if (pushed.serial < current.serial) {
        throw new NetformError({ code: "state.push-older", message: `${source} has serial ${pushed.serial}, older than the state ${backend.location} (serial ${current.serial})`, hint: "pull the current state and start from it, or push the older one anyway with --force" });
      }
    }
    const next = { ...pushed, serial: Math.max(pushed.serial, current?.serial ?? 0) + (current ? 1 : 0) };
    const after = current ? { lineage: current.lineage, serial: current.serial } : undefined;
    await backend.write(seal(`${JSON.stringify(next, null, 2)}\n`, next, keys), next, after);
    return { lineage: next.lineage, serial: next.serial };
  });
}

/** What rekey did to the earlier versions the backend keeps. */
export type RekeyedHistory = { resealed: number } | { pruned: number } | { unreachable: true };

/** What `state rekey` did: the keys the state was and is sealed with, its new serial, and its history. */
export interface Rekeyed {
  from?: string;
  to?: string;
  serial: number;
  history: RekeyedHistory;
}

/**
 * Writes the state again with the current key (read with the old one), as the next serial; then every
 * earlier version the backend keeps is resealed the same way, or, with `prune`, removed: a version left
 * as it was stays readable in clear, or with the old key.
 */
export async function rekeyState(target: StateTarget, options: { prune?: boolean } = {}): Promise<Rekeyed> {
  return locked(target, "state rekey", async (access) => {
    const { backend, keys } = access;
    const stored = await backend.read();
    if (stored === undefined) throw new NetformError({ code: "state.missing", message: `there is no state in ${backend.location}`, hint: MISSING_HINT });
    const from = sealedWith(stored);
    const store = await loadStore(access);
    await store.update(() => {});
    const written = await backend.read();
    const to = written === undefined ? undefined : sealedWith(written);
    const current = { lineage: store.view.lineage, serial: store.view.serial };
    let history: RekeyedHistory;
    if (options.prune) history = backend.pruneHistory ? { pruned: await backend.pruneHistory(current) } : { unreachable: true };
    else history = backend.resealHistory ? { resealed: await backend.resealHistory((content) => resealed(content, keys, backend.location)) } : { unreachable: true };
    return { ...(from ? { from } : {}), ...(to ? { to } : {}), serial: current.serial, history };
  });
}

/** An earlier version as the current key stores it: opened with either key, sealed with the current one. */
function resealed(content: string, keys: StateKeys, location: string): string {
  if (keys.sealing && sealedWith(content) === keys.sealing.id) return content;
  const version = sealedVersion(content);
  const what = `the version at serial ${version?.serial ?? "(unknown)"} in the history of ${location}`;
  if (!version) throw new NetformError({ code: "state.corrupt", message: `${what} has no lineage and serial netform can read`, hint: "drop the history with: netform state rekey --prune-history" });
  try {
    return seal(unseal(content, keys, what), version, keys);
  } catch (error) {
    if (!(error instanceof NetformError) || error.code !== "state.key") throw error;
    throw new NetformError({
      code: error.code,
      message: `${error.message}; the state itself was rewritten, its history left as it was`,
      hint: "give the key that version was written with as NETFORM_STATE_ENCRYPTION_OLD_KEY and run netform state rekey again, or drop the earlier versions with: netform state rekey --prune-history",
    });
  }
}

/** The postgres backend's SQL for a DBA: the schema and tables, and the rights of the role that runs netform. */
export interface BackendDdl {
  schema: string;
  statements: string[];
  grants: string[];
}

/**
 * The SQL that makes the postgres backend's tables in `schema` (default: the configuration's postgres
 * schema, else netform), and with `role` the data rights that role needs on them: for a database where
 * the user netform runs as may not create tables. It connects to nothing.
 */
export function backendDdl(target: Pick<StateTarget, "configPath" | "env">, options: { schema?: string; role?: string }): BackendDdl {
  const configured = options.schema === undefined ? configuredBackend(target).backend : undefined;
  const schema = options.schema ?? (configured?.type === "postgres" ? configured.schema : "netform");
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new NetformError({ code: "usage", message: `--schema must be a lowercase SQL identifier, e.g. netform, got "${schema}"` });
  if (options.role !== undefined && !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(options.role)) {
    throw new NetformError({ code: "usage", message: `--grant must be a role's name (letters, digits, '_', '.', '-'), got "${options.role}"` });
  }
  return { schema, statements: postgresDdl(schema), grants: options.role === undefined ? [] : postgresGrants(schema, options.role) };
}

/** `--to` with its ${env.NAME} expressions replaced by their values, to connect with. */
function withEnvironment(to: string, env: NodeJS.ProcessEnv): string {
  return to.replace(/\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) throw new NetformError({ code: "usage", message: `--to uses \${env.${name}}, and ${name} is not set`, hint: `set ${name} in the environment` });
    return value.replaceAll('"', '\\"');
  });
}

/** One workspace's state copied by `state migrate`: where to, and at which serial. */
export interface MigratedState {
  workspace: string;
  location: string;
  serial: number;
}

/**
 * Copies the state of every workspace, each with its lineage and serial, to another backend, reads each
 * back to verify it, then switches the configuration's backend block to it (written as given, ${env.NAME}
 * kept as such): the block locates all of them, so none may stay behind. Refused when the other backend
 * already keeps a state (of any lineage) for one of them, before anything is copied. The states it came
 * from are left as they were.
 */
export async function migrateState(target: StateTarget, to: string): Promise<{ backend: BackendConfig; migrated: MigratedState[]; configFile: string }> {
  const parsed = backendFromText(withEnvironment(to, target.env));
  if ("problem" in parsed) {
    throw new NetformError({ code: "usage", message: `--to ${to}: ${parsed.problem}`, hint: "--to takes local, or a backend block as YAML, e.g. --to '{postgres: {url: postgres://..., name: prod}}'" });
  }
  const located = configuredBackend(target);
  const from = defaultWorkspaceSettings(located, target.statePath);
  const into = defaultWorkspaceSettings({ directory: located.directory, backend: parsed.backend });
  // A state file --state names is one state, not a set of workspaces.
  const names = [DEFAULT_WORKSPACE, ...(target.statePath === undefined ? await otherWorkspaces(from, target.env) : [])];
  const pairs = names.map((name) => {
    const key = { name, isDefault: name === DEFAULT_WORKSPACE };
    return { workspace: name, source: stateAccess(workspaceSettings(from, key), target.env), destination: stateAccess(workspaceSettings(into, key), target.env) };
  });
  try {
    const first = pairs[0]!;
    if (first.destination.backend.location === first.source.backend.location) throw new NetformError({ code: "usage", message: `the state is already in ${first.source.backend.location}` });
    const present = [];
    for (const pair of pairs) {
      const existing = await pair.destination.backend.read();
      if (existing !== undefined) throw alreadyKept(pair.destination.backend.location, existing);
      if (pair.workspace === DEFAULT_WORKSPACE && (await pair.source.backend.read()) === undefined) continue;
      present.push(pair);
    }
    if (present.length === 0) throw new NetformError({ code: "state.missing", message: `there is no state in ${first.source.backend.location} to migrate`, hint: MISSING_HINT });
    const migrated: MigratedState[] = [];
    for (const pair of present) migrated.push({ workspace: pair.workspace, ...(await copyState(pair.source, pair.destination, target)) });
    const configFile = writeBackendBlock(target.configPath, to);
    return { backend: parsed.backend, migrated, configFile };
  } finally {
    for (const pair of pairs) {
      await pair.source.backend.close();
      await pair.destination.backend.close();
    }
  }
}

/** Copies one state to an empty place under both locks, and reads it back. */
async function copyState(source: StateAccess, destination: StateAccess, target: StateTarget): Promise<{ location: string; serial: number }> {
  const wait = { timeoutMs: target.lockTimeoutMs ?? 0, ...(target.onLockWait ? { onWait: (held: NetformError) => target.onLockWait!(held.message) } : {}) };
  const held = await acquireLock(source.backend, "state migrate", wait);
  try {
    await foldLeftoverJournal(source);
    const stored = await source.backend.read();
    if (stored === undefined) throw new NetformError({ code: "state.missing", message: `there is no state in ${source.backend.location} to migrate`, hint: MISSING_HINT });
    const plain = unseal(stored, source.keys, `the state ${source.backend.location}`);
    const state = parseState(plain, `the state ${source.backend.location}`);
    const lock = await acquireLock(destination.backend, "state migrate", wait);
    try {
      const existing = await destination.backend.read();
      if (existing !== undefined) throw alreadyKept(destination.backend.location, existing);
      const version = { lineage: state.lineage, serial: state.serial };
      await destination.backend.write(seal(plain, version, destination.keys), version, undefined);
      const back = await destination.backend.read();
      if (back === undefined || unseal(back, destination.keys, `the migrated state in ${destination.backend.location}`) !== plain) {
        throw new NetformError({ code: "state.migrate-verify", message: `the state read back from ${destination.backend.location} is not the one written`, hint: "the configuration was not switched; check the backend and try again" });
      }
      return { location: destination.backend.location, serial: state.serial };
    } finally {
      await lock.release();
    }
  } finally {
    await held.release();
  }
}

function alreadyKept(location: string, stored: string): NetformError {
  const there = sealedVersion(stored);
  return new NetformError({
    code: "state.migrate-exists",
    message: `${location} already keeps a state${there ? ` (lineage ${there.lineage}, serial ${there.serial})` : ""}`,
    hint: "migrate to an empty place, or push onto it with netform state push after switching the configuration",
  });
}
