// What the command line names, read before commander has parsed it: the start-up (main.ts) and the
// program (netform.ts) both need it before anything else is loaded.

/** The global options that take a value (program.ts declares them), in either spelling: `-chdir DIR` names no command `DIR`. */
const GLOBALS_WITH_VALUE = new Set(["--chdir", "-chdir"]);

/** The command the arguments name: the first one that is neither a global option nor its value. */
export function commandNamed(args: readonly string[]): string | undefined {
  return args.find((a, i) => !a.startsWith("-") && !(i > 0 && GLOBALS_WITH_VALUE.has(args[i - 1]!)));
}

/**
 * Terraform's spelling of long flags, with one dash (`-out=plan.bin`, `-auto-approve`, `-check`), turned
 * into commander's (`--out=plan.bin`): users and pipelines coming from Terraform type them by habit. Only a
 * word that is the long name of an option the run knows is rewritten, so short flags (`-c dir`), their
 * clusters, negative numbers and everything after `--` stay as they are. Terraform's `-json`
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
