// Routing protocols end to end through the command line against the simulator: a DIRECT and a BGP
// instance on one connection (the service takes BGP only over a provisioned DIRECT, and deletes BGP
// before DIRECT), read back, no-op re-plan, an update of bgpIpv4.enabled (the service's JSON patch), an
// update of customerAsn and bfd (a PUT of the whole instance), a replace on request (--replace), and
// deletes in the order the service needs, both one at a time and together.

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

interface Logged {
  method: string;
  path: string;
  status: number;
}

/** The mutating calls the service received since the log was cleared, without token requests. */
async function mutations(): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Logged[];
  return log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** A routing protocol the service no longer has: 404, or readable for a while as DEPROVISIONED. */
async function isGone(connection: string, id: string): Promise<boolean> {
  const res = await t.call("GET", `/fabric/v4/connections/${connection}/routingProtocols/${id}`);
  return res.status === 404 || res.body.state === "DEPROVISIONED";
}

describe("routing protocols end to end", () => {
  it("creates DIRECT then BGP, patches, puts, replaces on request, and deletes BGP before DIRECT", { timeout: 180_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: false } }));
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed.");
    // DIRECT is provisioned before BGP is asked for (the service refuses BGP without it).
    const completed = [...created.stdout.matchAll(/ (routingProtocols\.[\w-]+): (Creating\.\.\.|Creation complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(completed.indexOf(`${DIRECT} Creation complete`)).toBeLessThan(completed.indexOf(`${BGP} Creating...`));
    const connection = idOf(ws, "connections.routed");
    const directId = idOf(ws, DIRECT);
    const bgpId = idOf(ws, BGP);
    const base = `/fabric/v4/connections/${connection}/routingProtocols`;
    expect((await t.call("GET", `${base}/${directId}`)).body).toMatchObject({
      uuid: directId,
      type: "DIRECT",
      state: "PROVISIONED",
      directIpv4: { equinixIfaceIp: "192.168.50.1/30" },
    });
    const bgp = (await t.call("GET", `${base}/${bgpId}`)).body;
    expect(bgp).toMatchObject({ uuid: bgpId, type: "BGP", state: "PROVISIONED", bgpIpv4: { customerPeerIp: "192.168.50.2", enabled: true } });
    expect(Number(bgp.customerAsn)).toBe(65010);
    expect(ws.state().resources[BGP]!.attributes).toMatchObject({ uuid: bgpId, state: "PROVISIONED" });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    // The enabled flag alone: the service's JSON patch, not a PUT.
    ws.write(config({ direct: true, bgp: { asn: 65010, enabled: false, bfd: false } }));
    const patchPlan = await run("plan", "--detailed-exitcode");
    expect(patchPlan.code, out(patchPlan)).toBe(2);
    expect(patchPlan.stdout).toContain(`~ ${BGP}`);
    expect(patchPlan.stdout).toMatch(/~ bgpIpv4\.enabled\s+= true -> false/);
    expect(patchPlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const patched = await run("apply", "--auto-approve");
    expect(patched.code, out(patched)).toBe(0);
    expect(patched.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(await mutations()).toEqual([`PATCH ${base}/${bgpId} 202`]);
    expect(idOf(ws, BGP)).toBe(bgpId);
    expect((await t.call("GET", `${base}/${bgpId}`)).body).toMatchObject({ state: "PROVISIONED", bgpIpv4: { enabled: false } });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    // customerAsn and bfd have no patch path: the whole instance is sent again.
    ws.write(config({ direct: true, bgp: { asn: 65020, enabled: false, bfd: true } }));
    const putPlan = await run("plan", "--detailed-exitcode");
    expect(putPlan.code, out(putPlan)).toBe(2);
    expect(putPlan.stdout).toMatch(/~ customerAsn\s+= 65010 -> 65020/);
    expect(putPlan.stdout).toMatch(/~ bfd\.enabled\s+= false -> true/);
    await t.call("DELETE", "/__sim/requests");
    const put = await run("apply", "--auto-approve");
    expect(put.code, out(put)).toBe(0);
    expect(put.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(await mutations()).toEqual([`PUT ${base}/${bgpId} 202`]);
    expect(idOf(ws, BGP)).toBe(bgpId);
    const afterPut = (await t.call("GET", `${base}/${bgpId}`)).body;
    expect(afterPut).toMatchObject({ state: "PROVISIONED", bgpIpv4: { customerPeerIp: "192.168.50.2", enabled: false }, bfd: { enabled: true } });
    expect(Number(afterPut.customerAsn)).toBe(65020);
    expect(Number(afterPut.bfd.interval)).toBe(300);
    const afterPutPlan = await run("plan", "--detailed-exitcode");
    expect(afterPutPlan.code, out(afterPutPlan)).toBe(0);

    // No field forces a new instance that the service would accept on the same connection: ask for one.
    const replacePlan = await run("plan", "--detailed-exitcode", "--replace", BGP);
    expect(replacePlan.code, out(replacePlan)).toBe(2);
    expect(replacePlan.stdout).toContain(`-/+ ${BGP}`);
    expect(replacePlan.stdout).toContain("replacement requested (--replace)");
    expect(replacePlan.stdout).toContain("0 to add, 0 to change, 1 to replace, 0 to destroy");
    const replaced = await run("apply", "--auto-approve", "--replace", BGP);
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const newBgpId = idOf(ws, BGP);
    expect(newBgpId).not.toBe(bgpId);
    expect(await isGone(connection, bgpId)).toBe(true);
    const newBgp = (await t.call("GET", `${base}/${newBgpId}`)).body;
    expect(newBgp).toMatchObject({ state: "PROVISIONED", bgpIpv4: { enabled: false }, bfd: { enabled: true } });
    expect(Number(newBgp.customerAsn)).toBe(65020);
    expect(idOf(ws, DIRECT)).toBe(directId);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    // A replaced DIRECT takes its BGP with it: the service deletes BGP before DIRECT.
    const directPlan = await run("plan", "--detailed-exitcode", "--replace", DIRECT);
    expect(directPlan.code, out(directPlan)).toBe(2);
    expect(directPlan.stdout).toContain(`-/+ ${DIRECT}`);
    expect(directPlan.stdout).toContain(`-/+ ${BGP}`);
    expect(directPlan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    const directReplaced = await run("apply", "--auto-approve", "--replace", DIRECT);
    expect(directReplaced.code, out(directReplaced)).toBe(0);
    expect(directReplaced.stdout).toContain("0 added, 0 changed, 2 replaced, 0 destroyed");
    const thirdBgpId = idOf(ws, BGP);
    const newDirectId = idOf(ws, DIRECT);
    expect(newDirectId).not.toBe(directId);
    expect(thirdBgpId).not.toBe(newBgpId);
    expect(await isGone(connection, directId)).toBe(true);
    expect(await isGone(connection, newBgpId)).toBe(true);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    // Both removed at once: BGP first, then DIRECT, or the service refuses the DIRECT delete.
    ws.write(config({ direct: false }));
    await t.call("DELETE", "/__sim/requests");
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 2 destroyed");
    expect(await mutations()).toEqual([`DELETE ${base}/${thirdBgpId} 202`, `DELETE ${base}/${newDirectId} 202`]);
    expect(Object.keys(ws.state().resources)).toEqual(["connections.routed"]);
    expect(await isGone(connection, thirdBgpId)).toBe(true);
    expect(await isGone(connection, newDirectId)).toBe(true);
    expect((await objects(t, "routingProtocols")).filter((p) => p.state !== "DEPROVISIONED")).toEqual([]);
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

  it("destroys everything at once in the service's order: BGP, DIRECT, then the connection", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: true } }));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    const order = [...destroyed.stdout.matchAll(/ ((?:routingProtocols|connections)\.[\w-]+): Destruction complete/g)].map((m) => m[1]);
    expect(order).toEqual([BGP, DIRECT, "connections.routed"]);
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "routingProtocols")).filter((p) => p.state !== "DEPROVISIONED")).toEqual([]);
  });

  it("moves DIRECT and BGP to another subnet together", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: false } }));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const connection = idOf(ws, "connections.routed");

    // The service keeps a BGP session inside its DIRECT subnet at every step: a PUT of the DIRECT
    // instance to a subnet without the BGP peer is refused, and so is a PUT of the BGP peer outside the
    // DIRECT subnet. Moving both takes the BGP instance down first.
    ws.write(config({ direct: true, bgp: { asn: 65010, enabled: true, bfd: false } }).replaceAll("192.168.50.", "192.168.70."));
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain(`-/+ ${DIRECT}`);
    expect(plan.stdout).toContain("directIpv4.equinixIfaceIp cannot change in place");
    expect(plan.stdout).toContain(`-/+ ${BGP}`);
    expect(plan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    const moved = await run("apply", "--auto-approve");
    expect(moved.code, out(moved)).toBe(0);
    const protocols = (await t.call("GET", `/fabric/v4/connections/${connection}/routingProtocols`)).body.data as Array<Record<string, unknown>>;
    const live = protocols.filter((p) => p.state !== "DEPROVISIONED" && p.state !== "DEPROVISIONING");
    expect(live.find((p) => p.type === "DIRECT")).toMatchObject({ uuid: idOf(ws, DIRECT), state: "PROVISIONED", directIpv4: { equinixIfaceIp: "192.168.70.1/30" } });
    expect(live.find((p) => p.type === "BGP")).toMatchObject({ uuid: idOf(ws, BGP), state: "PROVISIONED", bgpIpv4: { customerPeerIp: "192.168.70.2" } });
    expect(live).toHaveLength(2);
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);
  });
});
