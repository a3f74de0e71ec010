// The lookups section as the loader reads it: each lookup checked against its kind's where, references to
// lookups kept as unknown values without a dependency edge, and every mistake a located diagnostic.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration, Reference, Template } from "../../../src/config/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { LOOKUP_CATALOG } from "../../../src/lookups/index.js";

const repo = join(import.meta.dirname, "../../..");
const HEADER = "netform: 1\nprovider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01 }\n";
const load = (text: string, env: Record<string, string> = {}) => buildConfiguration([{ file: join(repo, "netform.yaml"), text: `${HEADER}${text}` }], { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env, baseDir: repo });
/** Each error as "line:column address.path message". */
const errors = (r: ReturnType<typeof load>) => r.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.address ?? ""}${d.path ? `.${d.path}` : ""} ${d.message}`);

const CONNECTION = `connections:
  dc:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.dc.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.dc.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1002 } } }
    name: "to-\${lookups.dc.location.metroCode}"
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

describe("lookups in the configuration", () => {
  it("reads each lookup with its where resolved, and keeps references to it unknown and out of the graph", () => {
    const r = load(`lookups:\n  dc:\n    kind: port\n    where: { metroCode: "\${var.metro}", priority: PRIMARY }\nvariables:\n  metro: { type: string, default: DC }\n${CONNECTION}`);
    expect(errors(r)).toEqual([]);
    expect(r.config.lookups.get("lookups.dc")).toMatchObject({ kind: "port", where: { metroCode: "DC", priority: "PRIMARY" } });
    const connection = r.config.resources.get("connections.dc");
    const port = (connection?.spec.aSide as { accessPoint: { port: { uuid: unknown } } }).accessPoint.port.uuid;
    expect(port).toBeInstanceOf(Reference);
    expect(connection?.spec.name).toBeInstanceOf(Template);
    expect(connection?.dependencies).toEqual([]);
    expect(r.config.edges).toEqual([]);
  });

  it("reports every mistake at its place: unknown kind, where field, a missing where, a reference in where, an undeclared lookup", () => {
    const r = load(`lookups:
  a:
    kind: prot
    where: { name: x }
  b:
    kind: port
    where: { metro: DC }
  c:
    kind: serviceProfile
  d:
    kind: metro
    where: { code: "\${connections.dc.uuid}" }
  e:
    kind: port
    where: { name: x }
connections:
  dc:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.e.uid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.f.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 1002 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`);
    expect(errors(r)).toEqual([
      "5:11 lookups.a.kind unknown lookup kind \"prot\"",
      "9:14 lookups.b.where.metro unknown field \"metro\"",
      "10:3 lookups.c lookups.c needs a where: what to search by",
      "14:20 lookups.d.where.code a lookup's where cannot reference a resource or another lookup: it is read before anything is made",
      "23:55 connections.dc.zSide.accessPoint.port.uuid reference to undeclared lookups.f",
    ]);
    const hints = r.diagnostics.map((d) => d.hint);
    expect(hints).toContain('did you mean "port"?');
    expect(hints).toContain('did you mean "metroCode"?');
    // What the object found holds is known only once it is found: a path it lacks is an error at plan time.
    const port = (r.config.resources.get("connections.dc")?.spec.aSide as { accessPoint: { port: { uuid: unknown } } }).accessPoint.port.uuid;
    expect(port).toMatchObject({ address: "lookups.e", attribute: "uid" });
  });

  it("has no lookups section when the loader is given no lookup kinds", () => {
    const r = buildConfiguration([{ file: join(repo, "netform.yaml"), text: `${HEADER}lookups: {}\n` }], { kinds: KIND_CATALOG, env: {}, baseDir: repo });
    expect(r.diagnostics.map((d) => d.message)).toEqual(['unknown top-level key "lookups"']);
  });

  it("takes a uuid, operators, OR groups and (for a list lookup) key and sort, and refuses each misuse at its place", () => {
    const good = load(`lookups:
  one: { kind: connection, where: { uuid: 7c0d1b4e-0000-4000-8000-000000000001 } }
  ports:
    kind: port
    many: true
    key: name
    where: { name: { like: "dc-%" }, state: { in: [ACTIVE, PENDING] }, or: [{ metroCode: DC }, { metroCode: SV }] }
    sort: [-bandwidth, { by: location.metroCode, direction: ASC }]
  every: { kind: metro, many: true }
`);
    expect(errors(good)).toEqual([]);
    expect(good.config.lookups.get("lookups.ports")).toMatchObject({ many: true, key: "name", sort: [{ by: "bandwidth", direction: "DESC" }, { by: "location.metroCode", direction: "ASC" }] });
    expect(good.config.lookups.get("lookups.every")).toMatchObject({ many: true, where: {} });

    const bad = load(`lookups:
  a: { kind: metro, where: { uuid: x } }
  b: { kind: port, key: name, where: { name: x } }
  c: { kind: port, many: true, where: { name: { like: 1, between: [1, 2] } } }
  d: { kind: port, many: true, sort: [{ by: name, direction: UP }], where: { name: x } }
  e: { kind: port, many: yes, where: { name: x } }
`);
    expect(errors(bad)).toEqual([
      '4:30 lookups.a.where.uuid unknown field "uuid"',
      "5:20 lookups.b.key key names the attribute a list lookup's objects are keyed by in a forEach: it needs many: true",
      "6:55 lookups.c.where.name.like must be a string, not an integer",
      '6:58 lookups.c.where.name.between unknown field "between"',
      "7:39 lookups.d.sort[0] sort takes attribute paths, each ascending or descending",
      "8:26 lookups.e.many many is true (a list of every object found) or false (exactly one)",
    ]);
  });

  it("reads a list lookup whole, by item or by count, and refuses other paths of it", () => {
    const r = load(`lookups:
  ports: { kind: port, many: true, where: { metroCode: DC } }
outputs:
  all: { value: "\${lookups.ports}" }
  first: { value: "\${lookups.ports[0].name}" }
  count: { value: "\${lookups.ports.count}" }
  wrong: { value: "\${lookups.ports.name}" }
`);
    expect(errors(r)).toEqual([expect.stringContaining("lookups.ports is a list lookup (many: true), read as a whole, by item or by count")]);
    const refs = [...r.config.outputs.values()].flatMap((o) => o.references).map((ref) => ref.attribute);
    expect(refs).toEqual(["items", "items[0].name", "count"]);
  });

  it("makes an instance per object a list lookup found, keyed by its key, and refuses a forEach it cannot key", () => {
    const text = `lookups:
  ports: { kind: port, many: true, key: name, where: { metroCode: DC } }
  one: { kind: port, where: { name: x } }
  unkeyed: { kind: port, many: true, where: { metroCode: SV } }
routeFilters:
  per-port:
    forEach: \${lookups.ports}
    type: BGP_IPv4_PREFIX_FILTER
    description: "for \${each.value.uuid} in \${each.value.location.metroCode}"
  single:
    forEach: \${lookups.one}
    type: BGP_IPv4_PREFIX_FILTER
  no-key:
    forEach: \${lookups.unkeyed}
    type: BGP_IPv4_PREFIX_FILTER
`;
    const withValues = (items: unknown[]) =>
      buildConfiguration([{ file: join(repo, "netform.yaml"), text: `${HEADER}${text}` }], { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: {}, baseDir: repo, lookupValues: new Map([["lookups.ports", { count: items.length, items }]]) });
    const r = withValues([{ name: "dc-1", uuid: "u-1", location: { metroCode: "DC" } }, { name: "dc-2", uuid: "u-2", location: { metroCode: "DC" } }]);
    expect(errors(r)).toEqual([
      "13:14 routeFilters.single.forEach forEach over lookups.one needs a list lookup: it finds exactly one object",
      "16:14 routeFilters.no-key.forEach forEach over lookups.unkeyed needs the attribute its objects are keyed by",
    ]);
    expect([...r.config.resources.keys()]).toEqual(['routeFilters.per-port["dc-1"]', 'routeFilters.per-port["dc-2"]']);
    expect(r.config.resources.get('routeFilters.per-port["dc-2"]')?.spec.description).toBe("for u-2 in DC");
    expect(r.config.forEachLookups.get("routeFilters.per-port")).toBe("lookups.ports");

    expect([...withValues([]).config.resources.keys()]).toEqual([]);
    expect(errors(withValues([{ name: "dc-1" }, { name: "dc-1" }]))).toContain('9:14 routeFilters.per-port.forEach lookups.ports[1] and [0] share the name "dc-1", which keys the instances of routeFilters.per-port');
    expect(errors(withValues([{ uuid: "u-9" }]))).toContain("9:14 routeFilters.per-port.forEach lookups.ports[0] has no name to key an instance of routeFilters.per-port by (it is absent)");
  });
});
