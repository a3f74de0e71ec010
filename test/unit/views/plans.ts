// Hand-built plans and drift reports shared by the JSON, markdown and event view tests: every action
// (replace with and without createBeforeDestroy, import with and without changes), dependencies, unknowns,
// secrets left in clear by mistake, text that needs escaping, and a plan too large for one comment.

import type { DriftEntry, DriftReport } from "../../../src/plan/drift.js";
import { summarize, type Action, type OutputChange, type Plan, type PlanMode, type ReasonCode, type ResourceChange, type Risk } from "../../../src/plan/types.js";

export function plan(changes: ResourceChange[], mode: PlanMode = "normal", extra: Partial<Plan> = {}): Plan {
  return { formatVersion: 1, mode, lineage: "3f0c7c9e-lineage", serial: 7, configHash: "sha256:abc", changes, summary: summarize(changes), requestCount: 12, ...extra };
}

/** The reason code the planner most often gives each action; a fixture names another where it matters. */
export const USUAL_REASON: Readonly<Record<Action, ReasonCode>> = {
  create: "create",
  update: "update",
  replace: "force-new-field",
  delete: "no-longer-configured",
  import: "import",
  forget: "removed-not-destroyed",
  "no-op": "unchanged",
};

export function change(address: string, action: Action, fields: Partial<ResourceChange> = {}): ResourceChange {
  return { address, kind: address.split(".")[0] ?? "", action, reasonCode: USUAL_REASON[action], changes: [], unknown: [], sensitive: [], dependencies: [], ...fields };
}

/** Appears in the secrets scenarios in clear; no rendering may contain it. */
export const SECRET = "hunter2-DO-NOT-PRINT";

export const createConnection = change("connections.dc", "create", {
  reason: "declared but missing",
  after: {
    name: "dc",
    type: "EVPL_VC",
    bandwidth: 100,
    aSide: { accessPoint: { type: "COLO", port: { uuid: "c4d9350e-77c5-7c5d-1ce0-306a5c00a600" }, linkProtocol: { type: "DOT1Q", vlanTag: 1001 } } },
    zSide: { accessPoint: { type: "SP", profile: { uuid: "(known after apply)" }, location: { metroCode: "SV" } } },
    notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  },
  unknown: ["uuid", "zSide.accessPoint.profile.uuid"],
});

export const createFilter = change("routeFilters.x", "create", {
  after: {
    name: "x",
    type: "BGP_IPv4_PREFIX_FILTER",
    // A line that starts with "- " must not be taken for a removed line in a diff.
    description: "Accept the data-centre prefixes.\n- rack A\n+ rack B\n",
    rules: [{ prefix: "192.168.0.0/24", prefixMatch: "exact" }],
  },
  unknown: ["uuid"],
});

export const createAttachment = change("routeFilterAttachments.x-on-dc", "create", {
  after: { direction: "INBOUND", routeFilter: "(known after apply)", connection: "(known after apply)" },
  unknown: ["routeFilter", "connection"],
  dependencies: ["routeFilters.x", "connections.dc"],
});

export const updateFilter = change("routeFilters.y", "update", {
  id: "695a8471-6595-4ac6-a2f4-b3d96ed3a59d",
  changes: [
    { path: "description", before: "old", after: "new" },
    { path: "project", before: { projectId: "p-1", name: "one" }, after: { projectId: "p-2", name: "one" } },
    { path: "revision", before: 3, unknown: true },
    { path: "extra", before: "gone", after: null },
  ],
});

export const replaceConnection = change("connections.y", "replace", {
  id: "a1b2c3d4-0000-4000-8000-000000000001",
  reason: "aSide.accessPoint.port.uuid cannot change in place",
  changes: [
    { path: "aSide.accessPoint.port.uuid", before: "a", after: "b", forcesReplacement: true },
    { path: "bandwidth", before: 50, after: 100 },
  ],
});

export const replaceFirst = change("routingProtocols.bgp", "replace", {
  id: "rp-1",
  reason: "type cannot change in place",
  createBeforeDestroy: true,
  changes: [{ path: "type", before: "DIRECT", after: "BGP", forcesReplacement: true }],
  dependencies: ["connections.y"],
});

export const deleteVpn = change("vpns.z", "delete", {
  id: "vpn-0a1b",
  reason: "no longer in the configuration",
  before: { uuid: "vpn-0a1b", name: "z", type: "IPSEC", peerIp: "198.51.100.7", state: "PROVISIONED" },
  dependencies: ["devices.e"],
});

export const deleteAttachment = change("routeFilterAttachments.a", "delete", { id: "att-1", before: { direction: "INBOUND" } });

export const importWithChanges = change("devices.e", "import", {
  importId: "2f5a7b3c-1d4e-4f60-8a9b-0c1d2e3f4a5b",
  changes: [{ path: "hostname", before: "edge-old", after: "edge-1" }],
});

export const importOnly = change("devices.f", "import", { importId: "9e8d7c6b-5a4f-4321-8fed-cba987654321" });

export const awaiting = change("routingProtocols.b", "no-op", { id: "rp-2", reasonCode: "awaiting-earlier", awaiting: "create", dependencies: ["connections.dc"] });

export const unchanged = change("routeFilters.same", "no-op", { id: "rf-same" });

export const secrets = [
  change("vpns.s", "create", {
    // The engine should have masked these; the views must not trust that it did.
    after: { name: "s", peerIp: "198.51.100.9", authentication: { preSharedKey: SECRET, method: "PSK" }, tunnels: [{ key: SECRET }], token: "(sensitive)", peerSharedKey: SECRET },
    // peerSharedKey is missing here on purpose: the kind declares it secret, which is enough.
    sensitive: ["authentication.preSharedKey", "tunnels[*].key", "token"],
    unknown: ["uuid"],
  }),
  change("routingProtocols.s", "update", {
    id: "rp-s",
    sensitive: ["bgpAuthKey", "md5", "bgpIpv4.md5"],
    changes: [
      { path: "bgpAuthKey", before: `${SECRET}-old`, after: SECRET },
      { path: "flagged", before: `${SECRET}-a`, after: `${SECRET}-b`, sensitive: true },
      { path: "md5", before: null, after: SECRET },
      { path: "bgpIpv4", before: { enabled: false, md5: SECRET }, after: { enabled: true, md5: SECRET } },
    ],
  }),
  change("vpns.t", "delete", { id: "vpn-t", before: { name: SECRET, type: "IPSEC", password: SECRET }, sensitive: ["name"] }),
];

/** Reasons and values with markdown in them: pipes, backticks, mentions, HTML. */
export const escaping = [
  change("connections.pipes", "replace", {
    id: "conn-p",
    reason: "name `a|b` <b>cannot</b> change in place, ask @netops #42",
    changes: [{ path: "name", before: "a|b", after: "```fenced```", forcesReplacement: true }],
  }),
];

/** Enough resources, each with enough attributes, that the comment must be cut. */
export const large = Array.from({ length: 400 }, (_, i) =>
  change(`connections.c${String(i).padStart(3, "0")}`, i % 50 === 0 ? "delete" : "create", {
    ...(i % 50 === 0 ? { id: `conn-${i}`, before: { uuid: `conn-${i}`, name: `c${i}` } } : {}),
    after: i % 50 === 0 ? undefined : Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`field${k}`, `value ${k} of connection ${i}`])),
    unknown: ["uuid"],
    dependencies: i > 0 ? [`connections.c${String(i - 1).padStart(3, "0")}`] : [],
  }),
);

/** One VLAN of a forEach block added with its routing protocol, another removed: instances by key, as Terraform prints them. */
export const forEachChanges: ResourceChange[] = [
  change('connections.vlan["1003"]', "create", {
    after: { name: "vlan-1003", type: "EVPL_VC", bandwidth: 50, aSide: { accessPoint: { type: "COLO", linkProtocol: { type: "DOT1Q", vlanTag: 1003 } } } },
    unknown: ["uuid"],
  }),
  change('routingProtocols.direct["1003"]', "create", {
    after: { type: "DIRECT", connection: "(known after apply)", directIpv4: { equinixIfaceIp: "192.168.3.1/30" } },
    unknown: ["connection"],
    dependencies: ['connections.vlan["1003"]'],
  }),
  change('connections.vlan["1002"]', "no-op", { id: "c-1002" }),
  change('routingProtocols.direct["1001"]', "delete", { id: "rp-1001", reason: "no longer in the configuration", before: { type: "DIRECT" }, dependencies: ['connections.vlan["1001"]'] }),
  change('connections.vlan["1001"]', "delete", { id: "c-1001", reason: "no longer in the configuration", before: { name: "vlan-1001", type: "EVPL_VC" } }),
];

/** A plan with its cost: a create, a resize, a delete, a price in euros, and prices the service could not give. */
const resizeConnection = change("connections.dc", "update", {
  id: "conn-dc",
  before: { name: "dc", type: "EVPL_VC", bandwidth: 50 },
  after: { name: "dc", type: "EVPL_VC", bandwidth: 1000 },
  changes: [{ path: "bandwidth", before: 50, after: 1000 }],
});
const costed = plan([createConnection, resizeConnection, change("cloudRouters.lab", "delete", { id: "fcr-1" }), change("devices.fra", "create"), change("connections.token", "create")], "normal", {
  cost: {
    totals: [
      { currency: "USD", monthlyBefore: 900, monthlyAfter: 2140, delta: 1240 },
      { currency: "EUR", monthlyBefore: 0, monthlyAfter: 488.7, delta: 488.7 },
    ],
    resources: [
      { address: "connections.dc", kind: "connections", action: "update", product: "EVPL_VC 1000 Mbps, DC to DC", metro: "DC", before: [{ currency: "USD", monthly: 150 }], after: [{ currency: "USD", monthly: 2140 }] },
      { address: "cloudRouters.lab", kind: "cloudRouters", action: "delete", product: "STANDARD package, DC", metro: "DC", before: [{ currency: "USD", monthly: 750 }] },
      { address: "devices.fra", kind: "devices", action: "create", product: "C8000V network-essentials, 2 cores, FR", metro: "FR", after: [{ currency: "EUR", monthly: 488.7 }] },
      { address: "connections.token", kind: "connections", action: "create" },
    ],
    unknown: [{ address: "connections.token", side: "after", why: "a connection from a service token is billed to the token's issuer" }],
    requests: 3,
  },
});

/** A network-edge downtime and an IBX maintenance, as the engine reports them (engine/risks.ts). */
export const risks: Risk[] = [
  {
    kind: "downtime",
    severity: "warning",
    message: "network-edge unplanned downtime: Device APIs are down while the platform recovers.",
    window: { start: "2026-03-01T05:00:00Z", end: "2026-03-01T07:00:00Z" },
    impacts: ["Device (down): Create device APIs are currently down.", "VPN (delay): VPN changes are queued."],
  },
  {
    kind: "maintenance",
    severity: "warning",
    message: "IBX_MAINTENANCE 5-210000002: Chiller plant replacement; cooling <redundancy> reduced to N",
    window: { start: "2026-03-01T04:00:00.000Z", end: null },
    impacts: ["DC1 (metro DC)"],
    notice: { id: "1b0c0e11-0000-4000-8000-000000000002", number: "5-210000002", type: "IBX_MAINTENANCE" },
  },
];

/** A `moved:` block alone, a move with an update at the new address, and a `removed:` block with destroy: false. */
export const refactoring: ResourceChange[] = [
  change("routeFilters.renamed", "no-op", { id: "rf-r", previousAddress: "routeFilters.old" }),
  change("routeFilters.edited", "update", { id: "rf-e", previousAddress: "routeFilters.before", changes: [{ path: "description", before: "old", after: "new" }] }),
  change("vpns.handed-over", "forget", { id: "vpn-h", reason: "a removed block with destroy: false: the service keeps it" }),
];

/** Every way an output changes: known, unknown until apply, sensitive, removed. */
export const outputChanges: OutputChange[] = [
  { name: "dc-uuid", action: "create", afterUnknown: true, sensitive: false },
  { name: "label", action: "update", before: "old", after: "new", afterUnknown: false, sensitive: false },
  { name: "ports", action: "create", after: [179, 180], afterUnknown: false, sensitive: false },
  { name: "token", action: "update", afterUnknown: false, sensitive: true },
  { name: "retired", action: "delete", before: 7, afterUnknown: false, sensitive: false },
  { name: "same", action: "no-op", before: "x", after: "x", afterUnknown: false, sensitive: false },
];

export const planScenarios: Record<string, Plan> = {
  "for-each": plan(forEachChanges),
  cost: costed,
  mixed: plan([createConnection, createFilter, createAttachment, unchanged, updateFilter, replaceConnection, replaceFirst, importWithChanges, importOnly, awaiting, deleteAttachment, deleteVpn]),
  creates: plan([createConnection, createFilter, createAttachment]),
  updates: plan([updateFilter]),
  replaces: plan([replaceConnection, replaceFirst]),
  deletes: plan([deleteAttachment, deleteVpn]),
  imports: plan([importWithChanges, importOnly]),
  awaiting: plan([awaiting, unchanged]),
  secrets: plan(secrets),
  escaping: plan(escaping),
  "no-changes": plan([unchanged]),
  risks: plan([createConnection, updateFilter], "normal", { risks }),
  refactoring: plan(refactoring),
  outputs: plan([createConnection], "normal", { outputChanges }),
  "outputs-only": plan([unchanged], "normal", { outputChanges }),
  workspace: plan([createFilter, deleteVpn], "normal", { workspace: "prod" }),
  "workspace-no-changes": plan([unchanged], "normal", { workspace: "prod" }),
  destroy: plan([deleteAttachment, deleteVpn], "destroy"),
  "destroy-empty": plan([], "destroy"),
  "refresh-only": plan(
    [
      change("routeFilters.y", "no-op", { id: "rf-y", reasonCode: "refresh-only", changes: [{ path: "description", before: "ours", after: "edited in the portal" }] }),
      change("routeFilters.z", "no-op", { id: "rf-z", reasonCode: "refresh-only", reason: "deleted outside netform: the state entry is removed" }),
      { ...unchanged, reasonCode: "refresh-only" },
    ],
    "refresh-only",
    { drifted: ["routeFilters.y", "routeFilters.z"] },
  ),
};

function drift(entries: DriftEntry[]): DriftReport {
  const count = (s: DriftEntry["status"]) => entries.filter((e) => e.status === s).length;
  return { formatVersion: 1, checkedAt: "2026-03-01T06:00:00.000Z", entries, summary: { changed: count("changed"), deleted: count("deleted"), missing: count("missing"), unapplied: count("unapplied") }, requestCount: 9 };
}

const changedByPortal: DriftEntry = {
  address: "connections.x",
  kind: "connections",
  id: "conn-x",
  status: "changed",
  fields: [
    { path: "bandwidth", before: 100, after: 200 },
    { path: "description", before: "ours", after: "edited | in the `portal`" },
    { path: "notifications", before: [{ type: "ALL", emails: ["a@example.com"] }], after: [] },
  ],
  changedBy: "portal-user",
  changedAt: "2026-02-27T14:03:11Z",
  differsFromConfiguration: true,
};

const changedQuietly: DriftEntry = {
  address: "routeFilters.y",
  kind: "routeFilters",
  id: "rf-y",
  status: "changed",
  fields: [{ path: "name", before: "y", after: "y-renamed" }],
  differsFromConfiguration: false,
};

const deleted: DriftEntry = { address: "routeFilters.gone", kind: "routeFilters", id: "rf-gone", status: "deleted", fields: [], changedBy: "@ops-team", changedAt: "2026-02-28T09:00:00Z", differsFromConfiguration: true };

const missing: DriftEntry = { address: "vpns.z", kind: "vpns", status: "missing", fields: [], differsFromConfiguration: true };

/** A change outside netform that a refresh-only run recorded: the service matches the state, not the configuration. */
const unapplied: DriftEntry = { address: "connections.dc", kind: "connections", id: "conn-dc", status: "unapplied", fields: [{ path: "bandwidth", before: 200, after: 100 }], differsFromConfiguration: true };

const secretDrift: DriftEntry = {
  address: "routingProtocols.s",
  kind: "routingProtocols",
  id: "rp-s",
  status: "changed",
  fields: [
    { path: "bgpAuthKey", before: `${SECRET}-old`, after: SECRET },
    { path: "flagged", before: SECRET, after: `${SECRET}-b`, sensitive: true },
    { path: "bgpIpv4.enabled", before: false, after: true },
  ],
  changedBy: "api-client-7",
  differsFromConfiguration: true,
};

export const driftScenarios: Record<string, DriftReport> = {
  changed: drift([changedByPortal, changedQuietly]),
  deleted: drift([deleted]),
  missing: drift([missing]),
  unapplied: drift([unapplied]),
  secrets: drift([secretDrift]),
  mixed: drift([changedByPortal, deleted, missing, secretDrift]),
  none: drift([]),
  workspace: { ...drift([changedQuietly]), workspace: "prod" },
  "workspace-none": { ...drift([]), workspace: "prod" },
};

/** More drifted objects than one comment holds. */
export const largeDrift = drift(
  Array.from({ length: 300 }, (_, i) => ({
    address: `connections.d${String(i).padStart(3, "0")}`,
    kind: "connections",
    status: "changed" as const,
    fields: Array.from({ length: 10 }, (_, k) => ({ path: `field${k}`, before: `old value ${k} of ${i}`, after: `new value ${k} of ${i}` })),
    changedBy: "portal-user",
    changedAt: "2026-02-27T14:03:11Z",
    differsFromConfiguration: true,
  })),
);
