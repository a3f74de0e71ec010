// forEach end to end through the command line against the simulator: a block of VLAN connections, each
// with the DIRECT routing protocol of the same key and one route filter attached by key from outside the
// block; adding a key plans exactly that VLAN, removing one deletes exactly it; the block's address targets
// every instance; and the mistakes a user makes with forEach, each at its line.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, idOf, objects, out, runner } from "./service.js";

const t = useSimulator({ speed: 500 });

/** The VLANs as a variable: each key a VLAN tag, each with the interface address of its DIRECT instance. */
const config = (vlans: number[]) => `${CONFIG_HEADER}variables:
  vlans:
    type: map
    default:
${vlans.map((v) => `      "${v}": { vlan: ${v}, iface: 192.168.${v - 2400}.1/30 }`).join("\n")}
connections:
  vlan:
    forEach: \${var.vlans}
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.svPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.svSecondary} }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routingProtocols:
  direct:
    forEach: \${var.vlans}
    connection: \${connections.vlan[each.key].uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: "\${each.value.iface}" }
routeFilters:
  customer-in: { type: BGP_IPv4_PREFIX_FILTER }
routeFilterAttachments:
  customer-in-on-2401:
    connection: \${connections.vlan["2401"].uuid}
    routeFilter: \${routeFilters.customer-in.uuid}
    direction: INBOUND
`;

const vlan = (key: number) => `connections.vlan["${key}"]`;
const direct = (key: number) => `routingProtocols.direct["${key}"]`;

describe("forEach end to end", () => {
  it("applies a block per key, plans exactly the key added or removed, and targets the block as a whole", { timeout: 180_000 }, async () => {
    const ws = workspace(config([2401, 2402]));
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain("Apply complete! Resources: 6 added, 0 changed, 0 replaced, 0 destroyed.");
    expect(Object.keys(ws.state().resources).sort()).toEqual(["routeFilterAttachments.customer-in-on-2401", "routeFilters.customer-in", vlan(2401), vlan(2402), direct(2401), direct(2402)].sort());
    // Each instance its own object on the service, named after its key.
    const names = (await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED").map((c) => c.name);
    expect(names.sort()).toEqual(["vlan-2401", "vlan-2402"]);
    const removedId = idOf(ws, vlan(2402));

    ws.write(config([2401, 2402, 2403]));
    const added = await run("plan", "--detailed-exitcode");
    expect(added.code, out(added)).toBe(2);
    expect(added.stdout).toContain(`+ ${vlan(2403)}`);
    expect(added.stdout).toContain(`+ ${direct(2403)}`);
    expect(added.stdout).toContain("Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy.");
    expect((await run("apply", "--auto-approve")).code).toBe(0);

    ws.write(config([2401, 2403]));
    const removed = await run("plan", "--detailed-exitcode");
    expect(removed.code, out(removed)).toBe(2);
    expect(removed.stdout).toContain(`- ${vlan(2402)}`);
    expect(removed.stdout).toContain(`- ${direct(2402)}`);
    expect(removed.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 2 to destroy.");
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 2 destroyed");
    expect((await objects(t, "connections")).find((c) => c.uuid === removedId)?.state).toBe("DEPROVISIONED");

    // The block's address is every instance of it; an instance is itself alone.
    ws.write(config([2401, 2403, 2404]));
    const block = await run("plan", "--detailed-exitcode", "--target", "connections.vlan");
    expect(block.code, out(block)).toBe(2);
    expect(block.stdout).toContain(`+ ${vlan(2404)}`);
    expect(block.stdout).toContain("Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.");
    const one = await run("plan", "--detailed-exitcode", "--target", vlan(2401));
    expect(one.code, out(one)).toBe(0);

    const shown = await run("state", "show", direct(2403));
    expect(shown.code, out(shown)).toBe(0);
    expect(shown.stdout).toContain(`# ${direct(2403)}`);
  });

  it("reports forEach mistakes at their lines, naming the instance or the block", async () => {
    const ws = workspace(`${CONFIG_HEADER}routeFilters:
  twice:
    forEach: [a, b, a]
    type: BGP_IPv4_PREFIX_FILTER
  count:
    forEach: 3
    type: BGP_IPv4_PREFIX_FILTER
  keyed:
    forEach: [edge, core]
    type: BGP_IPv4_PREFIX_FILTER
  plain:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${each.value}
routeFilterAttachments:
  on-missing:
    connection: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee
    routeFilter: \${routeFilters.keyed["edgy"].uuid}
    direction: INBOUND
`);
    const result = await runner(t, ws)("validate");
    expect(result.code, out(result)).toBe(1);
    expect(result.stdout).toBe(
      [
        'netform.yaml:7:21  routeFilters.twice.forEach[2]  forEach[2] repeats the key "a" of forEach[0]',
        "    hint: each key names one instance: remove the repeated one",
        "netform.yaml:10:14  routeFilters.count.forEach  forEach takes a list of strings or a mapping, not a number (3)",
        '    hint: e.g. forEach: ["1001", "1002"], or a mapping of key to value: { "1001": { vlan: 1001 } }',
        "netform.yaml:17:18  routeFilters.plain.description  ${each.value} is only valid in a resource with forEach",
        "    hint: add forEach: to the resource, or write the value itself",
        'netform.yaml:21:18  routeFilterAttachments.on-missing.routeFilter  reference to undeclared routeFilters.keyed["edgy"]: routeFilters.keyed has no key "edgy"',
        '    hint: did you mean "edge"? its keys are "edge", "core"',
        "Invalid: 4 errors",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toBe("");
  });
});
