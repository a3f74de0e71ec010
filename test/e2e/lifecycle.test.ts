// DESIGN.md's end-to-end checklist for every kind of the registry, one row per kind: create, read back,
// no-op re-plan, import by id, drift reported with its author and put back, in-place update, replace on a
// force-new field, delete, and confirmation that the service no longer has the object, each step through
// the built command line against the simulator. One runner asserts the same things of every row; a row
// says what is particular to its kind (the configuration and what it needs, where the service shows the
// object, which change made outside netform it reports, which edits change it in place and which replace it).
// What belongs to one kind only (ordering, pairs, dependents) stays in that kind's own file.

import { describe, expect, it } from "vitest";
import { KIND_DEFINITIONS, KINDS, type Kind } from "../../src/kinds/index.js";
import { useSimulator, type CallResult, type TestSim } from "../support/sim.js";
import { workspace, type CliResult, type Workspace } from "./cli.js";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { ACCOUNT, C8000V_DC_FIELDS, changesSent, CONFIG_HEADER, idOf, type Obj, objects, out, portConnectionYaml, PORTS, PROJECT, runner } from "./service.js";

/** The id the state records for an address, when the expectation is evaluated. */
type Ids = (address: string) => string;

/** What a GET of the path returns on the simulator, matched as `toMatchObject` matches. */
type Reading = readonly [path: string, shows: Obj];

interface Step {
  /** The configuration from this step on; the previous one when absent. */
  config?: string;
  /** Arguments for this step's plan and apply (`--replace ADDRESS`). */
  args?: string[];
  /** Environment variables from this step on (a rotated secret). */
  env?: Record<string, string>;
  /** What the service shows once the step is applied. */
  shows(ids: Ids): Reading[];
  /** What the state records for the resource under test, as `toMatchObject` matches it. */
  recorded?(ids: Ids): Obj;
}

interface Update extends Step {
  /** The field changes the plan shows. */
  plan: Array<string | RegExp>;
  /** The mutating calls the service receives: "METHOD path status". */
  calls(ids: Ids): string[];
}

interface Replace extends Step {
  /** Why the plan replaces: the force-new field it names, or the request. */
  because: string | RegExp;
  /** Every address replaced, when more than the resource under test. */
  replaced?: string[];
}

/** A change made outside netform, and what `netform drift` must say of it. */
interface Drift {
  /** Makes the change on the simulator, by the ids the state records. */
  make(t: TestSim, ids: Ids): Promise<unknown>;
  /** What the report says of the resource under test: changed fields, or the object gone. */
  status: "changed" | "deleted";
  /** Who the report names as the author of the change. */
  changedBy: string;
  /** The fields a changed object reports, each with its value before and after. */
  fields?: Array<{ path: string; before: unknown; after: unknown }>;
}

interface LifecycleBase {
  /** The resource under test. */
  address: string;
  /** The simulator's clock: kinds whose transitions take simulated minutes run faster. */
  speed: number;
  env?: Record<string, string>;
  /** Values no output and no state file may ever contain. */
  secrets?: string[];
  /** The first configuration (the resource and what it needs), how many resources it adds, and what they show. */
  create: Step & { config: string; added: number };
  /** What the first plan after an import changes, when the service never returns a field the state needs (a secret). */
  imported?: { plan: Array<string | RegExp> };
  /**
   * Once created: a change made outside netform, which apply then puts back. Absent only for kinds whose
   * every field forces a new object (an SSH key, an upload) or whose service has no delete: there the
   * replace rows prove the same comparison.
   */
  drift?: Drift;
  updates: Update[];
  replaces: Replace[];
  delete: {
    config: string;
    /** Every address removed, when more than the resource under test. */
    deleted?: string[];
    /** The mutating calls the service receives, by the ids the objects had. */
    calls(was: Ids): string[];
    /** What the service shows of what is left. */
    shows?(ids: Ids): Reading[];
  };
  /** Whether an object `/__sim/objects` lists for the kind is still in service. */
  live(obj: Obj): boolean;
  /** The simulator's name for the kind's objects, where it is not the kind's ("routers"). */
  objects?: string;
}

interface Deleted {
  /** Where the service serves one object of the kind, by its id, the ids of what it lives on, and the parent the state records for it (a rule's policy). */
  path(id: string, ids: Ids, parent: string | undefined): string;
  /** Whether the answer to a GET of that path says the service no longer has the object. */
  gone(res: CallResult): boolean;
}

/** A kind the service has no delete for: a replaced or deleted object is forgotten, and the service keeps it. */
interface Kept {
  keptByService: true;
}

type Lifecycle = LifecycleBase & (Deleted | Kept);

/** A number the service may send as a JSON number or as its decimal string. */
const numeric = (n: number) => expect.toBeOneOf([n, String(n)]);
/** A list with these members, in any order. */
const sameMembers = (members: string[]) =>
  expect.toSatisfy((v: unknown) => Array.isArray(v) && JSON.stringify([...v].sort()) === JSON.stringify([...members].sort()), `the members ${members.join(", ")}`);
const ATTACHED = expect.toBeOneOf(["ATTACHED", "PENDING_BGP_CONFIGURATION"]);

/** The parent a row's path needs, which the state must have recorded. */
const recordedParent = (parent: string | undefined): string => {
  if (parent === undefined) throw new Error("the state records no parent for the object");
  return parent;
};

/** An edit made in the portal: a merge patch of the object the address holds, by the portal's user. */
const portalEdit =
  (address: string, patch: Obj) =>
  (t: TestSim, ids: Ids): Promise<unknown> =>
    t.call("PATCH", `/__sim/objects/${ids(address)}`, { body: patch });

/** A detachment made through the API by the demo client's user, waited for until the service shows it done. */
const detachedBy =
  (path: (ids: Ids) => string) =>
  async (t: TestSim, ids: Ids): Promise<void> => {
    const res = await t.call("DELETE", path(ids));
    expect(res.status, res.text).toBe(202);
    await t.waitFor(path(ids), "/attachmentStatus", "DETACHED");
  };

// ── route filters ─────────────────────────────────────────────────────────────────────────────

const routeFilter = (type: string, description: string) => `${CONFIG_HEADER}routeFilters:
  customer-in:
    type: ${type}
    description: ${description}
`;

const ROUTE_FILTERS: Lifecycle = {
  address: "routeFilters.customer-in",
  speed: 500,
  create: {
    config: routeFilter("BGP_IPv4_PREFIX_FILTER", "first"),
    added: 1,
    shows: (ids) => [[`/fabric/v4/routeFilters/${ids("routeFilters.customer-in")}`, { name: "customer-in", description: "first", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_FILTER" }]],
  },
  drift: {
    make: portalEdit("routeFilters.customer-in", { description: "edited in the portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "description", before: "first", after: "edited in the portal" }],
  },
  updates: [
    {
      config: routeFilter("BGP_IPv4_PREFIX_FILTER", "second"),
      plan: ['~ description = "first" -> "second"'],
      calls: (ids) => [`PATCH /fabric/v4/routeFilters/${ids("routeFilters.customer-in")} 202`],
      shows: (ids) => [[`/fabric/v4/routeFilters/${ids("routeFilters.customer-in")}`, { description: "second", state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      config: routeFilter("BGP_IPv6_PREFIX_FILTER", "second"),
      because: "type cannot change in place",
      shows: (ids) => [[`/fabric/v4/routeFilters/${ids("routeFilters.customer-in")}`, { type: "BGP_IPv6_PREFIX_FILTER", description: "second", state: "PROVISIONED" }]],
    },
  ],
  delete: {
    config: `${CONFIG_HEADER}routeFilters: {}\n`,
    calls: (was) => [`DELETE /fabric/v4/routeFilters/${was("routeFilters.customer-in")} 202`],
  },
  path: (id) => `/fabric/v4/routeFilters/${id}`,
  gone: (res) => res.body.state === "DEPROVISIONED",
  live: (f) => f.state !== "DEPROVISIONED",
};

// ── route filter rules ────────────────────────────────────────────────────────────────────────

type FilterName = "customer-in" | "partner-in";

/** One rule on one of two filters; the filters the configuration keeps are given when the rule goes with its own. */
const filterRule = (rule?: { filter: FilterName; prefix: string }, filters: FilterName[] = ["customer-in", "partner-in"]) => `${CONFIG_HEADER}routeFilters:${filters
  .map(
    (name) => `
  ${name}:
    type: BGP_IPv4_PREFIX_FILTER`,
  )
  .join("")}
routeFilterRules:${
  rule === undefined
    ? " {}"
    : `
  office-a:
    routeFilter: \${routeFilters.${rule.filter}.uuid}
    prefix: ${rule.prefix}`
}
`;

const OFFICE = "routeFilterRules.office-a";
const filterPath = (filter: string) => `/fabric/v4/routeFilters/${filter}`;
const filterRulePath = (filter: string, rule: string) => `${filterPath(filter)}/routeFilterRules/${rule}`;

const ROUTE_FILTER_RULES: Lifecycle = {
  address: OFFICE,
  speed: 500,
  create: {
    config: filterRule({ filter: "customer-in", prefix: "10.1.0.0/16" }),
    added: 3,
    shows: (ids) => [
      // No prefixMatch written: the service's default, the prefix and every longer one within it.
      [filterRulePath(ids("routeFilters.customer-in"), ids(OFFICE)), { uuid: ids(OFFICE), name: "office-a", prefix: "10.1.0.0/16", prefixMatch: "orlonger", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_FILTER_RULE" }],
      [filterPath(ids("routeFilters.customer-in")), { rulesCount: 1 }],
    ],
    recorded: (ids) => ({ parent: ids("routeFilters.customer-in"), attributes: { prefix: "10.1.0.0/16", state: "PROVISIONED" } }),
  },
  drift: {
    make: portalEdit(OFFICE, { prefixMatch: "exact" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "prefixMatch", before: "orlonger", after: "exact" }],
  },
  updates: [
    {
      config: filterRule({ filter: "customer-in", prefix: "10.10.0.0/16" }),
      plan: [/~ prefix\s+= "10\.1\.0\.0\/16" -> "10\.10\.0\.0\/16"/],
      calls: (ids) => [`PATCH ${filterRulePath(ids("routeFilters.customer-in"), ids(OFFICE))} 202`],
      shows: (ids) => [[filterRulePath(ids("routeFilters.customer-in"), ids(OFFICE)), { prefix: "10.10.0.0/16", state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      // The service has no move between filters.
      config: filterRule({ filter: "partner-in", prefix: "10.10.0.0/16" }),
      because: "routeFilter cannot change in place",
      shows: (ids) => [
        [filterRulePath(ids("routeFilters.partner-in"), ids(OFFICE)), { prefix: "10.10.0.0/16", state: "PROVISIONED" }],
        [filterPath(ids("routeFilters.customer-in")), { rulesCount: 0 }],
        [filterPath(ids("routeFilters.partner-in")), { rulesCount: 1 }],
      ],
      recorded: (ids) => ({ parent: ids("routeFilters.partner-in") }),
    },
  ],
  delete: {
    // With its filter: the filter's DELETE takes its rules, and the rule has no call of its own.
    config: filterRule(undefined, ["customer-in"]),
    deleted: [OFFICE, "routeFilters.partner-in"],
    calls: (was) => [`DELETE ${filterPath(was("routeFilters.partner-in"))} 202`],
    shows: (ids) => [[filterPath(ids("routeFilters.customer-in")), { state: "PROVISIONED", rulesCount: 0 }]],
  },
  path: (id, _ids, filter) => filterRulePath(recordedParent(filter), id),
  gone: (res) => res.body.state === "DEPROVISIONED",
  live: (r) => r.state !== "DEPROVISIONED",
};

// ── route filter attachments ──────────────────────────────────────────────────────────────────

/** Two filters on one connection; the attachment binds one of them (an attachment has nothing to change in place). */
const attached = (filter?: "primary-in" | "alternate-in") => `${CONFIG_HEADER}routeFilters:
  primary-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: primary
  alternate-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: alternate
connections:
${portConnectionYaml("filtered", { aPort: PORTS.nyPrimary, vlanA: 2201, zPort: PORTS.nySecondary, vlanZ: 2202 })}routeFilterAttachments:${
  filter === undefined
    ? " {}"
    : `
  filtered-in:
    connection: \${connections.filtered.uuid}
    routeFilter: \${routeFilters.${filter}.uuid}
    direction: INBOUND`
}
`;

const attachmentPath = (id: string, ids: Ids) => `/fabric/v4/connections/${ids("connections.filtered")}/routeFilters/${id}`;

const ROUTE_FILTER_ATTACHMENTS: Lifecycle = {
  address: "routeFilterAttachments.filtered-in",
  speed: 500,
  create: {
    config: attached("primary-in"),
    added: 4,
    shows: (ids) => [
      [attachmentPath(ids("routeFilterAttachments.filtered-in"), ids), { uuid: ids("routeFilters.primary-in"), direction: "INBOUND", type: "BGP_IPv4_PREFIX_FILTER", attachmentStatus: ATTACHED }],
      [`/fabric/v4/routeFilters/${ids("routeFilters.primary-in")}`, { connectionsCount: 1 }],
    ],
    // The service names an attachment by its connection and its filter: the id is the filter's uuid.
    recorded: (ids) => ({ id: ids("routeFilters.primary-in"), attributes: { direction: "INBOUND" } }),
  },
  drift: {
    // Detached through the API by someone else: the report names the API's user.
    make: detachedBy((ids) => attachmentPath(ids("routeFilterAttachments.filtered-in"), ids)),
    status: "deleted",
    changedBy: "demo-user",
  },
  updates: [],
  replaces: [
    {
      config: attached("alternate-in"),
      because: "routeFilter cannot change in place",
      shows: (ids) => [
        [attachmentPath(ids("routeFilterAttachments.filtered-in"), ids), { uuid: ids("routeFilters.alternate-in"), direction: "INBOUND", attachmentStatus: ATTACHED }],
        [`/fabric/v4/routeFilters/${ids("routeFilters.primary-in")}`, { connectionsCount: 0 }],
        [`/fabric/v4/routeFilters/${ids("routeFilters.alternate-in")}`, { connectionsCount: 1 }],
      ],
      recorded: (ids) => ({ id: ids("routeFilters.alternate-in") }),
    },
  ],
  delete: {
    config: attached(),
    calls: (was) => [`DELETE ${attachmentPath(was("routeFilterAttachments.filtered-in"), was)} 202`],
    shows: (ids) => [[`/fabric/v4/routeFilters/${ids("routeFilters.alternate-in")}`, { connectionsCount: 0 }]],
  },
  path: attachmentPath,
  gone: (res) => res.status === 404 || res.body.attachmentStatus === "DETACHED",
  live: (a) => a.attachmentStatus !== "DETACHED",
};

// ── connections ───────────────────────────────────────────────────────────────────────────────

const connection = (c?: { name?: string; bandwidth: number; vlanTag: number; zPort?: string }) => `${CONFIG_HEADER}connections:${
  c === undefined
    ? " {}"
    : `
  dc-link:
${c.name ? `    name: ${c.name}\n` : ""}    type: EVPL_VC
    bandwidth: ${c.bandwidth}
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.dcPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: ${c.vlanTag} }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${c.zPort ?? PORTS.dcSecondary} }
        linkProtocol: { type: DOT1Q, vlanTag: 1502 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
    order: { purchaseOrderNumber: PO-E2E-1 }`
}
`;

const connectionPath = (id: string) => `/fabric/v4/connections/${id}`;

const CONNECTIONS: Lifecycle = {
  address: "connections.dc-link",
  speed: 500,
  create: {
    config: connection({ bandwidth: 50, vlanTag: 1501 }),
    added: 1,
    shows: (ids) => [
      [
        connectionPath(ids("connections.dc-link")),
        {
          uuid: ids("connections.dc-link"),
          name: "dc-link",
          type: "EVPL_VC",
          bandwidth: 50,
          state: "PROVISIONED",
          project: { projectId: PROJECT },
          order: { purchaseOrderNumber: "PO-E2E-1" },
          notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
          aSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcPrimary }, linkProtocol: { type: "DOT1Q", vlanTag: 1501 } } },
          zSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { type: "DOT1Q", vlanTag: 1502 } } },
        },
      ],
    ],
    recorded: (ids) => ({ attributes: { uuid: ids("connections.dc-link"), state: "PROVISIONED", bandwidth: 50 } }),
  },
  drift: {
    make: portalEdit("connections.dc-link", { name: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "name", before: "dc-link", after: "renamed-in-portal" }],
  },
  updates: [
    {
      // Bandwidth and name change in place: one PATCH.
      config: connection({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1501 }),
      plan: [/~ bandwidth\s+= 50 -> 100/, /~ name\s+= "dc-link" -> "dc-link-renamed"/],
      calls: (ids) => [`PATCH ${connectionPath(ids("connections.dc-link"))} 202`],
      shows: (ids) => [[connectionPath(ids("connections.dc-link")), { name: "dc-link-renamed", bandwidth: 100, state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      // The a-side VLAN tag has no PATCH path.
      config: connection({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1601 }),
      because: "aSide.accessPoint.linkProtocol.vlanTag cannot change in place",
      shows: (ids) => [[connectionPath(ids("connections.dc-link")), { state: "PROVISIONED", name: "dc-link-renamed", aSide: { accessPoint: { linkProtocol: { vlanTag: 1601 } } } }]],
    },
    {
      // Only the a-side port has a PATCH path, not the z-side one.
      config: connection({ name: "dc-link-renamed", bandwidth: 100, vlanTag: 1601, zPort: PORTS.dcPrimary }),
      because: "zSide.accessPoint.port.uuid cannot change in place",
      shows: (ids) => [[connectionPath(ids("connections.dc-link")), { state: "PROVISIONED", zSide: { accessPoint: { port: { uuid: PORTS.dcPrimary } } } }]],
    },
  ],
  delete: {
    config: connection(),
    calls: (was) => [`DELETE ${connectionPath(was("connections.dc-link"))} 200`],
  },
  path: connectionPath,
  gone: (res) => res.body.state === "DEPROVISIONED",
  live: (c) => c.state !== "DEPROVISIONED",
};

// ── routing protocols ─────────────────────────────────────────────────────────────────────────

interface Bgp {
  asn: number;
  enabled: boolean;
  bfd: boolean;
}

/** BGP under test over the DIRECT instance it needs, on one connection; listed first, as no order is declared. */
const routed = (bgp?: Bgp, subnet = "192.168.50") => `${CONFIG_HEADER}connections:
${portConnectionYaml("routed", { aPort: PORTS.svPrimary, vlanA: 2301, zPort: PORTS.svSecondary, vlanZ: 2302 })}routingProtocols:${
  bgp === undefined
    ? " {}"
    : `
  routed-bgp:
    connection: \${connections.routed.uuid}
    type: BGP
    customerAsn: ${bgp.asn}
    bgpIpv4: { customerPeerIp: ${subnet}.2, enabled: ${bgp.enabled} }
    bfd: { enabled: ${bgp.bfd}${bgp.bfd ? ", interval: 300" : ""} }
  routed-direct:
    connection: \${connections.routed.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: ${subnet}.1/30 }`
}
`;

const BGP = "routingProtocols.routed-bgp";
const DIRECT = "routingProtocols.routed-direct";
const protocolPath = (id: string, ids: Ids) => `/fabric/v4/connections/${ids("connections.routed")}/routingProtocols/${id}`;
const bgpOf = (ids: Ids) => protocolPath(ids(BGP), ids);
const directOf = (ids: Ids) => protocolPath(ids(DIRECT), ids);

const ROUTING_PROTOCOLS: Lifecycle = {
  address: BGP,
  speed: 500,
  create: {
    config: routed({ asn: 65010, enabled: true, bfd: false }),
    added: 3,
    shows: (ids) => [
      [directOf(ids), { uuid: ids(DIRECT), type: "DIRECT", state: "PROVISIONED", directIpv4: { equinixIfaceIp: "192.168.50.1/30" } }],
      [bgpOf(ids), { uuid: ids(BGP), type: "BGP", state: "PROVISIONED", customerAsn: numeric(65010), bgpIpv4: { customerPeerIp: "192.168.50.2", enabled: true } }],
    ],
    recorded: (ids) => ({ attributes: { uuid: ids(BGP), state: "PROVISIONED" } }),
  },
  drift: {
    make: portalEdit(BGP, { bgpIpv4: { enabled: false } }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "bgpIpv4.enabled", before: true, after: false }],
  },
  updates: [
    {
      // The enabled flag alone: the service's JSON patch.
      config: routed({ asn: 65010, enabled: false, bfd: false }),
      plan: [/~ bgpIpv4\.enabled\s+= true -> false/],
      calls: (ids) => [`PATCH ${bgpOf(ids)} 202`],
      shows: (ids) => [[bgpOf(ids), { state: "PROVISIONED", bgpIpv4: { enabled: false } }]],
    },
    {
      // customerAsn and bfd have no patch path: the whole instance is sent again.
      config: routed({ asn: 65020, enabled: false, bfd: true }),
      plan: [/~ customerAsn\s+= 65010 -> 65020/, /~ bfd\.enabled\s+= false -> true/],
      calls: (ids) => [`PUT ${bgpOf(ids)} 202`],
      shows: (ids) => [[bgpOf(ids), { state: "PROVISIONED", customerAsn: numeric(65020), bgpIpv4: { customerPeerIp: "192.168.50.2", enabled: false }, bfd: { enabled: true, interval: numeric(300) } }]],
    },
  ],
  replaces: [
    {
      // BGP alone has no field the service would take as a new instance on the same connection: ask for one.
      args: ["--replace", BGP],
      because: "replacement requested (--replace)",
      shows: (ids) => [[bgpOf(ids), { state: "PROVISIONED", customerAsn: numeric(65020), bgpIpv4: { enabled: false }, bfd: { enabled: true } }]],
    },
    {
      // The service keeps a BGP session inside its DIRECT subnet at every step: both move together.
      config: routed({ asn: 65020, enabled: false, bfd: true }, "192.168.70"),
      because: "directIpv4.equinixIfaceIp cannot change in place",
      replaced: [DIRECT, BGP],
      shows: (ids) => [
        [directOf(ids), { uuid: ids(DIRECT), type: "DIRECT", state: "PROVISIONED", directIpv4: { equinixIfaceIp: "192.168.70.1/30" } }],
        [bgpOf(ids), { uuid: ids(BGP), type: "BGP", state: "PROVISIONED", bgpIpv4: { customerPeerIp: "192.168.70.2" } }],
      ],
    },
  ],
  delete: {
    // Both at once: BGP first, or the service refuses the DIRECT delete.
    config: routed(),
    deleted: [BGP, DIRECT],
    calls: (was) => [`DELETE ${bgpOf(was)} 202`, `DELETE ${directOf(was)} 202`],
  },
  path: protocolPath,
  gone: (res) => res.status === 404 || res.body.state === "DEPROVISIONED",
  live: (p) => p.state !== "DEPROVISIONED",
};

// ── devices ───────────────────────────────────────────────────────────────────────────────────

const device = (d?: { name?: string; packageCode?: string; core?: number; notifications?: string[] }) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${
  d === undefined
    ? " {}"
    : `
  edge-1:
${d.name ? `    virtualDeviceName: ${d.name}\n` : ""}    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: ${d.packageCode ?? "network-essentials"}
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: ${d.core ?? 2}
    termlength: 12
    notifications: [${(d.notifications ?? ["netops@example.com"]).join(", ")}]`
}
`;

const devicePath = (id: string) => `/ne/v1/devices/${id}`;
const RENAMED = { name: "edge-1-renamed", notifications: ["netops@example.com", "oncall@example.com"] };

const DEVICES: Lifecycle = {
  address: "devices.edge-1",
  speed: 2000,
  create: {
    config: device({}),
    added: 1,
    shows: (ids) => [
      [
        devicePath(ids("devices.edge-1")),
        {
          uuid: ids("devices.edge-1"),
          name: "edge-1",
          status: "PROVISIONED",
          deviceTypeCode: "C8000V",
          metroCode: "DC",
          packageCode: "network-essentials",
          version: "17.11.01a",
          deviceManagementType: "PROVIDER-CONFIGURED",
          core: { core: 2 },
          notifications: ["netops@example.com"],
          accountNumber: numeric(ACCOUNT),
          termLength: numeric(12),
        },
      ],
    ],
    recorded: (ids) => ({ attributes: { uuid: ids("devices.edge-1"), status: "PROVISIONED" } }),
  },
  drift: {
    make: portalEdit("devices.edge-1", { name: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "virtualDeviceName", before: "edge-1", after: "renamed-in-portal" }],
  },
  updates: [
    {
      config: device(RENAMED),
      plan: [/~ virtualDeviceName\s+= "edge-1" -> "edge-1-renamed"/, "notifications"],
      calls: (ids) => [`PATCH ${devicePath(ids("devices.edge-1"))} 204`],
      shows: (ids) => [[devicePath(ids("devices.edge-1")), { name: "edge-1-renamed", status: "PROVISIONED", notifications: sameMembers(RENAMED.notifications) }]],
    },
  ],
  replaces: [
    {
      // The package and the size are fixed by the order.
      config: device({ ...RENAMED, packageCode: "network-advantage", core: 4 }),
      because: /packageCode, core cannot change in place|core, packageCode cannot change in place/,
      shows: (ids) => [[devicePath(ids("devices.edge-1")), { status: "PROVISIONED", name: "edge-1-renamed", packageCode: "network-advantage", core: { core: 4 } }]],
    },
  ],
  delete: {
    config: device(),
    calls: (was) => [`DELETE ${devicePath(was("devices.edge-1"))} 204`],
  },
  path: devicePath,
  gone: (res) => res.status === 404 || res.body.status === "DEPROVISIONED",
  live: (d) => d.status !== "DEPROVISIONED" && d.status !== "DEPROVISIONING",
};

// ── VPNs ──────────────────────────────────────────────────────────────────────────────────────

const PSK = "e2e-shared-key-7d1f";
const ROTATED_PSK = "e2e-shared-key-rotated-93b0";

const edge = (name: string) => `
  ${name}:
${C8000V_DC_FIELDS}`;

/** A VPN on one of two provisioned devices. */
const vpn = (v?: { device: "edge-a" | "edge-b"; configName: string; peerIp: string }) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${edge("edge-a")}${edge("edge-b")}
vpns:${
  v === undefined
    ? " {}"
    : `
  branch:
    virtualDeviceUuid: \${devices.${v.device}.uuid}
    siteName: branch
    configName: ${v.configName}
    peerIp: ${v.peerIp}
    peerSharedKey: \${secret.BRANCH_PSK}
    remoteAsn: 65100
    remoteIpAddress: 169.254.10.2
    localAsn: 65000
    tunnelIp: 169.254.10.1/30
    useNetworkServiceConnection: false`
}
`;

const vpnPath = (id: string) => `/ne/v1/vpn/${id}`;

const VPNS: Lifecycle = {
  address: "vpns.branch",
  speed: 2000,
  env: { BRANCH_PSK: PSK },
  secrets: [PSK, ROTATED_PSK],
  create: {
    config: vpn({ device: "edge-a", configName: "branch-tunnel", peerIp: "203.0.113.10" }),
    added: 3,
    shows: (ids) => [
      [
        vpnPath(ids("vpns.branch")),
        {
          uuid: ids("vpns.branch"),
          virtualDeviceUuid: ids("devices.edge-a"),
          siteName: "branch",
          configName: "branch-tunnel",
          peerIp: "203.0.113.10",
          remoteAsn: numeric(65100),
          remoteIpAddress: "169.254.10.2",
          localAsn: numeric(65000),
          tunnelIp: "169.254.10.1/30",
          status: "PROVISIONED",
        },
      ],
    ],
    // The state holds the pre-shared key's hash only.
    recorded: () => ({ sensitiveHashes: { peerSharedKey: expect.any(String) } }),
  },
  drift: {
    make: portalEdit("vpns.branch", { configName: "edited-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "configName", before: "branch-tunnel", after: "edited-in-portal" }],
  },
  updates: [
    {
      // One PUT of the whole configuration.
      config: vpn({ device: "edge-a", configName: "branch-tunnel-v2", peerIp: "203.0.113.20" }),
      plan: [/~ configName\s+= "branch-tunnel" -> "branch-tunnel-v2"/, /~ peerIp\s+= "203\.0\.113\.10" -> "203\.0\.113\.20"/],
      calls: (ids) => [`PUT ${vpnPath(ids("vpns.branch"))} 202`],
      shows: (ids) => [[vpnPath(ids("vpns.branch")), { configName: "branch-tunnel-v2", peerIp: "203.0.113.20", status: "PROVISIONED" }]],
    },
    {
      // A new pre-shared key is a change although the state holds only its hash; it is sent, never shown.
      env: { BRANCH_PSK: ROTATED_PSK },
      plan: [/~ peerSharedKey\s+= \(sensitive\)/],
      calls: (ids) => [`PUT ${vpnPath(ids("vpns.branch"))} 202`],
      shows: (ids) => [["/__sim/objects?kind=vpns", { data: expect.arrayContaining([expect.objectContaining({ uuid: ids("vpns.branch"), peerSharedKey: ROTATED_PSK, configName: "branch-tunnel-v2" })]) }]],
    },
  ],
  replaces: [
    {
      // The service refuses to move a VPN between devices.
      config: vpn({ device: "edge-b", configName: "branch-tunnel-v2", peerIp: "203.0.113.20" }),
      because: "virtualDeviceUuid cannot change in place",
      shows: (ids) => [[vpnPath(ids("vpns.branch")), { virtualDeviceUuid: ids("devices.edge-b"), configName: "branch-tunnel-v2", status: "PROVISIONED" }]],
    },
  ],
  delete: {
    config: vpn(),
    calls: (was) => [`DELETE ${vpnPath(was("vpns.branch"))} 202`],
  },
  path: vpnPath,
  gone: (res) => res.status === 404 || res.body.status === "DEPROVISIONED",
  live: (v) => v.status !== "DEPROVISIONED",
};

// ── route aggregations ────────────────────────────────────────────────────────────────────────

const routeAggregation = (type: string, name: string, description: string) => `${CONFIG_HEADER}routeAggregations:
  summary:
    type: ${type}
    name: ${name}
    description: ${description}
`;

const aggregationPath = (id: string) => `/fabric/v4/routeAggregations/${id}`;

const ROUTE_AGGREGATIONS: Lifecycle = {
  address: "routeAggregations.summary",
  speed: 500,
  create: {
    config: routeAggregation("BGP_IPv4_PREFIX_AGGREGATION", "summary", "first"),
    added: 1,
    shows: (ids) => [
      [
        aggregationPath(ids("routeAggregations.summary")),
        { uuid: ids("routeAggregations.summary"), name: "summary", description: "first", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_AGGREGATION", project: { projectId: PROJECT }, rulesCount: 0, connectionsCount: 0 },
      ],
    ],
  },
  drift: {
    make: portalEdit("routeAggregations.summary", { description: "edited in the portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "description", before: "first", after: "edited in the portal" }],
  },
  updates: [
    {
      // Name and description in one PATCH.
      config: routeAggregation("BGP_IPv4_PREFIX_AGGREGATION", "summary-v2", "second"),
      plan: [/~ name\s+= "summary" -> "summary-v2"/, /~ description\s+= "first" -> "second"/],
      calls: (ids) => [`PATCH ${aggregationPath(ids("routeAggregations.summary"))} 202`],
      shows: (ids) => [[aggregationPath(ids("routeAggregations.summary")), { name: "summary-v2", description: "second", state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      config: routeAggregation("BGP_IPv6_PREFIX_AGGREGATION", "summary-v2", "second"),
      because: "type cannot change in place",
      shows: (ids) => [[aggregationPath(ids("routeAggregations.summary")), { type: "BGP_IPv6_PREFIX_AGGREGATION", name: "summary-v2", state: "PROVISIONED" }]],
    },
  ],
  delete: {
    config: `${CONFIG_HEADER}routeAggregations: {}\n`,
    calls: (was) => [`DELETE ${aggregationPath(was("routeAggregations.summary"))} 202`],
  },
  path: aggregationPath,
  gone: (res) => res.body.state === "DEPROVISIONED",
  live: (a) => a.state !== "DEPROVISIONED",
};

// ── route aggregation rules ───────────────────────────────────────────────────────────────────

type AggregationName = "summary" | "backup";

/** One rule on one of two aggregations; the aggregations the configuration keeps are given when the rule goes with its own. */
const aggregationRule = (rule?: { aggregation: AggregationName; prefix: string }, aggregations: AggregationName[] = ["summary", "backup"]) => `${CONFIG_HEADER}routeAggregations:${aggregations
  .map(
    (name) => `
  ${name}:
    type: BGP_IPv4_PREFIX_AGGREGATION`,
  )
  .join("")}
routeAggregationRules:${
  rule === undefined
    ? " {}"
    : `
  private-10:
    routeAggregation: \${routeAggregations.${rule.aggregation}.uuid}
    prefix: ${rule.prefix}`
}
`;

const PRIVATE = "routeAggregationRules.private-10";
const aggregationRulePath = (aggregation: string, rule: string) => `${aggregationPath(aggregation)}/routeAggregationRules/${rule}`;

const ROUTE_AGGREGATION_RULES: Lifecycle = {
  address: PRIVATE,
  speed: 500,
  create: {
    config: aggregationRule({ aggregation: "summary", prefix: "10.0.0.0/8" }),
    added: 3,
    shows: (ids) => [
      [aggregationRulePath(ids("routeAggregations.summary"), ids(PRIVATE)), { uuid: ids(PRIVATE), name: "private-10", prefix: "10.0.0.0/8", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_AGGREGATION_RULE" }],
      [aggregationPath(ids("routeAggregations.summary")), { rulesCount: 1 }],
    ],
    recorded: (ids) => ({ parent: ids("routeAggregations.summary"), attributes: { prefix: "10.0.0.0/8", state: "PROVISIONED" } }),
  },
  drift: {
    make: portalEdit(PRIVATE, { prefix: "10.0.0.0/12" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "prefix", before: "10.0.0.0/8", after: "10.0.0.0/12" }],
  },
  updates: [
    {
      config: aggregationRule({ aggregation: "summary", prefix: "10.0.0.0/9" }),
      plan: [/~ prefix\s+= "10\.0\.0\.0\/8" -> "10\.0\.0\.0\/9"/],
      calls: (ids) => [`PATCH ${aggregationRulePath(ids("routeAggregations.summary"), ids(PRIVATE))} 202`],
      shows: (ids) => [[aggregationRulePath(ids("routeAggregations.summary"), ids(PRIVATE)), { prefix: "10.0.0.0/9", state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      // The service has no move between aggregations.
      config: aggregationRule({ aggregation: "backup", prefix: "10.0.0.0/9" }),
      because: "routeAggregation cannot change in place",
      shows: (ids) => [
        [aggregationRulePath(ids("routeAggregations.backup"), ids(PRIVATE)), { prefix: "10.0.0.0/9", state: "PROVISIONED" }],
        [aggregationPath(ids("routeAggregations.summary")), { rulesCount: 0 }],
        [aggregationPath(ids("routeAggregations.backup")), { rulesCount: 1 }],
      ],
      recorded: (ids) => ({ parent: ids("routeAggregations.backup") }),
    },
  ],
  delete: {
    // With its aggregation: the aggregation's DELETE takes its rules, and the rule has no call of its own.
    config: aggregationRule(undefined, ["summary"]),
    deleted: [PRIVATE, "routeAggregations.backup"],
    calls: (was) => [`DELETE ${aggregationPath(was("routeAggregations.backup"))} 202`],
    shows: (ids) => [[aggregationPath(ids("routeAggregations.summary")), { state: "PROVISIONED", rulesCount: 0 }]],
  },
  path: (id, _ids, aggregation) => aggregationRulePath(recordedParent(aggregation), id),
  gone: (res) => res.body.state === "DEPROVISIONED",
  live: (r) => r.state !== "DEPROVISIONED",
};

// ── route aggregation attachments ─────────────────────────────────────────────────────────────

/** Two aggregations and one connection; the attachment applies one of them (an attachment has nothing to change in place). */
const summarised = (aggregation?: "primary" | "alternate") => `${CONFIG_HEADER}routeAggregations:
  primary:
    type: BGP_IPv4_PREFIX_AGGREGATION
  alternate:
    type: BGP_IPv4_PREFIX_AGGREGATION
connections:
${portConnectionYaml("summarised", { aPort: PORTS.svPrimary, vlanA: 2401, zPort: PORTS.svSecondary, vlanZ: 2402 })}routeAggregationAttachments:${
  aggregation === undefined
    ? " {}"
    : `
  summarised-edge:
    connection: \${connections.summarised.uuid}
    routeAggregation: \${routeAggregations.${aggregation}.uuid}`
}
`;

const SUMMARISED = "routeAggregationAttachments.summarised-edge";
const aggregationAttachmentPath = (id: string, ids: Ids) => `/fabric/v4/connections/${ids("connections.summarised")}/routeAggregations/${id}`;

const ROUTE_AGGREGATION_ATTACHMENTS: Lifecycle = {
  address: SUMMARISED,
  speed: 500,
  create: {
    config: summarised("primary"),
    added: 4,
    shows: (ids) => [
      [aggregationAttachmentPath(ids(SUMMARISED), ids), { uuid: ids("routeAggregations.primary"), type: "BGP_IPv4_PREFIX_AGGREGATION", attachmentStatus: ATTACHED }],
      [aggregationPath(ids("routeAggregations.primary")), { connectionsCount: 1 }],
    ],
    // The service names an attachment by its connection and its aggregation: the id is the aggregation's uuid.
    recorded: (ids) => ({ id: ids("routeAggregations.primary"), parent: ids("connections.summarised") }),
  },
  drift: {
    // Detached through the API by someone else: the report names the API's user.
    make: detachedBy((ids) => aggregationAttachmentPath(ids(SUMMARISED), ids)),
    status: "deleted",
    changedBy: "demo-user",
  },
  updates: [],
  replaces: [
    {
      // The service applies one aggregation to a connection: a detach, then the new attach.
      config: summarised("alternate"),
      because: "routeAggregation cannot change in place",
      shows: (ids) => [
        [aggregationAttachmentPath(ids(SUMMARISED), ids), { uuid: ids("routeAggregations.alternate"), attachmentStatus: ATTACHED }],
        [aggregationPath(ids("routeAggregations.primary")), { connectionsCount: 0 }],
        [aggregationPath(ids("routeAggregations.alternate")), { connectionsCount: 1 }],
      ],
      recorded: (ids) => ({ id: ids("routeAggregations.alternate") }),
    },
  ],
  delete: {
    config: summarised(),
    calls: (was) => [`DELETE ${aggregationAttachmentPath(was(SUMMARISED), was)} 202`],
    shows: (ids) => [[aggregationPath(ids("routeAggregations.alternate")), { connectionsCount: 0 }]],
  },
  path: aggregationAttachmentPath,
  gone: (res) => res.status === 404 || res.body.attachmentStatus === "DETACHED",
  live: (a) => a.attachmentStatus !== "DETACHED",
};

// ── cloud routers, networks, service tokens ──────────────────────────────────────────────────

/** The router, network and token every world starts with: in service, never in a state. */
const SEEDED = new Set<unknown>(Object.values(SEEDED_ENDPOINTS).map((e) => e.uuid));

const cloudRouter = (r?: { name: string; packageCode: string; metroCode: string; email: string }) => `${CONFIG_HEADER}cloudRouters:${
  r === undefined
    ? " {}"
    : `
  edge:
    name: ${r.name}
    location: { metroCode: ${r.metroCode} }
    package: { code: ${r.packageCode} }
    notifications: [{ type: ALL, emails: [${r.email}] }]`
}
`;

const routerPath = (id: string) => `/fabric/v4/routers/${id}`;

const CLOUD_ROUTERS: Lifecycle = {
  address: "cloudRouters.edge",
  speed: 1000,
  create: {
    config: cloudRouter({ name: "fcr-edge", packageCode: "LAB", metroCode: "DC", email: "noc@example.com" }),
    added: 1,
    shows: (ids) => [[routerPath(ids("cloudRouters.edge")), { name: "fcr-edge", type: "XF_ROUTER", state: "PROVISIONED", package: { code: "LAB" }, location: { metroCode: "DC" }, project: { projectId: PROJECT }, account: { accountNumber: ACCOUNT } }]],
  },
  drift: {
    make: portalEdit("cloudRouters.edge", { name: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "name", before: "fcr-edge", after: "renamed-in-portal" }],
  },
  updates: [
    {
      // Name, package and notifications: one PATCH of the three paths.
      config: cloudRouter({ name: "fcr-edge-2", packageCode: "STANDARD", metroCode: "DC", email: "ops@example.com" }),
      plan: [/~ name\s+= "fcr-edge" -> "fcr-edge-2"/, /~ package\.code\s+= "LAB" -> "STANDARD"/],
      calls: (ids) => [`PATCH ${routerPath(ids("cloudRouters.edge"))} 200`],
      shows: (ids) => [[routerPath(ids("cloudRouters.edge")), { name: "fcr-edge-2", package: { code: "STANDARD" }, notifications: [{ emails: ["ops@example.com"] }], state: "PROVISIONED" }]],
    },
  ],
  replaces: [
    {
      config: cloudRouter({ name: "fcr-edge-2", packageCode: "STANDARD", metroCode: "SV", email: "ops@example.com" }),
      because: "location.metroCode cannot change in place",
      shows: (ids) => [[routerPath(ids("cloudRouters.edge")), { location: { metroCode: "SV" }, state: "PROVISIONED" }]],
    },
  ],
  delete: {
    config: cloudRouter(),
    calls: (was) => [`DELETE ${routerPath(was("cloudRouters.edge"))} 204`],
  },
  path: routerPath,
  gone: (res) => res.status === 404 || res.body.state === "DEPROVISIONED",
  live: (r) => r.state !== "DEPROVISIONED" && !SEEDED.has(r.uuid),
  objects: "routers",
};

const network = (n?: { name: string; scope: "GLOBAL" | "REGIONAL"; email: string }) => `${CONFIG_HEADER}networks:${
  n === undefined
    ? " {}"
    : `
  lan:
    type: EVPLAN
    name: ${n.name}
    scope: ${n.scope}${n.scope === "REGIONAL" ? "\n    location: { region: AMER }" : ""}
    notifications: [{ type: ALL, emails: [${n.email}] }]`
}
`;

const networkPath = (id: string) => `/fabric/v4/networks/${id}`;

const NETWORKS: Lifecycle = {
  address: "networks.lan",
  speed: 1000,
  create: {
    config: network({ name: "branch-lan", scope: "GLOBAL", email: "noc@example.com" }),
    added: 1,
    shows: (ids) => [[networkPath(ids("networks.lan")), { name: "branch-lan", type: "EVPLAN", scope: "GLOBAL", state: "ACTIVE", operation: { equinixStatus: "PROVISIONED" }, project: { projectId: PROJECT } }]],
  },
  drift: {
    make: portalEdit("networks.lan", { name: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "name", before: "branch-lan", after: "renamed-in-portal" }],
  },
  updates: [
    {
      config: network({ name: "branch-lan-2", scope: "GLOBAL", email: "ops@example.com" }),
      plan: [/~ name\s+= "branch-lan" -> "branch-lan-2"/],
      calls: (ids) => [`PATCH ${networkPath(ids("networks.lan"))} 200`],
      shows: (ids) => [[networkPath(ids("networks.lan")), { name: "branch-lan-2", notifications: [{ emails: ["ops@example.com"] }], state: "ACTIVE" }]],
    },
  ],
  replaces: [
    {
      config: network({ name: "branch-lan-2", scope: "REGIONAL", email: "ops@example.com" }),
      // A GLOBAL network's answer has no location: the region is not a second reason, only not returned.
      because: "scope cannot change in place",
      shows: (ids) => [[networkPath(ids("networks.lan")), { scope: "REGIONAL", location: { region: "AMER" }, state: "ACTIVE" }]],
    },
  ],
  delete: {
    config: network(),
    calls: (was) => [`DELETE ${networkPath(was("networks.lan"))} 202`],
  },
  path: networkPath,
  gone: (res) => res.status === 404 || res.body.state === "DELETED",
  live: (n) => n.state !== "DELETED" && !SEEDED.has(n.uuid),
};

const serviceToken = (k?: { description: string; expiry: string; bandwidths: string; vlanTag: number }) => `${CONFIG_HEADER}serviceTokens:${
  k === undefined
    ? " {}"
    : `
  partner:
    description: ${k.description}
    expirationDateTime: ${k.expiry}
    connection:
      type: EVPL_VC
      supportedBandwidths: [${k.bandwidths}]
      zSide:
        accessPointSelectors:
          - type: COLO
            port: { uuid: ${PORTS.dcSecondary} }
            linkProtocol: { type: DOT1Q, vlanTag: ${k.vlanTag} }
    notifications: [{ type: ALL, emails: [noc@example.com] }]`
}
`;

const tokenPath = (id: string) => `/fabric/v4/serviceTokens/${id}`;

const SERVICE_TOKENS: Lifecycle = {
  address: "serviceTokens.partner",
  speed: 1000,
  create: {
    config: serviceToken({ description: "for the partner", expiry: "2099-06-30T00:00:00Z", bandwidths: "50, 100", vlanTag: 2701 }),
    added: 1,
    shows: (ids) => [
      [
        tokenPath(ids("serviceTokens.partner")),
        {
          name: "partner",
          type: "VC_TOKEN",
          state: "INACTIVE",
          description: "for the partner",
          expirationDateTime: "2099-06-30T00:00:00.000Z",
          connection: { type: "EVPL_VC", supportedBandwidths: [50, 100], zSide: { accessPointSelectors: [{ type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { vlanTag: 2701 } }] } },
        },
      ],
    ],
  },
  drift: {
    make: portalEdit("serviceTokens.partner", { description: "edited in the portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "description", before: "for the partner", after: "edited in the portal" }],
  },
  updates: [
    {
      // Description, expiry and bandwidths: one PATCH of the three paths.
      config: serviceToken({ description: "renewed", expiry: "2099-12-31T00:00:00Z", bandwidths: "50, 100, 200", vlanTag: 2701 }),
      plan: [/~ description\s+= "for the partner" -> "renewed"/, /~ expirationDateTime\s+= "2099-06-30T00:00:00.000Z" -> "2099-12-31T00:00:00.000Z"/],
      calls: (ids) => [`PATCH ${tokenPath(ids("serviceTokens.partner"))} 200`],
      shows: (ids) => [[tokenPath(ids("serviceTokens.partner")), { description: "renewed", expirationDateTime: "2099-12-31T00:00:00.000Z", connection: { supportedBandwidths: [50, 100, 200] } }]],
    },
  ],
  replaces: [
    {
      config: serviceToken({ description: "renewed", expiry: "2099-12-31T00:00:00Z", bandwidths: "50, 100, 200", vlanTag: 2702 }),
      because: "connection.zSide.accessPointSelectors cannot change in place",
      shows: (ids) => [[tokenPath(ids("serviceTokens.partner")), { state: "INACTIVE", connection: { zSide: { accessPointSelectors: [{ linkProtocol: { vlanTag: 2702 } }] } } }]],
    },
  ],
  delete: {
    config: serviceToken(),
    calls: (was) => [`DELETE ${tokenPath(was("serviceTokens.partner"))} 200`],
  },
  path: tokenPath,
  // The service answers a token it does not have with 400 "Token not found".
  gone: (res) => res.status === 400 || res.body.state === "DELETED",
  live: (k) => k.state !== "DELETED" && !SEEDED.has(k.uuid),
};

// ── network-edge kinds around a device (issue 14) ─────────────────────────────────────────────

/** A provider-configured router in DC, as YAML under `devices:`, with what else it declares. */
const edgeDevice = (name: string, extra = "") => `${edge(name)}${extra}`;

const ACL_RULES = {
  office: "[{ protocol: TCP, subnet: 198.51.100.0/24, dstPort: 22, description: office SSH }]",
  widened: "[{ protocol: TCP, subnet: 198.51.100.0/23, dstPort: 22, description: office SSH }, { protocol: UDP, subnet: 203.0.113.0/24, dstPort: 161 }]",
};

/** The template under test, and a device using it on its WAN interface unless the device is gone. */
const aclTemplate = (rules?: string, withDevice = true) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
aclTemplates:${
  rules === undefined
    ? " {}"
    : `
  office:
    description: who may reach the routers
    inboundRules: ${rules}`
}
devices:${withDevice ? edgeDevice("edge-1", "\n    aclDetails: [{ interfaceType: WAN, uuid: \"${aclTemplates.office.uuid}\" }]") : " {}"}
`;

const templatePath = (id: string) => `/ne/v1/aclTemplates/${id}`;

const ACL_TEMPLATES: Lifecycle = {
  address: "aclTemplates.office",
  speed: 2000,
  create: {
    config: aclTemplate(ACL_RULES.office),
    added: 2,
    shows: (ids) => [
      [
        templatePath(ids("aclTemplates.office")),
        {
          name: "office",
          description: "who may reach the routers",
          // Sources answer as a list, as the real service's do.
          inboundRules: [{ protocol: "TCP", subnets: ["198.51.100.0/24"], srcPort: "any", dstPort: "22", description: "office SSH", seqNo: 1 }],
          virtualDeviceDetails: [{ uuid: ids("devices.edge-1"), interfaceType: "WAN" }],
        },
      ],
      [devicePath(ids("devices.edge-1")), { aclTemplateUuid: ids("aclTemplates.office") }],
    ],
  },
  drift: {
    make: portalEdit("aclTemplates.office", { description: "edited in the portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "description", before: "who may reach the routers", after: "edited in the portal" }],
  },
  updates: [
    {
      // The rules are sent whole, in order: one PUT.
      config: aclTemplate(ACL_RULES.widened),
      plan: ["inboundRules"],
      calls: (ids) => [`PUT ${templatePath(ids("aclTemplates.office"))} 204`],
      shows: (ids) => [[templatePath(ids("aclTemplates.office")), { inboundRules: [{ subnets: ["198.51.100.0/23"], seqNo: 1 }, { protocol: "UDP", subnets: ["203.0.113.0/24"], srcPort: "any", dstPort: "161", seqNo: 2 }] }]],
    },
  ],
  // Every field changes in place.
  replaces: [],
  delete: {
    // The service refuses to delete a template a device uses: the device goes first.
    config: aclTemplate(undefined, false),
    deleted: ["aclTemplates.office", "devices.edge-1"],
    calls: (was) => [`DELETE ${devicePath(was("devices.edge-1"))} 204`, `DELETE ${templatePath(was("aclTemplates.office"))} 204`],
  },
  path: templatePath,
  gone: (res) => res.status === 404,
  live: () => true,
};

const KEYS = {
  first: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC5kHcagDZ7utPan4DHWUvoJxwz/DISRFwZdpMhslhZRI+6dGOC8mJn42SlSUAUtkt8Qyl4HipPK7Xh6oGj70Iba1a9pDcURYTYcqWFBEhcdDsMnH1CICmvVdsILehFtiS3X0J1JhwmWQI/7ll3QOk8fLgWCz3idlYJqtMs8Gz/6Q== ops@example.com",
  rotated: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC5kHcagDZ7utPan4DHWUvoJ0ZppmhIHgZDLMl76AIDHtXgLjnY8mJn42SlSUAUtkt8Qyl4HipPK7Xh6oGj70Iba1a9pDcURYTYcqWFBEhcdDsMnH1CICmvVdsILehFtiS3X0J1JhwmWQI/7ll3QOk8fLgWCz3idlYJqtMs8Gz/6Q== ops@example.com",
};

const sshKey = (value?: string) => `${CONFIG_HEADER}sshKeys:${
  value === undefined
    ? " {}"
    : `
  ops:
    keyValue: ${value}`
}
`;

/** The seeded key of the demo organisation, which the service had before the test. */
const SEEDED_KEY = "demo-key";
const keyListed = (uuid: string, keyValue: string): Reading => ["/ne/v1/publicKeys", expect.arrayContaining([expect.objectContaining({ uuid, keyName: "ops", keyValue, keyType: "RSA" })])];

const SSH_KEYS: Lifecycle = {
  address: "sshKeys.ops",
  speed: 500,
  create: {
    config: sshKey(KEYS.first),
    added: 1,
    shows: (ids) => [keyListed(ids("sshKeys.ops"), KEYS.first)],
  },
  updates: [],
  replaces: [
    {
      // No update call: a new key, and the old one deleted.
      config: sshKey(KEYS.rotated),
      because: "keyValue cannot change in place",
      shows: (ids) => [keyListed(ids("sshKeys.ops"), KEYS.rotated)],
    },
  ],
  delete: {
    config: sshKey(),
    calls: (was) => [`DELETE /ne/v1/publicKeys/${was("sshKeys.ops")} 204`],
  },
  path: (id) => `/ne/v1/publicKeys/${id}`,
  gone: (res) => res.status === 404,
  objects: "publicKeys",
  live: (k) => k.keyName !== SEEDED_KEY,
};

// ── SSH users ─────────────────────────────────────────────────────────────────────────────────

const USER_PASSWORD = "e2e-user-Pw1";
const ROTATED_USER_PASSWORD = "e2e-user-Pw2";

/** An SSH user on one or both of two provisioned devices. */
const sshUser = (u?: { username: string; devices: Array<"edge-a" | "edge-b"> }) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${edge("edge-a")}${edge("edge-b")}
sshUsers:${
  u === undefined
    ? " {}"
    : `
  ops:
    username: ${u.username}
    password: \${secret.USER_PASSWORD}
    deviceUuids: [${u.devices.map((d) => `"\${devices.${d}.uuid}"`).join(", ")}]`
}
`;

const userPath = (id: string) => `/ne/v1/sshUsers/${id}`;

const SSH_USERS: Lifecycle = {
  address: "sshUsers.ops",
  speed: 2000,
  env: { USER_PASSWORD },
  secrets: [USER_PASSWORD, ROTATED_USER_PASSWORD],
  create: {
    config: sshUser({ username: "netops", devices: ["edge-a"] }),
    added: 3,
    shows: (ids) => [[userPath(ids("sshUsers.ops")), { username: "netops", deviceUuids: [ids("devices.edge-a")], metroStatusMap: { DC: { status: "ACTIVE" } } }]],
    recorded: () => ({ sensitiveHashes: { password: expect.any(String) } }),
  },
  // The service never returns the password: an imported user's is sent again.
  imported: { plan: [/~ password\s+= \(sensitive\)/] },
  // The user put on another device in the portal; apply takes it off again.
  drift: {
    make: (t, ids) => t.call("PATCH", `/__sim/objects/${ids("sshUsers.ops")}`, { body: { deviceUuids: [ids("devices.edge-a"), ids("devices.edge-b")] } }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "deviceUuids", before: expect.any(Array), after: expect.toSatisfy((v: unknown) => Array.isArray(v) && v.length === 2) }],
  },
  updates: [
    {
      env: { USER_PASSWORD: ROTATED_USER_PASSWORD },
      plan: [/~ password\s+= \(sensitive\)/],
      calls: (ids) => [`PUT ${userPath(ids("sshUsers.ops"))} 204`],
      shows: (ids) => [[userPath(ids("sshUsers.ops")), { deviceUuids: [ids("devices.edge-a")] }]],
    },
    {
      config: sshUser({ username: "netops", devices: ["edge-b", "edge-a"] }),
      plan: ["deviceUuids"],
      calls: (ids) => [`POST ${userPath(ids("sshUsers.ops"))}/devices/${ids("devices.edge-b")} 201`],
      shows: (ids) => [[userPath(ids("sshUsers.ops")), { deviceUuids: sameMembers([ids("devices.edge-a"), ids("devices.edge-b")]) }]],
    },
  ],
  replaces: [
    {
      config: sshUser({ username: "netops2", devices: ["edge-b", "edge-a"] }),
      because: "username cannot change in place",
      shows: (ids) => [[userPath(ids("sshUsers.ops")), { username: "netops2", deviceUuids: sameMembers([ids("devices.edge-a"), ids("devices.edge-b")]) }]],
    },
  ],
  delete: {
    config: sshUser(),
    calls: (was) => [`DELETE ${userPath(was("sshUsers.ops"))}/devices/${was("devices.edge-a")} 200`, `DELETE ${userPath(was("sshUsers.ops"))}/devices/${was("devices.edge-b")} 200`].sort(),
  },
  path: userPath,
  gone: (res) => res.status === 404,
  live: (u) => Array.isArray(u.deviceUuids) && u.deviceUuids.length > 0,
};

const link = (l?: { name: string; subnet: string }) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${edge("edge-a")}${edge("edge-b")}
deviceLinks:${
  l === undefined
    ? " {}"
    : `
  ha:
    groupName: ${l.name}
    subnet: ${l.subnet}
    linkDevices:
      - { deviceUuid: "\${devices.edge-a.uuid}", asn: 65001, interfaceId: 5 }
      - { deviceUuid: "\${devices.edge-b.uuid}", asn: 65002, interfaceId: 5 }`
}
`;

const linkPath = (id: string) => `/ne/v1/links/${id}`;

const DEVICE_LINKS: Lifecycle = {
  address: "deviceLinks.ha",
  speed: 2000,
  create: {
    config: link({ name: "ha-link", subnet: "192.168.40.0/29" }),
    added: 3,
    shows: (ids) => [
      [
        linkPath(ids("deviceLinks.ha")),
        {
          groupName: "ha-link",
          subnet: "192.168.40.0/29",
          status: "PROVISIONED",
          linkDevices: [
            { deviceUuid: ids("devices.edge-a"), asn: 65001, interfaceId: 5, ipAssigned: "192.168.40.1/29" },
            { deviceUuid: ids("devices.edge-b"), asn: 65002, interfaceId: 5, ipAssigned: "192.168.40.2/29" },
          ],
        },
      ],
    ],
  },
  drift: {
    make: portalEdit("deviceLinks.ha", { groupName: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "groupName", before: "ha-link", after: "renamed-in-portal" }],
  },
  updates: [
    {
      config: link({ name: "ha-link-2", subnet: "192.168.41.0/29" }),
      plan: [/~ groupName\s+= "ha-link" -> "ha-link-2"/, /~ subnet\s+= "192\.168\.40\.0\/29" -> "192\.168\.41\.0\/29"/],
      calls: (ids) => [`PATCH ${linkPath(ids("deviceLinks.ha"))} 204`],
      shows: (ids) => [[linkPath(ids("deviceLinks.ha")), { groupName: "ha-link-2", status: "PROVISIONED", linkDevices: [{ ipAssigned: "192.168.41.1/29" }, { ipAssigned: "192.168.41.2/29" }] }]],
    },
  ],
  // Every field changes in place.
  replaces: [],
  delete: {
    config: link(),
    calls: (was) => [`DELETE ${linkPath(was("deviceLinks.ha"))} 204`],
  },
  path: linkPath,
  gone: (res) => res.status === 404,
  live: (g) => g.status !== "DEPROVISIONED",
};

const BGP_KEY = "e2e-bgp-md5-key-41c2";
const ROTATED_BGP_KEY = "e2e-bgp-md5-key-rotated-77e9";

/** A connection from the device to a DC port, on one of the device's interfaces. */
const deviceConnection = (name: string, interfaceId: number, port: string, vlan: number) => `
  ${name}:
    type: EVPL_VC
    bandwidth: 50
    aSide:
      accessPoint:
        type: VD
        virtualDevice: { type: EDGE, uuid: "\${devices.edge-1.uuid}" }
        interface: { type: NETWORK, id: ${interfaceId} }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${port} }
        linkProtocol: { type: DOT1Q, vlanTag: ${vlan} }
    notifications: [{ type: ALL, emails: [netops@example.com] }]`;

const peering = (p?: { connection: "to-dc-a" | "to-dc-b"; remoteAsn: number }) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:${edge("edge-1")}
connections:${deviceConnection("to-dc-a", 3, PORTS.dcPrimary, 3101)}${deviceConnection("to-dc-b", 4, PORTS.dcSecondary, 3102)}
bgpPeerings:${
  p === undefined
    ? " {}"
    : `
  upstream:
    connectionUuid: \${connections.${p.connection}.uuid}
    localIpAddress: 100.210.1.221/30
    localAsn: 65010
    remoteIpAddress: 100.210.1.222
    remoteAsn: ${p.remoteAsn}
    authenticationKey: \${secret.BGP_KEY}`
}
`;

const peeringPath = (id: string) => `/ne/v1/bgp/${id}`;

const BGP_PEERINGS: Lifecycle = {
  address: "bgpPeerings.upstream",
  speed: 2000,
  env: { BGP_KEY },
  secrets: [BGP_KEY, ROTATED_BGP_KEY],
  // The service returns the key, so an import with the same key plans clean: nothing to send.
  create: {
    config: peering({ connection: "to-dc-a", remoteAsn: 65020 }),
    added: 4,
    shows: (ids) => [
      [
        peeringPath(ids("bgpPeerings.upstream")),
        { connectionUuid: ids("connections.to-dc-a"), virtualDeviceUuid: ids("devices.edge-1"), localIpAddress: "100.210.1.221/30", remoteAsn: 65020, provisioningStatus: "PROVISIONED", state: "Established" },
      ],
    ],
    recorded: () => ({ sensitiveHashes: { authenticationKey: expect.any(String) } }),
  },
  updates: [
    {
      config: peering({ connection: "to-dc-a", remoteAsn: 65030 }),
      plan: [/~ remoteAsn\s+= 65020 -> 65030/],
      calls: (ids) => [`PUT ${peeringPath(ids("bgpPeerings.upstream"))} 202`],
      shows: (ids) => [[peeringPath(ids("bgpPeerings.upstream")), { remoteAsn: 65030, provisioningStatus: "PROVISIONED" }]],
    },
    {
      // A new key is a change although the state holds only its hash; it is sent, never shown.
      env: { BGP_KEY: ROTATED_BGP_KEY },
      plan: [/~ authenticationKey\s+= \(sensitive\)/],
      calls: (ids) => [`PUT ${peeringPath(ids("bgpPeerings.upstream"))} 202`],
      shows: (ids) => [[peeringPath(ids("bgpPeerings.upstream")), { authenticationKey: ROTATED_BGP_KEY }]],
    },
  ],
  replaces: [
    {
      config: peering({ connection: "to-dc-b", remoteAsn: 65030 }),
      because: "connectionUuid cannot change in place; the service has no delete for BGP peerings",
      shows: (ids) => [[peeringPath(ids("bgpPeerings.upstream")), { connectionUuid: ids("connections.to-dc-b"), provisioningStatus: "PROVISIONED" }]],
    },
  ],
  delete: {
    config: peering(),
    calls: () => [],
  },
  keptByService: true,
  live: (p) => p.provisioningStatus !== "DEPROVISIONED",
};

const CLOUD_INIT = "#cloud-config\nhostname: edge-e2e-9f3a\n";
const EDITED_CLOUD_INIT = "#cloud-config\nhostname: edge-e2e-edited-51c7\n";

const upload = (declared = true, metroCode = "DC") => `${CONFIG_HEADER}files:${
  declared
    ? `
  init:
    content: \${secret.CLOUD_INIT}
    deviceTypeCode: C8000V
    metroCode: ${metroCode}
    processType: CLOUD_INIT`
    : " {}"
}
`;

/** The upload as the service reads it back (its own GET), named as the configuration names it. */
const uploaded = (id: string, metroCode = "DC"): Reading => [`/ne/v1/files/${id}`, { uuid: id, fileName: "init", deviceTypeCode: "C8000V", metroCode, processType: "CLOUD_INIT", status: "UPLOADED" }];

const FILES: Lifecycle = {
  address: "files.init",
  speed: 500,
  env: { CLOUD_INIT },
  secrets: [CLOUD_INIT, EDITED_CLOUD_INIT],
  create: {
    config: upload(),
    added: 1,
    shows: (ids) => [uploaded(ids("files.init"))],
    // The state holds the content's hash only.
    recorded: () => ({ sensitiveHashes: { content: expect.any(String) } }),
  },
  updates: [],
  replaces: [
    {
      // An edited file is a new upload; the service keeps the old one.
      env: { CLOUD_INIT: EDITED_CLOUD_INIT },
      because: "content cannot change in place; the service has no delete for uploaded files: netform forgets the upload, and the service keeps it",
      shows: (ids) => [uploaded(ids("files.init"))],
    },
    {
      // What the upload is for is read back and compared: another metro is another upload.
      config: upload(true, "SV"),
      because: "metroCode cannot change in place; the service has no delete for uploaded files",
      shows: (ids) => [uploaded(ids("files.init"), "SV")],
    },
  ],
  delete: {
    config: upload(false),
    calls: () => [],
  },
  keptByService: true,
  live: () => true,
};

// ── ports ─────────────────────────────────────────────────────────────────────────────────────

const portOrder = (p?: { name: string; metroCode: string; ibx: string; encapsulation: string }) => `${CONFIG_HEADER}ports:${
  p === undefined
    ? " {}"
    : `
  lab:
    name: ${p.name}
    physicalPortsSpeed: 10000
    physicalPortsType: 10GBASE_LR
    connectivitySourceType: COLO
    location: { metroCode: ${p.metroCode} }
    demarcationPointIbx: ${p.ibx}
    encapsulation: { type: ${p.encapsulation} }
    notifications: [{ type: TECHNICAL, registeredUsers: [noc-user] }]
    account: { accountNumber: ${ACCOUNT} }`
}
`;

const portPath = (id: string) => `/fabric/v4/ports/${id}`;
/** The ports every world starts with (their uuids start so): in service, never in a state. */
const isSeededPort = (port: Obj) => String(port.uuid).startsWith("c791f8cb-");

const PORT_ORDERS: Lifecycle = {
  address: "ports.lab",
  // A port takes days on the real service, and netform first looks after its typical time: the command
  // line polls a hundred-millionth as long, and the simulator runs fast enough to have built the port by then.
  speed: 100_000,
  env: { NETFORM_POLL_INTERVAL_MS: "0.00001" },
  create: {
    config: portOrder({ name: "lab-port", metroCode: "DC", ibx: "DC6", encapsulation: "DOT1Q" }),
    added: 1,
    shows: (ids) => [
      [
        portPath(ids("ports.lab")),
        {
          name: "lab-port",
          type: "XF_PORT",
          state: "ACTIVE",
          physicalPortsSpeed: 10000,
          location: { metroCode: "DC" },
          demarcationPointIbx: "DC6",
          encapsulation: { type: "DOT1Q", tagProtocolId: "0x8100" },
          notifications: expect.arrayContaining([{ type: "ESCALATION", registeredUsers: ["noc-user"] }]),
          project: { projectId: PROJECT },
          account: { accountNumber: ACCOUNT },
        },
      ],
    ],
  },
  drift: {
    make: portalEdit("ports.lab", { name: "renamed-in-portal" }),
    status: "changed",
    changedBy: "portal-user",
    fields: [{ path: "name", before: "lab-port", after: "renamed-in-portal" }],
  },
  updates: [
    {
      // Name and encapsulation: one PATCH of the two paths.
      config: portOrder({ name: "lab-port-2", metroCode: "DC", ibx: "DC6", encapsulation: "QINQ" }),
      plan: [/~ name\s+= "lab-port" -> "lab-port-2"/, /~ encapsulation\.type\s+= "DOT1Q" -> "QINQ"/],
      calls: (ids) => [`PATCH ${portPath(ids("ports.lab"))} 202`],
      shows: (ids) => [[portPath(ids("ports.lab")), { name: "lab-port-2", encapsulation: { type: "QINQ", tagProtocolId: "0x88A8" }, state: "ACTIVE" }]],
    },
  ],
  replaces: [
    {
      config: portOrder({ name: "lab-port-2", metroCode: "SV", ibx: "SV5", encapsulation: "QINQ" }),
      because: "location.metroCode, demarcationPointIbx cannot change in place",
      shows: (ids) => [[portPath(ids("ports.lab")), { location: { metroCode: "SV" }, demarcationPointIbx: "SV5", state: "ACTIVE" }]],
    },
  ],
  delete: {
    config: portOrder(),
    calls: (was) => [`DELETE ${portPath(was("ports.lab"))} 202`],
  },
  path: portPath,
  gone: (res) => res.status === 404 || res.body.state === "DEPROVISIONED",
  live: (p) => p.state !== "DEPROVISIONED" && !isSeededPort(p),
};

/** The table: a row for every kind, so that a new kind cannot go without one. */
const LIFECYCLES: Record<Kind, Lifecycle> = {
  routeFilters: ROUTE_FILTERS,
  routeFilterRules: ROUTE_FILTER_RULES,
  routeFilterAttachments: ROUTE_FILTER_ATTACHMENTS,
  cloudRouters: CLOUD_ROUTERS,
  ports: PORT_ORDERS,
  networks: NETWORKS,
  serviceTokens: SERVICE_TOKENS,
  connections: CONNECTIONS,
  routingProtocols: ROUTING_PROTOCOLS,
  devices: DEVICES,
  vpns: VPNS,
  routeAggregations: ROUTE_AGGREGATIONS,
  routeAggregationRules: ROUTE_AGGREGATION_RULES,
  routeAggregationAttachments: ROUTE_AGGREGATION_ATTACHMENTS,
  aclTemplates: ACL_TEMPLATES,
  sshKeys: SSH_KEYS,
  sshUsers: SSH_USERS,
  files: FILES,
  deviceLinks: DEVICE_LINKS,
  bgpPeerings: BGP_PEERINGS,
};

// ── the runner ────────────────────────────────────────────────────────────────────────────────

const contains = (text: string, expected: string | RegExp): void => {
  if (typeof expected === "string") expect(text).toContain(expected);
  else expect(text).toMatch(expected);
};

/** What the state records of each address: its kind, id and parent. */
type StateRecords = ReturnType<Workspace["state"]>["resources"];

/** Every address's id in the state now. */
function snapshot(ws: Workspace): Record<string, string> {
  return Object.fromEntries(Object.keys(ws.state().resources).map((address) => [address, idOf(ws, address)]));
}

/** The ids of a snapshot, for the expectations about objects that are no longer in the state. */
const idsOf =
  (was: Record<string, string>): Ids =>
  (address) => {
    const id = was[address];
    if (id === undefined) throw new Error(`${address} was not in the state: ${JSON.stringify(was)}`);
    return id;
  };

/** The mutating calls the service received since the log was cleared: no reads, searches or token requests. */
async function mutations(t: TestSim): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string; status: number }>;
  return changesSent(log).map((r) => `${r.method} ${r.path} ${r.status}`);
}

async function expectShows(t: TestSim, readings: Reading[]): Promise<void> {
  for (const [path, shows] of readings) {
    const res = await t.call("GET", path);
    expect(res.body, `GET ${path} (${res.status})`).toMatchObject(shows);
  }
}

/** Of every kind, the service has in service exactly the objects the state records: nothing left over, nothing missing. */
async function expectServiceHoldsState(t: TestSim, ws: Workspace, kept: ReadonlySet<string> = new Set()): Promise<void> {
  const resources = Object.values(ws.state().resources);
  for (const kind of KINDS) {
    const row = LIFECYCLES[kind];
    const inService = (await objects(t, row.objects ?? kind)).filter(row.live).map((o) => String(o.uuid)).filter((id) => !kept.has(id));
    const recorded = resources.filter((r) => r.kind === kind).map((r) => r.id);
    expect(inService.sort(), `${kind} in service`).toEqual(recorded.sort());
  }
}

async function runLifecycle(t: TestSim, row: Lifecycle): Promise<void> {
  const { address } = row;
  const ws = workspace(row.create.config);
  const ids: Ids = (a) => idOf(ws, a);
  /** The ids of objects forgotten that the service keeps. */
  const kept = new Set<string>();
  let env = { ...row.env };
  const run = async (...args: string[]): Promise<CliResult> => {
    const result = await runner(t, ws, env)(...args);
    for (const secret of row.secrets ?? []) {
      expect(result.stdout + result.stderr, "a secret in the output").not.toContain(secret);
      expect(ws.stateText(), "a secret in the state file").not.toContain(secret);
    }
    return result;
  };
  const expectNoChanges = async (): Promise<void> => {
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes.");
  };
  const edit = (step: { config?: string; env?: Record<string, string> }): void => {
    if (step.config !== undefined) ws.write(step.config);
    env = { ...env, ...step.env };
  };
  /** Asked of the row of the address's own kind, as a delete or a replace may take objects of other kinds with it. */
  const expectGone = async (address: string, was: Ids, records: StateRecords): Promise<void> => {
    const { kind, parent } = records[address]!;
    const kindRow = LIFECYCLES[kind as Kind];
    if ("keptByService" in kindRow) {
      // Forgotten, not deleted: the service still has it, and no longer counts against the state.
      const inService = (await objects(t, kindRow.objects ?? kind)).filter(kindRow.live).map((o) => String(o.uuid));
      expect(inService, `${address} kept by the service`).toContain(was(address));
      kept.add(was(address));
      return;
    }
    const path = kindRow.path(was(address), was, parent);
    const res = await t.call("GET", path);
    expect(kindRow.gone(res), `${path} still in service: ${res.text}`).toBe(true);
  };

  // Create and read back.
  const created = await run("apply", "--auto-approve");
  expect(created.code, out(created)).toBe(0);
  expect(created.stderr).toBe("");
  expect(created.stdout).toContain(`+ ${address}`);
  expect(created.stdout).toContain(`Apply complete! Resources: ${row.create.added} added, 0 changed, 0 replaced, 0 destroyed.`);
  await expectShows(t, row.create.shows(ids));
  if (row.create.recorded) expect(ws.state().resources[address]).toMatchObject(row.create.recorded(ids));
  await expectServiceHoldsState(t, ws, kept);
  await expectNoChanges();

  // Adopted by its id: forgotten by the state, imported back under its address, and nothing to change.
  const adopted = ws.state().resources[address]!;
  const forgotten = await run("state", "rm", address);
  expect(forgotten.code, out(forgotten)).toBe(0);
  const imported = await run("import", address, String(adopted.id));
  expect(imported.code, out(imported)).toBe(0);
  expect(imported.stdout).toContain(`Imported ${address} (${adopted.id})`);
  expect(ws.state().resources[address]).toMatchObject({ kind: adopted.kind, id: adopted.id, ...(adopted.parent === undefined ? {} : { parent: adopted.parent }) });
  if (row.imported) {
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    for (const change of row.imported.plan) contains(plan.stdout, change);
    const settledImport = await run("apply", "--auto-approve");
    expect(settledImport.code, out(settledImport)).toBe(0);
    expect(settledImport.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 replaced, 0 destroyed.");
  }
  await expectNoChanges();

  // Drifted outside netform: reported with its author, put back by the next apply, and no drift after.
  if (row.drift) {
    await row.drift.make(t, ids);
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    expect(JSON.parse(drift.stdout).entries).toEqual([
      expect.objectContaining({ address, status: row.drift.status, changedBy: row.drift.changedBy, fields: row.drift.fields ? expect.arrayContaining(row.drift.fields) : [] }),
    ]);
    const restored = await run("apply", "--auto-approve");
    expect(restored.code, out(restored)).toBe(0);
    const settled = await run("drift");
    expect(settled.code, out(settled)).toBe(0);
    await expectServiceHoldsState(t, ws, kept);
    await expectNoChanges();
  }

  // In place: the same ids, only the calls that change the object.
  for (const update of row.updates) {
    edit(update);
    const before = snapshot(ws);
    const plan = await run("plan", "--detailed-exitcode", ...(update.args ?? []));
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain(`# ${address} will be updated in place`);
    expect(plan.stdout).toContain(`~ ${address}`);
    for (const change of update.plan) contains(plan.stdout, change);
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve", ...(update.args ?? []));
    expect(updated.code, out(updated)).toBe(0);
    expect(updated.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 replaced, 0 destroyed.");
    expect(await mutations(t)).toEqual(update.calls(ids));
    expect(snapshot(ws)).toEqual(before);
    await expectShows(t, update.shows(ids));
    if (update.recorded) expect(ws.state().resources[address]).toMatchObject(update.recorded(ids));
    await expectServiceHoldsState(t, ws, kept);
    await expectNoChanges();
  }

  // Replaced: new ids for what is replaced, the old objects gone, everything else untouched.
  for (const replace of row.replaces) {
    edit(replace);
    const records = ws.state().resources;
    const before = snapshot(ws);
    const replaced = replace.replaced ?? [address];
    const plan = await run("plan", "--detailed-exitcode", ...(replace.args ?? []));
    expect(plan.code, out(plan)).toBe(2);
    for (const a of replaced) {
      expect(plan.stdout).toContain(`# ${a} must be replaced`);
      expect(plan.stdout).toContain(`-/+ ${a}`);
    }
    contains(plan.stdout, replace.because);
    expect(plan.stdout).toContain(`0 to add, 0 to change, ${replaced.length} to replace, 0 to destroy`);
    const applied = await run("apply", "--auto-approve", ...(replace.args ?? []));
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain(`# ${address} must be replaced`);
    contains(applied.stdout, replace.because);
    expect(applied.stdout).toContain(`Apply complete! Resources: 0 added, 0 changed, ${replaced.length} replaced, 0 destroyed.`);
    const after = snapshot(ws);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [a, id] of Object.entries(before)) {
      if (replaced.includes(a)) expect(after[a], `${a} is a new object`).not.toBe(id);
      else expect(after[a], `${a} is the same object`).toBe(id);
    }
    for (const a of replaced) await expectGone(a, idsOf(before), records);
    await expectShows(t, replace.shows(ids));
    if (replace.recorded) expect(ws.state().resources[address]).toMatchObject(replace.recorded(ids));
    await expectServiceHoldsState(t, ws, kept);
    await expectNoChanges();
  }

  // Deleted: gone from the state and from the service, and what it needed left as it was.
  edit(row.delete);
  const records = ws.state().resources;
  const before = snapshot(ws);
  const was = idsOf(before);
  const deleted = row.delete.deleted ?? [address];
  await t.call("DELETE", "/__sim/requests");
  const removed = await run("apply", "--auto-approve");
  expect(removed.code, out(removed)).toBe(0);
  expect(removed.stdout).toContain(`Apply complete! Resources: 0 added, 0 changed, 0 replaced, ${deleted.length} destroyed.`);
  expect(await mutations(t)).toEqual(row.delete.calls(was));
  expect(snapshot(ws)).toEqual(Object.fromEntries(Object.entries(before).filter(([a]) => !deleted.includes(a))));
  for (const a of deleted) await expectGone(a, was, records);
  await expectShows(t, row.delete.shows?.(ids) ?? []);
  await expectServiceHoldsState(t, ws, kept);
  await expectNoChanges();

  // What the resource needed goes too, and nothing of any kind is left in service.
  const remaining = Object.keys(ws.state().resources).length;
  if (remaining > 0) {
    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain(`Destroy complete! Resources: ${remaining} destroyed.`);
  }
  expect(ws.state().resources).toEqual({});
  await expectServiceHoldsState(t, ws, kept);
}

describe("the lifecycle table", () => {
  it("has a row for every kind of the registry", () => {
    expect(Object.keys(LIFECYCLES).sort()).toEqual([...KINDS].sort());
  });

  it("updates in place exactly the kinds that have fields to update in place", () => {
    for (const kind of KINDS) {
      const updatable = Object.keys(KIND_DEFINITIONS.get(kind)!.handler.updatable).length > 0;
      expect(LIFECYCLES[kind].updates.length > 0, `${kind}: updatable ${String(updatable)}`).toBe(updatable);
    }
  });
});

// Each row has its own simulator, reset only before its own test: the rows can run side by side.
describe.concurrent("every kind end to end", () => {
  for (const [kind, row] of Object.entries(LIFECYCLES)) {
    describe(kind, () => {
      const t = useSimulator({ speed: row.speed });
      it("creates, reads back, plans clean, is imported by its id, reports drift with its author, updates in place, replaces, deletes, and the service no longer has it", { timeout: 300_000 }, () => runLifecycle(t, row));
    });
  }
});
