// Time, end to end: the plan estimates the apply's duration from its longest chain of steps and names that
// chain; the apply reports what each step took (JSON and a markdown Gantt chart) and records in the state
// how long each kind took, which the next plans and polls start from.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml } from "./service.js";

const t = useSimulator();

const CONFIG = `${CONFIG_HEADER}connections:
${dcConnectionYaml("dc", 1700, 1700, 100)}routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
routingProtocols:
  direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 10.9.0.1/30 }
`;

describe("the apply's duration", () => {
  it("is estimated in the plan, with the chain of objects that sets it, in text and JSON", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const text = await netform(["plan"], { cwd: ws.dir, env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Estimated duration: about \d+ s: connections\.dc, then routingProtocols\.direct\./);

    const json = JSON.parse((await netform(["plan", "--format", "json"], { cwd: ws.dir, env })).stdout);
    expect(json.estimatedDuration).toMatchObject({ chain: ["connections.dc", "routingProtocols.direct"], text: expect.stringMatching(/^about \d+ s: connections\.dc, then routingProtocols\.direct$/) });
  });

  it("is reported step by step after the apply, as a Gantt chart in markdown, and learned by the state", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const applied = await netform(["apply", "--auto-approve", "--format", "markdown"], { cwd: ws.dir, env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("### netform apply complete: 3 added, 0 changed, 0 replaced, 0 destroyed");
    expect(applied.stdout).toContain("```mermaid\ngantt\n");
    expect(applied.stdout).toMatch(/^ {2}connections\.dc create :done, \d+, \d+$/m);
    expect(applied.stdout).toMatch(/^ {2}routingProtocols\.direct create :done, \d+, \d+$/m);

    const timings = ws.state().timings;
    expect(Object.keys(timings ?? {}).sort()).toEqual(["connections", "routeFilters", "routingProtocols/DIRECT"]);
    expect(timings?.connections?.create).toEqual({ seconds: expect.any(Number), samples: 1 });
  });

  it("is in the JSON summary: when each step started and finished, and how long it took", async () => {
    const ws = workspace(CONFIG);
    const env = simEnv(t.url);
    const applied = await netform(["apply", "--auto-approve", "--format", "json"], { cwd: ws.dir, env });
    expect(applied.code).toBe(0);
    const summary = applied.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((e) => e.type === "change_summary");
    expect(summary.steps.map((s: { address: string }) => s.address).sort()).toEqual(["connections.dc", "routeFilters.f", "routingProtocols.direct"]);
    const direct = summary.steps.find((s: { address: string }) => s.address === "routingProtocols.direct");
    const connection = summary.steps.find((s: { address: string }) => s.address === "connections.dc");
    expect(direct).toMatchObject({ step: "create", outcome: "done", seconds: expect.any(Number) });
    // The DIRECT instance waits for its connection: its step starts once the connection's has finished.
    expect(Date.parse(direct.startedAt)).toBeGreaterThanOrEqual(Date.parse(connection.finishedAt));
  });
});
