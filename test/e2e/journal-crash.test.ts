// The state journal under SIGKILL, quickly: an apply killed at a few seeded points among its exchanges
// with the service is replayed and finished by the next one (test/reliability runs many seeds).

import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Exchange, type RunningSimulator } from "../../src/simulator/index.js";
import { netform, simEnv, start, workspace } from "./cli.js";
import { changesOfCleanApply, killAndResume, type KillHarness } from "./journal-kills.js";
import { CONFIG_HEADER, out } from "./service.js";

let sim: RunningSimulator;
let observe: ((exchange: Exchange) => void) | undefined;
const harness = (): KillHarness => ({ sim, observe: (handler) => (observe = handler) });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, speed: 200, seed: 11, onExchange: (e) => observe?.(e) });
});
afterAll(async () => {
  await sim?.close();
});

describe("the state journal under SIGKILL", () => {
  it("replays what a killed apply journaled, and the next apply finishes it without making anything twice", { timeout: 300_000 }, async () => {
    const changes = await changesOfCleanApply(harness());
    let killed = 0;
    for (const seed of [1, 2]) if (await killAndResume(harness(), seed, changes)) killed++;
    expect(killed).toBeGreaterThan(0);
  });
});

const filters = (count: number) => `${CONFIG_HEADER}routeFilters:\n${Array.from({ length: count }, (_, i) => `  f${i}:\n    type: BGP_IPv4_PREFIX_FILTER\n`).join("")}`;

describe("a journal that does not follow the state", () => {
  it("is refused and kept when the state was restored from its backup, and folded once the version it follows is back", { timeout: 120_000 }, async () => {
    sim.reset();
    const ws = workspace();
    const env = simEnv(sim.url);
    for (const count of [1, 2]) {
      ws.write(filters(count));
      const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
      expect(applied.code, out(applied)).toBe(0);
    }

    // The next apply is killed once the service has made its second filter: the journal holds its steps.
    ws.write(filters(4));
    let creates = 0;
    const { child, done } = start(["apply", "--auto-approve"], { cwd: ws.dir, env });
    observe = (e) => {
      if (e.method === "POST" && e.path === "/fabric/v4/routeFilters" && ++creates === 2) child.kill("SIGKILL");
    };
    expect((await done).code).toBeNull();
    observe = undefined;
    const journal = `${ws.statePath}.journal`;
    expect(existsSync(journal)).toBe(true);
    const journalled = readFileSync(journal, "utf8");

    // The user restores the backup, as the corrupt-state error suggests: the journal follows a newer version.
    const latest = `${ws.statePath}.latest`;
    copyFileSync(ws.statePath, latest);
    copyFileSync(`${ws.statePath}.backup`, ws.statePath);
    for (const command of [["plan"], ["apply", "--auto-approve"]]) {
      const refused = await netform(command, { cwd: ws.dir, env: { ...env, NO_COLOR: "1" } });
      expect(refused.code, out(refused)).toBe(1);
      expect(refused.stderr).toMatch(/netform\.state\.json\.journal holds the steps of a run that followed a version the state does not hold .* the state was restored to an earlier version since; nothing was read or changed/);
      expect(refused.stderr).toMatch(/\n\s+put back the version the journal follows/);
      expect(refused.stderr).not.toMatch(/Internal error|\n\s+at /);
      expect(readFileSync(journal, "utf8"), "the journal is kept as it was").toBe(journalled);
    }
    const made = async () => ((await (await fetch(`${sim.url}/__sim/objects?kind=routeFilters`)).json()) as { data: unknown[] }).data.length;
    const before = await made();

    // With the version it follows back, the next apply folds it and makes nothing twice.
    copyFileSync(latest, ws.statePath);
    const resumed = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(resumed.code, out(resumed)).toBe(0);
    expect(existsSync(journal)).toBe(false);
    expect(await made()).toBe(4);
    expect(before).toBeLessThanOrEqual(4);
    expect(Object.keys(ws.state().resources).sort()).toEqual(["routeFilters.f0", "routeFilters.f1", "routeFilters.f2", "routeFilters.f3"]);
  });
});
