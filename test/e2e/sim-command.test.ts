// `netform sim`: the simulator users rehearse on, run as a command. It prints where it listens, serves
// an apply made against it, keeps its world in --data across restarts, stops cleanly on a signal, says its
// pace so that netform polls it at that pace with no setting, and refuses a port in use with what to do.

import { cpSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES, netform, simEnv, start, workspace, type CliResult } from "./cli.js";
import { CONFIG_HEADER, out } from "./service.js";

/** Starts `netform sim` and resolves with its URL once its banner says where it listens. */
async function startSim(cwd: string, args: string[], speed = "1000"): Promise<{ url: string; stop(): Promise<CliResult> }> {
  const { child, done } = start(["sim", "--port", "0", "--speed", speed, ...args], { cwd, env: { NO_COLOR: "1" } });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (d: Buffer) => {
      seen += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    void done.then((r) => reject(new Error(`netform sim ended before listening\n${out(r)}`)));
  });
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      return done;
    },
  };
}

const FILTER = `${CONFIG_HEADER}routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: rehearsal
`;

describe("netform sim", () => {
  it("serves an apply, keeps its world in --data across a restart, and stops on SIGTERM with exit 0", async () => {
    const ws = workspace(FILTER);
    const data = join(ws.dir, "world.json");
    const first = await startSim(ws.dir, ["--data", data]);
    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(first.url) });
    expect(applied.code, out(applied)).toBe(0);
    const stopped = await first.stop();
    expect(stopped.code, out(stopped)).toBe(0);
    expect(stopped.stdout).toContain("world persisted in");
    expect(existsSync(data)).toBe(true);

    // The world kept: the next plan against a new run of the simulator finds the filter as applied.
    const second = await startSim(ws.dir, ["--data", data]);
    try {
      const planned = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: simEnv(second.url) });
      expect(planned.code, out(planned)).toBe(0);
    } finally {
      expect((await second.stop()).code).toBe(0);
    }
  });

  it("is rehearsed on at its own pace: the CI examples' plan, apply of that plan, and clean plan, with no polling setting", { timeout: 120_000 }, async () => {
    // The CI examples' rehearse job: the configuration whose secrets their workflows name (examples/edge-vpn),
    // against `netform sim` as a process of its own, and no NETFORM_POLL_INTERVAL_MS. At the real service's
    // pace netform would first look at its devices after minutes; the simulator says it runs 200 times as fast.
    const ws = workspace();
    cpSync(join(EXAMPLES, "edge-vpn"), ws.dir, { recursive: true });
    const sim = await startSim(ws.dir, [], "200");
    try {
      const env: Record<string, string> = { ...simEnv(sim.url), BRANCH_A_PSK: "rehearsal-psk-4e2a", BRANCH_A_BGP_PASSWORD: "rehearsalBgp42" };
      delete env.NETFORM_POLL_INTERVAL_MS;
      const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });

      const planned = await run("plan", "--out", "plan.bin", "--format", "json");
      expect(planned.code, out(planned)).toBe(0);
      // The plan's estimate is weighed at the pace the simulator said: the edge pair alone takes about 11 min on the real service.
      const estimate = (JSON.parse(planned.stdout) as { estimatedDuration: { seconds: number; chain: string[] } }).estimatedDuration;
      expect(estimate.chain).toContain("devices.edge");
      expect(estimate.seconds).toBeLessThan(60);

      const applied = await run("apply", "plan.bin", "--debug");
      expect(applied.code, out(applied)).toBe(0);
      expect(applied.stdout).toContain("Apply complete! Resources: 9 added");
      expect(applied.stderr).toContain("[debug] the service says it runs 200 times as fast as the real one (X-Simulator-Speed): polling every 5 ms at first");

      const again = await run("plan", "--detailed-exitcode");
      expect(again.code, out(again)).toBe(0);
    } finally {
      expect((await sim.stop()).code).toBe(0);
    }
  });

  it("refuses a port in use, and a speed that is not a number, saying what to do", async () => {
    const ws = workspace();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((taken.address() as { port: number }).port);
      const busy = await netform(["sim", "--port", port], { cwd: ws.dir, env: { NO_COLOR: "1" } });
      expect(busy.code, out(busy)).toBe(1);
      expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(busy.stderr).toContain("--port 0");
      expect(busy.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
    const bad = await netform(["sim", "--speed", "fast"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(bad.code, out(bad)).not.toBe(0);
    expect(bad.stderr).toContain('--speed must be a number of at least');
  });
});
