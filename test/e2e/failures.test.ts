// Failures end to end: a transition that ends in the failed state (its dependents skipped, independent
// work finished and recorded, the next plan replacing it), a refusal by the service reported with its own
// code and message, and rate limiting and server errors that retries absorb.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, PROJECT, dcConnectionYaml } from "./service.js";

const t = useSimulator({ speed: 40 });


type Obj = Record<string, unknown>;

const protocols = (name: string, net: number) => `  ${name}-direct:
    connection: \${connections.${name}.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.${net}.1/30 }
  ${name}-bgp:
    connection: \${connections.${name}.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.${net}.2, enabled: true }
`;

async function objects(kind: string): Promise<Obj[]> {
  return (await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data;
}

const NO_STACK = /\n\s+at /;

describe("failures", () => {
  it("a failed transition skips its dependents, finishes independent work, and is replaced next time", async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("alpha", 1301, 1302)}${dcConnectionYaml("beta", 1311, 1312)}routingProtocols:\n${protocols("alpha", 20)}${protocols("beta", 21)}`);
    const env = simEnv(t.url);
    expect((await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 1 } } })).status).toBe(200);

    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(applied.code).toBe(1);
    expect(applied.stderr).not.toMatch(NO_STACK);

    const failedOnService = (await objects("connections")).filter((c) => c.state === "FAILED");
    expect(failedOnService).toHaveLength(1);
    const failed = String(failedOnService[0]!.name);
    const ok = failed === "alpha" ? "beta" : "alpha";
    const operation = failedOnService[0]!.operation as Obj;

    // The failed address and the service's own account of it, on standard error.
    const errorLine = applied.stderr.split("\n").find((l) => l.includes(`connections.${failed}: Error:`));
    expect(errorLine, applied.stderr).toBeDefined();
    expect(errorLine).toContain("FAILED");
    expect(errorLine).toContain(String(operation.equinixStatus)); // NOT_PROVISIONED
    expect(applied.stderr).not.toContain(`connections.${ok}:`);

    // Its dependents are reported as skipped; the independent connection and its dependents completed.
    expect(applied.stdout).toMatch(new RegExp(`routingProtocols\\.${failed}-direct: Skipped because connections\\.${failed} failed`));
    expect(applied.stdout).toMatch(new RegExp(`routingProtocols\\.${failed}-bgp: Skipped because \\S+ failed`));
    for (const address of [`connections.${ok}`, `routingProtocols.${ok}-direct`, `routingProtocols.${ok}-bgp`]) {
      expect(applied.stdout).toMatch(new RegExp(`${address.replace(/\./g, "\\.")}: Creation complete`));
    }
    // What the apply left: what was done, what was not, and the commands that finish it or undo it.
    const made = [`connections.${ok}`, `routingProtocols.${ok}-bgp`, `routingProtocols.${ok}-direct`];
    // Each line after the time stamp a log without a terminal carries.
    const left = applied.stdout.split("\n").map((l) => l.replace(/^\S+Z /, ""));
    const listed = (lead: string) => (left.find((l) => l.startsWith(lead)) ?? "").slice(lead.length).replace(/\.$/, "").split(", ").sort();
    expect(listed("Done: ")).toEqual(made.map((a) => `${a} (create)`).sort());
    expect(listed("Not done: ")).toEqual([`connections.${failed} (create failed)`, `routingProtocols.${failed}-bgp (create skipped)`, `routingProtocols.${failed}-direct (create skipped)`].sort());
    expect(left.some((l) => l.startsWith("To finish: netform apply, once what failed is corrected"))).toBe(true);
    const undo = left.find((l) => l.startsWith("To undo: netform destroy "));
    expect(undo, applied.stdout).toBeDefined();
    for (const address of made) expect(undo).toContain(`-target=${address}`);
    expect(applied.stdout).toContain("Apply failed: 1 error, 2 skipped.");

    const state = ws.state();
    for (const address of [`connections.${ok}`, `routingProtocols.${ok}-direct`, `routingProtocols.${ok}-bgp`]) {
      expect(state.resources[address]?.id, address).toEqual(expect.any(String));
      expect(state.resources[address]?.pending, address).toBeUndefined();
    }
    expect(state.resources[`routingProtocols.${failed}-direct`]).toBeUndefined();
    expect(state.resources[`routingProtocols.${failed}-bgp`]).toBeUndefined();
    expect(state.resources[`connections.${failed}`]?.id).toBe(failedOnService[0]!.uuid);
    const protocolsOnService = await objects("routingProtocols");
    expect(protocolsOnService.filter((p) => p.state === "PROVISIONED")).toHaveLength(2);

    // The next plan replaces the failed connection, and creates what was skipped; nothing else changes.
    await t.call("POST", "/__sim/faults", { body: {} });
    const planned = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toMatch(new RegExp(`connections\\.${failed}.*must be replaced`));
    expect(planned.stdout).toContain("the service reports FAILED");
    expect(planned.stdout).toContain(`+ routingProtocols.${failed}-direct`);
    expect(planned.stdout).toContain(`+ routingProtocols.${failed}-bgp`);
    expect(planned.stdout).not.toContain(`connections.${ok}`);
    expect(planned.stdout).toMatch(/2 to add, 0 to change, 1 to replace, 0 to destroy/);

    const repaired = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(repaired.stderr).toBe("");
    expect(repaired.code).toBe(0);
    const live = (await objects("connections")).filter((c) => !["DEPROVISIONING", "DEPROVISIONED", "CANCELLED", "FAILED"].includes(String(c.state)));
    expect(live.map((c) => c.name).sort()).toEqual(["alpha", "beta"]);
    expect(live.every((c) => c.state === "PROVISIONED")).toBe(true);
  });

  it("reports a refusal with the service's code and message and the address, without a stack trace", async () => {
    // A VLAN already used on the port by a connection made outside netform.
    const outside = {
      type: "EVPL_VC",
      name: "made-in-the-portal",
      bandwidth: 50,
      aSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcPrimary }, linkProtocol: { type: "DOT1Q", vlanTag: 1401 } } },
      zSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { type: "DOT1Q", vlanTag: 1402 } } },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      order: {},
      project: { projectId: PROJECT },
    };
    expect((await t.call("POST", "/fabric/v4/connections", { body: outside })).status).toBeLessThan(300);
    // What the service itself answers to a second connection on that VLAN.
    const refusal = await t.call("POST", "/fabric/v4/connections", { body: { ...outside, name: "probe", zSide: { accessPoint: { ...outside.zSide.accessPoint, linkProtocol: { type: "DOT1Q", vlanTag: 1499 } } } } });
    expect(refusal.status).toBe(400);
    const problem = refusal.body[0] as { errorCode: string; errorMessage: string; additionalInfo: Array<{ reason: string }> };

    const ws = workspace(`${CONFIG_HEADER}routeFilters:\n  independent:\n    type: BGP_IPv4_PREFIX_FILTER\nconnections:\n${dcConnectionYaml("clash", 1401, 1499)}`);
    // Made from the state alone, the plan asks the service nothing: the refusal comes at apply, as one no
    // check could foresee does.
    const res = await netform(["apply", "--auto-approve", "--refresh=false"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(res.code).toBe(1);
    expect(res.stderr).not.toMatch(NO_STACK);
    const line = res.stderr.split("\n").find((l) => l.startsWith("connections.clash") || l.includes(" connections.clash: "));
    expect(line, res.stderr).toBeDefined();
    expect(line).toContain(problem.errorCode);
    expect(line).toContain(problem.errorMessage);
    expect(line).toContain(problem.additionalInfo[0]!.reason); // "VLAN 1401 is already used on port ..."
    expect(res.stdout).toContain("routeFilters.independent: Creation complete");
    const state = ws.state();
    expect(state.resources["routeFilters.independent"]?.id).toEqual(expect.any(String));
    // Nothing is left half-recorded for the refused create: the service said no, so there is no outcome to resolve.
    expect(state.resources["connections.clash"]).toBeUndefined();
    expect((await objects("connections")).map((c) => c.name)).toEqual(["made-in-the-portal"]);
  });

  it("absorbs rate limiting with Retry-After: the apply succeeds, retrying each refused request", async () => {
    const ws = workspace(`${CONFIG_HEADER}routeFilters:\n  customer-in:\n    type: BGP_IPv4_PREFIX_FILTER\nconnections:\n${dcConnectionYaml("alpha", 1501, 1502)}routingProtocols:\n${protocols("alpha", 30)}routeFilterAttachments:\n  alpha-in:\n    connection: \${connections.alpha.uuid}\n    routeFilter: \${routeFilters.customer-in.uuid}\n    direction: INBOUND\n`);
    const env = simEnv(t.url);
    await t.call("DELETE", "/__sim/requests");
    await t.call("POST", "/__sim/faults", { body: { rateLimit: { every: 3, retryAfterS: 0 } } });

    const res = await netform(["apply", "--auto-approve", "--debug"], { cwd: ws.dir, env });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Apply complete! Resources: 5 added");
    expect(res.stderr).toMatch(/\[debug\] retrying POST \/fabric\/v4\/\S+ in 0 ms \(HTTP 429/);
    const log = (await t.call("GET", "/__sim/requests")).body as Obj[];
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThan(3);
    await t.call("POST", "/__sim/faults", { body: {} });
    expect((await objects("connections")).map((c) => c.state)).toEqual(["PROVISIONED"]);
    expect((await objects("routingProtocols")).map((p) => p.state)).toEqual(["PROVISIONED", "PROVISIONED"]);
    expect((await objects("routeFilterAttachments")).map((a) => a.attachmentStatus)).toEqual(["ATTACHED"]);
    const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(clean.code).toBe(0);
  });

  it("absorbs 503s on reads: refresh, plan and an in-place update succeed through retries", async () => {
    const make = (bandwidth: number) => `${CONFIG_HEADER}routeFilters:\n  customer-in:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: first\nconnections:\n${dcConnectionYaml("alpha", 1601, 1602, bandwidth)}routingProtocols:\n${protocols("alpha", 40)}`;
    const ws = workspace(make(50));
    const env = simEnv(t.url);
    const created = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(created.code).toBe(0);

    await t.call("POST", "/__sim/faults", { body: { errorRate: 0.25, errorStatuses: [503], seed: 7 } });
    await t.call("DELETE", "/__sim/requests");
    const clean = await netform(["plan", "--detailed-exitcode", "--debug"], { cwd: ws.dir, env });
    expect(clean.stdout).toContain("No changes.");
    expect(clean.code).toBe(0);

    ws.write(make(100).replace("description: first", "description: second"));
    const updated = await netform(["apply", "--auto-approve", "--debug"], { cwd: ws.dir, env });
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain("0 added, 2 changed, 0 replaced, 0 destroyed");
    const retried = `${clean.stderr}\n${updated.stderr}`;
    expect(retried).toMatch(/\[debug\] retrying (GET|POST|PATCH) \S+ in \d+ ms \(HTTP 503/);
    const log = (await t.call("GET", "/__sim/requests")).body as Obj[];
    expect(log.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    await t.call("POST", "/__sim/faults", { body: {} });
    const [conn] = await objects("connections");
    expect(conn).toMatchObject({ bandwidth: 100, state: "PROVISIONED" });
    expect((await objects("routeFilters"))[0]).toMatchObject({ description: "second" });
  });
});
