// The CI examples (examples/ci) are documentation people copy: they must parse, have the jobs the README
// describes, run the netform commands in the forms the CLI takes, and their embedded shell and JavaScript
// must at least be syntactically valid (nothing else runs them before a user's first pipeline does).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const dir = join(import.meta.dirname, "../../../examples/ci");
const load = (file: string): unknown => parse(readFileSync(join(dir, file), "utf8"));

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}
interface GithubJob {
  if?: string;
  needs?: string | string[];
  steps: Step[];
  services?: Record<string, { image: string }>;
  env?: Record<string, string>;
}
interface GithubWorkflow {
  on: Record<string, unknown>;
  env: Record<string, string>;
  jobs: Record<string, GithubJob>;
}
interface GitlabJob {
  stage: string;
  rules: { if: string }[];
  script: string[];
  before_script?: string[];
  after_script?: string[];
  extends?: string;
  resource_group?: string;
  services?: { name: string }[];
  variables?: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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

const heredocs = (script: string): string[] => [...script.matchAll(/<<'EOF'\n([\s\S]*?)\nEOF\n/g)].map((m) => m[1]!);

describe("examples/ci/github-actions.yml", () => {
  const workflow = load("github-actions.yml") as GithubWorkflow;
  const runs = (job: string) => workflow.jobs[job]!.steps.flatMap((s) => (s.run ? [s.run] : []));

  it("runs on pull requests, pushes to main and a schedule", () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(["pull_request", "push", "schedule"]));
    expect(workflow.on.push).toEqual({ branches: ["main"] });
  });

  it("has the plan, apply and drift jobs, each on its own event", () => {
    expect(Object.keys(workflow.jobs)).toEqual(["plan", "plan-main", "apply", "drift", "rehearse"]);
    expect(workflow.jobs.plan!.if).toContain("pull_request");
    expect(workflow.jobs["plan-main"]!.if).toContain("push");
    expect(workflow.jobs.apply!.needs).toBe("plan-main");
    expect(workflow.jobs.drift!.if).toContain("schedule");
  });

  it("plans to a saved file with a markdown comment, applies the saved plan, checks drift as markdown", () => {
    expect(runs("plan").join("\n")).toContain("npx netform plan --out plan.bin --lock=false --format markdown > plan.md");
    expect(runs("plan-main").join("\n")).toContain("npx netform plan --out plan.bin --detailed-exitcode --lock-timeout 10m --format markdown > plan.md");
    expect(runs("apply")).toContain("npx netform apply plan.bin --lock-timeout 10m");
    expect(runs("drift").join("\n")).toContain("npx netform drift --lock=false --format markdown > drift.md");
    for (const job of ["plan", "plan-main", "apply", "drift"]) expect(runs(job)).toContain("npm ci");
  });

  it("posts the plan with github-script, keeps plans as artifacts, and hands the main plan to the apply", () => {
    const script = workflow.jobs.plan!.steps.find((s) => s.uses?.startsWith("actions/github-script"))?.with?.script;
    expect(script).toContain("updateComment");
    // A failed plan's comment is netform's own, with the located diagnostics: posted, not replaced by a pointer to the log.
    expect(script).toMatch(/: `\$\{marker\}\\n\$\{comment \|\|/);
    // github-script runs the text as the body of an async function.
    expect(() => new Script(`(async (require, github, context) => {\n${script}\n})`)).not.toThrow();
    const uploads = (job: string) => workflow.jobs[job]!.steps.filter((s) => s.uses?.startsWith("actions/upload-artifact")).map((s) => s.with?.name);
    expect(uploads("plan")).toEqual(["netform-plan-pr-${{ github.event.pull_request.number }}"]);
    expect(uploads("plan-main")).toEqual(["netform-plan-${{ github.sha }}"]);
    expect(workflow.jobs.apply!.steps.find((s) => s.uses?.startsWith("actions/download-artifact"))?.with?.name).toBe("netform-plan-${{ github.sha }}");
  });

  it("keeps the state in the PostgreSQL backend, never moving it between jobs, and rehearses on a service container", () => {
    expect(workflow.env.NETFORM_PG_URL).toBe("${{ secrets.NETFORM_PG_URL }}");
    expect(workflow.env.NETFORM_STATE_ENCRYPTION_KEY).toBe("${{ secrets.NETFORM_STATE_ENCRYPTION_KEY }}");
    for (const job of Object.keys(workflow.jobs)) expect(runs(job).join("\n")).not.toMatch(/netform\.state\.json|aws s3/);
    const rehearse = workflow.jobs.rehearse!;
    expect(rehearse.services?.postgres?.image).toMatch(/^postgres:/);
    expect(rehearse.env?.NETFORM_PG_URL).toMatch(/^postgres:\/\/.*@localhost:5432\//);
    expect(runs("rehearse").join("\n")).toContain("npx netform apply plan.bin");
  });

  it("tells drift (exit 2, an issue) from an error (exit 1, a failed job)", () => {
    const steps = workflow.jobs.drift!.steps as (Step & { if?: string; name?: string })[];
    expect(steps.find((s) => s.name === "Open or update the drift issue")?.if).toBe("steps.drift.outputs.exitcode == '2'");
    expect(steps.find((s) => s.name === "Fail on an error")?.if).toBe("steps.drift.outputs.exitcode != '0' && steps.drift.outputs.exitcode != '2'");
  });

  it("has shell steps that parse", () => {
    for (const job of Object.keys(workflow.jobs)) for (const run of runs(job)) expectShellParses(run);
  });
});

describe("examples/ci/gitlab-ci.yml", () => {
  const pipeline = load("gitlab-ci.yml") as Record<string, unknown>;
  const job = (name: string) => pipeline[name] as GitlabJob;
  const template = pipeline[".netform"] as Pick<GitlabJob, "before_script">;

  it("has the plan, apply and drift jobs, with rules for merge requests, the default branch and schedules", () => {
    const jobs = Object.keys(pipeline).filter((k) => !k.startsWith(".") && isObject(pipeline[k]) && "script" in pipeline[k]);
    expect(jobs).toEqual(["plan:merge-request", "plan:main", "apply", "drift", "rehearse"]);
    expect(job("plan:merge-request").rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(job("plan:main").rules[0]!.if).toContain("$CI_DEFAULT_BRANCH");
    expect(job("apply").rules[0]!.if).toContain("$CI_DEFAULT_BRANCH");
    expect(job("drift").rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    for (const name of ["plan:main", "apply", "drift"]) expect(job(name).resource_group).toBe("netform-state");
    expect(pipeline.stages).toEqual(["plan", "apply", "drift", "rehearse"]);
  });

  it("runs the netform commands in the CLI's forms and posts merge request notes through the API", () => {
    expect(template.before_script).toContain("npm ci");
    expect(job("plan:merge-request").script.join("\n")).toContain("npx netform plan --out plan.bin --lock=false --format markdown > plan.md");
    expect(job("plan:merge-request").script.join("\n")).toContain("/merge_requests/${env.CI_MERGE_REQUEST_IID}/notes");
    expect(job("plan:merge-request").script.join("\n")).toMatch(/: `\$\{marker\}\\n\$\{comment \|\|/);
    expect(job("apply").script.join("\n")).toContain("npx netform apply plan.bin --lock-timeout 10m");
    expect(job("drift").script.join("\n")).toContain("npx netform drift --lock=false --format markdown > drift.md");
  });

  it("keeps the state in the PostgreSQL backend, never moving it between jobs, and rehearses on a service container", () => {
    const all = JSON.stringify(pipeline);
    expect(all).not.toMatch(/netform\.state\.json|aws s3/);
    const rehearse = job("rehearse");
    expect(rehearse.services?.map((s) => s.name)).toEqual(["postgres:16"]);
    expect(rehearse.variables?.NETFORM_PG_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(rehearse.script.join("\n")).toContain("npx netform apply plan.bin");
  });

  it("has shell and JavaScript that parse", () => {
    const scripts = [...(template.before_script ?? []), ...["plan:merge-request", "plan:main", "apply", "drift", "rehearse"].flatMap((n) => [...job(n).script, ...(job(n).after_script ?? [])])];
    for (const script of scripts) expectShellParses(script);
    const modules = scripts.flatMap(heredocs);
    expect(modules).toHaveLength(2);
    for (const source of modules) expectModuleParses(source);
  });
});
