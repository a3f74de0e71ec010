// Routing protocols end to end through the command line against the simulator, beyond the lifecycle that
// lifecycle.test.ts runs for every kind: the service's order between a connection's DIRECT and BGP
// instances (BGP only over a provisioned DIRECT, deleted before it), kept when DIRECT is replaced on
// request, when each is deleted on its own, and when everything is destroyed at once.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { PORTS, idOf, objects, out, runner, portConnectionYaml, CONFIG_HEADER } from "./service.js";

const t = useSimulator({ speed: 500 });

interface BgpOptions {
  asn: number;
  enabled: boolean;
  bfd: boolean;
}

/** No dependsOn between the two instances: the order is the service's own rule, which netform must know. */
const config = (protocols: { direct: boolean; bgp?: BgpOptions }) => `${CONFIG_HEADER}connections:
${portConnectionYaml("routed", { aPort: PORTS.svPrimary, vlanA: 2301, zPort: PORTS.svSecondary, vlanZ: 2302, bandwidth: 50 })}routingProtocols:${protocols.direct || protocols.bgp ? "" : " {}"}${
  protocols.bgp
    ? `
  routed-bgp:
    connection: \${connections.routed.uuid}
    type: BGP
    customerAsn: ${protocols.bgp.asn}
    bgpIpv4: { customerPeerIp: 192.168.50.2, enabled: ${protocols.bgp.enabled} }
    bfd: { enabled: ${protocols.bgp.bfd}${protocols.bgp.bfd ? ", interval: 300" : ""} }`
    : ""
}${
  protocols.direct
    ? `
  routed-direct:
    connection: \${connections.routed.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.50.1/30 }`
    : ""
}
`;

const BGP = "routingProtocols.routed-bgp";
const DIRECT = "routingProtocols.routed-direct";

/** A routing protocol the service no longer has: 404, or readable for a while as DEPROVISIONED. */
async function isGone(connection: string, id: string): Promise<boolean> {
  const res = await t.call("GET", `/fabric/v4/connections/${connection}/routingProtocols/${id}`);
  return res.status === 404 || res.body.state === "DEPROVISIONED";
}

describe("routing protocols end to end", () => {
  it("replaces DIRECT on request, and its BGP with it", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: false } }));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const connection = idOf(ws, "connections.routed");
    const directId = idOf(ws, DIRECT);
    const bgpId = idOf(ws, BGP);

    // A replaced DIRECT takes its BGP with it: the service deletes BGP before DIRECT.
    const directPlan = await run("plan", "--detailed-exitcode", "--replace", DIRECT);
    expect(directPlan.code, out(directPlan)).toBe(2);
    expect(directPlan.stdout).toContain(`-/+ ${DIRECT}`);
    expect(directPlan.stdout).toContain(`-/+ ${BGP}`);
    expect(directPlan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    const directReplaced = await run("apply", "--auto-approve", "--replace", DIRECT);
    expect(directReplaced.code, out(directReplaced)).toBe(0);
    expect(directReplaced.stdout).toContain("0 added, 0 changed, 2 replaced, 0 destroyed");
    expect(idOf(ws, DIRECT)).not.toBe(directId);
    expect(idOf(ws, BGP)).not.toBe(bgpId);
    expect(await isGone(connection, directId)).toBe(true);
    expect(await isGone(connection, bgpId)).toBe(true);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("deletes BGP on its own, then DIRECT, then the connection", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: false } }));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const connection = idOf(ws, "connections.routed");
    const directId = idOf(ws, DIRECT);
    const bgpId = idOf(ws, BGP);

    ws.write(config({ direct: true }));
    const withoutBgp = await run("apply", "--auto-approve");
    expect(withoutBgp.code, out(withoutBgp)).toBe(0);
    expect(withoutBgp.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources[BGP]).toBeUndefined();
    expect(await isGone(connection, bgpId)).toBe(true);
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routingProtocols/${directId}`)).body.state).toBe("PROVISIONED");

    ws.write(config({ direct: false }));
    const withoutDirect = await run("apply", "--auto-approve");
    expect(withoutDirect.code, out(withoutDirect)).toBe(0);
    expect(withoutDirect.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(ws.state().resources[DIRECT]).toBeUndefined();
    expect(await isGone(connection, directId)).toBe(true);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(ws.state().resources).toEqual({});
    expect((await t.call("GET", `/fabric/v4/connections/${connection}`)).body.state).toBe("DEPROVISIONED");
  });

  it("creates DIRECT before BGP, and destroys everything at once in the service's order: BGP, DIRECT, then the connection", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: true } }));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    // DIRECT is provisioned before BGP is asked for (the service refuses BGP without it).
    const steps = [...created.stdout.matchAll(/ (routingProtocols\.[\w-]+): (Creating\.\.\.|Creation complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(steps.indexOf(`${DIRECT} Creation complete`), created.stdout).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf(`${DIRECT} Creation complete`)).toBeLessThan(steps.indexOf(`${BGP} Creating...`));
    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    const order = [...destroyed.stdout.matchAll(/ ((?:routingProtocols|connections)\.[\w-]+): Destruction complete/g)].map((m) => m[1]);
    expect(order).toEqual([BGP, DIRECT, "connections.routed"]);
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "routingProtocols")).filter((p) => p.state !== "DEPROVISIONED")).toEqual([]);
  });
});
