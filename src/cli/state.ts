// `netform state list | show | rm | mv | pull | push | history | migrate | rekey` and `netform force-unlock ID`:
// looking at the state on whichever backend keeps it, the repairs users need (forgetting an object,
// removing a dead run's lock, restoring an earlier version), moving it to another backend and rotating
// its encryption key.

import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import { forgetResource, migrateState, moveResource, pullState, pushState, readState, recordedAt, rekeyState, stateHistory, unlockState, type StateTarget } from "../engine/index.js";
import { renderStateHistory, renderStateList, renderStateResource, type Output } from "../views/index.js";
import { run } from "./program.js";
import { lockRequest } from "./run-options.js";

interface TargetFlags {
  config: string;
  state?: string;
  lockTimeout?: string;
}

function withTarget(cmd: Command, options: { locks: boolean }): Command {
  cmd
    .option("-c, --config <path>", "the configuration whose backend keeps the state (a file or a directory)", ".")
    .option("--state <file>", "a local state file instead (default: the configuration's backend, else netform.state.json beside it)");
  if (options.locks) cmd.option("--lock-timeout <duration>", "wait this long for a state lock another run holds, e.g. 5m");
  return cmd;
}

function target(flags: TargetFlags, output: Output): StateTarget {
  const { lockTimeoutMs } = lockRequest(flags);
  return {
    configPath: flags.config,
    ...(flags.state ? { statePath: flags.state } : {}),
    env: process.env,
    ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}),
    onLockWait: (message) => output.err(output.c.yellow(`Waiting for the state lock: ${message}`)),
  };
}

function serialFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const serial = Number(text);
  if (!Number.isInteger(serial) || serial < 0) throw new NetformError({ code: "usage", message: `--serial must be a whole number, got "${text}"`, hint: "netform state history lists the serials kept" });
  return serial;
}

export function registerState(program: Command): void {
  const state = program.command("state");
  withTarget(state.command("list").description("list every address the state records"), { locks: false }).action(
    run(async ({ output }, flags: TargetFlags) => {
      renderStateList(output, await readState(target(flags, output)));
      return 0;
    }),
  );
  withTarget(state.command("show <address>").description("show what the state records for one address (secrets are never stored)"), { locks: false }).action(
    run(async ({ output }, address: string, flags: TargetFlags) => {
      renderStateResource(output, address, recordedAt(await readState(target(flags, output)), address));
      return 0;
    }),
  );
  withTarget(state.command("rm <address>").description("forget an object: netform stops managing it, and the service keeps it"), { locks: true }).action(
    run(async ({ output }, address: string, flags: TargetFlags) => {
      await forgetResource(target(flags, output), address);
      output.out(`Removed ${address} from the state. The object itself was not touched.`);
      return 0;
    }),
  );
  withTarget(state.command("mv <source> <destination>").description("move an object to another address (a renamed resource): the service is not called"), { locks: true }).action(
    run(async ({ output }, source: string, destination: string, flags: TargetFlags) => {
      const moved = await moveResource(target(flags, output), source, destination);
      output.out(`Moved ${source} to ${destination}${moved.id ? ` (${moved.id})` : ""}. The object itself was not touched.`);
      return 0;
    }),
  );
  withTarget(state.command("pull").description("print the state as JSON (decrypted), or with --serial an earlier version the backend keeps"), { locks: false })
    .option("--serial <n>", "the version to print (netform state history lists them)")
    .action(
      run(async ({ output }, flags: TargetFlags & { serial?: string }) => {
        output.out((await pullState(target(flags, output), serialFlag(flags.serial))).trimEnd());
        return 0;
      }),
    );
  withTarget(state.command("push <file>").description("replace the state with FILE (a state as pull prints it); refused for another lineage or an older serial"), { locks: true })
    .option("--force", "push even when FILE has another lineage or an older serial")
    .action(
      run(async ({ output }, file: string, flags: TargetFlags & { force?: boolean }) => {
        let content: string;
        try {
          content = readFileSync(file, "utf8");
        } catch (e) {
          throw new NetformError({ code: "usage", message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, hint: "give a state file, e.g. one saved with: netform state pull > state.json" });
        }
        const pushed = await pushState(target(flags, output), content, file, Boolean(flags.force));
        output.out(`Pushed ${file} as serial ${pushed.serial} of lineage ${pushed.lineage}.`);
        return 0;
      }),
    );
  withTarget(state.command("history").description("list the versions of the state the backend keeps (postgres)"), { locks: false }).action(
    run(async ({ output }, flags: TargetFlags) => {
      renderStateHistory(output, await stateHistory(target(flags, output)));
      return 0;
    }),
  );
  withTarget(state.command("migrate").description("copy the state, with its lineage and serial, to another backend, and verify it there"), { locks: true })
    .requiredOption("--to <backend>", "local, or a backend block as YAML, e.g. '{postgres: {url: \"${env.NETFORM_PG_URL}\", name: prod}}'")
    .action(
      run(async ({ output }, flags: TargetFlags & { to: string }) => {
        const moved = await migrateState(target(flags, output), flags.to);
        output.out(`Copied the state (serial ${moved.serial}) to ${moved.location}, read it back intact, and switched the backend block of ${moved.configFile} to it.`);
        output.out("The state it came from is left as it was: remove it once the new backend has served a run.");
        return 0;
      }),
    );
  withTarget(state.command("rekey").description("write the state again with NETFORM_STATE_ENCRYPTION_KEY, reading it with NETFORM_STATE_ENCRYPTION_OLD_KEY"), { locks: true }).action(
    run(async ({ output }, flags: TargetFlags) => {
      const rekeyed = await rekeyState(target(flags, output));
      output.out(`Rewrote the state as serial ${rekeyed.serial}: ${rekeyed.from ? `was encrypted with key ${rekeyed.from}` : "was not encrypted"}, now ${rekeyed.to ? `encrypted with key ${rekeyed.to}` : "not encrypted"}.`);
      return 0;
    }),
  );
}

export function registerForceUnlock(program: Command): void {
  withTarget(program.command("force-unlock <lockId>"), { locks: false }).action(
    run(async ({ output }, lockId: string, flags: TargetFlags) => {
      const holder = await unlockState(target(flags, output), lockId);
      output.out(`Removed the lock ${holder.id} held by ${holder.who} for ${holder.operation} since ${holder.created}.`);
      output.out("If that run is still going, it finds the lock gone at its next write to the state (refused) or before its next change to the service, and stops there, naming what it created that the state may not record.");
      return 0;
    }),
  );
}
