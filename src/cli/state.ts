// `netform state list | show ADDR | rm ADDR` and `netform force-unlock ID`: looking at the state and
// the two repairs users need (forgetting an object, removing a dead run's lock).

import type { Command } from "commander";
import { forgetResource, readState, recordedAt, unlockState } from "../engine/index.js";
import { renderStateList, renderStateResource } from "../views/index.js";
import { run } from "./program.js";

const STATE_OPTION = ["--state <file>", "the state file", "netform.state.json"] as const;

export function registerState(program: Command): void {
  const state = program.command("state").description("inspect the state file or forget an object in it");
  state
    .command("list")
    .description("list every address the state records")
    .option(...STATE_OPTION)
    .action(
      run(({ output }, flags: { state: string }) => {
        renderStateList(output, readState(flags.state));
        return 0;
      }),
    );
  state
    .command("show <address>")
    .description("show what the state records for one address (secrets are never stored)")
    .option(...STATE_OPTION)
    .action(
      run(({ output }, address: string, flags: { state: string }) => {
        renderStateResource(output, address, recordedAt(readState(flags.state), address));
        return 0;
      }),
    );
  state
    .command("rm <address>")
    .description("forget an object: netform stops managing it, and the service keeps it")
    .option(...STATE_OPTION)
    .action(
      run(async ({ output }, address: string, flags: { state: string }) => {
        await forgetResource(flags.state, address);
        output.out(`Removed ${address} from the state. The object itself was not touched.`);
        return 0;
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
        const holder = unlockState(flags.state, lockId);
        output.out(`Removed the lock ${holder.id} held by ${holder.who} for ${holder.operation} since ${holder.created}.`);
        return 0;
      }),
    );
}
