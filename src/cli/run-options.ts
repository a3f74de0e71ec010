// The flags plan, apply, destroy, drift and import share (CLI.md), parsed once into one run request that
// the command then hands on whole.

import type { Command } from "commander";
import { parseDuration, parseResourceAddress, type StateTarget } from "../engine/index.js";
import type { Output } from "../views/index.js";
import { NetformError } from "../diag/index.js";
import { varFlags } from "./validate.js";

/** The flags that locate a configuration's state (addLocatingOptions). */
export interface LocatingFlags {
  config: string;
  state?: string;
  var: string[];
  varFile: string[];
  workspace?: string;
}

export interface RunFlags extends LocatingFlags {
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
  /** "false" with Terraform's -input=false: never ask (apply without --auto-approve is refused). */
  input?: string;
  /** Terraform's -compact-warnings: each warning on one line, without its hint. */
  compactWarnings?: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * The flags that say which state a command works on, alike on every command that reads one: the
 * configuration (its backend block may use variables, hence --var and --var-file), a local state file
 * instead, and the workspace.
 */
export function addLocatingOptions(cmd: Command): Command {
  return cmd
    .option("-c, --config <path>", "the configuration: a file or a directory of *.yaml / *.yml files; its backend block says where the state is", ".")
    .option("--state <file>", "a local state file instead (default workspace only; default: the backend block, else netform.state.json beside the configuration)")
    .option("--var <NAME=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--var-file <file>", "read variables from a YAML file (repeatable)", collect, [])
    .option("--workspace <name>", "the workspace whose state to use (default: NETFORM_WORKSPACE, else the one netform workspace select chose, else default)");
}

/** The locating flags, checked, as the engine takes them. */
export function locatingRequest(flags: LocatingFlags): { configPath: string; statePath?: string; workspace?: string; inputs: { vars: Record<string, string>; varFiles: string[] } } {
  return {
    configPath: flags.config,
    ...(flags.state ? { statePath: flags.state } : {}),
    ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}),
    inputs: { vars: varFlags(flags.var), varFiles: flags.varFile },
  };
}

/** The state a state command works on, from its locating flags (and --lock-timeout, for those that write). */
export function stateTarget(flags: LocatingFlags & { lockTimeout?: string }, output: Output, env: NodeJS.ProcessEnv): StateTarget {
  const { lockTimeoutMs } = lockRequest(flags);
  return {
    ...locatingRequest(flags),
    env,
    ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}),
    onLockWait: (message) => output.err(output.c.yellow(`Waiting for the state lock: ${message}`)),
  };
}

export function addRunOptions(cmd: Command, options: { planFlags: boolean }): Command {
  addLocatingOptions(cmd)
    .option("--target <address>", "limit the run to this address (plan, apply: and what it depends on; destroy: and what depends on it) (repeatable)", collect, []);
  addParallelismOption(cmd);
  addLockOptions(cmd);
  addPipelineOptions(cmd);
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

/**
 * Terraform's flags that pipelines pass to every command, with their meaning here: -input=false (netform
 * asks for nothing but an apply's approval, which it then refuses to ask for) and -compact-warnings.
 */
export function addPipelineOptions(cmd: Command): Command {
  return cmd
    .option("--input <true|false>", "false: never ask for input (netform asks only for an apply's approval: give --auto-approve or a saved plan)", "true")
    .option("--compact-warnings", "show each warning on one line, without its hint (errors in full)");
}

/** --input, checked: whether a prompt may be shown. */
export function inputAllowed(flags: { input?: string }): boolean {
  if (flags.input !== undefined && flags.input !== "true" && flags.input !== "false") throw new NetformError({ code: "usage", message: `--input takes true or false, got "${flags.input}"` });
  return flags.input !== "false";
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
  /** --workspace, when given. */
  workspace?: string;
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
  inputAllowed(flags);
  if (!refresh && flags.refreshOnly) throw new NetformError({ code: "usage", message: "--refresh=false and --refresh-only cannot be used together: a refresh-only plan is nothing but a refresh", hint: "leave out one of them" });
  return {
    ...locatingRequest(flags),
    ...(parallelism !== undefined ? { parallelism } : {}),
    targets: checkAddresses("--target", flags.target),
    replace: checkAddresses("--replace", flags.replace ?? []),
    mode: flags.destroy ? ("destroy" as const) : flags.refreshOnly ? ("refresh-only" as const) : ("normal" as const),
    cost: flags.cost !== false,
    ...lockRequest(flags),
    refresh,
  };
}
