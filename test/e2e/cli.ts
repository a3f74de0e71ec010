// Running the built netform command line from tests: a temporary workspace with a configuration, the
// environment that points it at a test simulator, and the command's exit code and output.
//
// `netform` runs the built program (dist/cli/netform.cjs, the bundle the installed command runs) inside
// this process, as an invocation of its own: starting a Node process for each of the suite's commands
// took most of its CPU. A command runs as a process of its own where the process is what is tested or
// needed: `start` (a test that signals, kills or races it), `netformMerged` (one stream, as a shell's
// 2>&1 gives it), demo and sim, --debug (the entry point turns on source maps), a command while another
// runs in this process (the working directory is the process's), and every command with
// NETFORM_TEST_PROCESSES=1.

import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { commandNamed } from "../../src/cli/args.js";
import type * as Netform from "../../src/cli/netform.js";
import { memoryInvocation } from "../support/invocation.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = join(root, "dist/cli/main.js");
export const EXAMPLES = join(root, "examples");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  dir: string;
  statePath: string;
  write(yaml: string, file?: string): void;
  /** The state as netform reads it: the state file with the steps journaled since it was written (unencrypted journals). */
  state(): { resources: Record<string, { id?: string; kind: string; parent?: string; attributes: Record<string, unknown>; pending?: unknown; sensitiveHashes: Record<string, string> }>; serial: number; lineage: string; timings?: Record<string, Record<string, { seconds: number; samples: number }>> };
  stateText(): string;
}

type StateJson = ReturnType<Workspace["state"]>;

/**
 * The state file with the records of its journal applied (src/state/journal.ts): a running apply
 * writes its steps there between two versions of the file. A line not yet ended is still being written.
 */
function withJournal(state: StateJson, journalPath: string): StateJson {
  let text = "";
  try {
    text = readFileSync(journalPath, "utf8");
  } catch {
    // No journal (none yet, or folded away while this read).
  }
  for (const line of text.split("\n").slice(0, -1)) {
    const { lineage, after, record } = JSON.parse(line) as { lineage: string; after: number; record?: { set?: StateJson["resources"]; remove?: string[] } };
    if (lineage !== state.lineage || after !== state.serial || !record) continue;
    for (const address of record.remove ?? []) delete state.resources[address];
    Object.assign(state.resources, record.set ?? {});
  }
  return state;
}

export function workspace(yaml?: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "netform-e2e-"));
  const ws: Workspace = {
    dir,
    statePath: join(dir, "netform.state.json"),
    write(text, file = "netform.yaml") {
      writeFileSync(join(dir, file), text);
    },
    state() {
      return withJournal(JSON.parse(readFileSync(ws.statePath, "utf8")), `${ws.statePath}.journal`);
    },
    stateText() {
      return existsSync(ws.statePath) ? readFileSync(ws.statePath, "utf8") : "";
    },
  };
  if (yaml) ws.write(yaml);
  return ws;
}

/**
 * The environment that points netform at a simulator started by the test, polling fast, with the state
 * key set as the README recommends (`NETFORM_STATE_KEY: ""` in `extra` runs without one).
 */
export function simEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NETFORM_ENDPOINT: url,
    NETFORM_CLIENT_ID: "demo-client",
    NETFORM_CLIENT_SECRET: "demo-secret",
    // A thousandth of the real service's smallest interval: netform then expects transitions a thousand
    // times shorter, as the simulators the tests start (speed 1000) make them.
    NETFORM_POLL_INTERVAL_MS: "1",
    // Keyed as the README recommends; an unkeyed run with secrets warns on stderr.
    NETFORM_STATE_KEY: "e2e-state-key",
    NO_COLOR: "1",
    ...extra,
  };
}

interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string;
}

/** A command's environment: what the test gives, on a PATH and HOME of the test's own. */
const commandEnv = (options: RunOptions): Record<string, string> => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env });

export function start(args: string[], options: RunOptions): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: commandEnv(options),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  if (options.input !== undefined) child.stdin!.end(options.input);
  else child.stdin!.end();
  const done = new Promise<CliResult>((resolveDone) => child.on("close", (code) => resolveDone({ code, stdout, stderr })));
  return { child, done };
}

/** Commands that are a process's whole session: demo runs its own entry point again, sim runs until a signal. */
const OWN_PROCESS = new Set(["demo", "sim"]);

/** What the entry point does for the whole process: --debug turns on source maps for its stack traces. */
const forTheProcess = (args: readonly string[]): boolean => args.includes("--debug") || args.includes("-debug");

let program: typeof Netform | undefined;
let running = false;

export function netform(args: string[], options: RunOptions): Promise<CliResult> {
  const command = commandNamed(args);
  if (running || process.env.NETFORM_TEST_PROCESSES === "1" || (command !== undefined && OWN_PROCESS.has(command)) || forTheProcess(args)) return start(args, options).done;
  return inThisProcess(args, options);
}

/**
 * Runs the command in this process, in its working directory, with its environment and input; what it
 * writes is kept as a pipe would receive it. A defect that escapes the program is reported as the
 * process would report it: exit 1, the stack on standard error.
 */
async function inThisProcess(args: string[], options: RunOptions): Promise<CliResult> {
  running = true;
  const previous = process.cwd();
  const run = memoryInvocation(args, commandEnv(options), options.input);
  try {
    process.chdir(options.cwd);
    program ??= createRequire(import.meta.url)(join(root, "dist/cli/netform.cjs")) as typeof Netform;
    const code = await program.runNetform(run.invocation).catch((error: unknown) => {
      run.invocation.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      return 1;
    });
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  } finally {
    process.chdir(previous);
    running = false;
  }
}

/** The command's standard output and error as one stream, in the order a pipeline's log shows them (stdout of the result). */
export function netformMerged(args: string[], options: Omit<RunOptions, "input">): Promise<CliResult> {
  const child = spawn("sh", ["-c", 'exec "$0" "$@" 2>&1', process.execPath, CLI, ...args], {
    cwd: options.cwd,
    env: commandEnv(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  return new Promise<CliResult>((resolveDone) => child.on("close", (code) => resolveDone({ code, stdout, stderr: "" })));
}
