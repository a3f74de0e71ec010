// Connections end to end through the command line against the simulator, beyond the lifecycle that
// lifecycle.test.ts runs for every kind: a replace that takes the routing protocols and the route filter
// attachment on the connection with it, in the order the service needs, and a failed create counted as
// failed.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, idOf, objects, out, portConnectionYaml, PORTS, runner } from "./service.js";

const t = useSimulator({ speed: 500 });

describe("connections end to end", () => {
  it("replacing a connection replaces what lives on it, in the order the service needs", { timeout: 120_000 }, async () => {
    const stack = (vlanTag: number) => `${CONFIG_HEADER}routeFilters:
  inbound:
    type: BGP_IPv4_PREFIX_FILTER
connections:
${portConnectionYaml("routed", { aPort: PORTS.dcPrimary, vlanA: vlanTag, zPort: PORTS.dcSecondary, vlanZ: 1702, bandwidth: 50 })}routeFilterAttachments:
  routed-in:
    connection: \${connections.routed.uuid}
    routeFilter: \${routeFilters.inbound.uuid}
    direction: INBOUND
routingProtocols:
  routed-direct:
    connection: \${connections.routed.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.60.1/30 }
  routed-bgp:
    connection: \${connections.routed.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.60.2 }
`;
    const ws = workspace(stack(1701));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const before = Object.fromEntries(Object.keys(ws.state().resources).map((a) => [a, idOf(ws, a)]));

    ws.write(stack(1801));
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain("aSide.accessPoint.linkProtocol.vlanTag cannot change in place");
    for (const dependent of ["routeFilterAttachments.routed-in", "routingProtocols.routed-direct", "routingProtocols.routed-bgp"]) {
      expect(plan.stdout).toContain(`# ${dependent} must be replaced (connection cannot change in place)`);
    }
    expect(plan.stdout).toContain("0 to add, 0 to change, 4 to replace, 0 to destroy");

    await t.call("DELETE", "/__sim/requests");
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 4 replaced, 0 destroyed");
    const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string; status: number }>;
    const calls = changesSent(log).map((r) => `${r.method} ${r.path}`);
    const oldConnection = before["connections.routed"]!;
    const newConnection = idOf(ws, "connections.routed");
    expect(newConnection).not.toBe(oldConnection);
    const at = (call: string) => {
      const i = calls.indexOf(call);
      expect(i, `${call} in ${calls.join("\n")}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    // Off the old connection, BGP before DIRECT, all before the connection itself; then the reverse on the new one.
    const oldProtocols = `/fabric/v4/connections/${oldConnection}/routingProtocols`;
    expect(at(`DELETE ${oldProtocols}/${before["routingProtocols.routed-bgp"]!}`)).toBeLessThan(at(`DELETE ${oldProtocols}/${before["routingProtocols.routed-direct"]!}`));
    expect(at(`DELETE ${oldProtocols}/${before["routingProtocols.routed-direct"]!}`)).toBeLessThan(at(`DELETE /fabric/v4/connections/${oldConnection}`));
    expect(at(`DELETE /fabric/v4/connections/${oldConnection}/routeFilters/${before["routeFilters.inbound"]!}`)).toBeLessThan(at(`DELETE /fabric/v4/connections/${oldConnection}`));
    expect(at(`DELETE /fabric/v4/connections/${oldConnection}`)).toBeLessThan(at("POST /fabric/v4/connections"));
    expect(at("POST /fabric/v4/connections")).toBeLessThan(at(`POST /fabric/v4/connections/${newConnection}/routingProtocols`));
    expect(calls.filter((c) => c === `POST /fabric/v4/connections/${newConnection}/routingProtocols`)).toHaveLength(2);
    expect(at("POST /fabric/v4/connections")).toBeLessThan(at(`PUT /fabric/v4/connections/${newConnection}/routeFilters/${before["routeFilters.inbound"]!}`));

    expect(idOf(ws, "routeFilters.inbound")).toBe(before["routeFilters.inbound"]);
    const protocols = (await t.call("GET", `/fabric/v4/connections/${newConnection}/routingProtocols`)).body.data as Array<{ type: string; state: string; uuid: string }>;
    expect(protocols.map((p) => `${p.type} ${p.state}`).sort()).toEqual(["BGP PROVISIONED", "DIRECT PROVISIONED"]);
    expect(protocols.map((p) => p.uuid).sort()).toEqual([idOf(ws, "routingProtocols.routed-bgp"), idOf(ws, "routingProtocols.routed-direct")].sort());
    expect((await t.call("GET", `/fabric/v4/connections/${oldConnection}`)).body.state).toBe("DEPROVISIONED");
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED")).toEqual([]);
  });

  // The summary counts what was done, not what was planned.
  it("a failed create is reported as failed, and its dependents as skipped, not as added", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:
${portConnectionYaml("doomed", { aPort: PORTS.dcPrimary, vlanA: 1951, zPort: PORTS.dcSecondary, vlanZ: 1952, bandwidth: 50 })}routingProtocols:
  doomed-direct:
    connection: \${connections.doomed.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.80.1/30 }
`);
    const run = runner(t, ws);
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 1 } } });
    const failed = await run("apply", "--auto-approve");
    expect(failed.code, out(failed)).toBe(1);
    expect(failed.stderr).toContain("connections.doomed");
    expect(failed.stdout).toContain("routingProtocols.doomed-direct: Skipped because connections.doomed failed");
    expect(failed.stdout).toContain("Apply failed: 1 error, 1 skipped.");
    expect(failed.stdout).toContain("Resources: 0 added, 0 changed, 0 replaced, 0 destroyed.");
    expect((await objects(t, "routingProtocols")).length).toBe(0);
  });
});
