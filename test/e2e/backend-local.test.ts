// The local backend, as before backends, with what backends brought to every command: encryption at rest
// of the state file, waiting for a held lock with --lock-timeout, and the flags refused where they make no
// sense (--lock=false on a command that writes, --state with another backend), and a state in a folder
// that does not exist yet.

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace } from "./cli.js";
import { CONFIG_HEADER, out } from "./service.js";

const t = useSimulator({ speed: 500 });

const CONFIG = `${CONFIG_HEADER}routeFilters:\n  edge-filter-9z:\n    type: BGP_IPv4_PREFIX_FILTER\n`;

describe("local backend", () => {
  it("applies, plans clean and destroys with the state file encrypted; a wrong or missing key fails clearly", async () => {
    const ws = workspace(CONFIG);
    const key = randomBytes(32).toString("base64");
    const run = (args: string[], extra: Record<string, string> = {}) => netform(args, { cwd: ws.dir, env: simEnv(t.url, { NETFORM_STATE_ENCRYPTION_KEY: key, ...extra }) });
    const applied = await run(["apply", "--auto-approve"]);
    expect(applied.code, out(applied)).toBe(0);
    const id = (JSON.parse((await run(["state", "pull"])).stdout) as { resources: Record<string, { id: string }> }).resources["routeFilters.edge-filter-9z"]!.id;
    const bytes = ws.stateText();
    expect(bytes).toContain('"netformEncrypted"');
    expect(bytes).not.toContain("edge-filter-9z");
    expect(bytes).not.toContain(id);
    expect((await run(["plan", "--detailed-exitcode"])).code).toBe(0);

    const missing = await run(["state", "list"], { NETFORM_STATE_ENCRYPTION_KEY: "" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`the state ${ws.statePath} is encrypted`);
    expect(missing.stderr).toContain("set NETFORM_STATE_ENCRYPTION_KEY");
    const wrong = await run(["plan"], { NETFORM_STATE_ENCRYPTION_KEY: randomBytes(32).toString("hex") });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/encrypted with key [0-9a-f]{16}, and the key given is [0-9a-f]{16}/);

    const destroyed = await run(["destroy", "--auto-approve"]);
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(readFileSync(ws.statePath, "utf8")).toContain('"netformEncrypted"');
  });

  it("rekey seals the .backup too, or removes it with --prune-history: no file beside the state stays in clear", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    ws.write(`${CONFIG}  edge-filter-8y:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    const backup = `${ws.statePath}.backup`;
    expect(readFileSync(backup, "utf8")).toContain("edge-filter-9z");

    const sealed = { ...env, NETFORM_STATE_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const rekeyed = await netform(["state", "rekey"], { cwd: ws.dir, env: sealed });
    expect(rekeyed.code, out(rekeyed)).toBe(0);
    expect(rekeyed.stdout).toContain("Rewrote 1 earlier version the backend keeps with key");
    for (const file of [ws.statePath, backup]) {
      const bytes = readFileSync(file, "utf8");
      expect(bytes).toContain('"netformEncrypted"');
      expect(bytes).not.toContain("edge-filter-9z");
    }
    expect((await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: sealed })).code).toBe(0);

    const pruned = await netform(["state", "rekey", "--prune-history"], { cwd: ws.dir, env: sealed });
    expect(pruned.code, out(pruned)).toBe(0);
    expect(pruned.stdout).toContain("Removed 1 earlier version the backend kept");
    expect(existsSync(backup)).toBe(false);
  });

  it("waits with --lock-timeout for a lock another machine holds, saying who, and proceeds once it is freed", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const lock = { id: "lock-9", operation: "apply", who: "ci@runner-9 (pid 7)", created: new Date().toISOString(), expires: new Date(Date.now() + 600_000).toISOString(), host: "runner-9", pid: 7 };
    writeFileSync(`${ws.statePath}.lock`, JSON.stringify(lock));
    const waiting = start(["apply", "--auto-approve", "--lock-timeout", "5m"], { cwd: ws.dir, env });
    let stderr = "";
    waiting.child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    await t.eventually(async () => (stderr.includes("waiting for the state lock") ? true : undefined), "the run to say it waits");
    expect(stderr).toContain("locked by ci@runner-9 (pid 7) for apply");
    rmSync(`${ws.statePath}.lock`);
    const applied = await waiting.done;
    expect(applied.code, out(applied)).toBe(0);
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.edge-filter-9z"]);
  });

  it("refuses --lock=false on a command that writes, a malformed --lock-timeout, and --state with another backend", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const unlocked = await netform(["apply", "--auto-approve", "--lock=false"], { cwd: ws.dir, env });
    expect(unlocked.code).toBe(1);
    expect(unlocked.stderr).toContain("apply writes the state, and --lock=false is only for commands that read it (plan, drift)");
    expect((await netform(["plan", "--lock=false"], { cwd: ws.dir, env })).code).toBe(0);
    const timeout = await netform(["plan", "--lock-timeout", "5 minutes"], { cwd: ws.dir, env });
    expect(timeout.stderr).toContain('--lock-timeout must be a duration such as 5m, 90s or 1h, got "5 minutes"');

    ws.write(`${CONFIG}backend:\n  postgres: { url: "postgres://127.0.0.1:1/none", name: prod }\n`);
    const elsewhere = await netform(["plan", "--state", "other.json"], { cwd: ws.dir, env });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("--state names a local state file, and this configuration keeps its state in the postgres backend");
    const history = await netform(["state", "history", "--state", "x.json"], { cwd: ws.dir, env });
    expect(history.stderr).toContain("--state names a local state file");
    ws.write(`${CONFIG}backend:\n  postgres: { url: "mysql://db/x", name: prod }\n`);
    const invalid = await netform(["state", "list"], { cwd: ws.dir, env });
    expect(invalid.stderr).toMatch(/netform\.yaml:\d+:\d+: backend\.postgres\.url: url must be a postgres:\/\/ connection URL/);
  });

  it("creates the folder of a state that does not exist yet, from the backend block or from --state", async () => {
    const ws = workspace(`${CONFIG}backend:\n  local: { path: states/dev.json }\n`);
    const env = simEnv(t.url);
    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(applied.code, out(applied)).toBe(0);
    const dev = JSON.parse(readFileSync(join(ws.dir, "states", "dev.json"), "utf8")) as { resources: object };
    expect(Object.keys(dev.resources)).toEqual(["routeFilters.edge-filter-9z"]);
    expect(existsSync(ws.statePath)).toBe(false);

    ws.write(CONFIG);
    const prod = await netform(["apply", "--auto-approve", "--state", "deep/states/prod.json"], { cwd: ws.dir, env });
    expect(prod.code, out(prod)).toBe(0);
    expect(prod.stderr).not.toContain("Internal error");
    expect(existsSync(join(ws.dir, "deep", "states", "prod.json"))).toBe(true);
    expect((await netform(["plan", "--detailed-exitcode", "--state", "deep/states/prod.json"], { cwd: ws.dir, env })).code).toBe(0);

    writeFileSync(join(ws.dir, "blocked"), "a file where the folder would be\n");
    const blocked = await netform(["apply", "--auto-approve", "--state", "blocked/prod.json"], { cwd: ws.dir, env });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(`cannot create the folder ${join(ws.dir, "blocked")} for the state file ${join(ws.dir, "blocked", "prod.json")}`);
    expect(blocked.stderr).not.toContain("Internal error");
  });
});
