// `netform completion bash|zsh|fish`: each script completes every command, subcommand and flag that the
// program's own --help lists, and is valid in its shell. Bash completes for real here; zsh and fish are
// run when installed, and otherwise their scripts are checked for naming everything.

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { netform } from "./cli.js";

const cwd = tmpdir();

/** The names listed under a heading of --help ("Commands:", "Options:"), each entry's first column. */
function helpSection(help: string, heading: string): string[] {
  const section = help.split(`\n${heading}\n`)[1]?.split("\n\n")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.trim().split(/\s{2,}/)[0]!);
}

const commandNames = (help: string) => helpSection(help, "Commands:").map((term) => term.split(" ")[0]!);
const flagNames = (help: string) => helpSection(help, "Options:").flatMap((term) => term.match(/--?[A-Za-z][\w-]*/g) ?? []);

/** What --help says: the commands at each position ("netform", "netform state") and each position's flags. */
interface HelpTree {
  commands: Map<string, string[]>;
  flags: Map<string, string[]>;
}

async function helpTree(): Promise<HelpTree> {
  const tree: HelpTree = { commands: new Map(), flags: new Map() };
  const visit = async (path: string[]): Promise<void> => {
    const result = await netform([...path, "--help"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    const commands = commandNames(result.stdout);
    const key = ["netform", ...path].join(" ");
    tree.commands.set(key, commands);
    tree.flags.set(key, flagNames(result.stdout));
    await Promise.all(commands.filter((name) => name !== "help").map((name) => visit([...path, name])));
  };
  await visit([]);
  return tree;
}

async function script(shell: string): Promise<string> {
  const result = await netform(["completion", shell], { cwd });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

function scriptFile(shell: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "netform-completion-")), `netform.${shell}`);
  writeFileSync(file, text);
  return file;
}

const installed = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).error === undefined;

function runShell(shell: string, args: string[]): string {
  const result = spawnSync(shell, args, { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: tmpdir() } });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

let tree: HelpTree;
/** The flags the program accepts everywhere (its own, but for help, which each command has too). */
let globalFlags: string[];

beforeAll(async () => {
  tree = await helpTree();
  globalFlags = tree.flags.get("netform")!;
}, 60_000);

/** What completing at a position must offer: its commands, or its flags and the global ones. */
const expectedFlags = (position: string) => [...new Set([...tree.flags.get(position)!, ...globalFlags])].sort();
const sorted = (words: string[]) => [...words].sort();

describe("completion", () => {
  it("knows the program: help lists the commands and the state subcommands the scripts must complete", () => {
    expect(tree.commands.get("netform")).toEqual(expect.arrayContaining(["validate", "plan", "apply", "destroy", "state", "completion", "help"]));
    expect(tree.commands.get("netform state")).toEqual(["list", "show", "rm", "mv", "pull", "push", "history", "migrate", "rekey", "ddl", "help"]);
    expect(tree.flags.get("netform plan")).toEqual(expect.arrayContaining(["-c", "--config", "--detailed-exitcode", "--target", "--input", "--compact-warnings"]));
    expect(tree.commands.get("netform")).toContain("init");
    expect(tree.flags.get("netform init")).toEqual(expect.arrayContaining(["--backend", "--input", "--reconfigure", "--upgrade", "--lock", "--lock-timeout", "--var"]));
    expect(tree.flags.get("netform destroy")).toContain("--refresh");
    expect(tree.flags.get("netform output")).toContain("--raw");
  });

  describe("bash", () => {
    let file: string;
    beforeAll(async () => {
      file = scriptFile("bash", await script("bash"));
    });

    /** Completes each line of words (the last one being completed) as bash does on TAB; one line of results each. */
    function complete(lines: string[][]): string[][] {
      const calls = lines.map((words) => `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _netform; echo "\${COMPREPLY[*]}"`);
      return runShell("bash", ["-c", `source '${file}'\n${calls.join("\n")}`])
        .split("\n")
        .slice(0, lines.length)
        .map((line) => line.split(" ").filter(Boolean));
    }

    it("is valid bash", () => {
      expect(spawnSync("bash", ["-n", file], { encoding: "utf8" }).status).toBe(0);
    });

    it("completes every command and subcommand", () => {
      const positions = [...tree.commands.keys()].filter((position) => tree.commands.get(position)!.length > 0);
      const offered = complete(positions.map((position) => [...position.split(" "), ""]));
      positions.forEach((position, i) => expect(sorted(offered[i]!), position).toEqual(sorted(tree.commands.get(position)!)));
      expect(complete([["netform", "st"]])).toEqual([["state"]]);
    });

    it("completes every flag of every command, and the global ones after a command", () => {
      const positions = [...tree.flags.keys()];
      const offered = complete(positions.map((position) => [...position.split(" "), "-"]));
      positions.forEach((position, i) => expect(sorted(offered[i]!), position).toEqual(expectedFlags(position)));
    });

    it("steps over flags and their values to the command being typed, and completes fixed values", () => {
      expect(complete([["netform", "--debug", "state", ""]])).toEqual([["list", "show", "rm", "mv", "pull", "push", "history", "migrate", "rekey", "ddl", "help"]]);
      // "state" here is -c's value (a folder), not the state command; the value itself is left to file names.
      expect(complete([["netform", "plan", "-c", "state", "--det"]])).toEqual([["--detailed-exitcode"]]);
      expect(complete([["netform", "plan", "-c", ""]])).toEqual([[]]);
      expect(complete([["netform", "completion", ""]])).toEqual([["bash", "zsh", "fish"]]);
    });
  });

  describe("zsh", () => {
    let text: string;
    beforeAll(async () => {
      text = await script("zsh");
    });

    it("names every command, subcommand and flag, at each position", () => {
      expect(text.startsWith("#compdef netform\n")).toBe(true);
      for (const [position, commands] of tree.commands) {
        const entry = text.split(`    '${position}')\n`)[1]?.split(";;")[0] ?? "";
        for (const name of commands) expect(entry, position).toContain(`'${name}:`);
        for (const flag of expectedFlags(position)) expect(entry, position).toContain(`'${flag}:`);
      }
    });

    it.skipIf(!installed("zsh"))("is valid zsh, and completes commands, subcommands, flags and fixed values", () => {
      const file = scriptFile("zsh", text);
      expect(spawnSync("zsh", ["-n", file], { encoding: "utf8" }).status).toBe(0);
      // The completion system's functions stand in as recorders of what the script offers.
      const driver = `
        compdef() { : }
        source '${file}'
        _describe() { local -a items; items=("\${(@P)4}"); print -r -- "\${(j: :)\${(@)items%%:*}}" }
        compadd() { local -a items; items=("\${(@P)2}"); print -r -- "\${(j: :)items}" }
        _files() { print -r -- "(files)" }
        complete() { words=("$@"); CURRENT=$#words; PREFIX=$words[-1]; _netform }
        complete netform ''
        complete netform --debug state ''
        complete netform plan -c state --
        complete netform plan -c ''
        complete netform completion ''`;
      const [commands, state, planFlags, configValue, shells] = runShell("zsh", ["-f", "-c", driver]).split("\n").map((line) => line.split(" "));
      expect(sorted(commands!)).toEqual(sorted(tree.commands.get("netform")!));
      expect(state).toEqual(["list", "show", "rm", "mv", "pull", "push", "history", "migrate", "rekey", "ddl", "help"]);
      expect(sorted(planFlags!)).toEqual(expectedFlags("netform plan"));
      expect(configValue).toEqual(["(files)"]);
      expect(shells).toEqual(["bash", "zsh", "fish"]);
    });
  });

  describe("fish", () => {
    let text: string;
    beforeAll(async () => {
      text = await script("fish");
    });

    it("names every command, subcommand and flag, at each position", () => {
      for (const [position, commands] of tree.commands) {
        const lines = text.split("\n").filter((line) => line.includes(`-n "__netform_is '${position}'"`));
        for (const name of commands) expect(lines.some((line) => line.includes(` -a '${name}' `)), `${position} ${name}`).toBe(true);
        for (const flag of expectedFlags(position)) {
          const spelling = flag.startsWith("--") ? `-l '${flag.slice(2)}'` : `-s '${flag.slice(1)}'`;
          expect(lines.some((line) => line.includes(spelling)), `${position} ${flag}`).toBe(true);
        }
      }
    });

    it.skipIf(!installed("fish"))("is valid fish, and completes commands, subcommands, flags and fixed values", () => {
      const file = scriptFile("fish", text);
      expect(spawnSync("fish", ["--no-execute", file], { encoding: "utf8" }).status).toBe(0);
      const complete = (line: string) =>
        runShell("fish", ["--no-config", "-c", `source '${file}'; complete -C '${line}'`])
          .split("\n")
          .filter(Boolean)
          .map((candidate) => candidate.split("\t")[0]!);
      expect(sorted(complete("netform "))).toEqual(sorted(tree.commands.get("netform")!));
      expect(sorted(complete("netform --debug state "))).toEqual(sorted(["list", "show", "rm", "mv", "pull", "push", "history", "migrate", "rekey", "ddl", "help"]));
      expect(complete("netform plan -c state --det")).toEqual(["--detailed-exitcode"]);
      expect(sorted(complete("netform completion "))).toEqual(["bash", "fish", "zsh"]);
    });
  });

  it("names the shells it knows when given another, and says how to install each", async () => {
    const unknown = await netform(["completion", "tcsh"], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Allowed choices are bash, zsh, fish");
    const help = await netform(["completion", "--help"], { cwd });
    expect(help.stdout).toContain("source <(netform completion bash)");
    expect(help.stdout).toContain("source <(netform completion zsh)");
    expect(help.stdout).toContain("netform completion fish > ~/.config/fish/completions/netform.fish");
  });
});
