// The flags plan, apply, destroy, drift and import share (CLI.md), parsed once into one run request that
// the command then hands on whole.

import type { Command } from "commander";
import { parseDuration, parseResourceAddress } from "../engine/index.js";
import { NetformError } from "../diag/index.js";
import { varFlags } from "./validate.js";

export interface RunFlags {
  config: string;
  state?: string;
  var: string[];
  varFile: string[];
  target: string[];
  replace?: string[];
  parallelism?: string;
  detailedExitcode?: boolean;
  autoApprove?: boolean;
  ignoreDowntime?: boolean;
  destroy?: boolean;
  refreshOnly?: boolean;
  out?: string;
  format: string;
  lockTimeout?: string;
  lock: string;
  /** False with --no-cost. */
  cost?: boolean;
  /** "false" with --refresh=false. */
  refresh?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function addRunOptions(cmd: Command, options: { planFlags: boolean }): Command {
  cmd
    .option("-c, --config <path>", "a configuration file or a directory of *.yaml / *.yml files", ".")
    .option("--state <file>", "the state file (default: netform.state.json beside the configuration)")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, [])
    .option("--target <address>", "limit the run to this address (plan, apply: and what it depends on; destroy: and what depends on it) (repeatable)", collect, []);
  addParallelismOption(cmd);
  addLockOptions(cmd);
  if (options.planFlags) {
    cmd
      .option("--replace <address>", "replace this resource even if nothing changed (repeatable)", collect, [])
      .option("--destroy", "plan to destroy everything in the state")
      .option("--refresh-only", "only record in the state what the service reports, changing nothing")
      .option("--no-cost", "leave the monthly cost out of the plan, and make no price requests")
      .option("--refresh <true|false>", "false: plan from the state as recorded, without reading the objects it records from the service", "true");
  }
  return cmd;
}

/** --parallelism, on every command that calls the API. */
export function addParallelismOption(cmd: Command): Command {
  return cmd.option("--parallelism <n>", "API calls that change something in flight at once, with as many reads beside them (default: provider.parallelism, else 10)");
}

/** --lock-timeout, on every command that takes the state lock, and --lock=false for those that only read. */
export function addLockOptions(cmd: Command): Command {
  return cmd
    .option("--lock-timeout <duration>", "wait this long for a state lock another run holds, e.g. 5m (default: refuse at once)")
    .option("--lock <true|false>", "false: read the state without taking its lock (plan and drift only)", "true");
}

/** The lock flags, checked: how long to wait, and whether to lock at all. */
export function lockRequest(flags: { lockTimeout?: string; lock?: string }): { lockTimeoutMs?: number; lock: boolean } {
  let lockTimeoutMs: number | undefined;
  if (flags.lockTimeout !== undefined) {
    lockTimeoutMs = parseDuration(flags.lockTimeout);
    if (lockTimeoutMs === undefined) throw new NetformError({ code: "usage", message: `--lock-timeout must be a duration such as 5m, 90s or 1h, got "${flags.lockTimeout}"` });
  }
  if (flags.lock !== undefined && flags.lock !== "true" && flags.lock !== "false") throw new NetformError({ code: "usage", message: `--lock takes true or false, got "${flags.lock}"` });
  return { ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}), lock: flags.lock !== "false" };
}

function checkAddresses(flag: string, addresses: readonly string[]): string[] {
  for (const a of addresses) {
    if (parseResourceAddress(a)) continue;
    // The shell drops the double quotes of an unquoted connections.vlan["1001"], leaving connections.vlan[1001].
    const unquoted = /^([^[]+)\[([^"\]]*)\]$/.exec(a);
    const hint = unquoted
      ? `an instance's key is in double quotes, and the shell keeps them only inside single quotes: ${flag} '${unquoted[1] ?? ""}["${unquoted[2] ?? ""}"]'`
      : 'addresses are KIND.NAME, or KIND.NAME["KEY"] for one instance of a resource with forEach, e.g. connections.dc-to-cloud';
    throw new NetformError({ code: "usage", message: `${flag} ${a}: not an address`, hint });
  }
  // Given twice, an address is still one target.
  return [...new Set(addresses)];
}

/** What a command asks of one run, parsed and checked once from its flags. */
export interface RunRequest {
  configPath: string;
  statePath?: string;
  inputs: { vars: Record<string, string>; varFiles: string[] };
  parallelism?: number;
  targets: string[];
  replace: string[];
  mode: "normal" | "destroy" | "refresh-only";
  /** Price the plan's changes (false with --no-cost). */
  cost: boolean;
  lockTimeoutMs?: number;
  lock: boolean;
  /** False: --refresh=false, plan from the state alone. */
  refresh: boolean;
}

export function runRequest(flags: RunFlags): RunRequest {
  let parallelism: number | undefined;
  if (flags.parallelism !== undefined) {
    parallelism = Number(flags.parallelism);
    if (!Number.isInteger(parallelism) || parallelism < 1) throw new NetformError({ code: "usage", message: `--parallelism must be a whole number of at least 1, got "${flags.parallelism}"` });
  }
  if (flags.destroy && flags.refreshOnly) throw new NetformError({ code: "usage", message: "--destroy and --refresh-only cannot be used together" });
  if (flags.refresh !== undefined && flags.refresh !== "true" && flags.refresh !== "false") throw new NetformError({ code: "usage", message: `--refresh takes true or false, got "${flags.refresh}"` });
  const refresh = flags.refresh !== "false";
  if (!refresh && flags.refreshOnly) throw new NetformError({ code: "usage", message: "--refresh=false and --refresh-only cannot be used together: a refresh-only plan is nothing but a refresh", hint: "leave out one of them" });
  return {
    configPath: flags.config,
    ...(flags.state ? { statePath: flags.state } : {}),
    inputs: { vars: varFlags(flags.var), varFiles: flags.varFile },
    ...(parallelism !== undefined ? { parallelism } : {}),
    targets: checkAddresses("--target", flags.target),
    replace: checkAddresses("--replace", flags.replace ?? []),
    mode: flags.destroy ? ("destroy" as const) : flags.refreshOnly ? ("refresh-only" as const) : ("normal" as const),
    cost: flags.cost !== false,
    ...lockRequest(flags),
    refresh,
  };
}
