// `netform state list | show ADDR | rm ADDR` and `netform force-unlock ID`: looking at the state and
// the two repairs users need (forgetting an object, removing a dead run's lock).

import type { Command } from "commander";
import { forgetResource, locateState, readState, recordedAt, unlockState } from "../engine/index.js";
import { renderStateList, renderStateResource } from "../views/index.js";
import { run } from "./program.js";

/** -c and --state, as every command that reads the state takes them. */
export interface StateFlags {
  config: string;
  state?: string;
}

export function addStateOptions(cmd: Command): Command {
  return cmd
    .option("-c, --config <path>", "the configuration (file or directory) whose state to use", ".")
    .option("--state <file>", "the state file (default: netform.state.json beside the configuration)");
}

/** The state file the flags name. */
export const statePathOf = (flags: StateFlags): string => locateState(flags.config, flags.state);

export function registerState(program: Command): void {
  const state = program.command("state").description("inspect the state file or forget an object in it");
  addStateOptions(state.command("list").description("list every address the state records")).action(
    run(({ output }, flags: StateFlags) => {
      renderStateList(output, readState(statePathOf(flags)));
      return 0;
    }),
  );
  addStateOptions(state.command("show <address>").description("show what the state records for one address (secrets are never stored)")).action(
    run(({ output }, address: string, flags: StateFlags) => {
      renderStateResource(output, address, recordedAt(readState(statePathOf(flags)), address));
      return 0;
    }),
  );
  addStateOptions(state.command("rm <address>").description("forget an object: netform stops managing it, and the service keeps it")).action(
    run(async ({ output }, address: string, flags: StateFlags) => {
      await forgetResource(statePathOf(flags), address);
      output.out(`Removed ${address} from the state. The object itself was not touched.`);
      return 0;
    }),
  );
}

export function registerForceUnlock(program: Command): void {
  addStateOptions(program.command("force-unlock <lockId>").description("remove the state lock left by a run that died (give the lock ID the error showed)")).action(
    run(({ output }, lockId: string, flags: StateFlags) => {
      const holder = unlockState(statePathOf(flags), lockId);
      output.out(`Removed the lock ${holder.id} held by ${holder.who} for ${holder.operation} since ${holder.created}.`);
      return 0;
    }),
  );
}
