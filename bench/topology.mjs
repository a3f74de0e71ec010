// The engine benchmarks' configuration: the topology mix of a large estate (port-to-port connections, a
// DIRECT and a BGP routing protocol on each, a route filter per connection and its attachment: 5 resources
// per connection), written as users write it. The configuration reader's tests read it too, so that they
// cover the text the benchmarks measure. It imports nothing, so that it loads without a build.

const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const PER_CONNECTION = 5;

/** The simulator's seeded DOT1Q port pairs of the production project, one pair per metro (uuids as its seed makes them). */
const portUuid = (n) => (n === 1 ? "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee" : `c791f8cb-0000-4000-8000-${n.toString(16).padStart(12, "0")}`);
const PORT_PAIRS = Array.from({ length: 8 }, (_, metro) => [portUuid(3 * metro + 1), portUuid(3 * metro + 2)]);

/**
 * `resources` resources, 5 per connection. Connections spread over the port pairs, so that each port's
 * VLAN tags stay unique and its 10 Gbps is never used up: 50 Mbps each (75 per port at 3,000
 * resources), less where more share a port (250 x 40 Mbps at 10,000).
 */
export function topology(resources) {
  const count = Math.ceil(resources / PER_CONNECTION);
  const bandwidth = Math.min(50, Math.floor(10_000 / Math.ceil(count / PORT_PAIRS.length)));
  const filters = [];
  const connections = [];
  const protocols = [];
  const attachments = [];
  for (let i = 0; i < count; i++) {
    const [a, z] = PORT_PAIRS[i % PORT_PAIRS.length];
    const n = `c${i}`;
    filters.push(`  rf-${n}:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: filter of ${n}\n`);
    connections.push(
      `  ${n}:\n    type: EVPL_VC\n    bandwidth: ${bandwidth}\n    aSide:\n      accessPoint:\n        type: COLO\n        port: { uuid: ${a} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${100 + i} }\n    zSide:\n      accessPoint:\n        type: COLO\n        port: { uuid: ${z} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${1100 + i} }\n    notifications: [{ type: ALL, emails: [noc@example.com] }]\n`,
    );
    const net = `10.${Math.floor(i / 60)}.${(i * 4) % 240}`;
    protocols.push(`  ${n}-direct:\n    connection: \${connections.${n}.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: ${net}.1/30 }\n`);
    protocols.push(`  ${n}-bgp:\n    connection: \${connections.${n}.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: ${net}.2, enabled: true }\n`);
    attachments.push(`  ${n}-in:\n    connection: \${connections.${n}.uuid}\n    routeFilter: \${routeFilters.rf-${n}.uuid}\n    direction: INBOUND\n`);
  }
  const yaml = `netform: 1\nprovider:\n  endpoint: embedded\n  projectId: ${PROJECT}\nrouteFilters:\n${filters.join("")}connections:\n${connections.join("")}routingProtocols:\n${protocols.join("")}routeFilterAttachments:\n${attachments.join("")}`;
  return { yaml, count: filters.length + connections.length + protocols.length + attachments.length };
}
