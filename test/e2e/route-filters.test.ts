// Route filters end to end through the command line against the simulator, beyond the lifecycle that
// lifecycle.test.ts runs for every kind: a run refused while another holds the state lock, and an apply
// refused without a terminal to approve it.

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
