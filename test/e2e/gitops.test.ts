// The pull-request workflow end to end: a saved plan applied exactly, stale plans refused, objects
// imported, drift found with who made it.

import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";

const t = useSimulator({ speed: 500 });

const filters = (description: string) => `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: ${description}
`;

describe("saved plans", () => {
  it("applies exactly the saved plan, without asking", async () => {
    const ws = workspace(filters("reviewed"));
    const env = simEnv(t.url);
    const planned = await netform(["plan", "--out", "change.plan"], { cwd: ws.dir, env });
    expect(planned.code).toBe(0);
    expect(planned.stderr).toContain("Saved the plan to change.plan");
    // The saved plan is not affected by what the working directory says afterwards... unless it changed:
    const applied = await netform(["apply", "change.plan"], { cwd: ws.dir, env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("1 added, 0 changed, 0 replaced, 0 destroyed");
    const id = ws.state().resources["routeFilters.customer-in"]!.id!;
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.description).toBe("reviewed");
  });

  it("applies a saved plan from another directory, and after the checkout moved", async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, "infra"));
    ws.write(filters("moved"), "infra/netform.yaml");
    const env = simEnv(t.url);
    expect((await netform(["plan", "-c", "infra", "--out", "infra/change.plan"], { cwd: ws.dir, env })).code).toBe(0);
    const saved = readFileSync(join(ws.dir, "infra/change.plan"), "utf8");
    expect(saved).not.toContain(ws.dir);
    expect(JSON.parse(saved)).toMatchObject({ configPath: ".", statePath: "netform.state.json" });

    const moved = join(tmpdir(), `netform-moved-${process.pid}-${Date.now()}`);
    renameSync(ws.dir, moved);
    const applied = await netform(["apply", "change.plan"], { cwd: join(moved, "infra"), env });
    expect(applied.code).toBe(0);
    expect(existsSync(join(moved, "infra/netform.state.json"))).toBe(true);
  });

  it("refuses flags that a saved plan cannot take, instead of ignoring them", async () => {
    const ws = workspace(filters("flags"));
    const env = simEnv(t.url);
    await netform(["plan", "--out", "p.plan"], { cwd: ws.dir, env });
    for (const flags of [["--var", "a=1"], ["-c", "elsewhere"], ["--target", "routeFilters.customer-in"], ["--replace", "routeFilters.customer-in"]]) {
      const refused = await netform(["apply", "p.plan", ...flags], { cwd: ws.dir, env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`apply PLANFILE cannot take ${flags[0]}`);
    }
    expect(ws.stateText()).toBe("");
  });

  it("refuses a plan made on an empty state once a state exists", async () => {
    const ws = workspace(filters("one"));
    const env = simEnv(t.url);
    await netform(["plan", "--out", "first.plan"], { cwd: ws.dir, env });
    await netform(["plan", "--out", "second.plan"], { cwd: ws.dir, env });
    expect((await netform(["apply", "first.plan"], { cwd: ws.dir, env })).code).toBe(0);
    const stale = await netform(["apply", "second.plan"], { cwd: ws.dir, env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("the saved plan is stale: it was made when there was no state");
    expect(stale.stderr).not.toMatch(/\n\s+at /);
    const live = (await t.call("GET", "/__sim/objects?kind=routeFilters")).body.data;
    expect(live).toHaveLength(1);
  });

  it("refuses a plan whose state or configuration changed since", async () => {
    const ws = workspace(filters("one"));
    const env = simEnv(t.url);
    await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    ws.write(filters("two"));
    await netform(["plan", "--out", "old.plan"], { cwd: ws.dir, env });
    ws.write(filters("three"));
    const changedConfig = await netform(["apply", "old.plan"], { cwd: ws.dir, env });
    expect(changedConfig.code).toBe(1);
    expect(changedConfig.stderr).toContain("the saved plan is stale: netform.yaml changed since");
    ws.write(filters("two"));
    await netform(["plan", "--out", "two.plan"], { cwd: ws.dir, env });
    await netform(["apply", "--auto-approve", "--var", "unused=1"], { cwd: ws.dir, env }).catch(() => undefined);
    ws.write(filters("four"));
    await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    ws.write(filters("two"));
    const changedState = await netform(["apply", "two.plan"], { cwd: ws.dir, env });
    expect(changedState.code).toBe(1);
    expect(changedState.stderr).toMatch(/the state changed since \(serial \d+ then, \d+ now\)/);
  });

  it("refuses a plan whose secret changed since, without ever writing the secret", async () => {
    const ws = workspace(`netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.FILTER_NOTE}
`);
    const planned = await netform(["plan", "--out", "s.plan"], { cwd: ws.dir, env: simEnv(t.url, { FILTER_NOTE: "hunter2-note" }) });
    expect(planned.code).toBe(0);
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    expect(readFileSync(join(ws.dir, "s.plan"), "utf8")).not.toContain("hunter2-note");
    const refused = await netform(["apply", "s.plan"], { cwd: ws.dir, env: simEnv(t.url, { FILTER_NOTE: "another-note" }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the secret feeding routeFilters.customer-in.description changed since");
    const applied = await netform(["apply", "s.plan"], { cwd: ws.dir, env: simEnv(t.url, { FILTER_NOTE: "hunter2-note" }) });
    expect(applied.code).toBe(0);
    expect(ws.stateText()).not.toContain("hunter2-note");
  });
});

describe("import", () => {
  it("adopts an existing object, then plans clean", async () => {
    const made = await t.call("POST", "/fabric/v4/routeFilters", {
      body: { type: "BGP_IPv4_PREFIX_FILTER", name: "customer-in", description: "made in the portal", project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" } },
    });
    await t.waitFor(`/fabric/v4/routeFilters/${made.body.uuid}`, "/state", "PROVISIONED");
    const ws = workspace(filters("made in the portal"));
    const env = simEnv(t.url);
    const imported = await netform(["import", "routeFilters.customer-in", made.body.uuid], { cwd: ws.dir, env });
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported routeFilters.customer-in (${made.body.uuid})`);
    expect(ws.state().resources["routeFilters.customer-in"]!.id).toBe(made.body.uuid);
    const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(clean.code).toBe(0);
    const again = await netform(["import", "routeFilters.customer-in", made.body.uuid], { cwd: ws.dir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already managed");
    const unknown = await netform(["import", "routeFilters.other", made.body.uuid], { cwd: ws.dir, env });
    expect(unknown.stderr).toContain("routeFilters.other is not declared in the configuration");
  });

  it("adopts through the import key: the plan shows import, then the update to match", async () => {
    const made = await t.call("POST", "/fabric/v4/routeFilters", {
      body: { type: "BGP_IPv4_PREFIX_FILTER", name: "customer-in", description: "old words", project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" } },
    });
    await t.waitFor(`/fabric/v4/routeFilters/${made.body.uuid}`, "/state", "PROVISIONED");
    const ws = workspace(`${filters("new words")}    import: ${made.body.uuid}\n`);
    const env = simEnv(t.url);
    const planned = await netform(["plan"], { cwd: ws.dir, env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/imported/);
    expect(planned.stdout).toContain('"old words" -> "new words"');
    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(applied.code).toBe(0);
    expect(ws.state().resources["routeFilters.customer-in"]!.id).toBe(made.body.uuid);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${made.body.uuid}`)).body.description).toBe("new words");
    expect((await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env })).code).toBe(0);
  });
});

describe("drift", () => {
  it("finds an out-of-band change, names the field and who made it, and exits 2", async () => {
    const ws = workspace(filters("as applied"));
    const env = simEnv(t.url);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    const none = await netform(["drift"], { cwd: ws.dir, env });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("No drift");

    const id = ws.state().resources["routeFilters.customer-in"]!.id!;
    await t.call("PATCH", `/__sim/objects/${id}`, { body: { description: "changed in the portal" } });
    const text = await netform(["drift"], { cwd: ws.dir, env });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain("routeFilters.customer-in");
    expect(text.stdout).toContain("portal-user");
    expect(text.stdout).toMatch(/description.*"as applied".*"changed in the portal"/);

    const json = await netform(["drift", "--format", "json"], { cwd: ws.dir, env });
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.entries).toEqual([
      expect.objectContaining({
        address: "routeFilters.customer-in",
        status: "changed",
        changedBy: "portal-user",
        fields: [{ path: "description", before: "as applied", after: "changed in the portal" }],
        differsFromConfiguration: true,
      }),
    ]);
    const markdown = await netform(["drift", "--format", "markdown"], { cwd: ws.dir, env });
    expect(markdown.code).toBe(2);
    expect(markdown.stdout).toContain("routeFilters.customer-in");

    // Silenced by .netformignore: known noise does not page anyone.
    ws.write("routeFilters.customer-in.description  # edited by the NOC on purpose\n", ".netformignore");
    expect((await netform(["drift"], { cwd: ws.dir, env })).code).toBe(0);
  });

  it("finds an object deleted outside netform, and one declared but missing", async () => {
    const ws = workspace(filters("as applied"));
    const env = simEnv(t.url);
    await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    const id = ws.state().resources["routeFilters.customer-in"]!.id!;
    await t.call("DELETE", `/__sim/objects/${id}`);
    ws.write(`${filters("as applied")}  customer-out:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    const drift = await netform(["drift", "--format", "json"], { cwd: ws.dir, env });
    expect(drift.code).toBe(2);
    const entries = JSON.parse(drift.stdout).entries;
    expect(entries).toContainEqual(expect.objectContaining({ address: "routeFilters.customer-in", status: "deleted", changedBy: "portal-user" }));
    expect(entries).toContainEqual(expect.objectContaining({ address: "routeFilters.customer-out", status: "missing" }));
    const targeted = await netform(["drift", "--format", "json", "--target", "routeFilters.customer-out"], { cwd: ws.dir, env });
    expect(JSON.parse(targeted.stdout).entries.map((e: { address: string }) => e.address)).toEqual(["routeFilters.customer-out"]);
    const plan = await netform(["plan"], { cwd: ws.dir, env });
    expect(plan.stdout).toContain("deleted outside netform");
  });
});

describe("machine-readable output", () => {
  it("prints one plan document, and streams apply events as JSON lines", async () => {
    const ws = workspace(filters("json"));
    const env = simEnv(t.url);
    const plan = await netform(["plan", "--format", "json"], { cwd: ws.dir, env });
    expect(plan.code).toBe(0);
    const doc = JSON.parse(plan.stdout);
    expect(doc).toMatchObject({ formatVersion: 1, summary: { add: 1, change: 0, replace: 0, destroy: 0 } });
    expect(doc.resourceChanges[0]).toMatchObject({ address: "routeFilters.customer-in", kind: "routeFilters", actions: ["create"] });
    expect(doc.resourceChanges[0].afterUnknown).toEqual(expect.any(Array));
    expect(typeof doc.requestCount).toBe("number");

    const apply = await netform(["apply", "--auto-approve", "--format", "json"], { cwd: ws.dir, env });
    expect(apply.code).toBe(0);
    const events = apply.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const types = events.map((e) => e.type);
    for (const type of ["planned_change", "apply_start", "apply_complete", "change_summary"]) expect(types).toContain(type);
    for (const e of events) expect(Date.parse(e.timestamp)).not.toBeNaN();
    expect(events.find((e) => e.type === "apply_complete")).toMatchObject({ address: "routeFilters.customer-in" });

    const markdown = await netform(["plan", "--format", "markdown"], { cwd: ws.dir, env });
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/No changes/i);
  });

  it("shows a saved plan as a pull-request comment", async () => {
    const ws = workspace(filters("md"));
    const env = simEnv(t.url);
    await netform(["plan", "--out", "pr.plan"], { cwd: ws.dir, env });
    const shown = await netform(["show", "pr.plan", "--format", "markdown"], { cwd: ws.dir, env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("1 to add");
    expect(shown.stdout).toContain("routeFilters.customer-in");
    expect(shown.stdout.length).toBeLessThan(65_000);
  });
});

describe("refresh-only", () => {
  it("records what the service reports, secrets masked, and changes nothing", async () => {
    const ws = workspace(`netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.FILTER_NOTE}
  other:
    type: BGP_IPv4_PREFIX_FILTER
    description: plain
`);
    const env = simEnv(t.url, { FILTER_NOTE: "refresh-secret-note" });
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    const other = ws.state().resources["routeFilters.other"]!.id!;
    await t.call("PATCH", `/__sim/objects/${other}`, { body: { description: "changed outside" } });
    await t.call("DELETE", "/__sim/requests");
    const refreshed = await netform(["apply", "--refresh-only", "--auto-approve"], { cwd: ws.dir, env });
    expect(refreshed.code).toBe(0);
    // Reads only: the token, searches and GETs; nothing on the service changed.
    const writes = (await t.call("GET", "/__sim/requests")).body.filter((r: { method: string; path: string }) => r.method !== "GET" && !r.path.endsWith("/search") && r.path !== "/oauth2/v1/token");
    expect(writes).toEqual([]);
    expect(ws.state().resources["routeFilters.other"]!.attributes.description).toBe("changed outside");
    expect(ws.stateText()).not.toContain("refresh-secret-note");
    expect(ws.state().resources["routeFilters.customer-in"]!.attributes.description).toBe("(sensitive)");
  });
});
