// forEach: one block, one resource per key. The addresses and service names its instances get, what
// ${each.key} / ${each.value} and references by key resolve to, and every mistake reported at its line,
// naming the instance.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration, expandBlockAddresses, parseAddress, Reference, Unresolved, type LoadOptions } from "../../../src/config/index.js";
import { address } from "../../../src/config/address.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";

const repo = join(import.meta.dirname, "../../..");
const load = (text: string, options: Partial<LoadOptions> = {}) => buildConfiguration([{ file: join(repo, "netform.yaml"), text: `netform: 1\nprovider: { projectId: p-1 }\n${text}` }], { kinds: KIND_CATALOG, env: {}, baseDir: repo, ...options });
const problems = (r: ReturnType<typeof load>) => r.diagnostics.map((d) => ({ severity: d.severity, code: d.code, address: d.address, at: `${d.file}:${d.line}:${d.column}`, message: d.message, hint: d.hint }));

/** A connection block whose VLAN tags come from each.value; `head` holds its forEach line. */
const connections = (head: string) => `connections:
  vlan:
    ${head}
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;
const VLANS = `forEach: { "1001": { vlan: 1001 }, "1002": { vlan: 1002 } }`;

/** A route filter per key of a list (route filters take only a type and a name). */
const filters = (forEach: string, extra = "") => `routeFilters:
  f:
    forEach: ${forEach}
    type: BGP_IPv4_PREFIX_FILTER${extra}
`;

describe("addresses of instances", () => {
  const kinds = new Set(["connections"]);

  it("are written and read as Terraform writes them, whatever the key holds", () => {
    expect(address("connections", "vlan", "1001")).toBe('connections.vlan["1001"]');
    for (const key of ["1001", "eu west/1", 'say "hi"', "back\\slash", "a.b]c", ""]) {
      expect(parseAddress(address("connections", "vlan", key), kinds)).toEqual({ kind: "connections", name: "vlan", key });
    }
    expect(parseAddress("connections.vlan", kinds)).toEqual({ kind: "connections", name: "vlan" });
  });

  it("refuses what is not one", () => {
    for (const text of ["connections.vlan[1001]", "connections.vlan['1001']", 'connections.vlan["1001"', 'connections.vlan["1001"].uuid', 'devices.vlan["1"]', 'connections.VLAN["1"]']) {
      expect(parseAddress(text, kinds), text).toBeUndefined();
    }
  });

  it("reads a block's address as every instance of it, and leaves other addresses alone", () => {
    const known = ['connections.vlan["2"]', 'connections.vlan["1"]', "connections.other", 'connections.vlan-x["1"]'];
    expect(expandBlockAddresses(["connections.vlan", "connections.other", "connections.gone"], known)).toEqual(['connections.vlan["1"]', 'connections.vlan["2"]', "connections.other", "connections.gone"]);
    // An instance named on its own is that instance only; the block's old address, from before forEach, is meant too.
    expect(expandBlockAddresses(['connections.vlan["2"]'], known)).toEqual(['connections.vlan["2"]']);
    expect(expandBlockAddresses(["connections.vlan"], [...known, "connections.vlan"])).toEqual(["connections.vlan", 'connections.vlan["1"]', 'connections.vlan["2"]']);
  });
});

describe("forEach", () => {
  it("makes one resource per key of a mapping, each.value its value, each named after its key", () => {
    const r = load(connections(VLANS));
    expect(problems(r)).toEqual([]);
    expect([...r.config.resources.keys()]).toEqual(['connections.vlan["1001"]', 'connections.vlan["1002"]']);
    const second = r.config.resources.get('connections.vlan["1002"]');
    expect(second?.spec.name).toBe("vlan-1002");
    expect(second?.name).toBe("vlan");
    expect(second?.key).toBe("1002");
    expect(second?.spec.aSide).toMatchObject({ accessPoint: { linkProtocol: { vlanTag: 1002 } } });
  });

  it("takes a list of strings, each the key and the value, from a variable as well", () => {
    const r = load(`variables: { names: { type: list, default: [edge, core] } }\n${filters("${var.names}", '\n    description: "filter ${each.value} (${each.key})"')}`);
    expect(problems(r)).toEqual([]);
    expect([...r.config.resources.values()].map((f) => [f.address, f.spec.name, f.spec.description])).toEqual([
      ['routeFilters.f["edge"]', "f-edge", "filter edge (edge)"],
      ['routeFilters.f["core"]', "f-core", "filter core (core)"],
    ]);
  });

  it("gives keys that a name could not hold a service name all the same", () => {
    const r = load(filters('["eu west/1", "Core.2"]'));
    expect(problems(r)).toEqual([]);
    expect([...r.config.resources.values()].map((f) => [f.address, f.spec.name])).toEqual([
      ['routeFilters.f["eu west/1"]', "f-eu-west-1"],
      ['routeFilters.f["Core.2"]', "f-Core.2"],
    ]);
  });

  it("refers by key from another resource, and from instances of the same keys to their own", () => {
    const r = load(`${connections(VLANS)}routingProtocols:
  direct:
    forEach: { "1001": { ip: 192.168.1.1/30 }, "1002": { ip: 192.168.2.1/30 } }
    connection: \${connections.vlan[each.key].uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: "\${each.value.ip}" }
  one:
    connection: \${connections.vlan["1001"].uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.1.2 }
    dependsOn: ['routingProtocols.direct["1001"]', connections.vlan]
`);
    expect(problems(r)).toEqual([]);
    const direct = r.config.resources.get('routingProtocols.direct["1002"]');
    expect(direct?.spec.connection).toBeInstanceOf(Reference);
    expect((direct?.spec.connection as Reference).expression).toBe('${connections.vlan["1002"].uuid}');
    expect(direct?.dependencies).toEqual(['connections.vlan["1002"]']);
    expect(r.config.resources.get("routingProtocols.one")?.dependencies).toEqual(['connections.vlan["1001"]', 'connections.vlan["1002"]', 'routingProtocols.direct["1001"]']);
  });

  it("in validate, leaves a forEach on an unset variable for plan time, and what refers to its instances unchecked", () => {
    const r = load(`variables: { names: { type: list } }\n${filters("${var.names}")}routeFilterAttachments:
  a:
    connection: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee
    routeFilter: \${routeFilters.f["edge"].uuid}
    direction: INBOUND
`, { missing: "unknown" });
    expect(problems(r).filter((d) => d.severity === "error")).toEqual([]);
    expect(problems(r).map((d) => d.code)).toContain("for-each.unknown");
    expect([...r.config.resources.keys()]).toEqual(["routeFilterAttachments.a"]);
    expect(r.config.resources.get("routeFilterAttachments.a")?.spec.routeFilter).toBeInstanceOf(Unresolved);
  });

  it("says a mistake in the block once, at its line, naming an instance and how many more share it", () => {
    const r = load(connections(VLANS).replace("bandwidth: 50", "bandwidth: fifty"));
    expect(problems(r)).toEqual([
      expect.objectContaining({ code: "schema.invalid-type", address: 'connections.vlan["1001"]', at: "netform.yaml:7:16", message: expect.stringMatching(/\(and in 1 more instance of connections\.vlan\)$/) }),
    ]);
  });
});

describe("forEach mistakes", () => {
  const cases: { name: string; text: string; expected: ReturnType<typeof problems>[number] }[] = [
    {
      name: "a key given twice",
      text: filters('["a", "b", "a"]'),
      expected: { severity: "error", code: "for-each.duplicate-key", address: "routeFilters.f", at: "netform.yaml:5:25", message: 'forEach[2] repeats the key "a" of forEach[0]', hint: "each key names one instance: remove the repeated one" },
    },
    {
      name: "a list element that is not a string",
      text: filters('["a", 1001]'),
      expected: { severity: "error", code: "for-each.key", address: "routeFilters.f", at: "netform.yaml:5:20", message: "forEach[1] is a number (1001); a list in forEach holds strings, the keys", hint: 'quote it: "1001"' },
    },
    {
      name: "a value that is neither a list nor a mapping",
      text: filters("1001"),
      expected: { severity: "error", code: "for-each.type", address: "routeFilters.f", at: "netform.yaml:5:14", message: "forEach takes a list of strings or a mapping, not a number (1001)", hint: 'e.g. forEach: ["1001", "1002"], or a mapping of key to value: { "1001": { vlan: 1001 } }' },
    },
    {
      name: "keys from another object's attributes",
      text: `${filters('["a"]')}  g:\n    forEach: \${routeFilters.f["a"].uuid}\n    type: BGP_IPv4_PREFIX_FILTER\n`,
      expected: expect.objectContaining({ code: "reference.not-allowed", address: "routeFilters.g", at: "netform.yaml:8:14", message: expect.stringContaining("forEach cannot use another object's attributes") }),
    },
    {
      name: "keys from a sensitive variable",
      text: `variables: { names: { type: list, default: [a], sensitive: true } }\n${filters("${var.names}")}`,
      expected: expect.objectContaining({ code: "for-each.sensitive", address: "routeFilters.f", at: "netform.yaml:6:14" }),
    },
    {
      name: "two keys that give one service name",
      text: filters('["eu west", "eu-west"]'),
      expected: expect.objectContaining({ code: "for-each.name-clash", address: "routeFilters.f", message: 'the keys "eu west" and "eu-west" both give the service name "f-eu-west"' }),
    },
    {
      name: "each outside a resource with forEach",
      text: `routeFilters:\n  f:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: \${each.key}\n`,
      expected: { severity: "error", code: "each.outside", address: "routeFilters.f", at: "netform.yaml:6:18", message: "${each.key} is only valid in a resource with forEach", hint: "add forEach: to the resource, or write the value itself" },
    },
    {
      name: "a field each.value does not have",
      text: connections(VLANS).replace('vlanTag: "${each.value.vlan}" } } }\n    zSide', 'vlanTag: "${each.value.vlam}" } } }\n    zSide'),
      expected: expect.objectContaining({ code: "each.value-field", address: 'connections.vlan["1001"]', at: "netform.yaml:8:133", message: 'each.value has no field "vlam" (and in 1 more instance of connections.vlan)', hint: 'did you mean "vlan"?' }),
    },
    {
      name: "a reference to a key the block does not have",
      text: `${filters('["edge", "core"]')}routeFilterAttachments:\n  a:\n    connection: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee\n    routeFilter: \${routeFilters.f["edgy"].uuid}\n    direction: INBOUND\n`,
      expected: { severity: "error", code: "reference.undeclared", address: "routeFilterAttachments.a", at: "netform.yaml:10:18", message: 'reference to undeclared routeFilters.f["edgy"]: routeFilters.f has no key "edgy"', hint: 'did you mean "edge"? its keys are "edge", "core"' },
    },
    {
      name: "a reference to a block with forEach that names no instance",
      text: `${filters('["edge"]')}routeFilterAttachments:\n  a:\n    connection: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee\n    routeFilter: \${routeFilters.f.uuid}\n    direction: INBOUND\n`,
      expected: { severity: "error", code: "reference.instance", address: "routeFilterAttachments.a", at: "netform.yaml:10:18", message: "routeFilters.f has forEach: a reference names one of its instances", hint: 'e.g. ${routeFilters.f["edge"].uuid}' },
    },
    {
      name: "a key on a resource without forEach",
      text: `routeFilters:\n  f:\n    type: BGP_IPv4_PREFIX_FILTER\nrouteFilterAttachments:\n  a:\n    connection: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee\n    routeFilter: \${routeFilters.f["a"].uuid}\n    direction: INBOUND\n`,
      expected: { severity: "error", code: "reference.not-for-each", address: "routeFilterAttachments.a", at: "netform.yaml:9:18", message: "routeFilters.f has no forEach: it is one object, named without a key", hint: "write ${routeFilters.f.uuid}" },
    },
    {
      name: "dependsOn an instance that does not exist",
      text: `${filters('["edge", "core"]')}  g:\n    type: BGP_IPv4_PREFIX_FILTER\n    dependsOn: ['routeFilters.f["x"]']\n`,
      expected: { severity: "error", code: "reference.undeclared", address: "routeFilters.g", at: "netform.yaml:9:17", message: 'dependsOn names undeclared routeFilters.f["x"]', hint: 'routeFilters.f has the keys "edge", "core"' },
    },
  ];
  for (const c of cases) {
    it(`reports ${c.name}`, () => {
      expect(problems(load(c.text))).toEqual([c.expected]);
    });
  }
});
