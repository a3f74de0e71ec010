// What the command line names, read before commander has parsed it: the start-up (main.ts) and the
// program (netform.ts) both need it before anything else is loaded.

import { closest } from "../diag/suggest.js";

/** The global options that take a value (program.ts declares them), in either spelling: `-chdir DIR` names no command `DIR`. */
const GLOBALS_WITH_VALUE = new Set(["--chdir", "-chdir"]);

/** The command the arguments name: the first one that is neither a global option nor its value. */
export function commandNamed(args: readonly string[]): string | undefined {
  return args.find((a, i) => !a.startsWith("-") && !(i > 0 && GLOBALS_WITH_VALUE.has(args[i - 1]!)));
}

/**
 * Terraform's spelling of long flags, with one dash (`-out=plan.bin`, `-auto-approve`, `-check`), turned
 * into commander's (`--out=plan.bin`): users and pipelines coming from Terraform type them by habit. Only a
 * word that is the long name of an option the run knows is rewritten, so short flags (`-c dir`), negative
 * numbers and everything after `--` stay as they are; another one-dash word is refused (oneDashProblem). Terraform's `-json`
 * (`terraform show -json`, `validate -json`) is `--format=json` where a command has a format and no --json.
 */
export function withDoubleDashes(args: readonly string[], longNames: ReadonlySet<string>): string[] {
  const end = args.indexOf("--");
  return args.map((arg, i) => {
    if (end >= 0 && i > end) return arg;
    if ((arg === "-json" || arg === "--json") && !longNames.has("json") && longNames.has("format")) return "--format=json";
    const name = /^-([a-z][a-z0-9-]+)(?:=|$)/.exec(arg)?.[1];
    return name !== undefined && longNames.has(name) ? `-${arg}` : arg;
  });
}

/**
 * Terraform flags netform does not take, with what to do instead: a pipeline ported from Terraform is told
 * how to say the same here, not only that the word is unknown.
 */
const TERRAFORM_ONLY: Readonly<Record<string, string>> = {
  "backend-config": "netform's backend block takes ${env.NAME} and ${var.NAME}: write them in the block, and give their values with --var, --var-file or the environment",
  "migrate-state": "move a state to another backend with: netform state migrate --to BACKEND",
  "force-copy": "move a state to another backend with: netform state migrate --to BACKEND",
  "state-out": "netform writes the state where the backend block (or --state) says; copy one with netform state pull and netform state push",
  backup: "netform keeps the state's history itself: see netform state history and netform state restore",
  "get": "netform has no modules to download: leave the flag out",
  "plugin-dir": "netform has no plugins to install: leave the flag out",
  "from-module": "netform has no modules to copy: leave the flag out",
  "replace-provider": "netform has one provider: leave the flag out",
};

/**
 * What is wrong with a one-dash word of the command line that is no option's long name (`-compact-warning`,
 * `-lockfile`, `-cdir`), or undefined when there is none. Such a word is an error naming it, with the
 * closest option's name or what to do instead: read as a short flag with its value attached (`-c
 * ompact-warnings`), it would silently mean something else. `shortsWithValue` are the short options that
 * take a value (`c` for -c/--config).
 */
export function oneDashProblem(args: readonly string[], longNames: ReadonlySet<string>, shortsWithValue: ReadonlyMap<string, string> = new Map()): string | undefined {
  const end = args.indexOf("--");
  for (const [i, arg] of args.entries()) {
    if (end >= 0 && i > end) break;
    const name = /^-([a-zA-Z][a-zA-Z0-9-]+)(?:=|$)/.exec(arg)?.[1];
    if (name === undefined || longNames.has(name)) continue;
    const instead = TERRAFORM_ONLY[name];
    if (instead !== undefined) return `netform does not take -${name}: ${instead}`;
    const best = closest(name, longNames);
    const short = shortsWithValue.get(name[0]!);
    const hints = [
      ...(best !== undefined ? [`did you mean --${best}?`] : []),
      ...(short !== undefined ? [`for -${name[0]} (${short}) with a value, put a space between them: -${name[0]} ${arg.slice(2)}`] : []),
    ];
    return `unknown option '${arg}'${hints.length > 0 ? ` (${hints.join("; ")})` : ""}`;
  }
  return undefined;
}
