// What the command line names, read before commander has parsed it: the start-up (main.ts) and the
// program (netform.ts) both need it before anything else is loaded.

/** The command the arguments name: the first one that is not a global option. */
export function commandNamed(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-"));
}
