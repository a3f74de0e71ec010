// Connections end to end through the command line against the simulator: create, read back, no-op
// re-plan, in-place update (bandwidth and name, one PATCH, same uuid), replace by a force-new field (the
// a-side VLAN tag; the z-side port), delete, and the service's own record of each step; and a replace
// that takes the routing protocols and the route filter attachment on the connection with it.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { PORTS, PROJECT, idOf, objects, out, runner, portConnectionYaml, CONFIG_HEADER } from "./service.js";

const t = useSimulator({ speed: 500 });

interface ConnectionOptions {
  name?: string;
  bandwidth: number;
  vlanTag: number;
  zPort?: string;
}

const config = (connection?: ConnectionOptions) => `${CONFIG_HEADER}connections:${
  connection === undefined
    ? " {}"
    : `
  dc-link:
${connection.name ? `    name: ${connection.name}\n` : ""}    type: EVPL_VC
    bandwidth: ${connection.bandwidth}
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.dcPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: ${connection.vlanTag} }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${connection.zPort ?? PORTS.dcSecondary} }
        linkProtocol: { type: DOT1Q, vlanTag: 1502 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
    order: { purchaseOrderNumber: PO-E2E-1 }`
}
`;

const ADDRESS = "connections.dc-link";

describe("connections end to end", () => {
  it("creates, plans clean, updates in place, replaces on a force-new field, and deletes", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ bandwidth: 50, vlanTag: 1501 }));
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain(`+ ${ADDRESS}`);
    expect(created.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = idOf(ws, ADDRESS);
    const live = (await t.call("GET", `/fabric/v4/connections/${id}`)).body;
    expect(live).toMatchObject({
      uuid: id,
      name: "dc-link",
      type: "EVPL_VC",
      bandwidth: 50,
      state: "PROVISIONED",
      order: { purchaseOrderNumber: "PO-E2E-1" },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      aSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcPrimary }, linkProtocol: { type: "DOT1Q", vlanTag: 1501 } } },
      zSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { type: "DOT1Q", vlanTag: 1502 } } },
    });
    expect(String((live.project as { projectId: unknown }).projectId)).toBe(PROJECT);
    expect(ws.state().resources[ADDRESS]!.attributes).toMatchObject({ uuid: id, state: "PROVISIONED", bandwidth: 50 });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    // Bandwidth and name change in place: one PATCH, the same uuid.
    ws.write(config({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1501 }));
    const planned = await run("plan", "--detailed-exitcode");
    expect(planned.code, out(planned)).toBe(2);
    expect(planned.stdout).toContain(`~ ${ADDRESS}`);
    expect(planned.stdout).toContain("will be updated in place");
    expect(planned.stdout).toMatch(/~ bandwidth\s+= 50 -> 100/);
    expect(planned.stdout).toMatch(/~ name\s+= "dc-link" -> "dc-link-renamed"/);
    expect(planned.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(updated.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(id);
    const mutations = ((await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>).filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search"));
    expect(mutations.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /fabric/v4/connections/${id}`]);
    expect((await t.call("GET", `/fabric/v4/connections/${id}`)).body).toMatchObject({ name: "dc-link-renamed", bandwidth: 100, state: "PROVISIONED" });
    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);

    // The a-side VLAN tag has no PATCH path: a new connection, the old one deprovisioned.
    ws.write(config({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1601 }));
    const replacePlan = await run("plan", "--detailed-exitcode");
    expect(replacePlan.code, out(replacePlan)).toBe(2);
    expect(replacePlan.stdout).toContain(`-/+ ${ADDRESS}`);
    expect(replacePlan.stdout).toContain("aSide.accessPoint.linkProtocol.vlanTag cannot change in place");
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const secondId = idOf(ws, ADDRESS);
    expect(secondId).not.toBe(id);
    expect((await t.call("GET", `/fabric/v4/connections/${id}`)).body.state).toBe("DEPROVISIONED");
    expect((await t.call("GET", `/fabric/v4/connections/${secondId}`)).body).toMatchObject({
      state: "PROVISIONED",
      name: "dc-link-renamed",
      aSide: { accessPoint: { linkProtocol: { vlanTag: 1601 } } },
    });

    // The z-side port cannot change in place either (only the a-side port has a PATCH path).
    ws.write(config({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1601, zPort: PORTS.dcPrimary }));
    const portPlan = await run("plan", "--detailed-exitcode");
    expect(portPlan.code, out(portPlan)).toBe(2);
    expect(portPlan.stdout).toContain("zSide.accessPoint.port.uuid cannot change in place");
    const moved = await run("apply", "--auto-approve");
    expect(moved.code, out(moved)).toBe(0);
    expect(moved.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const thirdId = idOf(ws, ADDRESS);
    expect(thirdId).not.toBe(secondId);
    expect((await t.call("GET", `/fabric/v4/connections/${secondId}`)).body.state).toBe("DEPROVISIONED");
    expect((await t.call("GET", `/fabric/v4/connections/${thirdId}`)).body.zSide.accessPoint.port.uuid).toBe(PORTS.dcPrimary);
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);

    ws.write(config());
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources).toEqual({});
    expect((await t.call("GET", `/fabric/v4/connections/${thirdId}`)).body.state).toBe("DEPROVISIONED");
    const remaining = (await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED");
    expect(remaining).toEqual([]);
    const empty = await run("plan", "--detailed-exitcode");
    expect(empty.code, out(empty)).toBe(0);
  });

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
    const calls = log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}`);
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
