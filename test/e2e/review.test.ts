// What a reviewer reads, end to end through the built CLI: the comment of a failed plan carries the located
// diagnostics; `graph --topology` draws the network with what the configuration adds and removes; a resize
// to a bandwidth the service does not price makes the cost total unknown, never a saving.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, out, PORTS, PROFILE, profileConnectionYaml, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

const ROUTER = `cloudRouters:
  core:
    name: fcr-core
    location: { metroCode: DC }
    package: { code: LAB }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

const routerConnection = (name: string, vlan: number) => `  ${name}:
    type: IP_VC
    bandwidth: 10
    aSide:
      accessPoint:
        type: CLOUD_ROUTER
        router: { uuid: "\${cloudRouters.core.uuid}" }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.dcPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: ${vlan} }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

describe("the review", () => {
  it("puts the located diagnostics of a failed plan in its markdown comment", async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1401, 1402, 0)}${dcConnectionYaml("again", 1401, 1403)}`);
    const result = await netform(["plan", "--format", "markdown"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(result.code, out(result)).toBe(1);
    expect(result.stdout).toMatch(/^### netform plan failed: 2 errors\n/);
    expect(result.stdout).toContain("Nothing was planned. Fix these, then push again:");
    expect(result.stdout).toMatch(/\nnetform\.yaml:\d+:\d+ {2}connections\.dc\.bandwidth {2}bandwidth must be 1 to 100000 Mbps/);
    expect(result.stdout).toMatch(/netform\.yaml:\d+:\d+ {2}connections\.dc\.aSide\.accessPoint\.linkProtocol\.vlanTag {2}VLAN 1401 on this port is already taken by connections\.again.*\n {4}hint: give one of the connections another VLAN tag\n```/);
    // The log keeps them too.
    expect(result.stderr).toContain("bandwidth must be 1 to 100000 Mbps");
  });

  it("puts a user error that stops the plan in its markdown comment, with its hint", async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1401, 1402)}`);
    const result = await netform(["plan", "--format", "markdown", "--parallelism", "0"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(result.code, out(result)).toBe(1);
    expect(result.stdout).toMatch(/^### netform plan failed: 1 error\n/);
    expect(result.stdout).toContain("--parallelism");
  });

  it("draws the network with graph --topology: nodes, connections labelled, what is added and removed marked", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}${ROUTER}connections:\n${routerConnection("old-link", 2301)}`);
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    ws.write(`${CONFIG_HEADER}lookups:
  cloud: { kind: serviceProfile, where: { name: CloudExchange Direct } }
${ROUTER}connections:
${routerConnection("new-link", 2302)}${profileConnectionYaml("to-cloud", { port: PORTS.dcSecondary, vlanTag: 2303, profile: "${lookups.cloud.uuid}", metroCode: "SV" })}`);
    const graph = await run("graph", "--topology");
    expect(graph.code, out(graph)).toBe(0);
    const lines = graph.stdout.split("\n");
    expect(lines[1]).toBe("flowchart LR");
    const id = (label: string) => lines.find((l) => l.includes(label))?.trim().match(/^(n\d+)/)?.[1];
    const router = id('"cloudRouters.core (cloud router)"');
    const port = id(`"${PORTS.dcPrimary} (port)"`);
    const profile = id('"lookups.cloud (service profile)"');
    const secondary = id(`"${PORTS.dcSecondary} (port)"`);
    for (const node of [router, port, profile, secondary]) expect(node, graph.stdout).toBeDefined();
    expect(lines).toContain(`  ${router} ==>|"+ new-link, 10 Mbps, VLAN 2302"| ${port}`);
    expect(lines).toContain(`  ${router} -.->|"- old-link, 10 Mbps, VLAN 2301"| ${port}`);
    expect(lines).toContain(`  ${secondary} ==>|"+ to-cloud, 50 Mbps, VLAN 2303"| ${profile}`);
    expect(graph.stdout).toContain("classDef unchanged");

    const refused = await run("graph", "--topology", "--format", "dot");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--topology is drawn as a Mermaid flowchart, not dot");
  });

  it("says the cost total is unknown when a resize's new price is, never a saving", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("sized", 3301, 3302, 50)}`);
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    // 100 Mbps is not a bandwidth the service's price search quotes.
    ws.write(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("sized", 3301, 3302, 100)}`);
    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("connections.sized: the price after apply is unknown");
    expect(planned.stdout).toContain("Total: unknown (no price of these changes is known)");
    expect(planned.stdout).not.toMatch(/Total: - USD/);
    const markdown = await run("plan", "--format", "markdown");
    expect(markdown.stdout).toContain("**Cost total: unknown** (no price of these changes is known)");
    const json = JSON.parse((await run("plan", "--format", "json")).stdout);
    expect(json.cost.totals).toEqual([]);
  });

  it("shows in the text plan what each lookup read: its kind, its search and what it found", { timeout: 60_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}lookups:
  port: { kind: port, where: { metroCode: DC, priority: PRIMARY } }
  cloud: { kind: serviceProfile, where: { name: CloudExchange Direct } }
connections:
${profileConnectionYaml("to-cloud", { port: '"${lookups.port.uuid}"', vlanTag: 2401, profile: "${lookups.cloud.uuid}", metroCode: "SV" })}`);
    const planned = await runner(t, ws)("plan");
    expect(planned.code, out(planned)).toBe(0);
    const lines = planned.stdout.split("\n");
    const at = lines.indexOf("Lookups read:");
    expect(at, planned.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(new RegExp(`^  lookups\\.cloud \\(serviceProfile, where name: "CloudExchange Direct"\\): found CloudExchange Direct \\(${PROFILE}`));
    expect(lines[at + 2]).toMatch(new RegExp(`^  lookups\\.port \\(port, where metroCode: "DC", priority: "PRIMARY"\\): found .+ \\(${PORTS.dcPrimary}, DC\\)$`));
    // Before the actions, as Terraform prints its reads first.
    expect(at).toBeLessThan(lines.indexOf("netform will perform the following actions:"));
  });

  it("moves every instance of a forEach resource that a moved block names whole, planning moves, not destroy and create", { timeout: 60_000 }, async () => {
    const filters = (name: string) => `${CONFIG_HEADER}routeFilters:\n  ${name}:\n    forEach: [a, b, c]\n    type: BGP_IPv4_PREFIX_FILTER\n    name: "f-\${each.key}"\n`;
    const ws = workspace(filters("f"));
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const ids = Object.fromEntries(Object.entries(ws.state().resources).map(([address, r]) => [address, r.id]));

    ws.write(`${filters("g")}moved:\n  - from: routeFilters.f\n    to: routeFilters.g\n`);
    const planned = await run("plan", "--detailed-exitcode");
    expect(planned.code, out(planned)).toBe(2);
    for (const key of ["a", "b", "c"]) expect(planned.stdout).toContain(`# routeFilters.f["${key}"] has moved to routeFilters.g["${key}"]`);
    expect(planned.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy, 3 to move.");
    const moved = await run("apply", "--auto-approve");
    expect(moved.code, out(moved)).toBe(0);
    const after = ws.state().resources;
    expect(Object.keys(after).sort()).toEqual(['routeFilters.g["a"]', 'routeFilters.g["b"]', 'routeFilters.g["c"]']);
    for (const key of ["a", "b", "c"]) expect(after[`routeFilters.g["${key}"]`]?.id).toBe(ids[`routeFilters.f["${key}"]`]);
  });

  it("refuses, at its line, a moved block from a whole resource to one instance", async () => {
    const ws = workspace(`${CONFIG_HEADER}routeFilters:\n  g:\n    forEach: [a]\n    type: BGP_IPv4_PREFIX_FILTER\nmoved:\n  - from: routeFilters.f\n    to: routeFilters.g["a"]\n`);
    const result = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(result.code, out(result)).toBe(1);
    expect(result.stdout).toMatch(/netform\.yaml:11:9 +moved\[0\]\.to +routeFilters\.f cannot move to routeFilters\.g\["a"\]: a whole resource \(routeFilters\.f\) moves only to a whole resource, and an instance \(routeFilters\.g\["a"\]\) only to an instance/);
    expect(result.stdout).toContain('hint: move every instance with from: routeFilters.f and to: routeFilters.g, or one with from: routeFilters.f["KEY"] and to: routeFilters.g["KEY"]');
  });
});
