// Reading the command line before commander: the command it names, and Terraform's one-dash long flags.

import { describe, expect, it } from "vitest";
import { commandNamed, withDoubleDashes } from "../../../src/cli/args.js";

describe("commandNamed", () => {
  it.each([
    [["plan", "--out", "p"], "plan"],
    [["--no-color", "apply"], "apply"],
    [["-chdir", "envs/prod", "plan"], "plan"],
    [["-chdir=envs/prod", "plan"], "plan"],
    [["--help"], undefined],
    [[], undefined],
  ])("%j names %s", (args, named) => {
    expect(commandNamed(args)).toBe(named);
  });
});

describe("withDoubleDashes", () => {
  const known = new Set(["out", "auto-approve", "check", "no-color", "var", "config", "help", "detailed-exitcode"]);
  it.each([
    ["a Terraform flag", ["plan", "-detailed-exitcode"], ["plan", "--detailed-exitcode"]],
    ["a Terraform flag with its value after =", ["plan", "-out=plan.bin"], ["plan", "--out=plan.bin"]],
    ["a Terraform flag with its value after it", ["plan", "-var", "a=1"], ["plan", "--var", "a=1"]],
    ["a negated flag", ["-no-color", "apply", "-auto-approve"], ["--no-color", "apply", "--auto-approve"]],
    ["commander's own spelling", ["plan", "--out", "p"], ["plan", "--out", "p"]],
    ["a short flag and its attached value", ["validate", "-c", "dir", "-cdir"], ["validate", "-c", "dir", "-cdir"]],
    ["a word no option has", ["plan", "-lockfile"], ["plan", "-lockfile"]],
    ["a negative number", ["apply", "--parallelism", "-1"], ["apply", "--parallelism", "-1"]],
    ["anything after --", ["import", "--", "-check"], ["import", "--", "-check"]],
  ])("%s", (_, args, expected) => {
    expect(withDoubleDashes(args, known)).toEqual(expected);
  });

  it.each([
    ["a command with a format and no --json: --format=json", new Set(["format"]), ["show", "-json", "p"], ["show", "--format=json", "p"]],
    ["the same with two dashes", new Set(["format"]), ["validate", "--json"], ["validate", "--format=json"]],
    ["a command with its own --json keeps it", new Set(["json", "format"]), ["output", "-json"], ["output", "--json"]],
    ["a command with neither is left to refuse it", new Set(["out"]), ["import", "-json"], ["import", "-json"]],
  ])("Terraform's -json: %s", (_, names, args, expected) => {
    expect(withDoubleDashes(args, names)).toEqual(expected);
  });
});
