// The postgres backend as production databases behave, against a real PostgreSQL server this file starts
// (and stops and starts again): a restart while a runner waits for the lock, a server gone under the
// holder, a database user with only data rights on tables a DBA made, `state rekey` leaving nothing in
// clear in the history, and a shared state without NETFORM_STATE_KEY refused before anything is sent.

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { usePostgres } from "../support/postgres.js";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, objects, out, requestLog } from "./service.js";

const t = useSimulator({ speed: 500 });
const db = usePostgres();

let names = 0;
const stateName = () => `faults-${++names}`;

interface Backend {
  name: string;
  schema?: string;
  extra?: string;
}

const backendYaml = ({ name, schema = "netform", extra = "" }: Backend) => `backend:
  postgres: { url: "\${env.NETFORM_PG_URL}", schema: ${schema}, name: ${name}${extra} }
`;

const filters = (backend: Backend, names: string[], description = "") =>
  `${CONFIG_HEADER}${backendYaml(backend)}routeFilters:
${names.map((f) => `  ${f}:\n    type: BGP_IPv4_PREFIX_FILTER\n${description ? `    description: ${description}\n` : ""}`).join("")}`;

function runner(yaml: string, extra: Record<string, string> = {}) {
  const ws = workspace(yaml);
  const env = simEnv(t.url, { NETFORM_PG_URL: db.url, ...extra });
  const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
  return { ws, env, run };
}

const tablesMade = async () => (await db.query<{ made: string | null }>("SELECT to_regclass('netform.state_journal')::text AS made"))[0]?.made ? true : false;

/** The live holder of a state's lock (its session is still there), once netform has made its tables. */
async function lockRow(name: string) {
  if (!(await tablesMade())) return undefined;
  return (await db.query<{ id: string }>("SELECT l.id FROM netform.state_locks l JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1", [name]))[0];
}

const journalRows = async (name: string) => ((await tablesMade()) ? (await db.query("SELECT line FROM netform.state_journal WHERE name = $1", [name])).length : 0);

/** A failure told as one clear message: no stack trace, no "Internal error". */
function expectClearFailure(result: { code: number | null; stderr: string }): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/Internal error|defect in netform|\n\s+at /);
}

describe("postgres backend under faults", () => {
  it("survives a database restart while waiting with --lock-timeout; the holder fails closed, and nothing is made twice", { timeout: 90_000 }, async () => {
    const name = stateName();
    const yaml = filters({ name }, ["edge"]);
    const first = runner(yaml);
    const second = runner(yaml);
    // Every request takes a second: the holder keeps the lock, and requests are handled in the order sent.
    t.sim.faults.configure({ latencyMs: 1000 });
    const holder = start(["apply", "--auto-approve"], { cwd: first.ws.dir, env: first.env });
    const { id: holderLock } = await t.eventually(() => lockRow(name), "the first runner to hold the lock");
    const waiter = start(["apply", "--auto-approve", "--lock-timeout", "5m"], { cwd: second.ws.dir, env: second.env });
    let waiting = "";
    waiter.child.stderr!.on("data", (d: Buffer) => (waiting += d.toString()));
    await t.eventually(async () => (waiting.includes("waiting for the state lock") ? true : undefined), "the second runner to wait");

    // The holder is paused (as a stalled machine is) until the waiter has taken the lock over after the
    // restart: however slow the restart, the holder then finds the database answering and the lock taken.
    holder.child.kill("SIGSTOP");
    await db.stop();
    await db.start();
    await t.eventually(async () => {
      const row = await lockRow(name).catch(() => undefined);
      return row && row.id !== holderLock ? true : undefined;
    }, "the waiter to take the lock over");
    holder.child.kill("SIGCONT");

    const held = await holder.done;
    expectClearFailure(held);
    // Once the database answers again, the lock's row says what became of the lock: the waiter took it over.
    expect(held.stderr).toMatch(/the state lock \S+ on .* is no longer this run's: another run took it over: .* for apply/);
    expect(held.stderr).toContain("This run stopped before its next change to the service and wrote nothing more to the state");
    t.sim.faults.configure({});
    const waited = await waiter.done;
    expect(waited.code, out(waited)).toBe(0);
    expect(waited.stderr).not.toContain("table");

    expect(await objects(t, "routeFilters")).toHaveLength(1);
    expect((await second.run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("fails closed, with what happened and what to do, when the server goes away under the holder; the next run finishes the work", { timeout: 90_000 }, async () => {
    const name = stateName();
    const yaml = filters({ name }, ["edge-a", "edge-b"]);
    const first = runner(yaml);
    t.sim.faults.configure({ latencyMs: 1000 });
    const holder = start(["apply", "--auto-approve", "--parallelism", "1"], { cwd: first.ws.dir, env: first.env });
    // A step is journaled: the holder is in the middle of its changes.
    await t.eventually(async () => ((await journalRows(name)) > 0 ? true : undefined), "a journaled step");
    await db.stop();
    const held = await holder.done;
    expectClearFailure(held);
    expect(held.stderr).toContain("lost its connection to the postgres backend while it held the state lock");
    expect(held.stderr).toContain("This run stopped before its next change to the service and wrote nothing more to the state");
    // A lost connection is not a matter of rights: no hint sends the user to the grants.
    expect(held.stderr).not.toMatch(/\bright|privilege|permission|grant/i);

    await db.start();
    t.sim.faults.configure({});
    const next = await runner(yaml).run("apply", "--auto-approve");
    expect(next.code, out(next)).toBe(0);
    const made = await objects(t, "routeFilters");
    expect(made.map((f) => f.name).sort()).toEqual(["edge-a", "edge-b"]);
    expect((await first.run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("runs as a user with only data rights on tables a DBA made from `netform state ddl`, and names a missing table", async () => {
    const password = randomBytes(9).toString("hex");
    await db.query(`CREATE ROLE netform_runner LOGIN PASSWORD '${password}'`);
    const ddl = await netform(["state", "ddl", "--schema", "least", "--grant", "netform_runner"], { cwd: workspace().dir });
    expect(ddl.code, out(ddl)).toBe(0);
    await db.query(ddl.stdout);
    const asRunner = { NETFORM_PG_URL: db.urlAs("netform_runner", password) };
    const [rights] = await db.query<{ create: boolean }>("SELECT has_database_privilege('netform_runner', current_database(), 'CREATE') AS create");
    expect(rights!.create).toBe(false);

    const name = stateName();
    const { run, ws } = runner(filters({ name, schema: "least", extra: ", createTables: false" }, ["edge"]), asRunner);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    // Without the setting too: the tables are there, so nothing is created.
    ws.write(filters({ name, schema: "least" }, ["edge"]));
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    expect((await run("destroy", "--auto-approve")).code).toBe(0);

    const missing = runner(filters({ name, schema: "nowhere", extra: ", createTables: false" }, ["edge"]), asRunner);
    const refused = await missing.run("plan");
    expectClearFailure(refused);
    expect(refused.stderr).toContain("has no table nowhere.states, nowhere.state_history, nowhere.state_locks, nowhere.state_journal");
    expect(refused.stderr).toContain("netform state ddl --grant ROLE");
    missing.ws.write(filters({ name, schema: "nowhere" }, ["edge"]));
    const fromEnv = await netform(["plan"], { cwd: missing.ws.dir, env: { ...missing.env, NETFORM_PG_CREATE_TABLES: "false" } });
    expectClearFailure(fromEnv);
    expect(fromEnv.stderr).toContain("and createTables is false");
    const mayNot = await missing.run("plan");
    expectClearFailure(mayNot);
    expect(mayNot.stderr).toContain("and its user may not create it: permission denied");
    expect(mayNot.stderr).toContain("netform state ddl --grant ROLE");
  });

  it("rekey seals every version in the history, or prunes it on request: no row of any table shows a name, an ID or a value", { timeout: 120_000 }, async () => {
    const name = stateName();
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    // Names of this test's own: the other tests' states in the same tables stay in clear.
    const filter = (n: number) => `rk${marker.slice(-6)}-${n}`;
    const { ws, run } = runner(filters({ name }, [filter(0)], marker));
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    // One version per apply: five filters added, then their description changed, ten times in all.
    for (let n = 1; n <= 10; n++) {
      ws.write(filters({ name }, Array.from({ length: Math.min(n, 4) + 1 }, (_, i) => filter(i)), `${marker}-v${n}`));
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
    }
    const pulled = JSON.parse((await run("state", "pull")).stdout) as { resources: Record<string, { id: string }> };
    const ids = Object.values(pulled.resources).map((r) => String(r.id));
    expect(ids).toHaveLength(5);
    /** Every row of every table in netform's schema, as text: what a dump of the database shows. */
    const dump = async () => {
      const tables = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'netform'");
      expect(tables.map((t) => t.table_name).sort()).toEqual(["state_history", "state_journal", "state_locks", "states"]);
      const rows = await Promise.all(tables.map((t) => db.query(`SELECT row_to_json(r)::text AS row FROM netform.${t.table_name} r`)));
      return JSON.stringify(rows);
    };
    const cleartext = [marker, filter(0), filter(4), ...ids];
    const before = await dump();
    for (const text of cleartext) expect(before).toContain(text);
    const versions = (await db.query("SELECT serial FROM netform.state_history WHERE name = $1", [name])).length;
    expect(versions).toBeGreaterThanOrEqual(10);

    const key = randomBytes(32).toString("base64");
    const sealed = runner(filters({ name }, Array.from({ length: 5 }, (_, i) => filter(i)), `${marker}-v10`), { NETFORM_STATE_ENCRYPTION_KEY: key });
    const rekeyed = await sealed.run("state", "rekey");
    expect(rekeyed.code, out(rekeyed)).toBe(0);
    expect(rekeyed.stdout).toMatch(new RegExp(`Rewrote ${versions} earlier versions the backend keeps with key \\S+; every version it keeps is now sealed with that key`));
    const after = await dump();
    for (const text of cleartext) expect(after).not.toContain(text);
    // Every version is still there, and opens with the key.
    const first = await sealed.run("state", "pull", "--serial", "1");
    expect(first.code, out(first)).toBe(0);
    expect(first.stdout).toContain(filter(0));
    // A second rekey with the same key finds every earlier version sealed with it already.
    const again = await sealed.run("state", "rekey");
    expect(again.stdout).toContain("Rewrote 0 earlier versions");

    const pruned = await sealed.run("state", "rekey", "--prune-history");
    expect(pruned.code, out(pruned)).toBe(0);
    // Those, and the versions the two rekeys wrote.
    expect(pruned.stdout).toContain(`Removed ${versions + 2} earlier versions the backend kept`);
    const kept = await db.query<{ serial: number }>("SELECT serial FROM netform.state_history WHERE name = $1", [name]);
    const [current] = await db.query<{ serial: number }>("SELECT serial FROM netform.states WHERE name = $1", [name]);
    expect(kept).toEqual([{ serial: current!.serial }]);
    for (const text of cleartext) expect(await dump()).not.toContain(text);
    expect((await sealed.run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("refuses a plan and an apply on a shared state without NETFORM_STATE_KEY before anything is sent, when the configuration has a secret", async () => {
    const name = stateName();
    const yaml = `${filters({ name }, ["edge-1", "edge-2", "edge-3"])}  edge-4:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: \${secret.NOTE}\n`;
    const { run } = runner(yaml, { NETFORM_STATE_KEY: "", NOTE: "a note kept secret" });
    await t.call("DELETE", "/__sim/requests");
    for (const command of [["plan"], ["plan", "--out", "plan.bin"], ["apply", "--auto-approve"]]) {
      const refused = await run(...command);
      expectClearFailure(refused);
      expect(refused.stderr).toContain(`its state is in a shared backend ("${name}" in postgres`);
      expect(refused.stderr).toContain("e.g. the secret in routeFilters.edge-4.description,");
      expect(refused.stderr).toContain("NETFORM_STATE_KEY is not set");
      expect(refused.stderr).toContain("set NETFORM_STATE_KEY to one random value");
      expect(refused.stderr).not.toContain("a note kept secret");
    }
    expect(changesSent(await requestLog(t))).toEqual([]);
    expect(await objects(t, "routeFilters")).toEqual([]);
    expect(await db.query("SELECT name FROM netform.states WHERE name = $1", [name])).toEqual([]);

    const keyed = runner(yaml, { NOTE: "a note kept secret" });
    expect((await keyed.run("apply", "--auto-approve")).code).toBe(0);
    expect(await objects(t, "routeFilters")).toHaveLength(4);
  });
});
