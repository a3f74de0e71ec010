// Checks the service makes that netform makes first, at validate, at the place in the configuration: the
// simulator refuses the same (its own tests hold it to that), so a plan that passes them is not refused later.

import { expect, it } from "vitest";
import { netform, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml } from "./service.js";

async function validate(yaml: string) {
  const ws = workspace(yaml);
  const result = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
  return { code: result.code, output: result.stdout + result.stderr };
}

it("refuses a bandwidth of 0 Mbps at its place", async () => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1401, 1402, 0)}`);
  expect(result.code).toBe(1);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +connections\.dc\.bandwidth +bandwidth must be 1 to 100000 Mbps/);
});

it("refuses a VLAN two declared connections take on one port, naming the first", async () => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("first", 1501, 1502)}${dcConnectionYaml("second", 1501, 1503)}`);
  expect(result.code).toBe(1);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +connections\.second\.aSide\.accessPoint\.linkProtocol\.vlanTag +VLAN 1501 on this port is already taken by connections\.first/);
  expect(result.output).toMatch(/Invalid: 1 error/);
});

const protocols = (direct: string, peer: string, extraDirect = "") => `routingProtocols:
  dc-direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: ${direct} }
${extraDirect}  dc-bgp:
    connection: \${connections.dc.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: ${peer}, enabled: true }
`;

it.each([
  ["outside the DIRECT subnet", "192.168.30.1/30", "192.168.31.2", "is not inside the subnet 192.168.30.1/30"],
  ["the provider's own address", "192.168.30.1/30", "192.168.30.1", "is the provider's interface address"],
  ["the subnet's broadcast address", "192.168.30.1/30", "192.168.30.3", "is the subnet's network or broadcast address"],
])("refuses a BGP peer address %s, at its place", async (_, subnet, peer, problem) => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1601, 1602)}${protocols(subnet, peer)}`);
  expect(result.code).toBe(1);
  expect(result.output).toContain(`routingProtocols.dc-bgp.bgpIpv4.customerPeerIp  customerPeerIp ${peer} ${problem}`);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +routingProtocols\.dc-bgp\.bgpIpv4\.customerPeerIp/);
});

it("accepts a BGP peer address inside the DIRECT subnet", async () => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1601, 1602)}${protocols("192.168.30.1/30", "192.168.30.2")}`);
  expect(result.output).toMatch(/^Valid/);
});

it("refuses two DIRECT instances on one connection, at the second", async () => {
  const second = "  dc-direct-2:\n    connection: ${connections.dc.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: 192.168.40.1/30 }\n";
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1601, 1602)}${protocols("192.168.30.1/30", "192.168.30.2", second)}`);
  expect(result.code).toBe(1);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +routingProtocols\.dc-direct-2\.type +the connection already has a DIRECT instance, routingProtocols\.dc-direct/);
});
