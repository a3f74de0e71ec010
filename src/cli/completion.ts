// `netform completion bash|zsh|fish`: a completion script for the shell. It is generated from the program's
// own tree of commands and options when asked for, so it completes exactly what this netform accepts.

import { Argument, type Command } from "commander";
import { run } from "./program.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

interface Completable {
  name: string;
  description: string;
}

interface Flag {
  /** The spellings of the option: "-c" and "--config", or just "--debug". */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The values it takes, when they are a fixed set. */
  choices: readonly string[];
}

/** A command the user may be typing ("netform", "netform state", "netform state list") and what may follow it. */
interface Position {
  path: string;
  commands: Completable[];
  flags: Flag[];
  /** The values its arguments take, when they are a fixed set. */
  argumentChoices: string[];
}

function positions(program: Command): Position[] {
  const found: Position[] = [];
  const visit = (cmd: Command, path: string): void => {
    const help = cmd.createHelp();
    // The program's options are accepted after any subcommand, so each position offers them too.
    help.showGlobalOptions = true;
    const subcommands = help.visibleCommands(cmd);
    found.push({
      path,
      commands: subcommands.flatMap((sub) => [sub.name(), ...sub.aliases()].map((name) => ({ name, description: sub.summary() || sub.description() }))),
      flags: [...help.visibleOptions(cmd), ...help.visibleGlobalOptions(cmd)].map((option) => ({
        names: [option.short, option.long].filter((name): name is string => name !== undefined),
        description: option.description,
        takesValue: option.required || option.optional,
        choices: option.argChoices ?? [],
      })),
      argumentChoices: cmd.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
    });
    for (const sub of subcommands) visit(sub, `${path} ${sub.name()}`);
  };
  visit(program, program.name());
  return found;
}

const names = (flags: Flag[]): string[] => flags.flatMap((flag) => flag.names);
const valued = (flags: Flag[]): string[] => names(flags.filter((flag) => flag.takesValue));

/** A word in single quotes for bash and zsh. */
const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A `case` over the positions' paths that gives, for each, the words `select` picks. */
function shCase(all: Position[], select: (position: Position) => string[], output: (words: string[]) => string): string {
  return all
    .map((position) => ({ path: position.path, words: select(position) }))
    .filter(({ words }) => words.length > 0)
    .map(({ path, words }) => `    ${sq(path)}) ${output(words)} ;;`)
    .join("\n");
}

/** `case "$1|$2"` over a position and one of its options (or "" for its arguments) with a fixed set of values. */
function valuesCase(all: Position[], output: (words: readonly string[]) => string): string {
  return all
    .flatMap((position) => [
      ...position.flags.filter((flag) => flag.choices.length > 0).flatMap((flag) => flag.names.map((name) => ({ key: `${position.path}|${name}`, words: flag.choices }))),
      ...(position.argumentChoices.length > 0 ? [{ key: `${position.path}|`, words: position.argumentChoices }] : []),
    ])
    .map(({ key, words }) => `    ${sq(key)}) ${output(words)} ;;`)
    .join("\n");
}

function bash(all: Position[]): string {
  const echo = (words: readonly string[]) => `echo ${words.map(sq).join(" ")}`;
  return `# bash completion for netform, printed by \`netform completion bash\`.
# Install: add this line to ~/.bashrc:  source <(netform completion bash)

_netform_commands() {
  case "$1" in
${shCase(all, (p) => p.commands.map((c) => c.name), echo)}
  esac
}

_netform_flags() {
  case "$1" in
${shCase(all, (p) => names(p.flags), echo)}
  esac
}

_netform_valued_flags() {
  case "$1" in
${shCase(all, (p) => valued(p.flags), echo)}
  esac
}

# The values of a flag ($2), or of the arguments ($2 empty), that take a fixed set of them.
_netform_values() {
  case "$1|$2" in
${valuesCase(all, echo)}
  esac
}

_netform_has() { [[ " $1 " == *" $2 "* ]]; }

_netform() {
  local cur=\${COMP_WORDS[COMP_CWORD]} at=netform flag= word i
  # Walk the words before the cursor to the command being typed, stepping over flags' values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ -n $flag ]]; then
      flag=
    elif _netform_has "$(_netform_valued_flags "$at")" "$word"; then
      flag=$word
    elif _netform_has "$(_netform_commands "$at")" "$word"; then
      at="$at $word"
    fi
  done
  if [[ -n $flag ]]; then
    COMPREPLY=($(compgen -W "$(_netform_values "$at" "$flag")" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_netform_flags "$at")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_netform_commands "$at") $(_netform_values "$at" "")" -- "$cur"))
  fi
}

# Where nothing above matches (a file argument, a flag's file value), bash completes file names.
complete -o default -F _netform netform
`;
}

function zsh(all: Position[]): string {
  const described = (items: Completable[]) => items.map((item) => sq(`${item.name}:${item.description}`)).join(" ");
  const flagItems = (flags: Flag[]) => flags.flatMap((flag) => flag.names.map((name) => ({ name, description: flag.description })));
  const arrays = all
    .map(
      (p) => `    ${sq(p.path)})
      names=(${p.commands.map((c) => sq(c.name)).join(" ")})
      subcommands=(${described(p.commands)})
      flags=(${described(flagItems(p.flags))})
      valued=(${valued(p.flags).map(sq).join(" ")}) ;;`,
    )
    .join("\n");
  return `#compdef netform
# zsh completion for netform, printed by \`netform completion zsh\`.
# Install: add this line to ~/.zshrc, after compinit:  source <(netform completion zsh)

# What may follow a command: its subcommands (names, and name:description), flags, and flags taking a value.
_netform_at() {
  case $1 in
${arrays}
    *) names=() subcommands=() flags=() valued=() ;;
  esac
}

# The values of a flag ($2), or of the arguments ($2 empty), that take a fixed set of them, in reply.
_netform_values() {
  reply=()
  case "$1|$2" in
${valuesCase(all, (words) => `reply=(${words.map(sq).join(" ")})`)}
  esac
}

_netform() {
  local at=netform flag= word i
  local -a names subcommands flags valued reply
  # Walk the words before the cursor to the command being typed, stepping over flags' values.
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    _netform_at "$at"
    if [[ -n $flag ]]; then
      flag=
    elif (( \${valued[(Ie)$word]} )); then
      flag=$word
    elif (( \${names[(Ie)$word]} )); then
      at="$at $word"
    fi
  done
  _netform_at "$at"
  if [[ -n $flag ]]; then
    _netform_values "$at" "$flag"
    if (( $#reply )); then compadd -a reply; else _files; fi
  elif [[ $PREFIX == -* ]]; then
    _describe -t flags flag flags
  else
    _netform_values "$at" ""
    if (( $#subcommands )); then _describe -t commands command subcommands
    elif (( $#reply )); then compadd -a reply
    else _files
    fi
  fi
}

# Autoloaded from fpath, this file is _netform's body: run it. Sourced, register it.
if [[ $funcstack[1] == _netform ]]; then _netform "$@"; else compdef _netform netform; fi
`;
}

function fish(all: Position[]): string {
  const fq = (text: string): string => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  const lines = (words: string[]) => `printf '%s\\n' ${words.map(fq).join(" ")}`;
  const switchOver = (select: (p: Position) => string[]) =>
    all
      .map((p) => ({ path: p.path, words: select(p) }))
      .filter(({ words }) => words.length > 0)
      .map(({ path, words }) => `        case ${fq(path)}\n            ${lines(words)}`)
      .join("\n");
  const completions = all.flatMap((p) => {
    const at = `-n "__netform_is ${fq(p.path)}"`;
    return [
      ...p.commands.map((c) => `complete -c netform ${at} -f -a ${fq(c.name)} -d ${fq(c.description)}`),
      ...(p.argumentChoices.length > 0 ? [`complete -c netform ${at} -f -a ${fq(p.argumentChoices.join(" "))}`] : []),
      ...p.flags.map((flag) => {
        const spellings = flag.names.map((name) => (name.startsWith("--") ? `-l ${fq(name.slice(2))}` : `-s ${fq(name.slice(1))}`)).join(" ");
        const value = flag.choices.length > 0 ? ` -x -a ${fq(flag.choices.join(" "))}` : flag.takesValue ? " -r" : "";
        return `complete -c netform ${at} ${spellings}${value} -d ${fq(flag.description)}`;
      }),
    ];
  });
  return `# fish completion for netform, printed by \`netform completion fish\`.
# Install: netform completion fish > ~/.config/fish/completions/netform.fish  (again after upgrading netform)

function __netform_commands
    switch $argv[1]
${switchOver((p) => p.commands.map((c) => c.name))}
    end
end

function __netform_valued_flags
    switch $argv[1]
${switchOver((p) => valued(p.flags))}
    end
end

# The command being typed ("netform", "netform state", ...), from the words before the cursor.
function __netform_at
    set -l at netform
    set -l flag 0
    set -l words (commandline -opc)
    set -e words[1]
    for word in $words
        if test $flag = 1
            set flag 0
        else if contains -- $word (__netform_valued_flags $at)
            set flag 1
        else if contains -- $word (__netform_commands $at)
            set at "$at $word"
        end
    end
    echo $at
end

function __netform_is
    test (__netform_at) = $argv[1]
end

complete -c netform -e
${completions.join("\n")}
`;
}

const SCRIPTS: Record<Shell, (all: Position[]) => string> = { bash, zsh, fish };

export function registerCompletion(program: Command): void {
  program
    .command("completion")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(SHELLS))
    .addHelpText(
      "after",
      `
Install:
  bash  add to ~/.bashrc:                 source <(netform completion bash)
  zsh   add to ~/.zshrc, after compinit:  source <(netform completion zsh)
  fish  run once, and after upgrades:     netform completion fish > ~/.config/fish/completions/netform.fish`,
    )
    .action(
      run(({ output }, shell: Shell) => {
        output.out(SCRIPTS[shell](positions(program)));
        return 0;
      }),
    );
}
