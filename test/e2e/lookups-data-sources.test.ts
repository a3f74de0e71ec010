// Every data source of the incumbent provider for the kinds netform works with, written as a netform lookup
// and read from the simulator: the objects are made first (in a workspace of their own, so that the
// lookups' workspace manages none of them), then one configuration declares a lookup per data source —
// by uuid for the provider's singular ones, a list lookup (many: true) for its plural ones — and its
// plan shows the value each read. Then what list lookups add: an empty list, counts in outputs, reads by a
// uuid the service does not have, and a forEach that follows the objects a list lookup finds.

import { beforeAll, describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { C8000V_DC_FIELDS, CONFIG_HEADER, dcConnectionYaml, directAndBgpYaml, idOf, out, PORTS, PROFILE, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

/** The objects the data sources read, beside what the simulator's world is seeded with. */
const WORLD = `${CONFIG_HEADER}  accountNumber: 270848
cloudRouters:
  router:
    name: ds-fcr
    location: { metroCode: DC }
    package: { code: LAB }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
networks:
  lan:
    type: EVPLAN
    name: ds-lan
    scope: GLOBAL
    notifications: [{ type: ALL, emails: [noc@example.com] }]
serviceTokens:
  token:
    name: ds-token
    expirationDateTime: 2099-06-30T00:00:00Z
    connection:
      type: EVPL_VC
      supportedBandwidths: [50]
      zSide:
        accessPointSelectors:
          - type: COLO
            port: { uuid: ${PORTS.dcSecondary} }
            linkProtocol: { type: DOT1Q, vlanTag: 2901 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routeFilters:
  filter: { type: BGP_IPv4_PREFIX_FILTER, name: ds-filter }
routeFilterRules:
  rule-a: { routeFilter: "\${routeFilters.filter.uuid}", prefix: 10.61.0.0/16, name: ds-rule-a }
  rule-b: { routeFilter: "\${routeFilters.filter.uuid}", prefix: 10.62.0.0/16, name: ds-rule-b }
routeAggregations:
  aggregation: { type: BGP_IPv4_PREFIX_AGGREGATION, name: ds-aggregation }
routeAggregationRules:
  aggregate: { routeAggregation: "\${routeAggregations.aggregation.uuid}", prefix: 10.0.0.0/8, name: ds-aggregate }
connections:
${dcConnectionYaml("link", 2911, 2912)}routingProtocols:
${directAndBgpYaml("link", "192.168.91")}routeFilterAttachments:
  inbound:
    connection: \${connections.link.uuid}
    routeFilter: \${routeFilters.filter.uuid}
    direction: INBOUND
routeAggregationAttachments:
  summary:
    connection: \${connections.link.uuid}
    routeAggregation: \${routeAggregations.aggregation.uuid}
devices:
  edge:
    virtualDeviceName: ds-edge
${C8000V_DC_FIELDS}
`;

/** The ids of what WORLD made, by address. */
type Ids = (address: string) => string;

interface Row {
  /** The provider's data source. */
  source: string;
  kind: string;
  /** The lookup's fields besides its kind, as YAML flow mappings. */
  body: (id: Ids) => string;
  /** What the value read must hold (a list lookup's is { count, items }). */
  expected: (id: Ids) => Record<string, unknown>;
}

const one = (source: string, kind: string, where: (id: Ids) => string, expected: (id: Ids) => Record<string, unknown>): Row => ({ source, kind, body: (id) => `where: ${where(id)}`, expected });
const many = (source: string, kind: string, rest: (id: Ids) => string, expected: (id: Ids) => Record<string, unknown>): Row => ({ source, kind, body: (id) => `many: true, ${rest(id)}`, expected });
const items = (...objects: Record<string, unknown>[]) => ({ count: objects.length, items: objects.map((o) => expect.objectContaining(o)) });

/** The 32 data sources (see docs/configuration.md, "Lookups for the provider's data sources"). */
const ROWS: Row[] = [
  one("equinix_fabric_cloud_router", "cloudRouter", (id) => `{ uuid: ${id("cloudRouters.router")} }`, () => ({ name: "ds-fcr", package: { code: "LAB" } })),
  many("equinix_fabric_cloud_routers", "cloudRouter", () => `where: { name: { like: "ds-%" } }`, () => items({ name: "ds-fcr" })),
  one("equinix_fabric_connection", "connection", (id) => `{ uuid: ${id("connections.link")} }`, (id) => ({ uuid: id("connections.link"), name: "link", type: "EVPL_VC" })),
  many("equinix_fabric_connections", "connection", () => `where: { name: { in: [link, other] }, metroCode: DC }`, () => items({ name: "link" })),
  one("equinix_fabric_connection_route_aggregation", "connectionRouteAggregation", (id) => `{ connectionId: ${id("connections.link")}, uuid: ${id("routeAggregations.aggregation")} }`, (id) => ({ uuid: id("routeAggregations.aggregation"), attachmentStatus: "ATTACHED" })),
  many("equinix_fabric_connection_route_aggregations", "connectionRouteAggregation", (id) => `where: { connectionId: ${id("connections.link")} }`, (id) => items({ uuid: id("routeAggregations.aggregation") })),
  one("equinix_fabric_connection_route_filter", "connectionRouteFilter", (id) => `{ connectionId: ${id("connections.link")}, uuid: ${id("routeFilters.filter")} }`, (id) => ({ uuid: id("routeFilters.filter"), direction: "INBOUND" })),
  many("equinix_fabric_connection_route_filters", "connectionRouteFilter", (id) => `where: { connectionId: ${id("connections.link")}, direction: INBOUND }`, (id) => items({ uuid: id("routeFilters.filter"), direction: "INBOUND" })),
  one("equinix_fabric_metro", "metro", () => "{ code: SV }", () => ({ code: "SV", name: "Silicon Valley" })),
  many("equinix_fabric_metros", "metro", () => "where: { code: { in: [SV, DC] } }, sort: [-code]", () => items({ code: "SV" }, { code: "DC" })),
  one("equinix_fabric_network", "network", (id) => `{ uuid: ${id("networks.lan")} }`, () => ({ name: "ds-lan", scope: "GLOBAL" })),
  many("equinix_fabric_networks", "network", () => `where: { name: { like: "ds-%" }, or: [{ scope: GLOBAL }, { scope: REGIONAL }] }`, () => items({ name: "ds-lan" })),
  one("equinix_fabric_port", "port", () => `{ uuid: ${PORTS.svPrimary} }`, () => ({ uuid: PORTS.svPrimary, name: "216504-SV1-CX-PRI-04", account: { accountName: "Example Networks Inc" } })),
  many("equinix_fabric_ports", "port", () => "where: { metroCode: DC }, sort: name", () => items({ uuid: PORTS.dcPrimary }, { uuid: PORTS.dcSecondary })),
  one("equinix_fabric_route_aggregation", "routeAggregation", (id) => `{ uuid: ${id("routeAggregations.aggregation")} }`, () => ({ name: "ds-aggregation", type: "BGP_IPv4_PREFIX_AGGREGATION" })),
  many("equinix_fabric_route_aggregations", "routeAggregation", () => `where: { name: { like: "ds-%" }, type: BGP_IPv4_PREFIX_AGGREGATION }`, () => items({ name: "ds-aggregation" })),
  one("equinix_fabric_route_aggregation_rule", "routeAggregationRule", (id) => `{ routeAggregationId: ${id("routeAggregations.aggregation")}, uuid: ${id("routeAggregationRules.aggregate")} }`, () => ({ name: "ds-aggregate", prefix: "10.0.0.0/8" })),
  many("equinix_fabric_route_aggregation_rules", "routeAggregationRule", (id) => `where: { routeAggregationId: ${id("routeAggregations.aggregation")} }`, () => items({ prefix: "10.0.0.0/8" })),
  one("equinix_fabric_route_filter", "routeFilter", (id) => `{ uuid: ${id("routeFilters.filter")} }`, () => ({ name: "ds-filter", type: "BGP_IPv4_PREFIX_FILTER" })),
  many("equinix_fabric_route_filters", "routeFilter", () => `where: { name: { like: "DS-F%" } }`, () => items({ name: "ds-filter" })),
  one("equinix_fabric_route_filter_rule", "routeFilterRule", (id) => `{ routeFilterId: ${id("routeFilters.filter")}, uuid: ${id("routeFilterRules.rule-b")} }`, () => ({ name: "ds-rule-b", prefix: "10.62.0.0/16" })),
  many("equinix_fabric_route_filter_rules", "routeFilterRule", (id) => `where: { routeFilterId: ${id("routeFilters.filter")} }, sort: [{ by: prefix, direction: DESC }]`, () => items({ prefix: "10.62.0.0/16" }, { prefix: "10.61.0.0/16" })),
  one("equinix_fabric_routing_protocol", "routingProtocol", (id) => `{ connectionId: ${id("connections.link")}, uuid: ${id("routingProtocols.direct")} }`, () => ({ type: "DIRECT", directIpv4: { equinixIfaceIp: "192.168.91.1/30" } })),
  one("equinix_fabric_service_profile", "serviceProfile", () => `{ uuid: ${PROFILE} }`, () => ({ name: "CloudExchange Direct" })),
  many("equinix_fabric_service_profiles", "serviceProfile", () => `where: { name: { in: ["CloudExchange Direct", "Nowhere"] } }`, () => items({ uuid: PROFILE })),
  one("equinix_fabric_service_token", "serviceToken", (id) => `{ uuid: ${id("serviceTokens.token")} }`, () => ({ name: "ds-token", type: "VC_TOKEN" })),
  many("equinix_fabric_service_tokens", "serviceToken", () => "where: { name: ds-token }", () => items({ name: "ds-token" })),
  one("equinix_network_account", "edgeAccount", () => '{ metroCode: DC, accountName: "Example Networks Inc" }', () => ({ accountNumber: 270848, accountName: "Example Networks Inc" })),
  one("equinix_network_device", "device", (id) => `{ uuid: ${id("devices.edge")} }`, () => ({ name: "ds-edge", deviceTypeCode: "C8000V" })),
  one("equinix_network_device_platform", "devicePlatform", () => "{ deviceTypeCode: C8000V, flavor: small, packageCode: network-essentials }", () => ({ core: 2, memory: 8, unit: "GB" })),
  many("equinix_network_device_software", "deviceSoftware", () => "where: { deviceTypeCode: C8000V, packageCode: network-essentials, stable: true }, sort: [-versionDate, -version]", () => ({ items: expect.arrayContaining([expect.objectContaining({ version: "17.11.01a" })]) })),
  one("equinix_network_device_type", "deviceType", () => "{ deviceTypeCode: C8000V }", () => ({ vendor: "Cisco", stableVersion: "17.11.01a" })),
];

const lookupName = (row: Row) => row.source.replace(/^equinix_/, "").replace(/_/g, "-");

interface PlanDocument {
  lookups?: Array<{ address: string; kind: string; value: Record<string, unknown> }>;
  outputChanges?: Array<{ name: string; after?: unknown }>;
}

describe("the provider's data sources as lookups", () => {
  let id: Ids = () => "";
  let planned: PlanDocument = {};
  let failure = "";

  // The simulator starts afresh before each test: the objects are made and read in one go.
  beforeAll(async () => {
    const world = workspace(WORLD);
    const made = await runner(t, world)("apply", "--auto-approve");
    expect(made.code, out(made)).toBe(0);
    id = (address) => idOf(world, address);
    const yaml = `${CONFIG_HEADER}lookups:\n${ROWS.map((r) => `  ${lookupName(r)}: { kind: ${r.kind}, ${r.body(id)} }\n`).join("")}`;
    const result = await runner(t, workspace(yaml))("plan", "--format", "json");
    failure = result.code === 0 ? "" : out(result);
    planned = result.code === 0 ? (JSON.parse(result.stdout) as PlanDocument) : {};
  }, 300_000);

  it("counts 32 data sources, each once", () => {
    expect(ROWS).toHaveLength(32);
    expect(new Set(ROWS.map((r) => r.source)).size).toBe(32);
  });

  it.each(ROWS.map((r) => ({ ...r, name: lookupName(r) })))("$source as a $kind lookup", (row) => {
    expect(failure).toBe("");
    const lookup = planned.lookups?.find((l) => l.address === `lookups.${row.name}`);
    expect(lookup?.kind).toBe(row.kind);
    expect(lookup?.value).toMatchObject(row.expected(id));
  });
});

describe("list lookups and reads by uuid", () => {
  it("an empty list is a value: its count is 0 in an output, and a single lookup by a uuid the service lacks is a located error", { timeout: 60_000 }, async () => {
    const listed = workspace(`${CONFIG_HEADER}lookups:
  none:
    kind: routeFilter
    many: true
    where: { name: { like: "nothing-here-%" } }
outputs:
  found: { value: "\${lookups.none.count}" }
`);
    const empty = await runner(t, listed)("plan", "--format", "json");
    expect(empty.code, out(empty)).toBe(0);
    const document = JSON.parse(empty.stdout) as PlanDocument;
    expect(document.lookups?.find((l) => l.address === "lookups.none")?.value).toEqual({ count: 0, items: [] });
    expect(document.outputChanges?.find((o) => o.name === "found")?.after).toBe(0);

    const missing = workspace(`${CONFIG_HEADER}lookups:
  gone:
    kind: connection
    where:
      uuid: 00000000-0000-4000-8000-00000000dead
`);
    const failed = await runner(t, missing)("plan");
    expect(failed.code, out(failed)).toBe(1);
    expect(failed.stderr).toMatch(/^netform\.yaml:9:\d+ {2}lookups\.gone\.where\.uuid {2}lookups\.gone: no connection with uuid "00000000-0000-4000-8000-00000000dead"/m);
    expect(failed.stderr).toContain("hint: check the uuid");
  });

  it("a forEach over a list lookup adds and removes exactly the instances whose objects appear and disappear", { timeout: 180_000 }, async () => {
    const teams = (names: string[]) => `${CONFIG_HEADER}routeFilters:\n${names.map((n) => `  ${n}: { type: BGP_IPv4_PREFIX_FILTER, name: ${n} }\n`).join("")}`;
    const owner = workspace(teams(["team-a"]));
    const own = runner(t, owner);
    expect((await own("apply", "--auto-approve")).code).toBe(0);

    const mirrors = workspace(`${CONFIG_HEADER}lookups:
  teams:
    kind: routeFilter
    many: true
    key: name
    where: { name: { like: "team-%" } }
    sort: name
routeFilters:
  mirror:
    forEach: \${lookups.teams}
    type: BGP_IPv4_PREFIX_FILTER
    name: mirror-\${each.key}
    description: "mirrors \${each.value.uuid}"
outputs:
  teams: { value: "\${lookups.teams.count}" }
  first: { value: "\${lookups.teams[0].name}" }
`);
    const run = runner(t, mirrors);
    const validated = await run("validate");
    expect(validated.code, out(validated)).toBe(0);
    expect(validated.stdout).toContain("the instances of routeFilters.mirror are the objects lookups.teams finds: they are known at plan time");

    const first = await run("apply", "--auto-approve");
    expect(first.code, out(first)).toBe(0);
    expect(first.stdout).toContain('+ routeFilters.mirror["team-a"]');
    expect(first.stdout).toContain("found 1 object: team-a");
    expect(Object.keys(mirrors.state().resources)).toEqual(['routeFilters.mirror["team-a"]']);
    const teamA = idOf(owner, "routeFilters.team-a");
    expect(mirrors.state().resources['routeFilters.mirror["team-a"]']?.attributes).toMatchObject({ name: "mirror-team-a", description: `mirrors ${teamA}` });
    expect((JSON.parse(mirrors.stateText()) as { outputs: unknown }).outputs).toMatchObject({ teams: { value: 1 }, first: { value: "team-a" } });

    owner.write(teams(["team-a", "team-b"]));
    expect((await own("apply", "--auto-approve")).code).toBe(0);
    const grown = await run("plan", "--detailed-exitcode");
    expect(grown.code, out(grown)).toBe(2);
    expect(grown.stdout).toContain('+ routeFilters.mirror["team-b"]');
    expect(grown.stdout).toContain("+ appeared since the last apply: team-b");
    expect(grown.stdout).toContain('changes routeFilters.mirror["team-b"]');
    expect(grown.stdout).toContain("1 to add, 0 to change, 0 to replace, 0 to destroy");
    expect((await run("apply", "--auto-approve")).code).toBe(0);

    owner.write(teams(["team-b"]));
    expect((await own("apply", "--auto-approve")).code).toBe(0);
    const shrunk = await run("plan", "--detailed-exitcode");
    expect(shrunk.code, out(shrunk)).toBe(2);
    expect(shrunk.stdout).toContain('- routeFilters.mirror["team-a"]');
    expect(shrunk.stdout).toContain("- gone since the last apply: team-a");
    expect(shrunk.stdout).toContain("0 to add, 0 to change, 0 to replace, 1 to destroy");
    // Pipelines read the same in the JSON plan.
    const json = JSON.parse((await run("plan", "--format", "json")).stdout) as { lookups: Array<{ address: string; list?: object }> };
    expect(json.lookups.find((l) => l.list)?.list).toEqual({ names: ["team-b"], appeared: [], disappeared: ["team-a"], instances: ['routeFilters.mirror["team-a"]'] });
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(Object.keys(mirrors.state().resources)).toEqual(['routeFilters.mirror["team-b"]']);

    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);
  });
});
