// The planner's decisions, one table row each: a configuration, a state and what the refresh found go in;
// for every address in the plan, the action, the reason code, the reason in words and the fields that
// matter to that decision come out. The plan lists exactly the addresses a row expects, so a row also
// says what the plan leaves alone.

import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { KIND_CATALOG, KIND_HANDLERS } from "../../../src/kinds/index.js";
import { makePlan, type Refreshed } from "../../../src/plan/diff.js";
import { REASON_CODES, type Action, type PlanMode, type ReasonCode, type ResourceChange } from "../../../src/plan/types.js";
import type { ResourceState, StateFile } from "../../../src/state/index.js";

const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const CONNECTION = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const F_ID = "6f0d3a52-1b7e-4c2a-9d51-0a6b2f4c8e01";
const G_ID = "6f0d3a52-1b7e-4c2a-9d51-0a6b2f4c8e02";

const F = "routeFilters.f";
const G = "routeFilters.g";
const A = "routeFilterAttachments.a";

// The configuration's resources, by kind and name (written as JSON, which YAML reads as it is).
type Resources = Record<string, Record<string, Record<string, unknown>>>;

const filter = (fields: Record<string, unknown> = {}) => ({ type: "BGP_IPv4_PREFIX_FILTER", description: "ours", ...fields });
const attachment = { connection: CONNECTION, routeFilter: "${routeFilters.f.uuid}", direction: "INBOUND" };

/** A route filter as the service returns it, and as the state records it. */
const filterBody = (name: string, uuid: string, fields: Record<string, unknown> = {}) => ({
  uuid,
  type: "BGP_IPv4_PREFIX_FILTER",
  name,
  description: "ours",
  project: { projectId: PROJECT },
  state: "PROVISIONED",
  ...fields,
});
const attachmentBody = { uuid: F_ID, href: `/fabric/v4/connections/${CONNECTION}/routeFilters/${F_ID}`, direction: "INBOUND", attachmentStatus: "ATTACHED" };

const recorded = (kind: string, id: string | undefined, attributes: Record<string, unknown>, fields: Partial<ResourceState> = {}): ResourceState => ({
  kind,
  ...(id ? { id } : {}),
  attributes,
  sensitiveHashes: {},
  dependencies: [],
  ...fields,
});
const recordedF = recorded("routeFilters", F_ID, filterBody("f", F_ID));
const recordedG = recorded("routeFilters", G_ID, filterBody("g", G_ID));

// Instances of a route filter with forEach: each its own object, named after the block and its key.
const FA = 'routeFilters.f["a"]';
const FB = 'routeFilters.f["b"]';
const FC = 'routeFilters.f["c"]';
const recordedFA = recorded("routeFilters", F_ID, filterBody("f-a", F_ID));
const recordedFB = recorded("routeFilters", G_ID, filterBody("f-b", G_ID));

const hashOf = (value: unknown) => `hash:${JSON.stringify(value)}`;
const testHash = Object.assign(hashOf, { matches: (recordedHash: string | undefined, value: unknown) => recordedHash === hashOf(value) });
const recordedA = recorded("routeFilterAttachments", F_ID, attachmentBody, { parent: CONNECTION, dependencies: [F] });
const startedAt = "2026-03-01T06:00:00.000Z";

interface Expected {
  action: Action;
  reasonCode: ReasonCode;
  /** The words; a row that leaves it out says there are none. */
  reason?: string;
  /** The paths of the field changes. */
  changed?: string[];
  unknown?: string[];
  id?: string;
  importId?: string;
  createBeforeDestroy?: boolean;
  awaiting?: ResourceChange["awaiting"];
  /** The declared fields the answer left out, not compared. */
  notReturned?: string[];
}

interface Row {
  name: string;
  resources: Resources;
  state?: Record<string, ResourceState>;
  /** What the refresh found, where it differs from what the state recorded. */
  /** The `removed:` blocks. */
  removed?: { from: string; destroy: boolean }[];
  refreshed?: Record<string, Refreshed>;
  imports?: Record<string, Refreshed>;
  mode?: PlanMode;
  targets?: string[];
  replace?: string[];
  expect: Record<string, Expected>;
  /** The order apply takes the changes in, where it matters. */
  order?: string[];
  diagnostics?: Array<{ code: string; address: string }>;
  drifted?: string[];
}

const rows: Row[] = [
  {
    name: "declared and not in the state: created, and what refers to it waits for its attributes",
    resources: { routeFilters: { f: filter() }, routeFilterAttachments: { a: attachment } },
    expect: {
      [F]: { action: "create", reasonCode: "create", unknown: [] },
      [A]: { action: "create", reasonCode: "create", unknown: ["routeFilter"] },
    },
    order: [F, A],
  },
  {
    name: "an unfinished create whose object the refresh found: planned like an existing object",
    resources: { routeFilters: { f: filter({ description: "new" }) } },
    state: { [F]: recorded("routeFilters", undefined, {}, { pending: { operation: "create", startedAt } }) },
    refreshed: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID) } },
    expect: { [F]: { action: "update", reasonCode: "update", id: F_ID, changed: ["description"] } },
  },
  {
    name: "an unfinished create that never reached the service: created",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recorded("routeFilters", undefined, {}, { pending: { operation: "create", startedAt } }) },
    refreshed: { [F]: { status: "absent" } },
    expect: { [F]: { action: "create", reasonCode: "create-not-reached", reason: "the previous run's create did not reach the service" } },
  },
  {
    name: "an interrupted destroy left the object deprovisioning: apply waits for it, then creates anew",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: { ...recordedF, pending: { operation: "delete", startedAt } } },
    refreshed: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID, { state: "DEPROVISIONING" }) } },
    expect: { [F]: { action: "create", reasonCode: "awaiting-delete", reason: "an earlier delete is still running: wait for it, then create anew", id: F_ID, awaiting: "delete" } },
  },
  {
    name: "an unfinished create found only an object that is not its own: the address fails, naming it",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recorded("routeFilters", undefined, {}, { pending: { operation: "create", startedAt } }) },
    refreshed: { [F]: { status: "foreign", id: F_ID, description: `route filter "f" (${F_ID})`, why: "it was created by someone-else, not by demo-user" } },
    diagnostics: [{ code: "plan.not-adopted", address: F }],
    expect: { [F]: { action: "create", reasonCode: "create" } },
  },
  {
    name: "deleted on the service by someone else: created again",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    refreshed: { [F]: { status: "gone" } },
    expect: { [F]: { action: "create", reasonCode: "deleted-outside", reason: "deleted outside netform" } },
  },
  {
    name: "the service reports the object failed: replaced",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    refreshed: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID, { state: "NOT_PROVISIONED" }) } },
    expect: { [F]: { action: "replace", reasonCode: "failed-state", reason: "the service reports NOT_PROVISIONED", id: F_ID, createBeforeDestroy: false } },
  },
  {
    name: "--replace names an unchanged object: replaced",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    replace: [F],
    expect: { [F]: { action: "replace", reasonCode: "replace-requested", reason: "replacement requested (--replace)", changed: [], createBeforeDestroy: false } },
  },
  {
    name: "a field that cannot change in place: replaced, the field named",
    resources: { routeFilters: { f: filter({ type: "BGP_IPv6_PREFIX_FILTER", description: "new" }) } },
    state: { [F]: recordedF },
    expect: { [F]: { action: "replace", reasonCode: "force-new-field", reason: "type cannot change in place", changed: ["type", "description"], createBeforeDestroy: false } },
  },
  {
    name: "only fields that change in place: updated",
    resources: { routeFilters: { f: filter({ description: "new" }) } },
    state: { [F]: recordedF },
    expect: { [F]: { action: "update", reasonCode: "update", id: F_ID, changed: ["description"] } },
  },
  {
    name: "nothing differs: no-op",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    expect: { [F]: { action: "no-op", reasonCode: "unchanged", changed: [] } },
  },
  {
    name: "forEach: a key added plans exactly its instance, and the keys already applied stay",
    resources: { routeFilters: { f: filter({ forEach: ["a", "b", "c"] }) } },
    state: { [FA]: recordedFA, [FB]: recordedFB },
    expect: {
      [FA]: { action: "no-op", reasonCode: "unchanged", changed: [] },
      [FB]: { action: "no-op", reasonCode: "unchanged", changed: [] },
      [FC]: { action: "create", reasonCode: "create" },
    },
  },
  {
    name: "forEach: a key removed plans exactly the delete of its instance",
    resources: { routeFilters: { f: filter({ forEach: ["a"] }) } },
    state: { [FA]: recordedFA, [FB]: recordedFB },
    expect: {
      [FA]: { action: "no-op", reasonCode: "unchanged", changed: [] },
      [FB]: { action: "delete", reasonCode: "no-longer-configured", reason: "no longer in the configuration", id: G_ID },
    },
  },
  {
    name: "forEach: a target without a key is every instance of the block; other resources are left alone",
    resources: { routeFilters: { f: filter({ forEach: ["a", "b"] }), g: filter({ description: "new" }) } },
    state: { [FA]: recordedFA, [G]: recordedG },
    targets: ["routeFilters.f"],
    expect: {
      [FA]: { action: "no-op", reasonCode: "unchanged" },
      [FB]: { action: "create", reasonCode: "create" },
    },
  },
  {
    name: "an earlier run's update still running: apply waits for it",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: { ...recordedF, pending: { operation: "update", startedAt } } },
    expect: { [F]: { action: "no-op", reasonCode: "awaiting-earlier", reason: "waiting for the update an earlier run started", awaiting: "update" } },
  },
  {
    name: "a dependent of an object replaced delete-first is replaced with it",
    resources: { routeFilters: { f: filter({ type: "BGP_IPv6_PREFIX_FILTER" }), g: filter({ dependsOn: [F] }) } },
    state: { [F]: recordedF, [G]: recorded("routeFilters", G_ID, filterBody("g", G_ID), { dependencies: [F] }) },
    expect: {
      [F]: { action: "replace", reasonCode: "force-new-field", reason: "type cannot change in place", createBeforeDestroy: false },
      [G]: { action: "replace", reasonCode: "cascade-replace", reason: `${F} is replaced, and ${G} depends on it`, changed: [], createBeforeDestroy: false },
    },
  },
  {
    name: "createBeforeDestroy: the flag is carried, and what depends on the object stays",
    resources: { routeFilters: { f: filter({ type: "BGP_IPv6_PREFIX_FILTER", lifecycle: { createBeforeDestroy: true } }), g: filter({ dependsOn: [F] }) } },
    state: { [F]: recordedF, [G]: recorded("routeFilters", G_ID, filterBody("g", G_ID), { dependencies: [F] }) },
    expect: {
      [F]: { action: "replace", reasonCode: "force-new-field", reason: "type cannot change in place", createBeforeDestroy: true },
      [G]: { action: "no-op", reasonCode: "unchanged" },
    },
  },
  {
    name: "preventDestroy refuses a replace",
    resources: { routeFilters: { f: filter({ type: "BGP_IPv6_PREFIX_FILTER", lifecycle: { preventDestroy: true } }) } },
    state: { [F]: recordedF },
    expect: { [F]: { action: "replace", reasonCode: "force-new-field", reason: "type cannot change in place" } },
    diagnostics: [{ code: "plan.prevent-destroy", address: F }],
  },
  {
    name: "preventDestroy refuses a destroy",
    resources: { routeFilters: { f: filter({ lifecycle: { preventDestroy: true } }) } },
    state: { [F]: recordedF },
    mode: "destroy",
    expect: { [F]: { action: "delete", reasonCode: "destroy-requested", reason: "destroy requested", id: F_ID } },
    diagnostics: [{ code: "plan.prevent-destroy", address: F }],
  },
  {
    name: "import of an object that differs: adopted, then changed",
    resources: { routeFilters: { f: filter({ description: "new", import: F_ID }) } },
    imports: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID) } },
    expect: { [F]: { action: "import", reasonCode: "import", reason: `adopt ${F_ID}, then change description`, id: F_ID, importId: F_ID, changed: ["description"] } },
  },
  {
    name: "import of an object as declared: adopted",
    resources: { routeFilters: { f: filter({ import: F_ID }) } },
    imports: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID) } },
    expect: { [F]: { action: "import", reasonCode: "import", reason: `adopt ${F_ID}`, id: F_ID, importId: F_ID, changed: [] } },
  },
  {
    name: "import of an object that does not exist: created",
    resources: { routeFilters: { f: filter({ import: F_ID }) } },
    imports: { [F]: { status: "gone" } },
    expect: { [F]: { action: "create", reasonCode: "import-missing", reason: `import ${F_ID}: no such object` } },
  },
  {
    name: "refresh-only: nothing is done, and each field the state would record is listed, as is an object gone",
    resources: { routeFilters: { f: filter({ description: "new" }) } },
    state: { [F]: recordedF, [G]: recordedG },
    refreshed: { [F]: { status: "present", id: F_ID, body: filterBody("f", F_ID, { description: "edited in the portal" }) }, [G]: { status: "gone" } },
    mode: "refresh-only",
    expect: {
      [F]: { action: "no-op", reasonCode: "refresh-only", changed: ["description"] },
      [G]: { action: "no-op", reasonCode: "refresh-only", reason: "deleted outside netform: the state entry is removed", changed: [] },
    },
    drifted: [F, G],
  },
  {
    name: "destroy with a target: the target and what depends on it, dependents first",
    resources: { routeFilters: { f: filter(), g: filter() }, routeFilterAttachments: { a: attachment } },
    state: { [F]: recordedF, [G]: recordedG, [A]: recordedA },
    mode: "destroy",
    targets: [F],
    expect: {
      [A]: { action: "delete", reasonCode: "destroy-requested", reason: "destroy requested" },
      [F]: { action: "delete", reasonCode: "destroy-requested", reason: "destroy requested" },
    },
    order: [A, F],
  },
  {
    name: "a target: the target and what it depends on",
    resources: { routeFilters: { f: filter(), g: filter() }, routeFilterAttachments: { a: attachment } },
    targets: [A],
    expect: {
      [F]: { action: "create", reasonCode: "create" },
      [A]: { action: "create", reasonCode: "create" },
    },
    order: [F, A],
  },
  {
    name: "a target that is nowhere: an error naming it",
    resources: { routeFilters: { f: filter() } },
    targets: ["routeFilters.nope"],
    expect: {},
    diagnostics: [{ code: "plan.unknown-address", address: "routeFilters.nope" }],
  },
  {
    name: "no longer in the configuration: deleted",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF, [G]: recordedG },
    expect: {
      [F]: { action: "no-op", reasonCode: "unchanged" },
      [G]: { action: "delete", reasonCode: "no-longer-configured", reason: "no longer in the configuration", id: G_ID },
    },
  },
  {
    name: "a removed block with destroy: false: forgotten, not deleted",
    resources: { routeFilters: { f: filter() } },
    removed: [{ from: G, destroy: false }],
    state: { [F]: recordedF, [G]: recordedG },
    expect: {
      [F]: { action: "no-op", reasonCode: "unchanged" },
      [G]: { action: "forget", reasonCode: "removed-not-destroyed", reason: "a removed block with destroy: false: the service keeps it", id: G_ID },
    },
  },
  {
    name: "a removed block with destroy: true: deleted",
    resources: {},
    removed: [{ from: G, destroy: true }],
    state: { [G]: recordedG },
    expect: { [G]: { action: "delete", reasonCode: "removed-destroyed", reason: "a removed block with destroy: true deletes it", id: G_ID } },
  },
  {
    name: "no longer in the configuration and already gone: only the state entry goes",
    resources: {},
    state: { [G]: recordedG },
    refreshed: { [G]: { status: "gone" } },
    expect: { [G]: { action: "delete", reasonCode: "gone-from-service", reason: "already gone from the service: only the state entry is removed" } },
  },
];

// Two devices joined by a link group, as declared and as real answers show the group (members without their
// ASN, equinix/ne-go's recorded ne_device_link_get_resp.json).
const LINK = "deviceLinks.l";
const DEVICE_1 = "9ea5a0e4-2bf7-45c2-9aa7-e846a8cd5560";
const DEVICE_2 = "8ea5a0e4-2bf7-45c2-9aa7-e846a8cd5561";
const linkGroup = { groupName: "l", subnet: "10.0.0.0/27", linkDevices: [{ deviceUuid: DEVICE_1, asn: 65001, interfaceId: 6 }, { deviceUuid: DEVICE_2, asn: 65002, interfaceId: 6 }] };
const linkBody = (interfaceId: number) => ({
  uuid: F_ID,
  groupName: "l",
  subnet: "10.0.0.0/27",
  status: "PROVISIONED",
  redundancyType: "Primary",
  linkDevices: [DEVICE_2, DEVICE_1].map((deviceUuid) => ({ deviceUuid, interfaceId, ipAssigned: "10.0.0.2/27", status: "PROVISIONED" })),
});

rows.push(
  {
    name: "a field that cannot change in place, left out of the answer: not compared, never a replacement, and said so",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    refreshed: { [F]: { status: "present", id: F_ID, body: (({ type: _type, ...rest }) => rest)(filterBody("f", F_ID)) } },
    expect: { [F]: { action: "no-op", reasonCode: "unchanged", notReturned: ["type"] } },
  },
  {
    name: "a field that changes in place, left out of the answer: a change, since absent is not what is declared",
    resources: { routeFilters: { f: filter() } },
    state: { [F]: recordedF },
    refreshed: { [F]: { status: "present", id: F_ID, body: (({ description: _description, ...rest }) => rest)(filterBody("f", F_ID)) } },
    expect: { [F]: { action: "update", reasonCode: "update", changed: ["description"], notReturned: [] } },
  },
  {
    name: "a list item's field the kind knows real answers leave out (a link member's ASN): not compared, and said so",
    resources: { deviceLinks: { l: linkGroup } },
    state: { [LINK]: recorded("deviceLinks", F_ID, linkBody(6)) },
    expect: { [LINK]: { action: "no-op", reasonCode: "unchanged", notReturned: ["linkDevices[].asn"] } },
  },
  {
    name: "a list item's field the answer carries and that differs (a link member's interface): a change in place",
    resources: { deviceLinks: { l: linkGroup } },
    state: { [LINK]: recorded("deviceLinks", F_ID, linkBody(7)) },
    expect: { [LINK]: { action: "update", reasonCode: "update", changed: ["linkDevices"] } },
  },
);

function configurationText(resources: Resources, removed?: Row["removed"]): string {
  const sections = Object.entries(resources).map(([kind, byName]) => `${kind}: ${JSON.stringify(byName)}\n`);
  return `netform: 1\nprovider: { endpoint: embedded, projectId: ${PROJECT} }\n${sections.join("")}${removed ? `removed: ${JSON.stringify(removed)}\n` : ""}`;
}

function planFor(row: Row) {
  const { config, diagnostics } = buildConfiguration([{ file: "netform.yaml", text: configurationText(row.resources, row.removed) }], { kinds: KIND_CATALOG, env: {} });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const state: StateFile = { version: 1, lineage: "3f0c7c9e-lineage", serial: 3, generator: "netform", resources: row.state ?? {}, outputs: {} };
  // By default the refresh finds every recorded object as recorded.
  const refreshed = new Map<string, Refreshed>();
  for (const [address, r] of Object.entries(state.resources)) if (r.id) refreshed.set(address, { status: "present", id: r.id, ...(r.parent ? { parent: r.parent } : {}), body: r.attributes });
  for (const [address, found] of Object.entries(row.refreshed ?? {})) refreshed.set(address, found);
  return makePlan({
    mode: row.mode ?? "normal",
    config,
    state,
    refreshed,
    imports: new Map(Object.entries(row.imports ?? {})),
    kinds: KIND_HANDLERS,
    hash: testHash,
    ...(row.targets ? { targets: row.targets } : {}),
    ...(row.replace ? { replace: row.replace } : {}),
    configHash: "sha256:test",
    requestCount: 0,
  });
}

/** The fields of a change that a row's expectation names (action, code and reason always). */
function decision(change: ResourceChange, expected: Expected | undefined): Expected {
  const out: Expected = { action: change.action, reasonCode: change.reasonCode, ...(change.reason !== undefined ? { reason: change.reason } : {}) };
  if (expected?.changed) out.changed = change.changes.map((c) => c.path);
  if (expected?.unknown) out.unknown = change.unknown;
  if (expected?.id) out.id = change.id;
  if (expected?.importId) out.importId = change.importId;
  if (expected?.createBeforeDestroy !== undefined) out.createBeforeDestroy = change.createBeforeDestroy;
  if (expected?.awaiting) out.awaiting = change.awaiting;
  if (expected?.notReturned) out.notReturned = change.notReturned ?? [];
  return out;
}

describe("makePlan", () => {
  for (const row of rows) {
    it(row.name, () => {
      const { plan, diagnostics } = planFor(row);
      expect(Object.fromEntries(plan.changes.map((c) => [c.address, decision(c, row.expect[c.address])]))).toEqual(row.expect);
      if (row.order) expect(plan.changes.map((c) => c.address)).toEqual(row.order);
      expect(diagnostics.map((d) => ({ code: d.code, address: d.address }))).toEqual(row.diagnostics ?? []);
      expect(diagnostics.every((d) => d.severity === "error")).toBe(true);
      expect(plan.drifted).toEqual(row.drifted);
    });
  }

  it("has a row for every reason code", () => {
    const covered = new Set(rows.flatMap((row) => Object.values(row.expect).map((e) => e.reasonCode)));
    expect([...REASON_CODES].filter((code) => !covered.has(code))).toEqual([]);
  });
});
