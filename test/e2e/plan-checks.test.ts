// A plan that passes, applies: what the service would refuse half-way through an apply is refused at plan,
// located, with nothing created. Each connection the plan makes is sent to the service as a dry run; what a
// dry run of one connection cannot see (the bandwidth two of the plan's own connections take together on one
// port) is checked across the plan; what no check could reach is listed as unchecked. (Two of the plan's
// connections on one VLAN of a port are refused by validate already.)

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, objects, out, PORTS, PROFILE, PROJECT, runner } from "./service.js";

const t = useSimulator();

const FILTER = `routeFilters:
  in:
    type: BGP_IPv4_PREFIX_FILTER
`;

/** A filter and connections: the filter comes first, so that a refusal at plan leaves even it unmade. */
const withConnections = (connections: string) => `${CONFIG_HEADER}${FILTER}connections:\n${connections}`;

const toProfile = (name: string, vlan: number, bandwidth: number) => `  ${name}:
    type: EVPL_VC
    bandwidth: ${bandwidth}
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: ${vlan} } } }
    zSide: { accessPoint: { type: SP, profile: { uuid: ${PROFILE} }, location: { metroCode: DC } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

async function nothingMade(): Promise<void> {
  expect(await objects(t, "routeFilters")).toEqual([]);
  expect((await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED")).toEqual([]);
}

describe("a plan the service would refuse", () => {
  it("a VLAN another configuration already uses on the port: refused at plan, at the VLAN, nothing created", { timeout: 60_000 }, async () => {
    const first = workspace(withConnections(dcConnectionYaml("team-a", 1001, 1001)));
    expect((await runner(t, first)("apply", "--auto-approve")).code).toBe(0);
    // Another team, another state: its plan knows nothing of the first, but the service does.
    const second = workspace(withConnections(dcConnectionYaml("team-b", 1001, 1002)));
    await t.call("DELETE", "/__sim/requests");
    const plan = await runner(t, second)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/netform\.yaml:\d+:\d+ {2}connections\.team-b\.aSide\.accessPoint\.linkProtocol(\.vlanTag)? {2}the service refuses this connection \(EQ-\d+\): VLAN 1001 is already used on port/);
    const applied = await runner(t, second)("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(1);
    expect((await objects(t, "routeFilters")).length).toBe(1);
    expect((await objects(t, "connections")).length).toBe(1);
  });

  it("a VLAN a service token reserves on the port: refused at plan", { timeout: 60_000 }, async () => {
    const token = await t.call("POST", "/fabric/v4/serviceTokens", {
      body: {
        type: "VC_TOKEN",
        name: "partner",
        expirationDateTime: "2099-01-01T00:00:00Z",
        connection: { type: "EVPL_VC", supportedBandwidths: [50, 100], zSide: { accessPointSelectors: [{ type: "COLO", port: { uuid: PORTS.dcPrimary }, linkProtocol: { type: "DOT1Q", vlanTag: 4001 } }] } },
        project: { projectId: PROJECT },
        notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      },
    });
    expect(token.status, JSON.stringify(token.body)).toBeLessThan(300);
    const ws = workspace(withConnections(dcConnectionYaml("dc", 4001, 4001)));
    const plan = await runner(t, ws)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/connections\.dc\.aSide\.accessPoint\.linkProtocol(\.vlanTag)? {2}the service refuses this connection \(EQ-\d+\): VLAN 4001 on port \S+ is reserved by service token/);
    await nothingMade();
  });

  it("a bandwidth the service profile does not offer: refused at plan, with what it offers", { timeout: 60_000 }, async () => {
    const ws = workspace(withConnections(toProfile("cloud", 1101, 123)));
    const plan = await runner(t, ws)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/connections\.cloud\.bandwidth {2}the service refuses this connection \(EQ-\d+\): service profile .* offers [\d, ]+ Mbps/);
    expect((await runner(t, ws)("apply", "--auto-approve")).code).toBe(1);
    await nothingMade();
  });

  it("a bandwidth above what the port has left: refused at plan", { timeout: 60_000 }, async () => {
    const ws = workspace(withConnections(dcConnectionYaml("big", 1201, 1202, 50000)));
    const plan = await runner(t, ws)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/connections\.big\.bandwidth {2}the service refuses this connection/);
    await nothingMade();
  });

  it("connections of one plan that fit a port alone but not together: refused at plan, at the one that no longer fits", { timeout: 60_000 }, async () => {
    const ws = workspace(withConnections(dcConnectionYaml("first", 1601, 1602, 6000) + dcConnectionYaml("second", 1603, 1604, 6000)));
    const plan = await runner(t, ws)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/connections\.second\.bandwidth {2}port \S+ has 10000 Mbps left, and this plan's connections on it need 12000 Mbps \(connections\.first 6000, this one 6000\)/);
    expect(plan.stderr).not.toMatch(/connections\.first\.bandwidth/);
    await nothingMade();
  });

  it("many connections that overflow a port together: the refusal names the first few and counts the rest", { timeout: 60_000 }, async () => {
    const many = Array.from({ length: 11 }, (_, i) => dcConnectionYaml(`c${i}`, 1701 + i, 1801 + i, 1000)).join("");
    const plan = await runner(t, workspace(withConnections(many)))("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(
      /connections\.c10\.bandwidth {2}port \S+ has 10000 Mbps left, and this plan's connections on it need 11000 Mbps \(connections\.c0 1000, connections\.c1 1000, connections\.c2 1000, connections\.c3 1000, connections\.c4 1000, 5 more connections, this one 1000\)/,
    );
    await nothingMade();
  });

  it("a DIRECT subnet another connection of the cloud router already uses: refused at plan by the router's validation", { timeout: 60_000 }, async () => {
    const ROUTER_REFERENCE = "${cloudRouters.edge.uuid}";
    const team = (name: string, vlan: number, subnet: string, routerUuid?: string) => `${CONFIG_HEADER}${
      routerUuid ? "" : "cloudRouters:\n  edge:\n    location: { metroCode: DC }\n    package: { code: STANDARD }\n    notifications: [{ type: ALL, emails: [noc@example.com] }]\n"
    }connections:
  ${name}:
    type: IP_VC
    bandwidth: 10
    aSide: { accessPoint: { type: CLOUD_ROUTER, router: { uuid: "${routerUuid ?? ROUTER_REFERENCE}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: ${vlan} } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  ${name}-direct:
    connection: \${connections.${name}.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: ${subnet} }
`;
    const first = workspace(team("first", 1701, "10.1.1.1/30"));
    const applied = await runner(t, first)("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const routerUuid = first.state().resources["cloudRouters.edge"]!.id!;
    // Another configuration adds a connection to the same router, on a subnet that overlaps the first's.
    const second = workspace(team("second", 1702, "10.1.1.2/29", routerUuid));
    const plan = await runner(t, second)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/routingProtocols\.second-direct\.directIpv4\.equinixIfaceIp {2}the service refuses 10\.1\.1\.2\/29 on cloud router \S+ \(EQ-\d+\)/);
    expect((await objects(t, "connections")).length).toBe(1);
  });

  it("two DIRECT subnets of one plan that overlap on one new cloud router: refused at plan, at the second", { timeout: 60_000 }, async () => {
    const connection = (name: string, vlan: number) => `  ${name}:
    type: IP_VC
    bandwidth: 10
    aSide: { accessPoint: { type: CLOUD_ROUTER, router: { uuid: "\${cloudRouters.edge.uuid}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: ${vlan} } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;
    const ws = workspace(`${CONFIG_HEADER}cloudRouters:
  edge:
    location: { metroCode: DC }
    package: { code: STANDARD }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
connections:
${connection("one", 1801)}${connection("two", 1802)}routingProtocols:
  one-direct: { connection: "\${connections.one.uuid}", type: DIRECT, directIpv4: { equinixIfaceIp: 10.2.2.1/30 } }
  two-direct: { connection: "\${connections.two.uuid}", type: DIRECT, directIpv4: { equinixIfaceIp: 10.2.2.2/30 } }
`);
    const plan = await runner(t, ws)("plan");
    expect(plan.code, out(plan)).toBe(1);
    expect(plan.stderr).toMatch(/routingProtocols\.two-direct\.directIpv4\.equinixIfaceIp {2}10\.2\.2\.2\/30 overlaps 10\.2\.2\.1\/30 of routingProtocols\.one-direct/);
    expect(plan.stderr).not.toMatch(/routingProtocols\.one-direct\.directIpv4/);
  });

  it("a plan with no change asks the service nothing more than its refresh", { timeout: 60_000 }, async () => {
    const ws = workspace(withConnections(dcConnectionYaml("dc", 1401, 1402)));
    expect((await runner(t, ws)("apply", "--auto-approve")).code).toBe(0);
    await t.call("DELETE", "/__sim/requests");
    expect((await runner(t, ws)("plan", "--detailed-exitcode")).code).toBe(0);
    const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
    expect(log.filter((r) => r.path.includes("dryRun") || r.method === "PATCH")).toEqual([]);
  });

  it("--refresh=false checks nothing with the service, and says so", { timeout: 60_000 }, async () => {
    const ws = workspace(withConnections(dcConnectionYaml("dc", 1501, 1502)));
    const plan = await runner(t, ws)("plan", "--refresh=false", "--format", "json");
    expect(plan.code, out(plan)).toBe(0);
    const doc = JSON.parse(plan.stdout) as { unchecked?: Array<{ address: string; why: string }> };
    expect(doc.unchecked).toEqual(expect.arrayContaining([{ address: "connections.dc", why: "--refresh=false: the plan asked the service nothing" }]));
  });
});
