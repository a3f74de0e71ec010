// Route filters end to end through the command line against the simulator: create, read back, no-op,
// in-place update, replace, delete.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";

const t = useSimulator({ speed: 500 });

const config = (filters: string) => `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
${filters}`;

async function objects(kind: string): Promise<Array<Record<string, unknown>>> {
  return (await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data;
}

describe("route filters end to end", () => {
  it("creates, plans clean, updates in place, replaces, and deletes", async () => {
    const ws = workspace(config(`  customer-in:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: first\n`));
    const env = simEnv(t.url);
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });

    const created = await run("apply", "--auto-approve");
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("+ routeFilters.customer-in");
    expect(created.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = ws.state().resources["routeFilters.customer-in"]!.id!;
    const onService = (await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body;
    expect(onService).toMatchObject({ name: "customer-in", description: "first", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_FILTER" });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config(`  customer-in:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: second\n`));
    const planned = await run("plan", "--detailed-exitcode");
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('~ description = "first" -> "second"');
    const updated = await run("apply", "--auto-approve");
    expect(updated.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(ws.state().resources["routeFilters.customer-in"]!.id).toBe(id);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.description).toBe("second");

    ws.write(config(`  customer-in:\n    type: BGP_IPv6_PREFIX_FILTER\n    description: second\n`));
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.stdout).toMatch(/must be replaced/);
    expect(replaced.stdout).toContain("type cannot change in place");
    expect(replaced.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const newId = ws.state().resources["routeFilters.customer-in"]!.id!;
    expect(newId).not.toBe(id);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.state).toBe("DEPROVISIONED");

    ws.write(config(" {}\n").replace("routeFilters:\n {}", "routeFilters: {}"));
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources).toEqual({});
    const live = (await objects("routeFilters")).filter((f) => f.state !== "DEPROVISIONED");
    expect(live).toEqual([]);
  });

  it("refuses to run while another run holds the lock, naming the holder", async () => {
    const ws = workspace(config(`  a:\n    type: BGP_IPv4_PREFIX_FILTER\n`));
    const env = simEnv(t.url);
    const { StateLock } = await import("../../src/state/index.js");
    const lock = StateLock.acquire(ws.statePath, "apply");
    try {
      const refused = await netform(["plan"], { cwd: ws.dir, env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("locked by");
      expect(refused.stderr).toContain(lock.info.id);
      expect(refused.stderr).toContain(`netform force-unlock ${lock.info.id}`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    } finally {
      lock.release();
    }
    const unlocked = await netform(["plan"], { cwd: ws.dir, env });
    expect(unlocked.code).toBe(0);
  });

  it("refuses apply without a terminal unless approved", async () => {
    const ws = workspace(config(`  a:\n    type: BGP_IPv4_PREFIX_FILTER\n`));
    const res = await netform(["apply"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("no terminal");
    expect(res.stderr).toContain("--auto-approve");
    expect(await objects("routeFilters")).toEqual([]);
  });
});
