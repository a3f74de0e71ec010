// --refresh=false plans from the state alone, reading none of the objects it records; --parallelism is
// taken, and checked alike, by every command that calls the API.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type CliResult } from "./cli.js";

const t = useSimulator({ speed: 500 });

const config = (bandwidth: number) => `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
connections:
  dc:
    type: EVPL_VC
    bandwidth: ${bandwidth}
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: 1700 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1700 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

interface Logged {
  method: string;
  path: string;
}

const requests = async (): Promise<Logged[]> => (await t.call("GET", "/__sim/requests")).body as Logged[];
const out = (r: CliResult) => r.stdout + r.stderr;

async function applied() {
  const ws = workspace(config(100));
  const env = simEnv(t.url);
  const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
  expect(apply.code, out(apply)).toBe(0);
  return { ws, env, id: ws.state().resources["connections.dc"]!.id! };
}

describe("--refresh=false", () => {
  it("plans a configuration change from the state, without reading the object", async () => {
    const { ws, env, id } = await applied();
    ws.write(config(200));
    await t.call("DELETE", "/__sim/requests");
    const plan = await netform(["plan", "--refresh=false", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toMatch(/~ bandwidth\s+= 100 -> 200/);
    expect((await requests()).filter((r) => r.path.includes(id))).toEqual([]);
  });

  it("does not see a change made outside netform, which a refreshing plan does (--refresh false, as two words)", async () => {
    const { ws, env, id } = await applied();
    await t.call("PATCH", `/__sim/objects/${id}`, { body: { bandwidth: 500 } });
    const stale = await netform(["plan", "--refresh", "false", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(stale.code, out(stale)).toBe(0);
    const refreshed = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(refreshed.code, out(refreshed)).toBe(2);
    expect(refreshed.stdout).toMatch(/~ bandwidth\s+= 500 -> 100/);
  });

  it("applies from the state alone", async () => {
    const { ws, env, id } = await applied();
    ws.write(config(200));
    await t.call("DELETE", "/__sim/requests");
    const apply = await netform(["apply", "--refresh=false", "--auto-approve"], { cwd: ws.dir, env });
    expect(apply.code, out(apply)).toBe(0);
    expect(ws.state().resources["connections.dc"]!.attributes.bandwidth).toBe(200);
    // The update and the wait for it read the object; the plan before them did not.
    const first = (await requests()).find((r) => r.path.includes(id));
    expect(first?.method).not.toBe("GET");
  });

  it("is refused with --refresh-only, and takes only true or false", async () => {
    const ws = workspace(config(100));
    const both = await netform(["plan", "--refresh=false", "--refresh-only"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("--refresh=false and --refresh-only cannot be used together");
    const word = await netform(["plan", "--refresh=no"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(word.code).toBe(1);
    expect(word.stderr).toContain('--refresh takes true or false, got "no"');
  });
});

describe("--parallelism", () => {
  const commands = [["plan"], ["apply", "--auto-approve"], ["destroy", "--auto-approve"], ["drift"], ["import", "connections.dc", "c791f8cb-0000-4000-8000-00000000abcd"]];

  it.each(commands)("%s lists it in its help", async (command) => {
    const help = await netform([command, "--help"], { cwd: workspace().dir });
    expect(help.stdout).toContain("--parallelism <n>");
  });

  it.each(commands)("%s refuses a value that is not a whole number of at least 1", async (...args) => {
    const ws = workspace(config(100));
    for (const bad of ["0", "1.5", "many"]) {
      const refused = await netform([...args, "--parallelism", bad], { cwd: ws.dir, env: simEnv(t.url) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`--parallelism must be a whole number of at least 1, got "${bad}"`);
    }
    expect(ws.stateText()).toBe("");
  });

  it("is taken by each command that runs", async () => {
    const { ws, env } = await applied();
    for (const args of [["plan"], ["drift"], ["apply", "--auto-approve"], ["destroy", "--auto-approve"]]) {
      const result = await netform([...args, "--parallelism", "2"], { cwd: ws.dir, env });
      expect(result.code, `${args[0]}: ${out(result)}`).toBe(0);
    }
    expect(ws.state().resources).toEqual({});
  });
});
