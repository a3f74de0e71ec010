// The http backend against servers speaking Terraform's HTTP state protocol, started by the test on
// loopback, in its own shape and in GitLab's: the round trip (apply, a clean plan, destroy) with the
// state only on the server, the lock and its refusal, basic auth, every setting from the environment,
// requests repeated after a server error or a dropped connection, the versions an apply writes, a holder
// paused while another force-unlocks it, and encryption at rest of the state and of saved plans.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HTTP_PASSWORD, HTTP_USER, useHttpStateServer } from "../support/http-state-server.js";
import { useSimulator } from "../support/sim.js";
import { EXAMPLES, netform, simEnv, start, workspace } from "./cli.js";
import { chainOfFilters, expectStoppedForLostLock, FILTERS, filtersOnService, pauseHolderMidApply } from "./paused-holder.js";
import { CONFIG_HEADER, objects, out } from "./service.js";

const t = useSimulator({ speed: 500 });
const server = useHttpStateServer();
const gitlab = useHttpStateServer({ flavour: "gitlab" });
/** Repeats a few milliseconds apart: the tests wait for no real second. */
const FAST_RETRIES = { NETFORM_HTTP_RETRY_WAIT_MIN: "0.005", NETFORM_HTTP_RETRY_WAIT_MAX: "0.02" };

const CONFIG = `${CONFIG_HEADER}backend:
  http:
    address: \${env.STATE_URL}
routeFilters:
  edge-filter-7q:
    type: BGP_IPv4_PREFIX_FILTER
`;

const key = () => randomBytes(32).toString("base64");

function setup(extra: Record<string, string> = {}) {
  const ws = workspace(CONFIG);
  const env = simEnv(t.url, { STATE_URL: server.url, NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD, ...extra });
  const run = (args: string[], more: Record<string, string> = {}) => netform(args, { cwd: ws.dir, env: { ...env, ...more } });
  return { ws, env, run };
}

const storedState = () => JSON.parse(server.stored!) as { serial: number; resources: Record<string, { id?: string }> };

describe("http backend", () => {
  it("applies, plans clean and destroys with the state only on the server, writing under its lock", async () => {
    const { ws, run } = setup();
    const applied = await run(["apply", "--auto-approve"]);
    expect(applied.code, out(applied)).toBe(0);
    expect(Object.keys(storedState().resources)).toEqual(["routeFilters.edge-filter-7q"]);
    expect(existsSync(ws.statePath)).toBe(false);
    expect(server.lock).toBeUndefined();
    expect(server.writes.length).toBeGreaterThan(0);
    expect(server.writes.every(({ id }) => id === server.writes[0]!.id && typeof id === "string")).toBe(true);

    const plan = await run(["plan", "--detailed-exitcode"]);
    expect(plan.code, out(plan)).toBe(0);
    expect((await run(["state", "list"])).stdout.trim()).toBe("routeFilters.edge-filter-7q");

    const destroyed = await run(["destroy", "--auto-approve"]);
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(storedState().resources).toEqual({});
  });

  it("refuses a run while another holds the lock, naming it; waits with --lock-timeout; force-unlock frees it", async () => {
    const { run, ws, env } = setup();
    server.lock = { ID: "held-by-runner-3", Operation: "apply", Who: "ci@runner-3", Created: "2026-11-24T10:00:00Z", Version: "netform", Info: "", Path: "" };
    const refused = await run(["plan"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("locked by ci@runner-3 for apply since 2026-11-24T10:00:00Z (lock ID held-by-runner-3)");
    expect(refused.stderr).toContain("--lock-timeout");

    const waiting = start(["plan", "--lock-timeout", "5m"], { cwd: ws.dir, env });
    let stderr = "";
    waiting.child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    await t.eventually(async () => (stderr.includes("waiting for the state lock") ? true : undefined), "the waiting run to say so");
    expect(stderr).toContain("ci@runner-3");
    server.lock = undefined;
    const waited = await waiting.done;
    expect(waited.code, out(waited)).toBe(0);

    server.lock = { ID: "held-by-runner-4", Operation: "apply", Who: "ci@runner-4", Created: "2026-11-24T10:00:00Z" };
    expect((await run(["force-unlock", "wrong-id"])).stderr).toContain("has ID held-by-runner-4");
    const unlocked = await run(["force-unlock", "held-by-runner-4"]);
    expect(unlocked.code, out(unlocked)).toBe(0);
    expect(unlocked.stdout).toContain("Removed the lock held-by-runner-4 held by ci@runner-4");
    expect(server.lock).toBeUndefined();
  });

  it("speaks GitLab's shape with every setting from the environment, and writes a version only where crash safety needs one", async () => {
    const ws = workspace(`${readFileSync(join(EXAMPLES, "quickstart/netform.yaml"), "utf8")}\nbackend:\n  http: {}\n`);
    const env = simEnv(t.url, {
      NETFORM_HTTP_ADDRESS: gitlab.url,
      NETFORM_HTTP_LOCK_ADDRESS: gitlab.lockUrl,
      NETFORM_HTTP_UNLOCK_ADDRESS: gitlab.lockUrl,
      NETFORM_HTTP_LOCK_METHOD: "POST",
      NETFORM_HTTP_UNLOCK_METHOD: "DELETE",
      NETFORM_HTTP_USERNAME: HTTP_USER,
      NETFORM_HTTP_PASSWORD: HTTP_PASSWORD,
      ...FAST_RETRIES,
    });
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const made = JSON.parse(gitlab.stored!) as { resources: Record<string, { id: string; pending?: unknown }> };
    expect(Object.keys(made.resources)).toHaveLength(5);
    expect(Object.values(made.resources).every((r) => r.id && !r.pending)).toBe(true);
    // A version before each change to the service (changes started together share one) and one at the end: not one per record.
    expect(gitlab.writes.length).toBeGreaterThanOrEqual(2);
    expect(gitlab.writes.length).toBeLessThanOrEqual(6);
    expect(new Set(gitlab.requests.filter((r) => r.path.endsWith("/lock")).map((r) => r.method))).toEqual(new Set(["POST", "DELETE"]));
    expect(gitlab.lock).toBeUndefined();
    expect(applied.stdout + applied.stderr).not.toContain(HTTP_PASSWORD);

    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect((JSON.parse(gitlab.stored!) as { resources: object }).resources).toEqual({});
  });

  it("repeats a write after a server error or a dropped connection, storing it once, and blames no other writer", async () => {
    const { run } = setup(FAST_RETRIES);
    server.fail("POST", "500-before");
    server.fail("POST", "drop-after");
    server.fail("GET", "drop-before");
    const applied = await run(["apply", "--auto-approve"]);
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stderr).not.toContain("another writer");
    const stored = storedState();
    expect(Object.values(stored.resources).map((r) => r.id)).toEqual((await objects(t, "routeFilters")).map((o) => o.uuid));
    // Each write stored once: the serials follow one another.
    expect(server.writes.map((w) => (JSON.parse(w.content) as { serial: number }).serial)).toEqual(server.writes.map((_, i) => i + 1));
    expect((await run(["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("fences a holder paused mid-apply: force-unlocked, it stores nothing once resumed, changes nothing on the service, and says so", async () => {
    const ws = workspace(chainOfFilters("backend:\n  http:\n    address: ${env.STATE_URL}\n"));
    const other = workspace(chainOfFilters("backend:\n  http:\n    address: ${env.STATE_URL}\n"));
    const env = simEnv(t.url, { STATE_URL: server.url, NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD, ...FAST_RETRIES });
    const run = (...args: string[]) => netform(args, { cwd: other.dir, env });
    const paused = await pauseHolderMidApply(t, { cwd: ws.dir, env }, async () => server.lock?.ID as string | undefined);
    try {
      expect((await run("plan")).stderr).toContain(`lock ID ${paused.lockId}`);
      const unlocked = await run("force-unlock", paused.lockId);
      expect(unlocked.code, out(unlocked)).toBe(0);
      expect(unlocked.stdout).toContain("If that run is still going, it finds the lock gone at its next write to the state (refused) or before its next change to the service, and stops there");
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      const written = server.writes.length;
      const stored = server.stored;

      expectStoppedForLostLock(await paused.resume(), paused);
      expect(server.writes).toHaveLength(written);
      expect(server.stored).toBe(stored);
      expect(server.lock).toBeUndefined();
      const ids = Object.values(storedState().resources).map((r) => r.id);
      expect(ids).toHaveLength(FILTERS);
      expect((await filtersOnService(t)).sort()).toEqual(ids.sort());
      expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    } finally {
      paused.kill();
    }
  });

  it("keeps track of every object through a kill mid-apply, with fewer versions: the next run makes none twice and leaves none untracked", async () => {
    const ws = workspace(chainOfFilters("backend:\n  http:\n    address: ${env.STATE_URL}\n"));
    const env = simEnv(t.url, { STATE_URL: server.url, NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD, ...FAST_RETRIES });
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    const paused = await pauseHolderMidApply(t, { cwd: ws.dir, env }, async () => server.lock?.ID as string | undefined);
    try {
      await paused.killed();
      // What the killed run stored leads the next one to the object it created: a pending record.
      const left = storedState() as { resources: Record<string, { id?: string; pending?: unknown }> };
      expect(Object.values(left.resources).some((r) => r.pending !== undefined || r.id === paused.created[0])).toBe(true);
      expect((await run("force-unlock", paused.lockId)).code).toBe(0);
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      const ids = Object.values(storedState().resources).map((r) => r.id);
      expect(ids).toHaveLength(FILTERS);
      expect(ids).toContain(paused.created[0]);
      expect((await filtersOnService(t)).sort()).toEqual([...ids].sort());
      expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    } finally {
      paused.kill();
    }
  });

  it("says so when the server refuses the credentials", async () => {
    const { run } = setup();
    const refused = await run(["plan"], { NETFORM_HTTP_PASSWORD: "wrong-pass-k2" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the http backend refused LOCK");
    expect(refused.stderr).toContain("NETFORM_HTTP_USERNAME and NETFORM_HTTP_PASSWORD");
    expect(refused.stderr).not.toContain("wrong-pass-k2");
    expect(refused.stderr).not.toContain("    at ");
  });

  it("stores the state and saved plans encrypted; a missing or wrong key fails clearly; rekey moves to a new key", async () => {
    const first = key();
    const { ws, run } = setup({ NETFORM_STATE_ENCRYPTION_KEY: first });
    const applied = await run(["apply", "--auto-approve"]);
    expect(applied.code, out(applied)).toBe(0);
    const pulled = await run(["state", "pull"]);
    expect(pulled.code, out(pulled)).toBe(0);
    const id = (JSON.parse(pulled.stdout) as { resources: Record<string, { id: string }> }).resources["routeFilters.edge-filter-7q"]!.id;
    expect(server.stored).toContain('"netformEncrypted"');
    expect(server.stored).not.toContain("edge-filter-7q");
    expect(server.stored).not.toContain(id);

    const missing = await run(["plan"], { NETFORM_STATE_ENCRYPTION_KEY: "" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/is encrypted \(key [0-9a-f]{16}\), and no key is given/);
    const wrong = await run(["state", "list"], { NETFORM_STATE_ENCRYPTION_KEY: key() });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/is encrypted with key [0-9a-f]{16}, and the key given is [0-9a-f]{16}/);
    expect(wrong.stderr).not.toContain("edge-filter-7q");

    const planFile = join(ws.dir, "reviewed.plan");
    writeFileSync(join(ws.dir, "netform.yaml"), CONFIG.replace("type: BGP_IPv4_PREFIX_FILTER", "type: BGP_IPv4_PREFIX_FILTER\n    description: second-marker-3k"));
    expect((await run(["plan", "--out", planFile])).code).toBe(0);
    expect(readFileSync(planFile, "utf8")).not.toContain("second-marker-3k");
    const unreadable = await run(["show", planFile], { NETFORM_STATE_ENCRYPTION_KEY: "" });
    expect(unreadable.stderr).toContain("the saved plan");
    expect(unreadable.stderr).toContain("no key is given");
    const appliedPlan = await run(["apply", planFile]);
    expect(appliedPlan.code, out(appliedPlan)).toBe(0);

    const second = key();
    const rekeyed = await run(["state", "rekey"], { NETFORM_STATE_ENCRYPTION_KEY: second, NETFORM_STATE_ENCRYPTION_OLD_KEY: first });
    expect(rekeyed.code, out(rekeyed)).toBe(0);
    expect(rekeyed.stdout).toMatch(/was encrypted with key [0-9a-f]{16}, now encrypted with key [0-9a-f]{16}/);
    expect((await run(["plan", "--detailed-exitcode"], { NETFORM_STATE_ENCRYPTION_KEY: second })).code).toBe(0);
    expect((await run(["state", "list"], { NETFORM_STATE_ENCRYPTION_KEY: first })).stderr).toContain("is encrypted with key");
  });
});
