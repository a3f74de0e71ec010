// netform's CI building blocks, linted and run: the GitHub Action (action.yml), the GitLab CI template
// (ci/gitlab/netform.gitlab-ci.yml) and the examples that use them (examples/ci). Users copy these into
// pipelines nothing else runs before their first push, so: they parse and have the structure GitHub and GitLab
// require, every expression names something declared, every netform command line they hold uses commands
// and flags the built CLI lists in its help, their shell and JavaScript parse, and the action's netform step
// and the template's scripts are run here with the built CLI on the PATH against the embedded simulator, so
// that their exit-code mapping is proved rather than read.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Script } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI } from "./cli.js";

const root = resolve(import.meta.dirname, "../..");
const readYaml = (path: string): unknown => parse(readFileSync(join(root, path), "utf8"));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  "working-directory"?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}
interface WorkflowJob {
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: ActionStep[];
}
interface Workflow {
  on: Record<string, unknown>;
  env: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}
interface GitlabJob {
  extends?: string | string[];
  stage?: string;
  rules?: { if: string }[];
  needs?: string[];
  script?: string[];
  before_script?: string[];
  variables?: Record<string, string>;
  resource_group?: string;
  services?: { name: string }[];
}

const action = readYaml("action.yml") as Action;
const actionText = readFileSync(join(root, "action.yml"), "utf8");
const template = readYaml("ci/gitlab/netform.gitlab-ci.yml") as Record<string, GitlabJob>;
const workflow = readYaml("examples/ci/github-actions.yml") as Workflow;
const pipeline = readYaml("examples/ci/gitlab-ci.yml") as Record<string, unknown>;

/** `bash -n`: parses without running. GitHub's ${{ }} expressions are replaced first, as the runner would. */
function expectShellParses(script: string): void {
  const result = spawnSync("bash", ["-n"], { input: script.replace(/\$\{\{[^}]*\}\}/g, "x"), encoding: "utf8" });
  expect(result.stderr, script).toBe("");
  expect(result.status, script).toBe(0);
}

/** Node's own syntax check of the ES modules the GitLab scripts feed to `node` on a here-document. */
function expectModuleParses(source: string): void {
  const file = join(mkdtempSync(join(tmpdir(), "netform-ci-")), "script.mjs");
  writeFileSync(file, source);
  const result = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" });
  expect(result.stderr, source).toBe("");
  expect(result.status).toBe(0);
}

const HEREDOC = /<<'EOF'\n([\s\S]*?)\nEOF\n/g;
const heredocs = (script: string): string[] => [...script.matchAll(HEREDOC)].map((m) => m[1]!);

/** Every GitLab job's shell, in the order GitLab runs it. */
const gitlabScripts = (jobs: Record<string, unknown>): string[] => Object.values(jobs).flatMap((job) => (isObject(job) ? [...((job.before_script as string[] | undefined) ?? []), ...((job.script as string[] | undefined) ?? [])] : []));
const gitlabJobs = (file: Record<string, unknown>): Record<string, GitlabJob> =>
  Object.fromEntries(Object.entries(file).filter(([name, job]) => !["workflow", "stages", "variables", "include", "default"].includes(name) && isObject(job))) as Record<string, GitlabJob>;

// ── the netform command lines ─────────────────────────────────────────────────────────────────

interface CommandLine {
  file: string;
  line: string;
  command: string[];
  flags: string[];
}

const SUBCOMMANDS = new Set(["state", "workspace", "completion"]);

/** The netform invocations of a script: its here-documents (JavaScript) and comments left out. */
function commandLines(file: string, script: string): CommandLine[] {
  const lines: CommandLine[] = [];
  for (const line of script.replace(HEREDOC, "\n").split("\n")) {
    if (line.trim().startsWith("#")) continue;
    for (const m of line.matchAll(/(?:^|[\s;&|(])netform\s+([a-z][a-z-]*)(?=\s|$)([^;&|<>]*)/g)) {
      const tokens = m[2]!.trim().split(/\s+/).filter(Boolean);
      const command = [m[1]!];
      if (SUBCOMMANDS.has(m[1]!) && tokens[0] && /^[a-z]/.test(tokens[0])) command.push(tokens.shift()!);
      lines.push({ file, line: line.trim(), command, flags: tokens.filter((t) => t.startsWith("-")).map((t) => t.split("=")[0]!) });
    }
  }
  return lines;
}

const helps = new Map<string, { status: number | null; text: string }>();
function help(command: string[]): { status: number | null; text: string } {
  const key = command.join(" ");
  if (!helps.has(key)) {
    const result = spawnSync(process.execPath, [CLI, ...command, "--help"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    helps.set(key, { status: result.status, text: result.stdout });
  }
  return helps.get(key)!;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// ── the action ───────────────────────────────────────────────────────────────────────────────

describe("action.yml, the GitHub Action", () => {
  it("is a composite action with a name, a description, and inputs and outputs that say what they are", () => {
    expect(action.name).toBe("netform");
    expect(action.description.length).toBeGreaterThan(20);
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["command", "working-directory", "package", "comment", "github-token"]));
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(typeof input.description, name).toBe("string");
      expect(input.description.length, name).toBeGreaterThan(10);
      if (input.default !== undefined) expect(typeof input.default, name).toBe("string");
    }
    expect(action.inputs.command!.description).toMatch(/plan.*apply.*drift/);
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.description.length, name).toBeGreaterThan(10);
      expect(output.value, name).toMatch(/^\$\{\{ steps\.[a-z-]+\.outputs\.[a-z]+ \}\}$/);
    }
  });

  it("has steps that each run a shell with its `shell`, or use an action", () => {
    expect(action.runs.steps.length).toBeGreaterThan(3);
    for (const step of action.runs.steps) {
      expect(step.name, JSON.stringify(step)).toBeTruthy();
      expect(Boolean(step.run) !== Boolean(step.uses), step.name).toBe(true);
      if (step.run) expect(step.shell, step.name).toBe("bash");
      if (step.uses) expect(step.uses, step.name).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    }
  });

  it("names only declared inputs and steps in its expressions, and uses every input it declares", () => {
    const inputs = [...actionText.matchAll(/\binputs\.([a-z][a-z-]*)/g)].map((m) => m[1]!);
    for (const name of inputs) expect(Object.keys(action.inputs), name).toContain(name);
    for (const name of Object.keys(action.inputs)) expect(inputs, `input ${name} is declared and never used`).toContain(name);
    const ids = action.runs.steps.flatMap((s) => (s.id ? [s.id] : []));
    for (const m of actionText.matchAll(/\bsteps\.([a-z][a-z-]*)\./g)) expect(ids, m[0]).toContain(m[1]);
  });

  it("installs netform with one command, `npm install -g` of the package input", () => {
    const install = action.runs.steps.find((s) => s.name === "Install netform")!;
    expect(install.run).toContain('npm install -g --no-audit --no-fund "$NETFORM_PACKAGE"');
    expect(install.env?.NETFORM_PACKAGE).toBe("${{ inputs.package }}");
    // Inputs reach the shell through the environment, never spliced into the script's text.
    for (const step of action.runs.steps) if (step.run) expect(step.run, step.name).not.toMatch(/\$\{\{/);
  });

  it("posts the plan as one comment per pull request with github-script, found again by a marker", () => {
    const post = action.runs.steps.find((s) => s.uses?.startsWith("actions/github-script"))!;
    expect(post.if).toContain("github.event_name == 'pull_request'");
    expect(post.if).toContain("inputs.comment == 'true'");
    expect(post.with?.["github-token"]).toBe("${{ inputs.github-token }}");
    const script = post.with!.script!;
    expect(script).toContain("<!-- netform-plan");
    expect(script).toContain("updateComment");
    // github-script runs the text as the body of an async function.
    expect(() => new Script(`(async (require, github, context) => {\n${script}\n})`)).not.toThrow();
  });

  it("posts a failed plan's own comment, with its located diagnostics, not a pointer to the log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-action-comment-"));
    writeFileSync(join(dir, "netform.yaml"), "netform: 1\nprovider:\n  endpoint: embedded\n  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01\nrouteFilters:\n  f:\n    type: BGP_IPv4_PREFIX_FITLER\n");
    const planned = spawnSync(process.execPath, [CLI, "plan", "--format", "markdown"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(planned.status).toBe(1);
    writeFileSync(join(dir, "plan.md"), planned.stdout);
    const post = action.runs.steps.find((s) => s.uses?.startsWith("actions/github-script"))!;
    const posted: string[] = [];
    const github = { paginate: async () => [], rest: { issues: { listComments: {}, createComment: async ({ body }: { body: string }) => void posted.push(body), updateComment: async () => undefined } } };
    const context = { serverUrl: "https://github.example", runId: 7, repo: { owner: "o", repo: "r" }, issue: { number: 1 }, payload: { pull_request: { head: { sha: "0123456789abcdef" } } } };
    const saved = { ...process.env };
    Object.assign(process.env, { PLAN_EXIT: "1", PLAN_MD: join(dir, "plan.md"), WORKING_DIRECTORY: ".", ARTIFACT: "" });
    try {
      const run = new Script(`(async (require, github, context) => {\n${post.with!.script!}\n})`).runInThisContext() as (r: NodeJS.Require, g: unknown, c: unknown) => Promise<void>;
      await run((await import("node:module")).createRequire(import.meta.url), github, context);
    } finally {
      for (const name of ["PLAN_EXIT", "PLAN_MD", "WORKING_DIRECTORY", "ARTIFACT"]) if (saved[name] === undefined) delete process.env[name];
    }
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain("<!-- netform-plan -->");
    expect(posted[0]).toMatch(/netform\.yaml:7:11/);
    expect(posted[0]).toContain("routeFilters.f.type");
    expect(posted[0]).not.toContain("the errors are in the");
  });

  it("has shell steps that parse", () => {
    for (const step of action.runs.steps) if (step.run) expectShellParses(step.run);
  });
});

// ── the template ─────────────────────────────────────────────────────────────────────────────

describe("ci/gitlab/netform.gitlab-ci.yml, the GitLab CI template", () => {
  it("has only hidden jobs, .netform-plan, .netform-apply and .netform-drift on a base .netform, with no stage or rules", () => {
    expect(Object.keys(template)).toEqual([".netform", ".netform-plan", ".netform-apply", ".netform-drift"]);
    for (const name of [".netform-plan", ".netform-apply", ".netform-drift"]) expect(template[name]!.extends, name).toBe(".netform");
    for (const [name, job] of Object.entries(template)) {
      expect(job.stage, name).toBeUndefined();
      expect(job.rules, name).toBeUndefined();
    }
  });

  it("installs netform with one command and has scripts that are lists of strings that parse", () => {
    expect(template[".netform"]!.before_script).toEqual(['npm install -g --no-audit --no-fund "$NETFORM_PACKAGE"', "netform version", 'cd "$NETFORM_WORKING_DIRECTORY"']);
    for (const [name, job] of Object.entries(template)) {
      for (const list of [job.script, job.before_script]) {
        if (list === undefined) continue;
        expect(Array.isArray(list), name).toBe(true);
        for (const entry of list) expect(typeof entry, name).toBe("string");
      }
      for (const value of Object.values(job.variables ?? {})) expect(typeof value, name).toBe("string");
    }
    const scripts = gitlabScripts(template);
    for (const script of scripts) expectShellParses(script);
    const modules = scripts.flatMap(heredocs);
    expect(modules).toHaveLength(2);
    for (const source of modules) expectModuleParses(source);
  });
});

// ── the examples ─────────────────────────────────────────────────────────────────────────────

describe("examples/ci/github-actions.yml", () => {
  const netformSteps = (job: string) => workflow.jobs[job]!.steps.filter((s) => /\/netform@v\d/.test(s.uses ?? ""));

  it("runs on pull requests, pushes to main and a schedule, with plan, apply and drift jobs", () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(["pull_request", "push", "schedule"]));
    expect(Object.keys(workflow.jobs)).toEqual(["plan", "plan-main", "apply", "drift", "rehearse"]);
    expect(workflow.jobs.plan!.if).toContain("pull_request");
    expect(workflow.jobs["plan-main"]!.if).toContain("push");
    expect(workflow.jobs.apply!.needs).toBe("plan-main");
    expect(workflow.jobs.drift!.if).toContain("schedule");
  });

  it("uses the action with declared inputs only: plan with the comment, apply of the saved plan, drift", () => {
    for (const job of ["plan", "plan-main", "apply", "drift"]) {
      const steps = netformSteps(job);
      expect(steps, job).toHaveLength(1);
      for (const key of Object.keys(steps[0]!.with ?? {})) expect(Object.keys(action.inputs), `${job}: ${key}`).toContain(key);
      expect(steps[0]!.with?.package, job).toBe("${{ env.NETFORM_PACKAGE }}");
    }
    expect(netformSteps("plan")[0]!.with).toMatchObject({ command: "plan", comment: "true", lock: "false" });
    expect(workflow.jobs.plan!.permissions?.["pull-requests"]).toBe("write");
    const mainPlan = netformSteps("plan-main")[0]!;
    expect(mainPlan.with?.command).toBe("plan");
    expect(workflow.jobs["plan-main"]!.outputs?.changes).toBe(`\${{ steps.${mainPlan.id}.outputs.changes }}`);
    expect(workflow.jobs.apply!.if).toBe("needs.plan-main.outputs.changes == 'true'");
    expect(workflow.jobs.apply!.steps.find((s) => s.uses?.startsWith("actions/download-artifact"))?.with?.name).toBe(mainPlan.with?.["artifact-name"]);
    expect(netformSteps("apply")[0]!.with).toMatchObject({ command: "apply", "plan-file": "plan.bin" });
    expect(netformSteps("drift")[0]!.with).toMatchObject({ command: "drift", lock: "false", issue: "true" });
    expect(workflow.jobs.drift!.permissions?.issues).toBe("write");
  });

  it("installs netform from the release tarball, never as a devDependency of the repository", () => {
    expect(workflow.env.NETFORM_PACKAGE).toMatch(/^tools\/netform-\d+\.\d+\.\d+\.tgz$/);
    const text = readFileSync(join(root, "examples/ci/github-actions.yml"), "utf8");
    expect(text).not.toMatch(/npm ci|npx netform|devDependency/);
    expect(workflow.jobs.rehearse!.steps.map((s) => s.run ?? "").join("\n")).toContain('npm install -g --no-audit --no-fund "$NETFORM_PACKAGE"');
  });

  it("has shell steps that parse", () => {
    for (const job of Object.values(workflow.jobs)) for (const step of job.steps) if (step.run) expectShellParses(step.run);
  });
});

describe("examples/ci/gitlab-ci.yml", () => {
  const jobs = gitlabJobs(pipeline);
  const merged = { ...template, ...jobs };

  it("includes the template from netform's project, by the path it has there", () => {
    const include = pipeline.include as { project: string; ref: string; file: string }[];
    expect(include).toHaveLength(1);
    expect(existsSync(join(root, include[0]!.file))).toBe(true);
    expect(include[0]!.ref).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  it("extends only jobs that exist, in stages it declares, and needs only its own jobs", () => {
    const stages = pipeline.stages as string[];
    expect(stages).toEqual(["plan", "apply", "drift", "rehearse"]);
    expect(Object.keys(jobs)).toEqual(["plan:merge-request", "plan:main", "apply", "drift", "rehearse"]);
    for (const [name, job] of Object.entries(jobs)) {
      for (const target of [job.extends ?? []].flat()) expect(Object.keys(merged), `${name} extends ${target}`).toContain(target);
      expect(stages, name).toContain(job.stage);
      for (const needed of job.needs ?? []) expect(Object.keys(jobs), `${name} needs ${needed}`).toContain(needed);
      expect(job.rules?.length, name).toBeGreaterThan(0);
    }
    expect(jobs["plan:merge-request"]).toMatchObject({ extends: ".netform-plan", variables: { NETFORM_LOCK: "false", NETFORM_COMMENT: "true" } });
    expect(jobs["plan:main"]!.extends).toBe(".netform-plan");
    expect(jobs.apply).toMatchObject({ extends: ".netform-apply", needs: ["plan:main"] });
    expect(jobs.drift).toMatchObject({ extends: ".netform-drift", variables: { NETFORM_LOCK: "false" } });
    for (const name of ["plan:main", "apply", "drift"]) expect(jobs[name]!.resource_group).toBe("netform-state");
  });

  it("installs netform from the release tarball, never as a devDependency, and has scripts that parse", () => {
    expect((pipeline.variables as Record<string, string>).NETFORM_PACKAGE).toMatch(/^tools\/netform-\d+\.\d+\.\d+\.tgz$/);
    expect(readFileSync(join(root, "examples/ci/gitlab-ci.yml"), "utf8")).not.toMatch(/npm ci|npx netform|devDependency/);
    for (const script of gitlabScripts(jobs)) expectShellParses(script);
  });
});

describe("the netform command lines of the action, the template and the examples", () => {
  const lines = [
    ...action.runs.steps.flatMap((s) => (s.run ? commandLines("action.yml", s.run) : [])),
    ...gitlabScripts(template).flatMap((s) => commandLines("ci/gitlab/netform.gitlab-ci.yml", s)),
    ...Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? commandLines("examples/ci/github-actions.yml", s.run) : []))),
    ...gitlabScripts(gitlabJobs(pipeline)).flatMap((s) => commandLines("examples/ci/gitlab-ci.yml", s)),
  ];

  it("run plan, apply and drift in each file that uses them", () => {
    const commands = (file: string) => new Set(lines.filter((l) => l.file === file).map((l) => l.command[0]));
    for (const file of ["action.yml", "ci/gitlab/netform.gitlab-ci.yml"]) expect([...commands(file)], file).toEqual(expect.arrayContaining(["plan", "apply", "drift", "version"]));
    for (const file of ["examples/ci/github-actions.yml", "examples/ci/gitlab-ci.yml"]) expect([...commands(file)], file).toEqual(expect.arrayContaining(["sim", "plan", "apply"]));
  });

  it("use commands and flags the built CLI lists in its help", () => {
    for (const { file, line, command, flags } of lines) {
      const { status, text } = help(command);
      expect(status, `${file}: netform ${command.join(" ")} is not a command (${line})`).toBe(0);
      expect(text, `${file}: ${line}`).toContain(`Usage: netform ${command.join(" ")}`);
      for (const flag of flags) expect(text, `${file}: netform ${command.join(" ")} has no ${flag} (${line})`).toMatch(new RegExp(`(^|[\\s,])${escape(flag)}([\\s,=]|$)`, "m"));
    }
  });
});

// ── run with the built CLI ────────────────────────────────────────────────────────────────────

/** A repository holding the quick start in infra/, an empty folder, and a PATH with the built `netform` on it. */
function repository(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "netform-ci-repo-"));
  cpSync(join(root, "examples/quickstart"), join(dir, "infra"), { recursive: true });
  mkdirSync(join(dir, "empty"));
  const bin = join(dir, ".bin");
  mkdirSync(bin);
  symlinkSync(CLI, join(bin, "netform"));
  // The embedded simulator a thousand times as fast as the service: netform polls it at that pace.
  return { dir, env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? "", NO_COLOR: "1", NETFORM_EMBEDDED_SPEED: "1000" } };
}

/** Fills in the `${{ }}` expressions of an action step's env, as the runner would. */
function evaluate(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    expect(Object.keys(context), `an expression the test does not know: ${expression}`).toContain(expression);
    return context[expression]!;
  });
}

describe("the action's steps, run as the runner runs them", () => {
  let repo: ReturnType<typeof repository>;
  beforeAll(() => {
    repo = repository();
  });

  const step = (name: string) => action.runs.steps.find((s) => s.name === name || s.id === name)!;

  /** Runs a `run` step with the given inputs (the rest at their defaults) in bash as GitHub does, and reads what it output. */
  function runStep(name: string, given: Record<string, string>, outputs: Record<string, string> = {}) {
    const s = step(name);
    const inputs = Object.fromEntries(Object.entries(action.inputs).map(([key, input]) => [`inputs.${key}`, given[key] ?? input.default ?? ""]));
    const context = { ...inputs, ...Object.fromEntries(Object.entries(outputs).map(([k, v]) => [`steps.run.outputs.${k}`, v])) };
    const files = mkdtempSync(join(tmpdir(), "netform-ci-runner-"));
    const githubOutput = join(files, "output");
    const summary = join(files, "summary");
    writeFileSync(githubOutput, "");
    writeFileSync(summary, "");
    const env = { ...repo.env, ...Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, evaluate(v, context)])), GITHUB_OUTPUT: githubOutput, GITHUB_STEP_SUMMARY: summary };
    const cwd = join(repo.dir, s["working-directory"] ? evaluate(s["working-directory"], context) : ".");
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", s.run!], { cwd, env, encoding: "utf8" });
    const written = Object.fromEntries(readFileSync(githubOutput, "utf8").split("\n").filter(Boolean).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs: written, summary: readFileSync(summary, "utf8") };
  }

  it("plans (changes: exit 2, a success), applies the saved plan, plans clean, finds no drift", { timeout: 120_000 }, () => {
    const plan = runStep("run", { command: "plan", "working-directory": "infra" });
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.outputs).toEqual({ report: "plan.md", changes: "true", exitcode: "2" });
    expect(plan.summary).toContain("5 to add");
    expect(readFileSync(join(repo.dir, "infra/plan.md"), "utf8")).toBe(plan.summary);
    expect(existsSync(join(repo.dir, "infra/plan.bin"))).toBe(true);

    const apply = runStep("run", { command: "apply", "working-directory": "infra" });
    expect(apply.status, apply.stderr).toBe(0);
    expect(apply.outputs, apply.stdout + apply.stderr).toEqual({ exitcode: "0" });

    const clean = runStep("run", { command: "plan", "working-directory": "infra", lock: "false" });
    expect(clean.outputs).toEqual({ report: "plan.md", changes: "false", exitcode: "0" });

    const drift = runStep("run", { command: "drift", "working-directory": "infra", lock: "false" });
    expect(drift.outputs, drift.stderr).toEqual({ report: "drift.md", drift: "false", exitcode: "0" });
    expect(readFileSync(join(repo.dir, "infra/drift.md"), "utf8")).toBe(drift.summary);
  });

  it("records an error as exit 1, saying what to do, and leaves failing to the last step", () => {
    const noConfig = runStep("run", { command: "plan", "working-directory": "empty" });
    expect(noConfig.status).toBe(0);
    expect(noConfig.outputs.exitcode).toBe("1");
    expect(noConfig.outputs.changes).toBeUndefined();
    const noPlan = runStep("run", { command: "apply", "working-directory": "infra", "plan-file": "missing.bin" });
    expect(noPlan.outputs.exitcode).toBe("1");
    expect(noPlan.stdout).toContain("::error::netform apply: no saved plan missing.bin");
    const unknown = runStep("run", { command: "destroy" });
    expect(unknown.outputs.exitcode).toBe("1");
    expect(unknown.stdout).toContain("::error::netform action: command is 'destroy'; it must be plan, apply or drift");
  });

  it.each([
    ["plan", "0", "false", 0],
    ["plan", "2", "false", 0],
    ["plan", "1", "false", 1],
    ["apply", "0", "false", 0],
    ["apply", "1", "false", 1],
    ["drift", "0", "false", 0],
    ["drift", "2", "false", 0],
    ["drift", "2", "true", 1],
    ["drift", "1", "false", 1],
  ])("fails the job for %s exiting %s (fail-on-drift %s): %i", (command, exitcode, failOnDrift, status) => {
    const result = runStep("Fail on an error", { command, "fail-on-drift": failOnDrift }, { exitcode });
    expect(result.status, result.stdout).toBe(status);
    if (status !== 0) expect(result.stdout).toContain("::error::netform");
  });
});

describe("the template's jobs, run as GitLab runs them", () => {
  let repo: ReturnType<typeof repository>;
  beforeAll(() => {
    repo = repository();
  });

  /** A job's before_script (but the install, which the packaging test proves) and script, with its variables. */
  function runJob(name: string, variables: Record<string, string> = {}) {
    const job = template[name]!;
    const base = template[".netform"]!;
    const lines = [...base.before_script!.filter((line) => !line.startsWith("npm install")), ...job.script!];
    const env = { ...repo.env, ...base.variables, ...job.variables, CI_PROJECT_DIR: repo.dir, ...variables };
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", lines.join("\n")], { cwd: repo.dir, env, encoding: "utf8" });
    const dotenv = join(repo.dir, "netform-plan.env");
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, dotenv: existsSync(dotenv) ? readFileSync(dotenv, "utf8") : undefined };
  }

  it("plans (changes: NETFORM_CHANGES=true), applies exactly the saved plan, plans clean, checks drift", { timeout: 120_000 }, () => {
    const plan = runJob(".netform-plan", { NETFORM_WORKING_DIRECTORY: "infra" });
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.dotenv).toBe("NETFORM_CHANGES=true\n");
    expect(readFileSync(join(repo.dir, "infra/plan.md"), "utf8")).toContain("5 to add");

    const apply = runJob(".netform-apply", { NETFORM_WORKING_DIRECTORY: "infra", NETFORM_CHANGES: "true" });
    expect(apply.status, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete!");

    const clean = runJob(".netform-plan", { NETFORM_WORKING_DIRECTORY: "infra", NETFORM_LOCK: "false" });
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.dotenv).toBe("NETFORM_CHANGES=false\n");
    const skipped = runJob(".netform-apply", { NETFORM_WORKING_DIRECTORY: "infra", NETFORM_CHANGES: "false" });
    expect(skipped.status).toBe(0);
    expect(skipped.stdout).toContain("the plan has nothing to change");

    const drift = runJob(".netform-drift", { NETFORM_WORKING_DIRECTORY: "infra", NETFORM_LOCK: "false", NETFORM_ISSUE: "false" });
    expect(drift.status, drift.stderr).toBe(0);
    expect(existsSync(join(repo.dir, "infra/drift.md"))).toBe(true);
  });

  it("fails the job on an error, and says so", () => {
    const plan = runJob(".netform-plan", { NETFORM_WORKING_DIRECTORY: "empty" });
    expect(plan.status).toBe(1);
    expect(plan.stdout).toContain("netform plan exited 1");
    expect(plan.dotenv).toBe("NETFORM_CHANGES=false\n");
    const apply = runJob(".netform-apply", { NETFORM_WORKING_DIRECTORY: "empty", NETFORM_CHANGES: "true" });
    expect(apply.status).toBe(1);
    expect(apply.stdout).toContain("netform apply: no saved plan plan.bin");
  });
});
