// Every example, as a user runs it: copied to a workspace, validated, applied, re-planned without
// changes (no perpetual diff), and destroyed, leaving nothing live on the service. Against a test
// simulator (fast), and the quick start once more with its own `endpoint: embedded`, whose world is kept
// in .netform/embedded-world.json beside the state so that consecutive commands see the same objects.

import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/simulator/index.js";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { useSimulator, type TestSim } from "../support/sim.js";
import { EXAMPLES, netform, workspace, type Workspace } from "./cli.js";
import { out, runner, type Obj } from "./service.js";

// Devices take minutes of simulated time (the edge-vpn example has a pair of them): a fast clock.
const t = useSimulator({ speed: 2000 });

/** The kinds netform manages, with the field holding each one's lifecycle state and its "gone" values. */
const MANAGED: ReadonlyArray<{ kind: string; state: string; gone: readonly string[] }> = [
  { kind: "connections", state: "state", gone: ["DEPROVISIONED", "CANCELLED"] },
  { kind: "routeFilters", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "routeFilterAttachments", state: "attachmentStatus", gone: ["DETACHED"] },
  { kind: "routingProtocols", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "devices", state: "status", gone: ["DEPROVISIONED"] },
  { kind: "vpns", state: "status", gone: ["DEPROVISIONED"] },
  { kind: "deviceLinks", state: "status", gone: ["DEPROVISIONED"] },
  { kind: "bgpPeerings", state: "provisioningStatus", gone: ["DEPROVISIONED"] },
  { kind: "routers", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "networks", state: "state", gone: ["DELETED"] },
  { kind: "serviceTokens", state: "state", gone: ["DELETED"] },
  { kind: "routeFilterRules", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "routeAggregations", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "routeAggregationRules", state: "state", gone: ["DEPROVISIONED"] },
  { kind: "routeAggregationAttachments", state: "attachmentStatus", gone: ["DETACHED"] },
];

/** The network, router and token every world starts with: never an example's to delete. */
const SEEDED = new Set<unknown>(Object.values(SEEDED_ENDPOINTS).map((e) => e.uuid));

/** Objects of the managed kinds that the service still has in service, read through a control API. */
async function liveObjects(read: (kind: string) => Promise<Obj[]>): Promise<string[]> {
  const live: string[] = [];
  for (const { kind, state, gone } of MANAGED) {
    for (const o of await read(kind)) if (!gone.includes(String(o[state])) && !SEEDED.has(o.uuid)) live.push(`${kind} ${String(o.uuid)} ${String(o[state])}`);
  }
  return live;
}

const fromTestSim = (sim: TestSim) => async (kind: string) => (await sim.call("GET", `/__sim/objects?kind=${kind}`)).body.data as Obj[];

function copyExample(name: string): Workspace {
  const ws = workspace();
  cpSync(join(EXAMPLES, name), ws.dir, { recursive: true });
  return ws;
}

/** Takes `lifecycle.preventDestroy` out of the copy, as a user does before a destroy that is meant. */
function allowDestroy(ws: Workspace): void {
  const file = join(ws.dir, "netform.yaml");
  const text = readFileSync(file, "utf8");
  const without = text.replace(/^\s*lifecycle: \{ preventDestroy: true \}\n/gm, "");
  expect(without).not.toBe(text);
  writeFileSync(file, without);
}

/** validate, apply, a clean plan, destroy: the life of an example. */
async function lifecycle(ws: Workspace, run: ReturnType<typeof runner>, expected: { resources: number }): Promise<void> {
  const validated = await run("validate");
  expect(validated.code, out(validated)).toBe(0);

  const applied = await run("apply", "--auto-approve");
  expect(applied.code, out(applied)).toBe(0);
  expect(applied.stdout).toContain(`Apply complete! Resources: ${expected.resources} added, 0 changed, 0 replaced, 0 destroyed.`);
  expect(Object.keys(ws.state().resources)).toHaveLength(expected.resources);

  const again = await run("plan", "--detailed-exitcode");
  expect(again.code, out(again)).toBe(0);
  expect(again.stdout).toContain("No changes.");
}

async function destroyAll(ws: Workspace, run: ReturnType<typeof runner>, expected: { resources: number }): Promise<void> {
  const destroyed = await run("destroy", "--auto-approve");
  expect(destroyed.code, out(destroyed)).toBe(0);
  expect(destroyed.stdout).toContain(`Destroy complete! Resources: ${expected.resources} destroyed.`);
  expect(ws.state().resources).toEqual({});
}

describe("examples end to end", () => {
  it("quickstart: validates, applies, plans clean, destroys", { timeout: 120_000 }, async () => {
    const ws = copyExample("quickstart");
    const run = runner(t, ws);
    await lifecycle(ws, run, { resources: 5 });
    const conn = ws.state().resources["connections.dc-primary-to-secondary"]!.id!;
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body).toMatchObject({ state: "PROVISIONED", bandwidth: 100 });
    expect(await liveObjects(fromTestSim(t))).toHaveLength(5);

    await destroyAll(ws, run, { resources: 5 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("quickstart: takes its variables from --var and from the environment", { timeout: 120_000 }, async () => {
    const ws = copyExample("quickstart");
    const run = runner(t, ws, { NETFORM_VAR_vlanTag: "1101" });
    const applied = await run("apply", "--auto-approve", "--var", "bandwidth=200");
    expect(applied.code, out(applied)).toBe(0);
    const conn = ws.state().resources["connections.dc-primary-to-secondary"]!.id!;
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body).toMatchObject({ bandwidth: 200, aSide: { accessPoint: { linkProtocol: { vlanTag: 1101 } } } });
    const same = await run("plan", "--detailed-exitcode", "--var", "bandwidth=200");
    expect(same.code, out(same)).toBe(0);
    // Without the --var the default (100) applies again: an in-place change.
    const back = await run("plan", "--detailed-exitcode");
    expect(back.code, out(back)).toBe(2);
    expect(back.stdout).toMatch(/~ bandwidth\s+= 200 -> 100/);
    await destroyAll(ws, run, { resources: 5 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("cloud-onramp: validates, applies, plans clean, refuses to destroy while preventDestroy is set, then destroys", { timeout: 120_000 }, async () => {
    const ws = copyExample("cloud-onramp");
    const run = runner(t, ws);
    await lifecycle(ws, run, { resources: 1 });
    const conn = ws.state().resources["connections.sv-to-cloud"]!.id!;
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body).toMatchObject({
      state: "PROVISIONED",
      name: "sv-to-cloudexchange",
      bandwidth: 500,
      zSide: { accessPoint: { type: "SP", location: { metroCode: "SV" } } },
    });

    const refused = await run("destroy", "--auto-approve");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain("preventDestroy");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(ws.state().resources["connections.sv-to-cloud"]?.id).toBe(conn);
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body.state).toBe("PROVISIONED");

    allowDestroy(ws);
    await destroyAll(ws, run, { resources: 1 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("every-port: a connection for each port the list lookup finds, keyed by the port name; another metro swaps them one by one", { timeout: 180_000 }, async () => {
    const ws = copyExample("every-port");
    const run = runner(t, ws);
    await lifecycle(ws, run, { resources: 2 });
    const addresses = Object.keys(ws.state().resources).sort();
    expect(addresses).toEqual(['connections.to-cloud["216504-SV1-CX-PRI-04"]', 'connections.to-cloud["216504-SV1-CX-SEC-05"]']);
    const first = ws.state().resources[addresses[0]!]!.id!;
    expect((await t.call("GET", `/fabric/v4/connections/${first}`)).body).toMatchObject({ state: "PROVISIONED", aSide: { accessPoint: { port: { uuid: "c791f8cb-0000-4000-8000-000000000004" } } } });
    expect(JSON.parse(ws.stateText()) as unknown).toMatchObject({ outputs: { ports: { value: 2 }, "first-port": { value: "216504-SV1-CX-PRI-04" } } });

    // Another metro's ports are other instances: each port's connection is its own, added or removed alone.
    const ny = await run("plan", "--detailed-exitcode", "--var", "metro=NY");
    expect(ny.code, out(ny)).toBe(2);
    expect(ny.stdout).toContain("2 to add, 0 to change, 0 to replace, 2 to destroy");
    expect(ny.stdout).toContain("- gone since the last apply: 216504-SV1-CX-PRI-04, 216504-SV1-CX-SEC-05");

    await destroyAll(ws, run, { resources: 2 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("edge-vpn: validates without its secrets, applies with them, plans clean, destroys", { timeout: 180_000 }, async () => {
    const ws = copyExample("edge-vpn");
    const secrets = { BRANCH_A_PSK: "example-psk-4e2a", BRANCH_A_BGP_PASSWORD: "branchBgp42" };
    // The README: without the secrets the configuration is still valid (a warning, not an error).
    const unset = await runner(t, ws)("validate");
    expect(unset.code, out(unset)).toBe(0);
    expect(`${unset.stdout}${unset.stderr}`).toContain("BRANCH_A_PSK");

    const run = runner(t, ws, secrets);
    await lifecycle(ws, run, { resources: 9 });
    const device = ws.state().resources["devices.edge"]!.id!;
    const primary = (await t.call("GET", `/ne/v1/devices/${device}`)).body;
    expect(primary).toMatchObject({ status: "PROVISIONED", name: "dc-edge-primary", redundancyType: "PRIMARY" });
    const secondary = primary.redundantUuid as string;
    const vpn = ws.state().resources["vpns.branch-a"]!.id!;
    expect((await t.call("GET", `/ne/v1/vpn/${vpn}`)).body).toMatchObject({ status: "PROVISIONED", virtualDeviceUuid: device, secondary: { configName: "branch-a-tunnel-2" } });
    const toSecondary = ws.state().resources["connections.edge-secondary-to-dc"]!.id!;
    expect((await t.call("GET", `/fabric/v4/connections/${toSecondary}`)).body).toMatchObject({ state: "PROVISIONED", aSide: { accessPoint: { virtualDevice: { uuid: secondary } } } });
    for (const secret of Object.values(secrets)) {
      expect(ws.stateText()).not.toContain(secret);
    }
    // Around the pair: its ACL template on both routers, the link between them, BGP on the primary's connection.
    const id = (address: string) => ws.state().resources[address]!.id!;
    expect(primary).toMatchObject({ aclTemplateUuid: id("aclTemplates.edge-access") });
    expect((await t.call("GET", `/ne/v1/devices/${secondary}`)).body).toMatchObject({ aclTemplateUuid: id("aclTemplates.edge-access") });
    expect((await t.call("GET", `/ne/v1/links/${id("deviceLinks.edge-pair")}`)).body).toMatchObject({ status: "PROVISIONED", linkDevices: [{ deviceUuid: device }, { deviceUuid: secondary }] });
    expect((await t.call("GET", `/ne/v1/bgp/${id("bgpPeerings.edge-primary-upstream")}`)).body).toMatchObject({ provisioningStatus: "PROVISIONED", connectionUuid: id("connections.edge-primary-to-dc"), virtualDeviceUuid: device });
    expect(ws.stateText()).not.toContain("time.example.com");

    allowDestroy(ws);
    await destroyAll(ws, run, { resources: 9 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("fabric-edge: validates, applies, plans clean, and destroys the router, network and token after their connections", { timeout: 180_000 }, async () => {
    const ws = copyExample("fabric-edge");
    const run = runner(t, ws);
    await lifecycle(ws, run, { resources: 16 });
    const id = (address: string) => ws.state().resources[address]!.id!;
    expect((await t.call("GET", `/fabric/v4/routers/${id("cloudRouters.dc-fcr")}`)).body).toMatchObject({ state: "PROVISIONED", connectionsCount: 2 });
    expect((await t.call("GET", `/fabric/v4/networks/${id("networks.branch-lan")}`)).body).toMatchObject({ state: "ACTIVE", connectionsCount: 2 });
    expect((await t.call("GET", `/fabric/v4/serviceTokens/${id("serviceTokens.partner-in")}`)).body).toMatchObject({ state: "INACTIVE", connection: { zSide: { accessPointSelectors: [{ linkProtocol: { vlanTag: 1401 } }] } } });
    expect((await t.call("GET", `/fabric/v4/connections/${id("connections.fcr-to-dc-port")}/routeFilters/${id("routeFilterAttachments.customer-in-on-fcr")}`)).body.direction).toBe("INBOUND");
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id("routeFilters.customer-in")}`)).body).toMatchObject({ rulesCount: 2 });
    expect((await t.call("GET", `/fabric/v4/connections/${id("connections.fcr-to-dc-port")}/routeAggregations/${id("routeAggregationAttachments.dc-summary-on-fcr")}`)).body.attachmentStatus).toBe("ATTACHED");
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${id("routeAggregations.dc-summary")}`)).body).toMatchObject({ rulesCount: 1, connectionsCount: 1 });
    expect(await liveObjects(fromTestSim(t))).toHaveLength(16);

    await destroyAll(ws, run, { resources: 16 });
    expect(await liveObjects(fromTestSim(t))).toEqual([]);
  });

  it("quickstart with its own embedded simulator: the world persists beside the state across commands", { timeout: 180_000 }, async () => {
    const ws = copyExample("quickstart");
    // No NETFORM_ENDPOINT and no credentials: the example's own `endpoint: embedded`.
    const env = { NETFORM_EMBEDDED_SPEED: "2000", NO_COLOR: "1" };
    const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });
    const worldFile = join(ws.dir, ".netform", "embedded-world.json");
    const embedded = () => createSimulator({ dataFile: worldFile, speed: 2000 });
    const fromWorld = async (kind: string) => ((await (await embedded().app.request(`/__sim/objects?kind=${kind}`)).json()) as { data: Obj[] }).data;

    await lifecycle(ws, run, { resources: 5 });
    expect(existsSync(worldFile)).toBe(true);
    const conn = ws.state().resources["connections.dc-primary-to-secondary"]!.id!;
    const connections = await fromWorld("connections");
    expect(connections.find((c) => c.uuid === conn)).toMatchObject({ state: "PROVISIONED", bandwidth: 100 });
    expect(await liveObjects(fromWorld)).toHaveLength(5);

    // A later command sees the same objects: a change is an update of the connection that exists.
    const changed = await run("apply", "--auto-approve", "--var", "bandwidth=200");
    expect(changed.code, out(changed)).toBe(0);
    expect(changed.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(ws.state().resources["connections.dc-primary-to-secondary"]!.id).toBe(conn);
    expect((await fromWorld("connections")).find((c) => c.uuid === conn)).toMatchObject({ bandwidth: 200 });

    const destroyed = await run("destroy", "--auto-approve", "--var", "bandwidth=200");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
    expect(ws.state().resources).toEqual({});
    expect(await liveObjects(fromWorld)).toEqual([]);
  });
});
