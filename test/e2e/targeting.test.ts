// --target: an apply of one resource brings what it depends on; a destroy of one takes what depends on it.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { directAndBgpYaml } from "./service.js";

const t = useSimulator({ speed: 500 });

const CONFIG = `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  unrelated:
    type: BGP_IPv4_PREFIX_FILTER
connections:
  dc:
    type: EVPL_VC
    bandwidth: 100
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: 1500 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1500 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
${directAndBgpYaml("dc", "192.168.100")}`;

describe("--target", () => {
  it("applies a resource with what it depends on, and destroys one with what depends on it", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const applied = await netform(["apply", "--auto-approve", "--target", "routingProtocols.bgp"], { cwd: ws.dir, env });
    expect(applied.code).toBe(0);
    expect(Object.keys(ws.state().resources).sort()).toEqual(["connections.dc", "routingProtocols.bgp", "routingProtocols.direct"]);

    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    expect(Object.keys(ws.state().resources)).toContain("routeFilters.unrelated");

    const destroyed = await netform(["destroy", "--auto-approve", "--target", "connections.dc"], { cwd: ws.dir, env });
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain("3 destroyed");
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.unrelated"]);

    const unknown = await netform(["apply", "--auto-approve", "--target", "connections.nope"], { cwd: ws.dir, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("connections.nope is neither in the configuration nor in the state");
  });

  it("warns that the plan is partial, names a repeated target once, and refuses an unknown one before refreshing", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const plan = await netform(["plan", "--target", "connections.dc", "--target", "connections.dc"], { cwd: ws.dir, env });
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("warning: targeting is in effect: this plan covers only connections.dc and what they depend on");
    expect(plan.stdout.match(/# connections\.dc will be created/g)).toHaveLength(1);

    expect((await netform(["apply", "--auto-approve", "--target", "routeFilters.unrelated"], { cwd: ws.dir, env })).code).toBe(0);
    await t.call("DELETE", "/__sim/requests");
    const unknown = await netform(["plan", "--target", "connections.nope", "--target", "connections.nope"], { cwd: ws.dir, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.match(/connections\.nope is neither in the configuration nor in the state/g)).toHaveLength(1);
    const requests = (await t.call("GET", "/__sim/requests")).body as Array<{ path: string }>;
    expect(requests.filter((r) => r.path.startsWith("/fabric/"))).toEqual([]);
  });
});
