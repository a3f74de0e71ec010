// The command-line program: global options, one registration per verb, and the mapping from a
// command's outcome to the exit codes of CLI.md (0 success, 1 error, 2 changes or drift present).

import { Command, CommanderError, Option } from "commander";
import { NetformError } from "../diag/index.js";
import { renderError } from "../views/errors.js";
import { colorWanted, Output } from "../views/output.js";

export interface GlobalOptions {
  chdir?: string;
  color?: boolean;
  debug?: boolean;
}

/**
 * One run of the program: its arguments (after the executable and the script), its environment and its
 * standard streams. main.ts gives the process's own; the end-to-end tests give their own, to run many
 * commands in one process. The working directory is the process's (a test's runner enters it first).
 */
export interface Invocation {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; hasColors?(): boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; hasColors?(): boolean };
}

/** What a command's action gets: the output to write to, whether --debug is on, the run's environment and input. */
export interface RunContext {
  output: Output;
  debug: boolean;
  env: NodeJS.ProcessEnv;
  stdin: Invocation["stdin"];
}

/** The invocation each program runs, and the exit code its command's action came to. */
const runs = new WeakMap<Command, { invocation: Invocation; exitCode: number }>();

function runOf(cmd: Command): { invocation: Invocation; exitCode: number } {
  let root = cmd;
  while (root.parent) root = root.parent;
  const found = runs.get(root);
  if (!found) throw new Error("a command ran on a program that createProgram did not make");
  return found;
}

/** A command's action returns its exit code. */
export type Action<A extends unknown[]> = (ctx: RunContext, ...args: A) => Promise<number> | number;

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/** Wraps a command action: enters --chdir's directory, builds the output from the global flags, renders errors, keeps the exit code. */
export function run<A extends unknown[]>(action: Action<A>) {
  return async (...args: unknown[]): Promise<void> => {
    const cmd = args[args.length - 1] as Command;
    const opts = globals(cmd);
    const current = runOf(cmd);
    const { env, stdin, stdout, stderr } = current.invocation;
    const output = new Output({ ...(opts.color === false ? { color: false } : {}), env, stdout, stderr });
    try {
      if (opts.chdir !== undefined) enterDirectory(opts.chdir);
      current.exitCode = await action({ output, debug: Boolean(opts.debug), env, stdin }, ...(args.slice(0, -1) as A));
    } catch (error) {
      renderError(output, error, Boolean(opts.debug));
      current.exitCode = 1;
    }
  };
}

/**
 * Parses `args` (the invocation's, as netform.ts rewrote them) with `program`, made by createProgram for the
 * invocation, and runs the command they name: the exit code of CLI.md. Help, the version and usage errors
 * (`usageProblem` among them, found before parsing) end the parse through exitOverride.
 */
export async function runProgram(program: Command, args: readonly string[], usageProblem?: string): Promise<number> {
  try {
    if (usageProblem !== undefined) program.error(`error: ${usageProblem}`, { code: "netform.unknownOption" });
    await program.parseAsync(args, { from: "user" });
    return runOf(program).exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    throw error;
  }
}

/** `--chdir DIR`: the command runs in DIR, as with `terraform -chdir`; one that cannot be entered is a user error. */
function enterDirectory(dir: string): void {
  try {
    process.chdir(dir);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such directory" : (error as Error).message;
    throw new NetformError({ code: "usage", message: `--chdir ${dir}: ${reason}`, hint: "give a directory that exists, relative to where netform runs" });
  }
}

/** The program for one invocation. Its commands are registered after this (commander copies the output settings into each). */
export function createProgram(version: string, invocation: Invocation): Command {
  const program = new Command("netform")
    .description("Declarative provisioning for interconnection infrastructure: connections, routing protocols, route filters, virtual devices and VPNs.")
    .version(version, "-v, --version", "print the version")
    // -V was the short flag before -v, and scripts may still use it: kept, out of the help.
    .addOption(new Option("-V", "print the version").hideHelp())
    .on("option:V", () => {
      program.configureOutput().writeOut?.(`${version}\n`);
      throw new CommanderError(0, "netform.version", version);
    })
    .option("--chdir <dir>", "switch to DIR before running the command, as terraform -chdir does: paths given to the command are read from there")
    .option("--no-color", "do not colour the output (also: NO_COLOR=1)")
    .option("--debug", "show stack traces and HTTP traces (secrets redacted)")
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText(
      "after",
      `
Exit codes: 0 success (with --detailed-exitcode or drift: nothing to change), 1 error,
            2 changes present (plan --detailed-exitcode) or drift found (drift).

Environment:
  NETFORM_ENDPOINT                             overrides provider.endpoint
  NETFORM_CLIENT_ID, NETFORM_CLIENT_SECRET     OAuth2 client credentials
  NETFORM_TOKEN                                a ready bearer token instead
  NETFORM_VAR_<NAME>                           a variable's value
  NETFORM_WORKSPACE                            the workspace to work in (overrides netform workspace
                                               select; --workspace overrides it)
  NETFORM_STATE_KEY                            key of the secret hashes in state and plan files
                                               (required with a shared backend; unset with a
                                               local state: a random key kept in <state>.key)
  NETFORM_STATE_KEY_PREVIOUS                   while rotating it: the old key
  NETFORM_STATE_ENCRYPTION_KEY                 encrypt the state and saved plans (AES-256, base64 or hex;
                                               or NETFORM_STATE_ENCRYPTION_KEY_FILE); _OLD_KEY for state rekey
  NETFORM_HTTP_USERNAME, NETFORM_HTTP_PASSWORD basic auth for the http backend
  NETFORM_POLL_INTERVAL_MS                     first polling interval (default 1000)
  NETFORM_EMBEDDED_SPEED                       speed of the embedded simulator (default 30)
  NO_COLOR                                     no colour
  NODE_DISABLE_COMPILE_CACHE                   start without the compiled code netform saves per command

Start with: netform demo    (the quick start, on the embedded simulator)`,
    )
    // Help, the version and usage errors end the parse by throwing, not by ending the process: runProgram
    // turns them into the exit code (usage errors 1, like every other error; help and version 0).
    .exitOverride();
  runs.set(program, { invocation, exitCode: 0 });
  // As commander's own default: the terminal's width, none off a terminal (its typing wants a number).
  const width = (stream: Invocation["stdout"]) => (stream.isTTY ? stream.columns : undefined) as number;
  const colors = (stream: Invocation["stdout"]) => Boolean(stream.isTTY && stream.hasColors?.()) && colorWanted(stream, undefined, invocation.env);
  program.configureOutput({
    writeOut: (text) => void invocation.stdout.write(text),
    writeErr: (text) => void invocation.stderr.write(text),
    getOutHelpWidth: () => width(invocation.stdout),
    getErrHelpWidth: () => width(invocation.stderr),
    getOutHasColors: () => colors(invocation.stdout),
    getErrHasColors: () => colors(invocation.stderr),
  });
  return program;
}
