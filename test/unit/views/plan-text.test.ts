// Golden tests of the text plan: hand-built plans covering every action, nested and unknown values,
// secrets, multi-line descriptions, and the no-change and destroy modes.

import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { summarize, type Plan, type PlanMode, type ResourceChange } from "../../../src/plan/types.js";
import { renderPlanText } from "../../../src/views/plan-text.js";
import { ANSI, expectGolden } from "./golden.js";
import { forEachChanges, outputChanges, planScenarios, refactoring, risks, USUAL_REASON } from "./plans.js";

const plain = pc.createColors(false);
const colored = pc.createColors(true);

function plan(changes: ResourceChange[], mode: PlanMode = "normal", extra: Partial<Plan> = {}): Plan {
  return { formatVersion: 1, mode, lineage: "3f0c7c9e-lineage", serial: 7, configHash: "sha256:abc", changes, summary: summarize(changes), requestCount: 12, ...extra };
}

function change(address: string, action: ResourceChange["action"], fields: Partial<ResourceChange> = {}): ResourceChange {
  return { address, kind: address.split(".")[0] ?? "", action, reasonCode: USUAL_REASON[action], changes: [], unknown: [], sensitive: [], dependencies: [], ...fields };
}

const createConnection = change("connections.dc", "create", {
  reason: "declared but missing",
  after: {
    name: "dc",
    type: "EVPL_VC",
    bandwidth: 100,
    redundancy: { priority: "PRIMARY" },
    aSide: {
      accessPoint: {
        type: "COLO",
        port: { uuid: "c4d9350e-77c5-7c5d-1ce0-306a5c00a600" },
        linkProtocol: { type: "DOT1Q", vlanTag: 1001 },
      },
    },
    zSide: { accessPoint: { type: "SP", profile: { uuid: "(known after apply)" }, location: { metroCode: "SV" } } },
    notifications: [{ type: "ALL", emails: ["noc@example.com", "ops@example.com"] }],
    tags: [],
    enabled: true,
  },
  unknown: ["uuid", "href", "zSide.accessPoint.profile.uuid", "operation.equinixStatus"],
  dependencies: [],
});

const createFilter = change("routeFilters.x", "create", {
  after: {
    name: "x",
    type: "BGP_IPv4_PREFIX_FILTER",
    description: "Accept the data-centre prefixes.\nOwned by the network team.\n",
    rules: [
      { prefix: "192.168.0.0/24", prefixMatch: "exact" },
      { prefix: "10.0.0.0/8", prefixMatch: "orlonger" },
    ],
  },
  unknown: ["uuid"],
});

const updateFilter = change("routeFilters.y", "update", {
  id: "695a8471-6595-4ac6-a2f4-b3d96ed3a59d",
  changes: [
    { path: "description", before: "old", after: "new" },
    { path: "notifications", before: [{ type: "ALL", emails: ["a@example.com"] }], after: [{ type: "ALL", emails: ["a@example.com"] }, { type: "BANDWIDTH_ALERT", emails: ["b@example.com"] }] },
    { path: "project", before: { projectId: "p-1", name: "one" }, after: { projectId: "p-2", name: "one" } },
    { path: "revision", before: 3, unknown: true },
    { path: "extra", before: "gone", after: null },
    { path: "label", before: null, after: "new label" },
  ],
});

const replaceConnection = change("connections.y", "replace", {
  id: "a1b2c3d4-0000-4000-8000-000000000001",
  reason: "aSide.accessPoint.port.uuid cannot change in place",
  changes: [
    { path: "aSide.accessPoint.port.uuid", before: "a", after: "b", forcesReplacement: true },
    { path: "bandwidth", before: 50, after: 100 },
  ],
});

const replaceFirst = change("routingProtocols.bgp", "replace", {
  id: "rp-1",
  reason: "type cannot change in place",
  createBeforeDestroy: true,
  changes: [{ path: "type", before: "DIRECT", after: "BGP", forcesReplacement: true }],
});

const deleteVpn = change("vpns.z", "delete", {
  id: "vpn-0a1b",
  reason: "no longer in the configuration",
  before: { uuid: "vpn-0a1b", name: "z", type: "IPSEC", peerIp: "198.51.100.7", state: "PROVISIONED", href: "https://api/vpns/vpn-0a1b", createdAt: "2026-01-01T00:00:00Z" },
});

const deleteAttachment = change("routeFilterAttachments.a", "delete", {
  id: "att-1",
  before: { direction: "INBOUND" },
});

const importWithChanges = change("devices.e", "import", {
  importId: "2f5a7b3c-1d4e-4f60-8a9b-0c1d2e3f4a5b",
  changes: [{ path: "hostname", before: "edge-old", after: "edge-1" }],
});

const importOnly = change("devices.f", "import", { importId: "9e8d7c6b-5a4f-4321-8fed-cba987654321" });

const awaiting = change("routingProtocols.b", "no-op", { id: "rp-2", awaiting: "create" });

const unchanged = change("routeFilters.same", "no-op", { id: "rf-same" });

const secretValue = "hunter2-DO-NOT-PRINT";

const secrets = [
  change("vpns.s", "create", {
    // The engine should have masked these; the view must not trust that it did.
    after: { name: "s", peerIp: "198.51.100.9", authentication: { preSharedKey: secretValue, method: "PSK" }, tunnels: [{ key: secretValue }], token: "(sensitive)" },
    sensitive: ["authentication.preSharedKey", "tunnels[*].key", "token"],
  }),
  change("routingProtocols.s", "update", {
    id: "rp-s",
    sensitive: ["bgpAuthKey", "md5"],
    changes: [
      { path: "bgpAuthKey", before: `${secretValue}-old`, after: secretValue },
      { path: "flagged", before: `${secretValue}-a`, after: `${secretValue}-b`, sensitive: true },
      { path: "md5", before: null, after: secretValue },
      { path: "bgpIpv4", before: { enabled: false, md5: secretValue }, after: { enabled: true, md5: secretValue } },
      { path: "session", before: { password: `${secretValue}-1` }, after: { password: secretValue }, sensitive: true, forcesReplacement: true },
    ],
  }),
  change("vpns.t", "delete", { id: "vpn-t", before: { name: secretValue, type: "IPSEC" }, sensitive: ["name"] }),
];

const multiline = change("routeFilters.m", "update", {
  id: "rf-m",
  changes: [
    {
      path: "description",
      before: "Filter for the data centre.\nAccepts the /24 of rack A.\nAccepts the /24 of rack B.\nOwned by netops.\nReviewed 2025.\nTicket NET-1.\nTicket NET-2.\nTicket NET-3.",
      after: "Filter for the data centre.\nAccepts the /24 of rack A.\nAccepts the /23 of racks B and C.\nOwned by netops.\nReviewed 2025.\nTicket NET-1.\nTicket NET-2.\nTicket NET-4.\nTicket NET-5.",
    },
    { path: "notes", before: "one line", after: "now\ntwo lines" },
  ],
});

const scenarios: Record<string, Plan> = {
  "plan-cost": planScenarios.cost!,
  "plan-create-nested": plan([createConnection, createFilter]),
  "plan-update": plan([updateFilter]),
  "plan-replace": plan([replaceConnection, replaceFirst]),
  "plan-delete": plan([deleteVpn, deleteAttachment]),
  "plan-import": plan([importWithChanges, importOnly]),
  "plan-awaiting": plan([awaiting, unchanged]),
  "plan-secrets": plan(secrets),
  "plan-multiline": plan([multiline]),
  "plan-mixed": plan([createConnection, unchanged, updateFilter, replaceConnection, importWithChanges, awaiting, deleteAttachment, deleteVpn]),
  "plan-no-changes": plan([unchanged]),
  "plan-for-each": plan(forEachChanges),
  "plan-risks": plan([createConnection, updateFilter], "normal", { risks }),
  "plan-refactoring": plan(refactoring),
  "plan-outputs-only": plan([unchanged], "normal", { outputChanges }),
  "plan-workspace": planScenarios.workspace!,
  "plan-workspace-no-changes": planScenarios["workspace-no-changes"]!,
  "plan-workspace-destroy": plan([deleteAttachment, deleteVpn], "destroy", { workspace: "prod" }),
  "plan-destroy": plan([deleteAttachment, deleteVpn], "destroy"),
  "plan-destroy-empty": plan([], "destroy"),
  "plan-refresh-only": plan(
    [
      change("connections.dc", "no-op", { id: "c-dc", reasonCode: "refresh-only", changes: [{ path: "bandwidth", before: 50, after: 200 }] }),
      change("routeFilters.y", "no-op", { id: "rf-y", reasonCode: "refresh-only", changes: [{ path: "description", before: "ours", after: "edited in the portal" }] }),
      change("routeFilters.z", "no-op", { id: "rf-z", reasonCode: "refresh-only", reason: "deleted outside netform: the state entry is removed" }),
      { ...unchanged, reasonCode: "refresh-only" },
    ],
    "refresh-only",
    { drifted: ["connections.dc", "routeFilters.y", "routeFilters.z"] },
  ),
};

describe("renderPlanText", () => {
  for (const [name, p] of Object.entries(scenarios)) {
    it(name, () => {
      expectGolden(name, renderPlanText(p, plain));
    });
  }

  it("colours when asked and only then", () => {
    const p = scenarios["plan-mixed"]!;
    expect(renderPlanText(p, colored)).toMatch(ANSI);
    expect(renderPlanText(p, plain)).not.toMatch(ANSI);
  });

  it("never prints a secret, even one left unmasked in after, before or a change", () => {
    for (const c of [plain, colored]) {
      const text = renderPlanText(plan(secrets), c);
      expect(text).not.toContain("hunter2");
      expect(text).toContain("(sensitive)");
    }
  });

  it("keeps the plan's order", () => {
    const text = renderPlanText(scenarios["plan-mixed"]!, plain);
    const order = ["connections.dc", "routeFilters.y", "connections.y", "devices.e", "routingProtocols.b", "routeFilterAttachments.a", "vpns.z"].map((a) => text.indexOf(`# ${a}`));
    expect(order.every((pos, i) => pos >= 0 && (i === 0 || pos > order[i - 1]!))).toBe(true);
  });
});
