// What only the service knows is checked by plan, before anything is sent, and reported at its place in
// the configuration: a connection's bandwidth above its metro's or metro pair's maximum, a cloud router's
// package (its connections, counted with those it has, and their bandwidth), a device's metro and version
// the catalogue does not offer. The simulator refuses the same orders.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, changesSent, CONFIG_HEADER, out, portConnectionYaml, PORTS, PROJECT, requestLog, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });


const requests = () => requestLog(t);
const sent = changesSent;

describe("a connection above the bandwidth its metros allow", () => {
  it("is refused by plan at its bandwidth, naming the maximum, with one read per metro and nothing sent", async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:
${portConnectionYaml("local", { aPort: PORTS.dcPrimary, vlanA: 2601, zPort: PORTS.dcSecondary, vlanZ: 2602, bandwidth: 60000 })}${portConnectionYaml("coast", { aPort: PORTS.dcPrimary, vlanA: 2603, zPort: PORTS.svPrimary, vlanZ: 2604, bandwidth: 20000 })}${portConnectionYaml("fits", { aPort: PORTS.dcPrimary, vlanA: 2605, zPort: PORTS.svPrimary, vlanZ: 2606, bandwidth: 10000 })}`);
    const run = runner(t, ws);
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain(
      "netform.yaml:8:16  connections.local.bandwidth  bandwidth 60000 Mbps is above the 50000 Mbps the service allows for a local connection in DC (localVCBandwidthMax); the service refuses the order",
    );
    expect(refused.stderr).toContain("hint: lower the bandwidth to at most 50000 Mbps, or split the traffic over several connections");
    expect(refused.stderr).toContain(
      "connections.coast.bandwidth  bandwidth 20000 Mbps is above the 10000 Mbps the service allows for a connection between DC and SV (remoteVCBandwidthMax); the service refuses the order",
    );
    expect(refused.stderr).not.toContain("connections.fits");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const log = await requests();
    expect(log.filter((r) => r.path === "/fabric/v4/metros/DC")).toHaveLength(1);
    expect(sent(log)).toEqual([]);
  });
});

describe("a cloud router named by uuid", () => {
  it("is held to its package at plan: the connections it has and the plan adds, and their bandwidth", { timeout: 60_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/routers", {
      body: { type: "XF_ROUTER", name: "fcr-lab", location: { metroCode: "DC" }, package: { code: "LAB" }, project: { projectId: PROJECT }, notifications: [{ type: "ALL", emails: ["noc@example.com"] }] },
    });
    const router = made.body.uuid as string;
    await t.waitFor(`/fabric/v4/routers/${router}`, "/state", "PROVISIONED");
    const connection = (i: number, bandwidth = 10) => `  lab-${i}:
    type: IP_VC
    bandwidth: ${bandwidth}
    aSide:
      accessPoint:
        type: CLOUD_ROUTER
        router: { uuid: ${router} }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.dcPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: ${2700 + i} }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;
    const ws = workspace(`${CONFIG_HEADER}connections:\n${Array.from({ length: 11 }, (_, i) => connection(i + 1, i === 0 ? 50 : 10)).join("")}`);
    const run = runner(t, ws);
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain(`connections.lab-1.bandwidth  cloud router ${router} has the LAB package, which allows 10 Mbps per connection; the service refuses 50 Mbps`);
    expect(refused.stderr).toContain(`connections.lab-11.aSide.accessPoint.router.uuid  cloud router ${router} has 0 connections and the plan adds 11; its LAB package allows 10`);
    expect(refused.stderr).not.toContain("connections.lab-10.aSide");
    expect(sent(await requests())).toEqual([]);
  });
});

describe("a device the catalogue does not offer where or as written", () => {
  const device = (name: string, fields: { metroCode?: string; version?: string; secondaryMetro?: string }) => `  ${name}:
    deviceTypeCode: C8000V
    metroCode: ${fields.metroCode ?? "DC"}
    packageCode: network-advantage
    version: ${fields.version ?? "17.11.01a"}
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 4
    termlength: 12
    notifications: [netops@example.com]
${fields.secondaryMetro ? `    secondary:\n      metroCode: ${fields.secondaryMetro}\n      notifications: [netops@example.com]\n` : ""}`;

  it("is refused by plan at its metro, its secondary's metro and its version, naming what is offered", async () => {
    const ws = workspace(
      `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}\ndevices:\n${device("paris", { metroCode: "PA" })}${device("old", { version: "16.12.01" })}${device("pair", { secondaryMetro: "PA" })}${device("fine", {})}`,
    );
    const run = runner(t, ws);
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain("netform.yaml:9:16  devices.paris.metroCode  C8000V is not offered in metro PA; the service refuses the order");
    expect(refused.stderr).toContain("hint: use one of DC, SV, NY, LD, AM, FR, SG, TY, CH, DA, SY, HK");
    expect(refused.stderr).toContain("devices.old.version  network-advantage has no version 16.12.01; the service refuses the order");
    expect(refused.stderr).toContain("hint: use one of 17.06.01a, 17.09.01a, 17.11.01a, 17.12.02");
    expect(refused.stderr).toContain("devices.pair.secondary.metroCode  C8000V is not offered in metro PA");
    expect(refused.stderr).not.toContain("devices.fine");
    expect(sent(await requests())).toEqual([]);
  });
});
