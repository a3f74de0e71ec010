// `netform state list | show | rm | mv | pull | push | history | migrate | rekey | ddl` and `netform
// force-unlock ID`: looking at the state on whichever backend keeps it, the repairs users need (forgetting
// an object, removing a dead run's lock, restoring an earlier version), moving it to another backend,
// rotating its encryption key, and the SQL a DBA runs for the postgres backend.

import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import { backendDdl, forgetResource, migrateState, moveResource, pullState, pushState, readState, recordedAt, rekeyState, stateHistory, unlockState } from "../engine/index.js";
import { renderBackendDdl, renderRekeyed, renderStateHistory, renderStateList, renderStateResource } from "../views/index.js";
import { run } from "./program.js";
import { addLocatingOptions, stateTarget, type LocatingFlags } from "./run-options.js";

interface TargetFlags extends LocatingFlags {
  lockTimeout?: string;
}

function withTarget(cmd: Command, options: { locks: boolean }): Command {
  addLocatingOptions(cmd);
  if (options.locks) cmd.option("--lock-timeout <duration>", "wait this long for a state lock another run holds, e.g. 5m");
  return cmd;
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
    run(async ({ output, env }, flags: TargetFlags) => {
      renderStateList(output, await readState(stateTarget(flags, output, env)));
      return 0;
    }),
  );
  withTarget(state.command("show <address>").description("show what the state records for one address (secrets are never stored)"), { locks: false }).action(
    run(async ({ output, env }, address: string, flags: TargetFlags) => {
      renderStateResource(output, address, recordedAt(await readState(stateTarget(flags, output, env)), address));
      return 0;
    }),
  );
  withTarget(state.command("rm <address>").description("forget an object: netform stops managing it, and the service keeps it"), { locks: true }).action(
    run(async ({ output, env }, address: string, flags: TargetFlags) => {
      await forgetResource(stateTarget(flags, output, env), address);
      output.out(`Removed ${address} from the state. The object itself was not touched.`);
      return 0;
    }),
  );
  withTarget(state.command("mv <source> <destination>").description("move an object to another address (a renamed resource): the service is not called"), { locks: true }).action(
    run(async ({ output, env }, source: string, destination: string, flags: TargetFlags) => {
      const moved = await moveResource(stateTarget(flags, output, env), source, destination);
      output.out(`Moved ${source} to ${destination}${moved.id ? ` (${moved.id})` : ""}. The object itself was not touched.`);
      return 0;
    }),
  );
  withTarget(state.command("pull").description("print the state as JSON (decrypted), or with --serial an earlier version the backend keeps"), { locks: false })
    .option("--serial <n>", "the version to print (netform state history lists them)")
    .action(
      run(async ({ output, env }, flags: TargetFlags & { serial?: string }) => {
        output.out((await pullState(stateTarget(flags, output, env), serialFlag(flags.serial))).trimEnd());
        return 0;
      }),
    );
  withTarget(state.command("push <file>").description("replace the state with FILE (a state as pull prints it); refused for another lineage or an older serial"), { locks: true })
    .option("--force", "push even when FILE has another lineage or an older serial")
    .action(
      run(async ({ output, env }, file: string, flags: TargetFlags & { force?: boolean }) => {
        let content: string;
        try {
          content = readFileSync(file, "utf8");
        } catch (e) {
          throw new NetformError({ code: "usage", message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, hint: "give a state file, e.g. one saved with: netform state pull > state.json" });
        }
        const pushed = await pushState(stateTarget(flags, output, env), content, file, Boolean(flags.force));
        output.out(`Pushed ${file} as serial ${pushed.serial} of lineage ${pushed.lineage}.`);
        return 0;
      }),
    );
  withTarget(state.command("history").description("list the versions of the state the backend keeps (postgres)"), { locks: false }).action(
    run(async ({ output, env }, flags: TargetFlags) => {
      renderStateHistory(output, await stateHistory(stateTarget(flags, output, env)));
      return 0;
    }),
  );
  withTarget(state.command("migrate").description("copy the state, with its lineage and serial, to another backend, and verify it there"), { locks: true })
    .requiredOption("--to <backend>", "local, or a backend block as YAML, e.g. '{postgres: {url: \"${env.NETFORM_PG_URL}\", name: prod}}'")
    .action(
      run(async ({ output, env }, flags: TargetFlags & { to: string }) => {
        const moved = await migrateState(stateTarget(flags, output, env), flags.to);
        for (const copy of moved.migrated) output.out(`Copied the state of workspace ${copy.workspace} (serial ${copy.serial}) to ${copy.location}, and read it back intact.`);
        output.out(`Switched the backend block of ${moved.configFile} to it.`);
        output.out(moved.migrated.length === 1 ? "The state it came from is left as it was: remove it once the new backend has served a run." : "The states they came from are left as they were: remove them once the new backend has served a run.");
        return 0;
      }),
    );
  withTarget(state.command("rekey").description("write the state and the earlier versions the backend keeps again with NETFORM_STATE_ENCRYPTION_KEY, reading them with NETFORM_STATE_ENCRYPTION_OLD_KEY"), { locks: true })
    .option("--prune-history", "remove the earlier versions instead of resealing them (postgres: the history; local: the .backup)")
    .action(
      run(async ({ output, env }, flags: TargetFlags & { pruneHistory?: boolean }) => {
        const rekeyed = await rekeyState(stateTarget(flags, output, env), { prune: Boolean(flags.pruneHistory) });
        renderRekeyed(output, rekeyed);
        return 0;
      }),
    );
  registerDdl(state);
}

function registerDdl(state: Command): void {
  state
    .command("ddl")
    .description("print the SQL that makes the postgres backend's schema and tables, for a DBA to run (then set createTables: false)")
    .option("-c, --config <path>", "the configuration whose postgres backend names the schema", ".")
    .option("--schema <name>", "the schema (default: the configuration's, else netform)")
    .option("--grant <role>", "also grant ROLE the data rights it needs on the tables, and nothing more")
    .action(
      run(async ({ output, env }, flags: { config: string; schema?: string; grant?: string }) => {
        renderBackendDdl(output, backendDdl({ configPath: flags.config, env }, { ...(flags.schema ? { schema: flags.schema } : {}), ...(flags.grant ? { role: flags.grant } : {}) }));
        return 0;
      }),
    );
}

export function registerForceUnlock(program: Command): void {
  withTarget(program.command("force-unlock <lockId>"), { locks: false }).action(
    run(async ({ output, env }, lockId: string, flags: TargetFlags) => {
      const holder = await unlockState(stateTarget(flags, output, env), lockId);
      output.out(`Removed the lock ${holder.id} held by ${holder.who} for ${holder.operation} since ${holder.created}.`);
      output.out("If that run is still going, it finds the lock gone at its next write to the state (refused) or before its next change to the service, and stops there, naming what it created that the state may not record.");
      return 0;
    }),
  );
}
