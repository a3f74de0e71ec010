// What a Terraform user expects of the command line beyond the plan itself: variable files beside the
// configuration, --target's warnings, and messages that say what to do.

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { CONFIG_HEADER, dcConnectionYaml, out, runner } from "./service.js";
import { netform, netformMerged, simEnv, workspace } from "./cli.js";

const t = useSimulator({ speed: 500 });

const FILTER_WITH_VARIABLE = `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
variables:
  note: { type: string }
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${var.note}
`;

describe("variable files beside the configuration", () => {
  it("skips *.vars.yaml in a configuration directory, and names the fix when a var file is read as configuration", async () => {
    const ws = workspace(FILTER_WITH_VARIABLE);
    ws.write("note: from the prod file\n", "prod.vars.yaml");
    const run = runner(t, ws);
    const plan = await run("plan", "--var-file", "prod.vars.yaml", "--format", "json");
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).resourceChanges[0].after.description).toBe("from the prod file");

    ws.write("note: from the prod file\n", "prod.yaml");
    const misread = await run("plan", "--var-file", "prod.yaml");
    expect(misread.code).toBe(1);
    expect(misread.stderr).toMatch(/prod\.yaml:1:1 .*unknown top-level key "note"/);
    expect(misread.stderr).toContain("if prod.yaml holds variable values, name it *.vars.yaml");
  });
});

describe("plan --format json", () => {
  it("leaves values unknown until apply out of after, and lists them in afterUnknown", async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:
${dcConnectionYaml("dc", 1700, 1700, 100)}routingProtocols:
  direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.100.1/30 }
`);
    const plan = await runner(t, ws)("plan", "--format", "json");
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain("known after apply");
    const direct = JSON.parse(plan.stdout).resourceChanges.find((r: { address: string }) => r.address === "routingProtocols.direct");
    expect(direct.afterUnknown).toContain("connection");
    expect(direct.after).not.toHaveProperty("connection");
    expect(direct.after.type).toBe("DIRECT");
  });
});

describe("messages", () => {
  it("say what to do: the destroy review command, the half-set credentials, the file that cannot be read", async () => {
    const ws = workspace(FILTER_WITH_VARIABLE);
    const run = runner(t, ws);
    const destroy = await run("destroy");
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain("review the plan with 'netform plan --destroy', then run 'netform destroy --auto-approve'");

    const halfSet = await netform(["plan", "--var", "note=x"], { cwd: ws.dir, env: { ...simEnv(t.url), NETFORM_CLIENT_SECRET: "" } });
    expect(halfSet.code).toBe(1);
    expect(halfSet.stderr).toContain("NETFORM_CLIENT_ID is set, and NETFORM_CLIENT_SECRET is not");

    for (const [args, expected] of [
      [["apply", "missing.plan"], "cannot read the saved plan missing.plan: no such file or directory"],
      [["plan", "-c", "nowhere"], "cannot read the configuration nowhere: no such file or directory"],
      [["plan", "--var-file", "absent.vars.yaml"], "cannot read the variable file absent.vars.yaml: no such file or directory"],
    ] as const) {
      const result = await run(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(expected);
      expect(result.stderr).not.toContain("ENOENT");
    }
  });

  it("warns once, when secrets are first hashed without NETFORM_STATE_KEY, and never with one", async () => {
    const config = `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.NOTE}
`;
    const ws = workspace(config);
    const unkeyed = await netformMerged(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url, { NOTE: "secret words", NETFORM_STATE_KEY: "" }) });
    expect(unkeyed.code, out(unkeyed)).toBe(0);
    expect(unkeyed.stdout).toContain("warning: NETFORM_STATE_KEY is not set: netform generated a random key");
    // Before the plan and its progress (stdout and stderr as a pipeline's log shows them), not between the
    // progress lines of the object that holds the secret.
    const log = unkeyed.stdout;
    expect(log.indexOf("NETFORM_STATE_KEY is not set")).toBeLessThan(log.indexOf("Refreshing state"));
    expect(log.indexOf("Refreshing state")).toBeLessThan(log.indexOf("routeFilters.edge: Creating"));
    const again = await runner(t, ws, { NOTE: "secret words", NETFORM_STATE_KEY: "" })("plan");
    expect(again.stderr).not.toContain("NETFORM_STATE_KEY");
    const keyed = await runner(t, workspace(config), { NOTE: "secret words", NETFORM_STATE_KEY: "k-7d1f" })("apply", "--auto-approve");
    expect(keyed.code, out(keyed)).toBe(0);
    expect(keyed.stderr).not.toContain("NETFORM_STATE_KEY");
  });
});

describe("Terraform's habits", () => {
  it("takes one-dash long flags: a plan saved with -out= and -detailed-exitcode, applied with -auto-approve", async () => {
    const ws = workspace(FILTER_WITH_VARIABLE);
    const run = runner(t, ws);
    const plan = await run("plan", "-var", "note=habit", "-out=habit.plan", "-detailed-exitcode", "-no-color");
    expect(plan.code, out(plan)).toBe(2);
    expect(`${plan.stdout}${plan.stderr}`).toContain("Saved the plan to habit.plan");
    const applied = await run("apply", "-auto-approve", "habit.plan");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain("Apply complete! Resources: 1 added");
    // Terraform's -json: the command's --format json.
    const shown = await run("show", "-json", "habit.plan");
    expect(shown.code, out(shown)).toBe(0);
    expect(JSON.parse(shown.stdout).resourceChanges).toHaveLength(1);
    // A word that is no option's name is still refused, as commander refuses it.
    const unknown = await run("plan", "-var", "note=habit", "-lockfile=readonly");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown option '-lockfile=readonly'");
  });

  it("-chdir=DIR runs the command in DIR: its configuration, its state and the plan file it saves are there", async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, "envs/prod"), { recursive: true });
    ws.write(FILTER_WITH_VARIABLE, "envs/prod/netform.yaml");
    const run = runner(t, ws);
    const plan = await run("-chdir=envs/prod", "plan", "-var", "note=prod", "-out=prod.plan");
    expect(plan.code, out(plan)).toBe(0);
    expect(existsSync(join(ws.dir, "envs/prod/prod.plan"))).toBe(true);
    const applied = await run("-chdir", "envs/prod", "apply", "prod.plan");
    expect(applied.code, out(applied)).toBe(0);
    expect(existsSync(join(ws.dir, "envs/prod/netform.state.json"))).toBe(true);
    expect(existsSync(join(ws.dir, "netform.state.json"))).toBe(false);

    const missing = await run("-chdir=envs/staging", "plan");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--chdir envs/staging: no such directory");
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it("netform version prints the version, platform and Node.js release; --json as one object", async () => {
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    const text = await netform(["version"], { cwd: workspace().dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`netform v${version}\non ${process.platform}_${process.arch}, Node.js v${process.versions.node}\n`);
    const json = await netform(["version", "-json"], { cwd: workspace().dir });
    expect(JSON.parse(json.stdout)).toEqual({ version, platform: `${process.platform}_${process.arch}`, node: process.versions.node });
  });

  it("takes the flags pipelines pass, with Terraform's meaning: -input=false, -compact-warnings, -lock, -refresh, -parallelism, output -raw, destroy -refresh=false", async () => {
    const ws = workspace(`${FILTER_WITH_VARIABLE}outputs:\n  note: \${var.note}\n`);
    const run = runner(t, ws);
    const common = ["-input=false", "-lock=false", "-lock-timeout=1s", "-refresh=false", "-parallelism=2", "-var", "note=habit", "-target=routeFilters.edge", "-no-color"];
    const full = await run("plan", ...common);
    expect(full.code, out(full)).toBe(0);
    expect(full.stderr).toMatch(/warning: targeting is in effect[^\n]*\n +hint: use --target for exceptions/);
    // -compact-warnings: the same warning, on one line.
    const compact = await run("plan", ...common, "-compact-warnings");
    expect(compact.code, out(compact)).toBe(0);
    expect(compact.stderr).toContain("warning: targeting is in effect");
    expect(compact.stderr).not.toContain("hint:");

    // -input=false: apply never asks, so without -auto-approve it is refused, saying what to do.
    const asked = await run("apply", "-input=false", "-var", "note=habit");
    expect(asked.code, out(asked)).toBe(1);
    expect(asked.stderr).toContain("apply needs approval, and --input=false says not to ask for it");
    expect(asked.stderr).toContain("add --auto-approve");
    const applied = await run("apply", "-input=false", "-auto-approve", "-compact-warnings", "-var", "note=habit");
    expect(applied.code, out(applied)).toBe(0);

    const raw = await run("output", "-raw", "note");
    expect(raw).toMatchObject({ code: 0, stdout: "habit\n" });
    const rawAll = await run("output", "-raw");
    expect(rawAll.code).toBe(1);
    expect(rawAll.stderr).toContain("--raw prints one output's value: name it");

    const destroyed = await run("destroy", "-refresh=false", "-input=false", "-auto-approve", "-var", "note=habit");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  });

  it.each([
    ["a misspelt flag: named, with the closest, never read as -c with a value", ["plan", "-compact-warningz"], ["unknown option '-compact-warningz'", "did you mean --compact-warnings?"]],
    ["a short flag with its value attached", ["validate", "-cenvs"], ["unknown option '-cenvs'", "put a space between them: -c envs"]],
    ["a Terraform flag netform does not take: what to do instead", ["init", "-backend-config=prod.hcl"], ["netform does not take -backend-config", "--var"]],
    ["init's -migrate-state", ["init", "-migrate-state"], ["netform state migrate --to BACKEND"]],
    ["-lock=false where the state is written", ["apply", "-lock=false", "-auto-approve"], ["--lock=false is only for commands that read it"]],
  ])("refuses %s", async (_, args, expected) => {
    const result = await runner(t, workspace(FILTER_WITH_VARIABLE))(...args);
    expect(result.code, out(result)).toBe(1);
    for (const text of expected) expect(result.stderr).toContain(text);
    expect(result.stderr).not.toContain("cannot read the configuration");
  });
});
