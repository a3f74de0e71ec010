// `netform state list | show ADDR | rm ADDR` and `netform force-unlock ID`: looking at the state and
// the two repairs users need (forgetting an object, removing a dead run's lock).

import type { Command } from "commander";
import { resolve } from "node:path";
import { NetformError } from "../diag/index.js";
import { GENERATOR } from "../engine/run.js";
import { StateLock, StateStore, forceUnlock, type ResourceState } from "../state/index.js";
import { renderStateList, renderStateResource } from "../views/state.js";
import { run } from "./program.js";

const STATE_OPTION = ["--state <file>", "the state file", "netform.state.json"] as const;

function openState(path: string): StateStore {
  const store = StateStore.open(resolve(path), GENERATOR);
  if (!store.exists) throw new NetformError({ code: "state.missing", message: `no state file at ${path}`, hint: "run apply first, or point --state at the state file" });
  return store;
}

/** What the state records at an address, or the error that says it records nothing there. */
function recorded(store: StateStore, address: string): ResourceState {
  const resource = store.resource(address);
  if (!resource) throw new NetformError({ code: "state.unknown-address", message: `the state has no ${address}`, hint: "netform state list shows the addresses it has" });
  return resource;
}

export function registerState(program: Command): void {
  const state = program.command("state").description("inspect the state file or forget an object in it");
  state
    .command("list")
    .description("list every address the state records")
    .option(...STATE_OPTION)
    .action(
      run(({ output }, flags: { state: string }) => {
        renderStateList(output, openState(flags.state).state);
        return 0;
      }),
    );
  state
    .command("show <address>")
    .description("show what the state records for one address (secrets are never stored)")
    .option(...STATE_OPTION)
    .action(
      run(({ output }, address: string, flags: { state: string }) => {
        renderStateResource(output, address, recorded(openState(flags.state), address));
        return 0;
      }),
    );
  state
    .command("rm <address>")
    .description("forget an object: netform stops managing it, and the service keeps it")
    .option(...STATE_OPTION)
    .action(
      run(async ({ output }, address: string, flags: { state: string }) => {
        const path = resolve(flags.state);
        const lock = StateLock.acquire(path, "state rm");
        try {
          const store = openState(path);
          recorded(store, address);
          await store.removeResource(address);
          output.out(`Removed ${address} from the state. The object itself was not touched.`);
          return 0;
        } finally {
          lock.release();
        }
      }),
    );
}

export function registerForceUnlock(program: Command): void {
  program
    .command("force-unlock <lockId>")
    .description("remove the state lock left by a run that died (give the lock ID the error showed)")
    .option(...STATE_OPTION)
    .action(
      run(({ output }, lockId: string, flags: { state: string }) => {
        const holder = forceUnlock(resolve(flags.state), lockId);
        output.out(`Removed the lock ${holder.id} held by ${holder.who} for ${holder.operation} since ${holder.created}.`);
        return 0;
      }),
    );
}
