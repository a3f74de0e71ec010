// The pull-request workflow end to end: a saved plan applied exactly, stale plans refused, objects
// imported, drift found with who made it.

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
    expect(changedConfig.stderr).toContain("the configuration or its variables changed since");
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
