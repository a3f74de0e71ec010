// Reading the command line before commander: the command it names, and Terraform's one-dash long flags.

import { describe, expect, it } from "vitest";
import { commandNamed, oneDashProblem, withDoubleDashes } from "../../../src/cli/args.js";

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

describe("oneDashProblem", () => {
  const names = new Set(["compact-warnings", "input", "lock", "lock-timeout", "config", "chdir", "help", "format"]);
  const shorts = new Map([["c", "--config"]]);
  it.each([
    ["a known flag, in commander's spelling", ["plan", "--compact-warnings", "--input=false"], undefined],
    ["short flags and their values", ["plan", "-c", "dir", "-h"], undefined],
    ["a negative number", ["apply", "--parallelism", "-1"], undefined],
    ["anything after --", ["import", "--", "-whatever"], undefined],
    ["a misspelt flag: named, with the closest one, never read as -c ompact-warningz", ["plan", "-compact-warningz"], "unknown option '-compact-warningz' (did you mean --compact-warnings?; for -c (--config) with a value, put a space between them: -c ompact-warningz)"],
    ["a word no flag is close to", ["plan", "-lockfile=readonly"], "unknown option '-lockfile=readonly'"],
    ["a short flag with its value attached", ["plan", "-cdir"], "unknown option '-cdir' (did you mean --chdir?; for -c (--config) with a value, put a space between them: -c dir)"],
    ["a Terraform flag netform does not take: what to do instead", ["init", "-backend-config=prod.hcl"], "netform does not take -backend-config: netform's backend block takes ${env.NAME} and ${var.NAME}: write them in the block, and give their values with --var, --var-file or the environment"],
    ["-migrate-state: the state command that does it", ["init", "-migrate-state"], "netform does not take -migrate-state: move a state to another backend with: netform state migrate --to BACKEND"],
  ])("%s", (_, args, expected) => {
    expect(oneDashProblem(args, names, shorts)).toBe(expected);
  });
});
