// Preconditions and postconditions as a user meets them: a precondition that does not hold stops the plan
// at the condition, with the user's message; one that holds lets the apply through; a postcondition that
// the object the service made does not meet fails the apply after the object exists (and is recorded),
// and the next plan reports it again, from the refreshed object.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type CliResult } from "./cli.js";

const t = useSimulator({ speed: 500 });
const out = (r: CliResult) => r.stdout + r.stderr;

const config = (conditions: string, bandwidth = 100) => `netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
variables:
  minBandwidth: { type: number, default: 50 }
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
connections:
  dc:
    type: EVPL_VC
    bandwidth: ${bandwidth}
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: 1800 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1800 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
${conditions}`;

describe("preconditions", () => {
  it("stop the plan at the condition, with the user's message, before anything is made", async () => {
    const ws = workspace(
      config(`    preconditions:
      - condition: \${self.bandwidth} >= \${var.minBandwidth}
        message: below the minimum bandwidth
      - condition: \${self.bandwidth} in [200, 500] && \${routeFilters.f.type} == "BGP_IPv4_PREFIX_FILTER"
        message: production connections are 200 or 500 Mbps
`),
    );
    const env = simEnv(t.url);
    const plan = await netform(["plan"], { cwd: ws.dir, env });
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toContain("netform.yaml:20:20  connections.dc.preconditions[1].condition  precondition failed: production connections are 200 or 500 Mbps");
    expect(plan.stderr).toContain('the condition ${self.bandwidth} in [200, 500] && ${routeFilters.f.type} == "BGP_IPv4_PREFIX_FILTER" is false');
    expect(plan.stderr).not.toContain("below the minimum bandwidth");
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(apply.code).toBe(1);
    expect(ws.stateText()).toBe("");
  });

  it("let a plan and an apply through when they hold", async () => {
    const ws = workspace(
      config(`    preconditions:
      - condition: \${self.bandwidth} in [100, 200] && length(\${self.notifications}) > 0
        message: production connections are 100 or 200 Mbps, with someone notified
`),
    );
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(apply.code, out(apply)).toBe(0);
    expect(Object.keys(ws.state().resources).sort()).toEqual(["connections.dc", "routeFilters.f"]);
  });

  it("that read what only the apply will know are checked before the object's step, which they stop", async () => {
    const ws = workspace(
      config(`    preconditions:
      - condition: \${routeFilters.f.state} == "DEPROVISIONED"
        message: the filter must be retired first
`),
    );
    const env = simEnv(t.url);
    const plan = await netform(["plan"], { cwd: ws.dir, env });
    expect(plan.code, out(plan)).toBe(0);
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(apply.code, out(apply)).toBe(1);
    expect(out(apply)).toContain('connections.dc: Error: precondition failed: the filter must be retired first (the condition ${routeFilters.f.state} == "DEPROVISIONED" is false (netform.yaml:18:20))');
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.f"]);
  });

  it("are refused at validate when they cannot be read, at the mistake", async () => {
    const ws = workspace(
      config(`    preconditions:
      - condition: \${self.bandwidth} = 100
        message: one hundred
      - condition: \${connections.nope.bandwidth} > 1
        message: another
`),
    );
    const validate = await netform(["validate"], { cwd: ws.dir });
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain("netform.yaml:18:38  connections.dc.preconditions[0].condition  a comparison is written ==, not =");
    expect(validate.stdout + validate.stderr).toContain("netform.yaml:20:20  connections.dc.preconditions[1].condition  ${connections.nope.bandwidth}: connections.nope is not declared");
  });
});

describe("postconditions", () => {
  it("fail the apply once the object exists, name it, and keep it in the state; the next plan reports it again", async () => {
    const ws = workspace(
      config(`    postconditions:
      - condition: \${self.bandwidth} >= 200
        message: the connection must carry at least 200 Mbps
`),
    );
    const env = simEnv(t.url);
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(apply.code, out(apply)).toBe(1);
    expect(out(apply)).toContain("connections.dc: Error: postcondition failed: the connection must carry at least 200 Mbps (the condition ${self.bandwidth} >= 200 is false (netform.yaml:18:20))");
    expect(ws.state().resources["connections.dc"]?.id).toEqual(expect.any(String));

    const plan = await netform(["plan"], { cwd: ws.dir, env });
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toContain("netform.yaml:18:20  connections.dc.postconditions[0].condition  postcondition failed on the object as the service reports it: the connection must carry at least 200 Mbps");
  });

  it("are checked on what the service returned, not on what was sent", async () => {
    const ws = workspace(
      config(`    postconditions:
      - condition: \${self.state} == "PROVISIONED" && \${self.uuid} != null
        message: the connection must be provisioned
`),
    );
    const apply = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(apply.code, out(apply)).toBe(0);
  });
});
