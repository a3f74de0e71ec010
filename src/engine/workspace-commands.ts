// `netform workspace list | show | new | select | delete` as engine operations, on the configuration's
// backend (workspaces.ts says how a workspace is selected, backends/ where each keeps its state). Only
// `new` and `select --or-create` make a workspace: each writes its first, empty state under the lock, so
// the workspace exists for every runner from then on. `delete` refuses the default workspace, the selected
// one, and one that still manages objects unless forced.

import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { otherWorkspaces, removeWorkspaceFolder, workspaceSettings, type BackendSettings } from "../backends/index.js";
import { WORKSPACE_NAME } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { acquireLock, type LockWait } from "../state/index.js";
import { stateKeyPath } from "./secrets.js";
import { defaultWorkspaceSettings, loadStore, stateAccess, type StateAccess } from "./state-access.js";
import { configuredBackend, type StateTarget } from "./state-commands.js";
import { checkedWorkspaceName, DEFAULT_WORKSPACE, missingWorkspace, rememberSelection, selectedBy, selectedWorkspace, type SelectedWorkspace } from "./workspaces.js";

/** What a workspace command needs to find the backend: the configuration, its inputs, the environment. */
export type WorkspaceTarget = Pick<StateTarget, "configPath" | "inputs" | "env" | "lockTimeoutMs" | "onLockWait">;

/** One workspace's state, opened from the backend block's settings. */
interface Opened {
  base: BackendSettings;
  settings: BackendSettings;
  access: StateAccess;
}

function openWorkspace(target: WorkspaceTarget, name: string): Opened {
  const base = defaultWorkspaceSettings(configuredBackend(target));
  const settings = workspaceSettings(base, { name, isDefault: name === DEFAULT_WORKSPACE });
  return { base, settings, access: stateAccess(settings, target.env) };
}

async function using<T>(opened: Opened, body: (opened: Opened) => Promise<T>): Promise<T> {
  try {
    return await body(opened);
  } finally {
    await opened.access.backend.close();
  }
}

const lockWait = (target: WorkspaceTarget): LockWait => ({
  timeoutMs: target.lockTimeoutMs ?? 0,
  ...(target.onLockWait ? { onWait: (held: NetformError) => target.onLockWait!(held.message) } : {}),
});

/** The workspaces the backend keeps (default first), and the one selected here. */
export async function listWorkspaces(target: WorkspaceTarget): Promise<{ names: string[]; selected: SelectedWorkspace }> {
  const selected = selectedWorkspace(target.configPath, undefined, target.env);
  const others = await otherWorkspaces(defaultWorkspaceSettings(configuredBackend(target)), target.env);
  return { names: [DEFAULT_WORKSPACE, ...others.filter((name) => WORKSPACE_NAME.test(name) && name !== DEFAULT_WORKSPACE)], selected };
}

/** Writes a new workspace's first state, empty, under its lock; refused when it exists. */
async function create(target: WorkspaceTarget, opened: Opened, name: string): Promise<void> {
  const { settings, access } = opened;
  // The local state's folder holds its lock too.
  if (settings.type === "local") mkdirSync(dirname(settings.path), { recursive: true });
  const lock = await acquireLock(access.backend, "workspace new", lockWait(target));
  try {
    const store = await loadStore(access);
    if (store.exists) throw new NetformError({ code: "workspace.exists", message: `workspace ${name} already exists (${access.backend.location})`, hint: `select it with: netform workspace select ${name}` });
    await store.update(() => {});
  } finally {
    await lock.release();
  }
}

/** NETFORM_WORKSPACE overrides what `workspace select` remembers: selecting another here would change nothing. */
function overridden(target: WorkspaceTarget, name: string): string | undefined {
  const set = target.env.NETFORM_WORKSPACE;
  return set !== undefined && set !== "" && set !== name ? set : undefined;
}

/**
 * Makes workspace `name` with an empty state, and selects it unless NETFORM_WORKSPACE selects another
 * (then it says which: `selected` false).
 */
export async function createWorkspace(target: WorkspaceTarget, name: string): Promise<{ location: string; selected: boolean }> {
  checkedWorkspaceName(name, "workspace new");
  if (name === DEFAULT_WORKSPACE) throw new NetformError({ code: "workspace.exists", message: "workspace default always exists: it is the state a configuration has without workspaces", hint: "name the new workspace otherwise, e.g. dev" });
  return using(openWorkspace(target, name), async (opened) => {
    await create(target, opened, name);
    const selected = overridden(target, name) === undefined;
    if (selected) rememberSelection(target.configPath, name);
    return { location: opened.access.backend.location, selected };
  });
}

/** Remembers `name` as the selected workspace; it must exist, or with `orCreate` it is made. */
export async function selectWorkspace(target: WorkspaceTarget, name: string, orCreate: boolean): Promise<{ created: boolean }> {
  checkedWorkspaceName(name, "workspace select");
  const set = overridden(target, name);
  if (set !== undefined) {
    throw new NetformError({
      code: "workspace.overridden",
      message: `NETFORM_WORKSPACE=${set} selects the workspace here, and overrides what netform workspace select remembers`,
      hint: `unset NETFORM_WORKSPACE to select ${name} here, or set it to ${name}`,
    });
  }
  let created = false;
  if (name !== DEFAULT_WORKSPACE) {
    await using(openWorkspace(target, name), async (opened) => {
      if ((await opened.access.backend.read()) !== undefined) return;
      if (!orCreate) throw missingWorkspace(name, opened.access.backend.location, undefined, `create it with: netform workspace new ${name}, or create and select it with: netform workspace select --or-create ${name}`);
      await create(target, opened, name);
      created = true;
    });
  }
  rememberSelection(target.configPath, name);
  return { created };
}

/**
 * Deletes workspace `name`'s state and what the backend keeps of it. Refused for the default workspace, the
 * selected one, one that does not exist, and one whose state still records objects unless `force` (the
 * service keeps them; nothing manages them any more). Returns the addresses forgotten.
 */
export async function deleteWorkspace(target: WorkspaceTarget, name: string, force: boolean): Promise<{ forgotten: string[] }> {
  checkedWorkspaceName(name, "workspace delete");
  if (name === DEFAULT_WORKSPACE) {
    throw new NetformError({ code: "workspace.default", message: "the default workspace cannot be deleted: it is the state a configuration has without workspaces", hint: "to delete what it manages, run: netform destroy --workspace default" });
  }
  const selected = selectedWorkspace(target.configPath, undefined, target.env);
  if (selected.name === name) {
    throw new NetformError({
      code: "workspace.selected",
      message: `workspace ${name} is the selected one${selectedBy(selected)}, and netform never deletes the workspace it works in`,
      hint: selected.source === "environment" ? "unset NETFORM_WORKSPACE (or set it to another workspace) first" : "select another first, e.g. netform workspace select default",
    });
  }
  const forgotten = await using(openWorkspace(target, name), async ({ base, settings, access }) => {
    if ((await access.backend.read()) === undefined) throw missingWorkspace(name, access.backend.location);
    const lock = await acquireLock(access.backend, "workspace delete", lockWait(target));
    let addresses: string[];
    try {
      const store = await loadStore(access);
      addresses = Object.keys(store.view.resources).sort();
      if (addresses.length > 0 && !force) {
        const shown = addresses.length > 5 ? `${addresses.slice(0, 5).join(", ")} and ${addresses.length - 5} more` : addresses.join(", ");
        throw new NetformError({
          code: "workspace.not-empty",
          message: `workspace ${name} still manages ${addresses.length === 1 ? "1 object" : `${addresses.length} objects`} (${shown}): deleting it would leave ${addresses.length === 1 ? "it" : "them"} on the service with nothing managing ${addresses.length === 1 ? "it" : "them"}`,
          hint: `destroy them first: netform destroy --workspace ${name}; or delete the workspace anyway with --force (the service keeps the objects)`,
        });
      }
      await access.backend.delete();
    } finally {
      await lock.release();
    }
    if (settings.type === "local" && base.type === "local") {
      // Its hashes' key goes with it, then its folder (once empty).
      rmSync(stateKeyPath(settings.path), { force: true });
      removeWorkspaceFolder(base.path, name);
    }
    return addresses;
  });
  return { forgotten };
}
