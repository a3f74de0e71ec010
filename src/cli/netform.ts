// The program: builds the command line and runs it (src/cli/main.ts starts it). A command's module (and the
// engine, the views and the simulator it pulls in) is initialised only when that command runs: doing it for
// them all would make every invocation, `--help` included, pay for every command.

import { createRequire } from "node:module";
import type { Command } from "commander";
import type { Invocation } from "./program.js";
import { commandNamed, oneDashProblem, withDoubleDashes } from "./args.js";

type Register = (program: Command) => void;

/** Every command, in the order of the help: its usage, its one-line summary in the list, and how to load it. */
const COMMANDS: ReadonlyArray<{ usage: string; summary: string; load(): Promise<Register> }> = [
  { usage: "init", summary: "check what every run needs: the configuration, the backend (making its folder or tables), the service and the credentials, the lookups", load: async () => (await import("./init.js")).registerInit },
  { usage: "validate", summary: "check the configuration against the service's rules, without calling the API", load: async () => (await import("./validate.js")).registerValidate },
  { usage: "fmt [files...]", summary: "rewrite configuration files in the canonical form: keys in schema order, two-space indent, comments kept", load: async () => (await import("./fmt.js")).registerFmt },
  { usage: "plan", summary: "show what apply would change, without changing anything", load: async () => (await import("./plan.js")).registerPlan },
  { usage: "apply [planfile]", summary: "make the service match the configuration, or apply exactly a saved plan", load: async () => (await import("./apply.js")).registerApply },
  { usage: "destroy", summary: "delete everything the state records", load: async () => (await import("./apply.js")).registerApply },
  { usage: "drift", summary: "report what changed outside netform: exit 0 none, 2 drift, 1 error", load: async () => (await import("./drift.js")).registerDrift },
  { usage: "cost", summary: "the running monthly cost of everything the state records, by kind and by metro", load: async () => (await import("./cost.js")).registerCost },
  { usage: "show [planfile]", summary: "show a saved plan, or without one what the state records", load: async () => (await import("./show.js")).registerShow },
  { usage: "output [name]", summary: "print the outputs the last apply recorded; with NAME, that value alone (sensitive ones too)", load: async () => (await import("./output.js")).registerOutput },
  { usage: "import <address> <uuid>", summary: "adopt an object that already exists on the service under an address the configuration declares", load: async () => (await import("./import.js")).registerImport },
  { usage: "workspace", summary: "list, show, make, select or delete workspaces: the environments of one configuration, each with its own state", load: async () => (await import("./workspace.js")).registerWorkspace },
  { usage: "state", summary: "inspect, restore, move or rekey the state, or forget an object in it", load: async () => (await import("./state.js")).registerState },
  { usage: "graph", summary: "print the dependency graph of the configuration (Graphviz DOT or Mermaid), without calling the API", load: async () => (await import("./graph.js")).registerGraph },
  { usage: "force-unlock <lockId>", summary: "remove the state lock left by a run that died (give the lock ID the error showed)", load: async () => (await import("./state.js")).registerForceUnlock },
  { usage: "sim", summary: "run the embedded simulator of the service on loopback (for rehearsals, demos and tests)", load: async () => (await import("./sim.js")).registerSim },
  { usage: "schema", summary: "print the JSON Schema of the configuration (for editors and the YAML language server)", load: async () => (await import("./schema.js")).registerSchema },
  { usage: "demo", summary: "the quick start: validate, plan, apply and plan again examples/quickstart on the embedded simulator", load: async () => (await import("./demo.js")).registerDemo },
  { usage: "completion", summary: "print a completion script for bash, zsh or fish: commands, subcommands and flags", load: async () => (await import("./completion.js")).registerCompletion },
  { usage: "version", summary: "print the version of netform, its platform and its Node.js release (--json for pipelines)", load: async () => (await import("./version.js")).registerVersion },
];

const nameOf = (usage: string): string => usage.split(" ")[0]!;

/** The commands' names, for the entry point: it keeps a code cache for each of them (main.ts). */
export const commandNames: readonly string[] = COMMANDS.map((c) => nameOf(c.usage));

/**
 * Registers what this invocation needs: the named command alone; for `help NAME`, NAME; for completion,
 * which describes the whole tree, every command; otherwise (the top-level help, a mistyped command)
 * each command's name and summary, which is all the list of commands and the suggestions need.
 */
async function register(program: Command, args: readonly string[]): Promise<void> {
  const named = commandNamed(args);
  const wanted = named === "help" ? commandNamed(args.slice(args.indexOf("help") + 1)) : named;
  const entry = COMMANDS.find((c) => nameOf(c.usage) === wanted);
  if (wanted === "completion" || entry) {
    const registers = new Set(await Promise.all((wanted === "completion" ? COMMANDS : [entry!]).map((c) => c.load())));
    for (const registerCommand of registers) registerCommand(program);
    // The table is where a command's description is written: the help of each command shows it too.
    for (const cmd of program.commands) cmd.description(COMMANDS.find((c) => nameOf(c.usage) === cmd.name())!.summary);
    return;
  }
  for (const c of COMMANDS) program.command(c.usage).description(c.summary);
}

/** Runs one invocation of netform (main.ts runs the process's): its exit code. */
export async function runNetform(invocation: Invocation): Promise<number> {
  const { createProgram, runProgram } = await import("./program.js");
  const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };
  const program = createProgram(version, invocation);
  await register(program, invocation.args);
  const names = longOptionNames(program);
  const rewritten = withDoubleDashes(invocation.args, names);
  return runProgram(program, rewritten, oneDashProblem(rewritten, names, shortOptionsWithValue(program)));
}

/** The short options that take a value (-c for --config), by letter, with their long name. */
function shortOptionsWithValue(cmd: Command, found = new Map<string, string>()): Map<string, string> {
  for (const option of cmd.options) if (option.short && option.long && (option.required || option.optional)) found.set(option.short.slice(1), option.long);
  for (const sub of cmd.commands) shortOptionsWithValue(sub, found);
  return found;
}

/** The long names of every option the registered commands and the program take, `help` included. */
function longOptionNames(cmd: Command, names = new Set(["help"])): Set<string> {
  for (const option of cmd.options) if (option.long) names.add(option.long.slice(2));
  for (const sub of cmd.commands) longOptionNames(sub, names);
  return names;
}

