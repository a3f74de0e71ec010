// References as the loader reads them: `[N]` list indexes anywhere after an attribute's first field, for
// resources and lookups, beside the `kind.name["key"]` that names an instance of a resource with forEach;
// every malformed form a located error that says what to write.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration, Reference } from "../../../src/config/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { LOOKUP_CATALOG } from "../../../src/lookups/index.js";

const repo = join(import.meta.dirname, "../../..");
const HEADER = "netform: 1\nprovider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01, accountNumber: 270848 }\n";

/** What the references name: a lookup, a connection, a block of connections with forEach, a device. */
const DECLARED = `lookups:
  sp: { kind: serviceProfile, where: { name: CloudExchange Direct } }
  link: { kind: connection, where: { name: link-a } }
connections:
  c:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1002 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
  vlan:
    forEach: { "1001": { vlan: 2001, list: [a] } }
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: "\${each.value.vlan}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
devices:
  d:
    virtualDeviceName: edge-d
    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: network-essentials
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    termlength: 12
    notifications: [netops@example.com]
`;

/**
 * A configuration whose route filter's description is `${expression}`: in a filter of its own, or, with
 * `each`, in a filter with forEach over the connections' key, so that `each` may name an instance.
 */
function load(expression: string, each = false) {
  const filter = each ? `  g:\n    forEach: ["1001"]\n    type: BGP_IPv4_PREFIX_FILTER\n    description: '\${${expression}}'\n` : `  f:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: '\${${expression}}'\n`;
  return buildConfiguration([{ file: join(repo, "netform.yaml"), text: `${HEADER}${DECLARED}routeFilters:\n${filter}` }], { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: {}, baseDir: repo });
}

/** The line of the description in `load`'s text, and the column where its value starts. */
const DESCRIPTION_AT = (each: boolean) => {
  const routeFiltersLine = `${HEADER}${DECLARED}`.split("\n").length;
  return `${routeFiltersLine + (each ? 4 : 3)}:18`;
};

interface Valid {
  expression: string;
  each?: boolean;
  address: string;
  attribute: string;
}

const VALID: Valid[] = [
  { expression: "lookups.sp.accessPointTypeConfigs[0].type", address: "lookups.sp", attribute: "accessPointTypeConfigs[0].type" },
  { expression: "lookups.sp.description", address: "lookups.sp", attribute: "description" },
  { expression: "lookups.sp.metros[10].code", address: "lookups.sp", attribute: "metros[10].code" },
  { expression: "lookups.sp.a[0][1].b", address: "lookups.sp", attribute: "a[0][1].b" },
  { expression: "connections.c.uuid", address: "connections.c", attribute: "uuid" },
  { expression: "connections.c.aSide.accessPoint.linkProtocol.vlanTag", address: "connections.c", attribute: "aSide.accessPoint.linkProtocol.vlanTag" },
  { expression: "connections.c.notifications[0]", address: "connections.c", attribute: "notifications[0]" },
  { expression: "connections.c.notifications[0].emails[1]", address: "connections.c", attribute: "notifications[0].emails[1]" },
  { expression: "devices.d.interfaces[2].id", address: "devices.d", attribute: "interfaces[2].id" },
  { expression: 'connections.vlan["1001"].aSide.accessPoint.port.uuid', address: 'connections.vlan["1001"]', attribute: "aSide.accessPoint.port.uuid" },
  { expression: 'connections.vlan["1001"].notifications[0].type', address: 'connections.vlan["1001"]', attribute: "notifications[0].type" },
  { expression: "connections.vlan[each.key].aSide.accessPoint.linkProtocol.vlanTag", each: true, address: 'connections.vlan["1001"]', attribute: "aSide.accessPoint.linkProtocol.vlanTag" },
  { expression: "connections.vlan[ each.key ].notifications[0].emails[0]", each: true, address: 'connections.vlan["1001"]', attribute: "notifications[0].emails[0]" },
];

describe("references with list indexes and nested paths", () => {
  it.each(VALID)("$expression reads $attribute of $address", ({ expression, each = false, address, attribute }) => {
    const r = load(expression, each);
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.address} ${d.path} ${d.message}`)).toEqual([]);
    const filter = r.config.resources.get(each ? 'routeFilters.g["1001"]' : "routeFilters.f");
    const ref = filter?.spec.description as Reference;
    expect(ref).toBeInstanceOf(Reference);
    expect({ address: ref.address, attribute: ref.attribute }).toEqual({ address, attribute });
    // Written back as it was read (an instance's key quoted as addresses quote it).
    expect(ref.expression).toBe(`\${${address}.${attribute}}`);
    expect(filter?.references).toEqual([ref]);
  });
});

describe("a reference to where a secret is", () => {
  it.each([
    ["a lookup's object", "lookups.link.zSide.accessPoint.authenticationKey"],
    ["a lookup's object, in a list item", "lookups.link.additionalInfo[0].value"],
    ["a resource", "devices.d.vendorConfig.adminPassword"],
  ])("in %s is sensitive, and so is the field that reads it", (_, expression) => {
    const r = load(expression);
    const filter = r.config.resources.get("routeFilters.f");
    expect((filter?.spec.description as Reference).sensitive).toBe(true);
    expect(filter?.secrets.covers("description")).toBe(true);
  });

  it("is not, where the path holds none", () => {
    const filter = load("lookups.link.zSide.accessPoint.type").config.resources.get("routeFilters.f");
    expect((filter?.spec.description as Reference).sensitive).toBe(false);
    expect(filter?.secrets.covers("description")).toBe(false);
  });
});

interface Invalid {
  expression: string;
  each?: boolean;
  message: string;
  hint?: string;
}

const INDEX_HINT = "a list index is a whole number from 0: [0] is the first item, [1] the second";

const INVALID: Invalid[] = [
  { expression: "lookups.sp.accessPointTypeConfigs[-1].type", message: '"${lookups.sp.accessPointTypeConfigs[-1].type}": [-1] is not a list index (a negative number)', hint: INDEX_HINT },
  { expression: "connections.c.notifications[1.5]", message: '"${connections.c.notifications[1.5]}": [1.5] is not a list index (not a whole number)', hint: INDEX_HINT },
  { expression: "connections.c.notifications[01]", message: '"${connections.c.notifications[01]}": [01] is not a list index (written with a leading zero)', hint: INDEX_HINT },
  { expression: "connections.c.notifications[first]", message: '"${connections.c.notifications[first]}": [first] is not a list index (not a number)', hint: INDEX_HINT },
  { expression: "connections.c.notifications[]", message: '"${connections.c.notifications[]}": [] is not a list index (not a number)', hint: INDEX_HINT },
  { expression: 'connections.c.aSide["accessPoint"]', message: '"${connections.c.aSide["accessPoint"]}": ["accessPoint"] is not a list index; a field is read after a dot', hint: "write .accessPoint" },
  { expression: "connections.c.notifications[0", message: '"${connections.c.notifications[0}" is not a valid expression' },
  { expression: "connections.c.notifications.[0]", message: '"${connections.c.notifications.[0]}" is not a valid expression' },
  { expression: "connections.c..uuid", message: '"${connections.c..uuid}" is not a valid expression' },
  { expression: "connections.c.uid[0].x", message: 'connections have no attribute "uid"', hint: 'did you mean "uuid"?' },
  { expression: "connections.c[0].uuid", message: "connections.c has no forEach: it is one object, named without a key", hint: "write ${connections.c.uuid}" },
  { expression: "connections.vlan[0].uuid", message: 'an instance is named by a quoted key or by each.key, not by "0"', hint: 'e.g. connections.vlan["1001"] or connections.vlan[each.key]' },
  { expression: "connections.vlan.notifications[0]", message: "connections.vlan has forEach: a reference names one of its instances", hint: 'e.g. ${connections.vlan["1001"].notifications[0]}' },
  { expression: 'connections.vlan["1001"][0].uuid', message: '"${connections.vlan["1001"][0].uuid}" is not a valid expression' },
  { expression: "lookups.sp[0].uuid", message: '"${lookups.sp[0].uuid}": lookups.sp finds exactly one object, not a list', hint: "read its attributes as ${lookups.sp.ATTRIBUTE}, or add many: true to lookups.sp for a list" },
  { expression: "lookups.sp", message: '"${lookups.sp}": a lookup is read as ${lookups.NAME.ATTRIBUTE}, e.g. ${lookups.sp.uuid}' },
  { expression: "each.value.list[0]", each: true, message: "\"${each.value.list[0]}\": a list index [N] reads an item of a resource's or a lookup's attribute", hint: "each.value's fields are read with dots; give each instance its own value instead of a list" },
];

describe("malformed references", () => {
  it.each(INVALID)("$expression: $message", ({ expression, each = false, message, hint }) => {
    const r = load(expression, each);
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => ({ at: `${d.line}:${d.column}`, message: d.message }))).toEqual([{ at: DESCRIPTION_AT(each), message }]);
    if (hint) expect(errors[0]?.hint).toBe(hint);
  });
});
