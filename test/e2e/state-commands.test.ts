// state list, show and rm, and force-unlock, through the command line.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { CONFIG_HEADER } from "./service.js";

const t = useSimulator({ speed: 500 });

describe("state commands", () => {
  it("list, show and forget what the state records; the service keeps a forgotten object", async () => {
    const ws = workspace(`${CONFIG_HEADER}routeFilters:\n  a:\n    type: BGP_IPv4_PREFIX_FILTER\n  b:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    const env = simEnv(t.url);
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    expect((await run("apply", "--auto-approve")).code).toBe(0);

    const list = await run("state", "list");
    expect(list.stdout.trim().split("\n")).toEqual(["routeFilters.a", "routeFilters.b"]);
    const id = ws.state().resources["routeFilters.a"]!.id!;
    const show = await run("state", "show", "routeFilters.a");
    expect(show.stdout).toContain(`id: ${id}`);
    expect(show.stdout).toContain('"name": "a"');
    const unknown = await run("state", "show", "routeFilters.zzz");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("the state has no routeFilters.zzz");

    const removed = await run("state", "rm", "routeFilters.a");
    expect(removed.code).toBe(0);
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.b"]);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.state).toBe("PROVISIONED");
  });

  it("force-unlock removes a lock left on another machine, only with its ID", async () => {
    const ws = workspace(`${CONFIG_HEADER}routeFilters: {}\n`);
    const env = simEnv(t.url);
    const lock = { id: "lock-1", operation: "apply", who: "ci@runner-7 (pid 1)", created: new Date().toISOString(), expires: new Date(Date.now() + 600_000).toISOString(), host: "runner-7", pid: 1 };
    writeFileSync(`${ws.statePath}.lock`, JSON.stringify(lock));
    const held = await netform(["plan"], { cwd: ws.dir, env });
    expect(held.code).toBe(1);
    expect(held.stderr).toContain("locked by ci@runner-7 (pid 1) for apply");
    expect((await netform(["force-unlock", "wrong-id"], { cwd: ws.dir, env })).stderr).toContain("has ID lock-1");
    const unlocked = await netform(["force-unlock", "lock-1"], { cwd: ws.dir, env });
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain("Removed the lock lock-1");
    expect((await netform(["plan"], { cwd: ws.dir, env })).code).toBe(0);
  });

  it("finds the state beside the configuration named by -c, for every command, from any directory", async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, "infra"));
    ws.write(`${CONFIG_HEADER}routeFilters:\n  a:\n    type: BGP_IPv4_PREFIX_FILTER\n`, "infra/netform.yaml");
    const env = simEnv(t.url);
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    expect((await run("apply", "-c", "infra", "--auto-approve")).code).toBe(0);
    expect(existsSync(join(ws.dir, "infra/netform.state.json"))).toBe(true);

    expect((await run("state", "list", "-c", "infra")).stdout.trim()).toBe("routeFilters.a");
    expect((await run("state", "list", "-c", "infra/netform.yaml")).stdout.trim()).toBe("routeFilters.a");
    expect((await run("state", "show", "routeFilters.a", "-c", "infra")).code).toBe(0);
    expect((await run("show", "-c", "infra")).stdout).toContain("routeFilters.a");
    const here = await run("state", "list");
    expect(here.code).toBe(1);
    expect(here.stderr).toContain("there is no state in");

    const lock = { id: "lock-2", operation: "apply", who: "ci@runner-8 (pid 1)", created: new Date().toISOString(), expires: new Date(Date.now() + 600_000).toISOString(), host: "runner-8", pid: 1 };
    writeFileSync(join(ws.dir, "infra/netform.state.json.lock"), JSON.stringify(lock));
    expect((await run("force-unlock", "lock-2", "-c", "infra")).code).toBe(0);
    expect(existsSync(join(ws.dir, "infra/netform.state.json.lock"))).toBe(false);

    expect((await run("state", "rm", "routeFilters.a", "-c", "infra")).code).toBe(0);
    expect((await run("state", "list", "-c", "infra")).stdout.trim()).toBe("");
  });
});
