// The postgres backend against a real PostgreSQL server (test/support/postgres.ts), as runners on
// different machines use it: two netform processes in separate working folders sharing one state. One
// applies while the other is refused, naming it, then waits for it with --lock-timeout; a killed
// holder's lock dies with its database session; racing writers lose nothing; a holder paused while
// another force-unlocks it writes no row once resumed, and stops. Also each version kept for history and
// pull --serial, encryption at rest, migration from the local file.

import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PostgresBackend } from "../../src/backends/index.js";
import { isHeld, type StateBackend } from "../../src/state/index.js";
import { usePostgres } from "../support/postgres.js";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace, type Workspace } from "./cli.js";
import { chainOfFilters, expectStoppedForLostLock, FILTERS, filtersOnService, pauseHolderMidApply } from "./paused-holder.js";
import { CONFIG_HEADER, out } from "./service.js";

const t = useSimulator({ speed: 500 });
const db = usePostgres();

let names = 0;
/** A state name of its own for each test, so the tests share the server and not their states. */
const stateName = () => `prod-${++names}`;

const config = (name: string, filters = ["edge"]) => `${CONFIG_HEADER}backend:
  postgres: { url: "\${env.NETFORM_PG_URL}", schema: netform, name: ${name} }
routeFilters:
${filters.map((f) => `  ${f}:\n    type: BGP_IPv4_PREFIX_FILTER\n`).join("")}`;

/** One runner: its own working folder with the configuration, and the environment it runs with. */
function runner(name: string, extra: Record<string, string> = {}) {
  const ws = workspace(config(name));
  const env = simEnv(t.url, { NETFORM_PG_URL: db.url, ...extra });
  const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
  return { ws, env, run };
}

/** The live lock on a state, once netform has made its tables. */
async function lockRow(name: string) {
  const [tables] = await db.query<{ made: string | null }>("SELECT to_regclass('netform.state_locks')::text AS made");
  if (!tables?.made) return undefined;
  return (await db.query<{ who: string; operation: string; id: string }>("SELECT who, operation, id FROM netform.state_locks l JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1", [name]))[0];
}
const storedRow = async (name: string) => (await db.query<{ serial: number; content: string }>("SELECT serial, content FROM netform.states WHERE name = $1", [name]))[0];

/** Starts an apply that holds the lock for a while (the service answers slowly), and resolves once it holds it. */
async function slowApply(ws: Workspace, env: Record<string, string>, name: string) {
  t.sim.faults.configure({ latencyMs: 2000 });
  const holder = start(["apply", "--auto-approve"], { cwd: ws.dir, env });
  const row = await t.eventually(() => lockRow(name), "the first runner to hold the lock");
  return { holder, row };
}

describe("postgres backend", () => {
  it("applies, plans clean and destroys, keeping every version for history and pull --serial", async () => {
    const name = stateName();
    const { ws, run } = runner(name);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const row = await storedRow(name);
    expect(Object.keys((JSON.parse(row!.content) as { resources: object }).resources)).toEqual(["routeFilters.edge"]);
    expect(ws.stateText()).toBe("");
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    expect(await lockRow(name)).toBeUndefined();

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    const history = await run("state", "history");
    expect(history.code, out(history)).toBe(0);
    const serials = history.stdout.trim().split("\n").slice(1).map((l) => Number(l.split(/\s+/)[0]));
    expect(serials[0]).toBe((await storedRow(name))!.serial);
    expect(serials).toContain(row!.serial);

    const earlier = await run("state", "pull", "--serial", String(row!.serial));
    expect(Object.keys((JSON.parse(earlier.stdout) as { resources: object }).resources)).toEqual(["routeFilters.edge"]);
    expect((await run("state", "pull", "--serial", "9999")).stderr).toContain("keeps no version with serial 9999");
  });

  it("refuses a second runner while the first applies, naming it; with --lock-timeout it waits and proceeds", async () => {
    const name = stateName();
    const first = runner(name);
    const second = runner(name);
    const { holder, row } = await slowApply(first.ws, first.env, name);
    expect(row.operation).toBe("apply");

    const refused = await second.run("plan");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`locked by ${row.who} for apply`);
    expect(refused.stderr).toContain(`lock ID ${row.id}`);

    const waiting = start(["plan", "--detailed-exitcode", "--lock-timeout", "5m"], { cwd: second.ws.dir, env: second.env });
    let stderr = "";
    waiting.child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    await t.eventually(async () => (stderr.includes("waiting for the state lock") ? true : undefined), "the second runner to say it waits");
    expect(stderr).toContain(row.who);
    t.sim.faults.configure({});
    const applied = await holder.done;
    expect(applied.code, out(applied)).toBe(0);
    // It planned from what the first runner applied: nothing left to do.
    const waited = await waiting.done;
    expect(waited.code, out(waited)).toBe(0);
  });

  it("journals a runner's steps as rows sealed with the key, which the next runner replays and folds after a kill", async () => {
    const name = stateName();
    const key = randomBytes(32).toString("base64");
    const first = runner(name, { NETFORM_STATE_ENCRYPTION_KEY: key });
    const { holder } = await slowApply(first.ws, first.env, name);
    // The create's answer is journaled (the state itself was written once, with the pending create).
    const journaled = async () => (await db.query<{ line: string }>("SELECT line FROM netform.state_journal WHERE name = $1", [name])).map((r) => r.line);
    const lines = await t.eventually(async () => ((await journaled()).length > 0 ? journaled() : undefined), "a journaled step");
    holder.child.kill("SIGKILL");
    await holder.done;
    t.sim.faults.configure({});
    expect(lines.join("")).not.toContain("routeFilters.edge");
    expect((await storedRow(name))!.content).not.toContain("routeFilters.edge");

    const next = runner(name, { NETFORM_STATE_ENCRYPTION_KEY: key });
    const applied = await next.run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).not.toContain("Creating...");
    expect(await journaled()).toEqual([]);
    const made = (await t.call("GET", "/__sim/objects?kind=routeFilters")).body.data as Array<{ uuid: string }>;
    expect(made).toHaveLength(1);
    const state = JSON.parse((await next.run("state", "pull")).stdout) as { resources: Record<string, { id?: string; pending?: unknown }> };
    expect(state.resources["routeFilters.edge"]).toMatchObject({ id: made[0]!.uuid });
    expect(state.resources["routeFilters.edge"]!.pending).toBeUndefined();
  });

  it("frees the lock of a runner killed mid-apply: the next runner proceeds without force-unlock", async () => {
    const name = stateName();
    const first = runner(name);
    const second = runner(name);
    const { holder } = await slowApply(first.ws, first.env, name);
    holder.child.kill("SIGKILL");
    await holder.done;
    t.sim.faults.configure({});
    const next = await second.run("apply", "--auto-approve", "--lock-timeout", "2m");
    expect(next.code, out(next)).toBe(0);
    expect((await second.run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("force-unlock from another machine ends the holder's lock", async () => {
    const name = stateName();
    const first = runner(name);
    const second = runner(name);
    const { holder, row } = await slowApply(first.ws, first.env, name);
    const unlocked = await second.run("force-unlock", row.id);
    expect(unlocked.code, out(unlocked)).toBe(0);
    expect(unlocked.stdout).toContain(`Removed the lock ${row.id} held by ${row.who}`);
    t.sim.faults.configure({});
    // The holder's session is gone: it cannot write over whoever locks next.
    const ended = await holder.done;
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(`the state lock ${row.id} on "${name}" in postgres`);
    expect(await lockRow(name)).toBeUndefined();
  });

  it("fences a holder paused mid-apply: force-unlocked, it writes no row once resumed, changes nothing on the service, and says so", async () => {
    const name = stateName();
    const yaml = chainOfFilters(`backend:\n  postgres: { url: "\${env.NETFORM_PG_URL}", schema: netform, name: ${name} }\n`);
    const env = simEnv(t.url, { NETFORM_PG_URL: db.url });
    const [first, second] = [workspace(yaml), workspace(yaml)];
    const run = (...args: string[]) => netform(args, { cwd: second.dir, env });
    const paused = await pauseHolderMidApply(t, { cwd: first.dir, env }, async () => (await lockRow(name))?.id);
    try {
      expect((await run("plan")).stderr).toContain(`lock ID ${paused.lockId}`);
      const unlocked = await run("force-unlock", paused.lockId);
      expect(unlocked.code, out(unlocked)).toBe(0);
      expect(unlocked.stdout).toContain("If that run is still going, it finds the lock gone at its next write to the state (refused) or before its next change to the service, and stops there");
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      const rows = async () => ({
        state: await storedRow(name),
        history: (await db.query("SELECT serial FROM netform.state_history WHERE name = $1", [name])).length,
        journal: (await db.query("SELECT line FROM netform.state_journal WHERE name = $1", [name])).length,
        locks: await db.query("SELECT id FROM netform.state_locks WHERE name = $1", [name]),
      });
      const before = await rows();

      expectStoppedForLostLock(await paused.resume(), paused);
      expect(await rows()).toEqual(before);
      const recorded = JSON.parse((await run("state", "pull")).stdout) as { resources: Record<string, { id: string }> };
      const ids = Object.values(recorded.resources).map((r) => r.id);
      expect(ids).toHaveLength(FILTERS);
      expect((await filtersOnService(t)).sort()).toEqual(ids.sort());
      const plan = await run("plan", "--detailed-exitcode");
      expect(plan.code, out(plan)).toBe(0);
    } finally {
      paused.kill();
    }
  });

  it("loses no update when two runners race to write, and refuses a write that does not follow the stored version", async () => {
    const name = stateName();
    const { ws, run } = runner(name);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const before = (await storedRow(name))!.serial;
    const pulled = join(ws.dir, "pulled.json");
    writeFileSync(pulled, (await run("state", "pull")).stdout);
    // Both start from the same version: whichever writes second would overwrite the first's write.
    const racers = [runner(name), runner(name)].map((r) => netform(["state", "push", pulled, "--lock-timeout", "2m"], { cwd: r.ws.dir, env: r.env }));
    const results = await Promise.all(racers);
    expect(results.map((r) => r.code).sort(), results.map(out).join("\n")).toEqual([0, 1]);
    expect(results.find((r) => r.code === 1)!.stderr).toContain(`has serial ${before}, older than the state`);
    expect((await storedRow(name))!.serial).toBe(before + 1);

    const a = new PostgresBackend({ url: db.url, schema: "netform", name });
    const b = new PostgresBackend({ url: db.url, schema: "netform", name });
    const locked = async (backend: StateBackend) => {
      const attempt = await backend.tryLock("test");
      if (!isHeld(attempt)) throw attempt.refusal;
      return attempt;
    };
    try {
      const current = JSON.parse((await a.read())!) as { lineage: string; serial: number };
      const after = { lineage: current.lineage, serial: current.serial };
      const next = { lineage: current.lineage, serial: current.serial + 1 };
      // Both started from the same version; the lock passes from one to the other between their writes.
      const first = await locked(a);
      await a.write(JSON.stringify({ ...current, serial: next.serial }), next, after);
      await first.release();
      const second = await locked(b);
      await expect(b.write(JSON.stringify({ ...current, serial: next.serial }), next, after)).rejects.toThrow(/changed while this run held it: it started from serial \d+, and the backend now has serial \d+/);
      await second.release();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("stores the state encrypted: no attribute value in the database, a wrong key fails clearly, rekey works", async () => {
    const name = stateName();
    const first = randomBytes(32).toString("hex");
    const { run } = runner(name, { NETFORM_STATE_ENCRYPTION_KEY: first });
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const row = await storedRow(name);
    const state = JSON.parse((await run("state", "pull")).stdout) as { resources: Record<string, { id: string }> };
    const id = state.resources["routeFilters.edge"]!.id;
    const history = await db.query<{ content: string }>("SELECT content FROM netform.state_history WHERE name = $1", [name]);
    for (const stored of [row!.content, ...history.map((h) => h.content)]) {
      expect(stored).toContain('"netformEncrypted"');
      expect(stored).not.toContain(id);
      expect(stored).not.toContain("routeFilters.edge");
    }
    const wrong = await netform(["plan"], { cwd: runner(name).ws.dir, env: simEnv(t.url, { NETFORM_PG_URL: db.url, NETFORM_STATE_ENCRYPTION_KEY: randomBytes(32).toString("hex") }) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/is encrypted with key [0-9a-f]{16}, and the key given is [0-9a-f]{16}/);

    const second = randomBytes(32).toString("base64");
    const other = runner(name, { NETFORM_STATE_ENCRYPTION_KEY: second, NETFORM_STATE_ENCRYPTION_OLD_KEY: first });
    expect((await other.run("state", "rekey")).code).toBe(0);
    const now = runner(name, { NETFORM_STATE_ENCRYPTION_KEY: second });
    expect((await now.run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("migrates a local state with its lineage and serial, switches the configuration, and refuses a place that already has one", async () => {
    const name = stateName();
    const ws = workspace(`${CONFIG_HEADER}# the filter in front of the edge\nrouteFilters:\n  edge:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    const env = simEnv(t.url, { NETFORM_PG_URL: db.url });
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const local = ws.state();
    const to = `{postgres: {url: "\${env.NETFORM_PG_URL}", name: ${name}}}`;
    const migrated = await run("state", "migrate", "--to", to);
    expect(migrated.code, out(migrated)).toBe(0);
    const row = await storedRow(name);
    expect(JSON.parse(row!.content)).toMatchObject({ lineage: local.lineage, serial: local.serial });
    const yaml = readFileSync(join(ws.dir, "netform.yaml"), "utf8");
    expect(yaml).toContain("backend: { postgres: { url: \"${env.NETFORM_PG_URL}\", name: " + name + " } }");
    expect(yaml).toContain("# the filter in front of the edge");
    expect(yaml).not.toContain(db.url);
    // The configuration now reads the state from the database: the local file no longer counts.
    const localText = ws.stateText();
    rmSync(ws.statePath);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    expect((await run("state", "migrate", "--to", to)).stderr).toContain("the state is already in");
    const another = workspace(`${CONFIG_HEADER}routeFilters: {}\n`);
    writeFileSync(another.statePath, localText);
    const taken = await netform(["state", "migrate", "--to", to], { cwd: another.dir, env });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`already keeps a state (lineage ${local.lineage}, serial ${local.serial})`);
    expect((await run("state", "migrate", "--to", "{postgres: {name: x}}")).stderr).toContain("--to {postgres: {name: x}}: postgres.url");
  });
});
