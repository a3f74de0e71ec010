// Running the built netform command line from tests: a temporary workspace with a configuration, the
// environment that points it at a test simulator, and the process's exit code and output.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

export function start(args: string[], options: { cwd: string; env?: Record<string, string>; input?: string }): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
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

export function netform(args: string[], options: { cwd: string; env?: Record<string, string>; input?: string }): Promise<CliResult> {
  return start(args, options).done;
}

/** The command's standard output and error as one stream, in the order a pipeline's log shows them (stdout of the result). */
export function netformMerged(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  const child = spawn("sh", ["-c", 'exec "$0" "$@" 2>&1', process.execPath, CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  return new Promise<CliResult>((resolveDone) => child.on("close", (code) => resolveDone({ code, stdout, stderr: "" })));
}
