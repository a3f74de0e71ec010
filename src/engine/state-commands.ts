// The state commands as engine operations: reading what the state records, forgetting an object (under
// the lock, so no run writes the state meanwhile), and removing a lock a dead run left behind.

import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { NetformError } from "../diag/index.js";
import { forceUnlock, StateLock, StateStore, type LockInfo, type ResourceState, type StateFile } from "../state/index.js";
import { Recorder } from "./records.js";
import { GENERATOR } from "./run.js";

/**
 * Where a command finds the state: --state when given, else netform.state.json beside the configuration
 * (-c: its directory, or the directory of the file it names), as every run finds it.
 */
export function locateState(configPath: string, statePath?: string): string {
  if (statePath) return resolve(statePath);
  const config = resolve(configPath);
  let directory = config;
  try {
    if (!statSync(config).isDirectory()) directory = dirname(config);
  } catch {
    throw new NetformError({ code: "config.unreadable", message: `-c ${configPath}: no such file or directory`, hint: "-c takes a configuration file or a directory; the default is the current directory" });
  }
  return join(directory, "netform.state.json");
}

function openState(path: string, hint: string): StateStore {
  const store = StateStore.open(resolve(path), GENERATOR);
  if (!store.exists) throw new NetformError({ code: "state.missing", message: `no state file at ${path}`, hint });
  return store;
}

/** What the state file records; an error that says so when there is none. */
export const readState = (path: string, hint = "run apply first, or point --state at the state file"): StateFile => openState(path, hint).state;

/** What the state records at an address, or the error that says it records nothing there. */
export function recordedAt(state: StateFile, address: string): ResourceState {
  const resource = state.resources[address];
  if (!resource) throw new NetformError({ code: "state.unknown-address", message: `the state has no ${address}`, hint: "netform state list shows the addresses it has" });
  return resource;
}

/** Forgets an object: netform stops managing it, and the service keeps it. */
export async function forgetResource(path: string, address: string): Promise<void> {
  const lock = StateLock.acquire(resolve(path), "state rm");
  try {
    const store = openState(path, "run apply first, or point --state at the state file");
    recordedAt(store.state, address);
    await new Recorder(store).forget(address);
  } finally {
    lock.release();
  }
}

/** Removes the lock a dead run left, given its id; returns who held it. */
export const unlockState = (path: string, lockId: string): LockInfo => forceUnlock(resolve(path), lockId);
