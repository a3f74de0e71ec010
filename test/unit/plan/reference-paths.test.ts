// A reference's path below the attribute its kind lists is known to exist only once the object is read. The
// planner checks it wherever the referenced object's attributes are known (it exists and is neither created
// nor replaced): a path the object lacks is an error at the reference, saying what the object has there,
// never a null nor a "(known after apply)" that no apply resolves. One row per case.

import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { KIND_CATALOG, KIND_HANDLERS } from "../../../src/kinds/index.js";
import { makePlan, type Refreshed } from "../../../src/plan/diff.js";
import { UNKNOWN_TEXT } from "../../../src/plan/types.js";
import type { StateFile } from "../../../src/state/index.js";

const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const ROUTER_ID = "0f5c2c8e-7a6b-4d3e-9b1a-2c3d4e5f6a70";
const ROUTER = "cloudRouters.r";
const FILTER = "routeFilters.f";

/** The cloud router as the service returns it (and the state records it). */
const routerBody = {
  uuid: ROUTER_ID,
  href: `/fabric/v4/routers/${ROUTER_ID}`,
  type: "XF_ROUTER",
  name: "router-r",
  state: "PROVISIONED",
  location: { metroCode: "DC", region: "AMER" },
  package: { code: "STANDARD" },
  project: { projectId: PROJECT },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  equinixAsn: 30000,
  connectionsCount: 0,
  order: null,
};

/** The line of the filter's description in `configuration`, and the column of its value. */
const DESCRIPTION_AT = "netform.yaml:14:18";

const configuration = (expression: string) => `netform: 1
provider: { endpoint: embedded, projectId: ${PROJECT} }
cloudRouters:
  r:
    name: router-r
    location: { metroCode: DC }
    package: { code: STANDARD }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
    # what the router has, as the filter's description
    # (the reference is the whole value)
    description: '\${${expression}}'
`;

interface Row {
  name: string;
  expression: string;
  /** The router: recorded and found as routerBody (the default), recorded but gone from the service, or not made yet. */
  router?: "present" | "gone" | "absent";
  replace?: string[];
  /** The description the plan shows for the filter; absent when the row expects an error. */
  description?: unknown;
  error?: { message: string; hint: string };
}

const HINT = `reference a path the object has, as the service returns it (netform state show ${ROUTER} shows it)`;

const rows: Row[] = [
  { name: "a nested field the object has", expression: "cloudRouters.r.location.metroCode", description: "DC" },
  { name: "an item of a list, and of a list inside it", expression: "cloudRouters.r.notifications[0].emails[0]", description: "noc@example.com" },
  { name: "a field present with a null value: there (a filter reads a null description as none)", expression: "cloudRouters.r.order", description: "" },
  {
    name: "a missing key: the fields there, and the closest",
    expression: "cloudRouters.r.location.metroCod",
    error: {
      message: '${cloudRouters.r.location.metroCod}: cloudRouters.r has no location.metroCod: location has no field "metroCod"; its fields are metroCode, region',
      hint: `did you mean location.metroCode? ${HINT}`,
    },
  },
  {
    name: "an index out of range: the list's length",
    expression: "cloudRouters.r.notifications[1].type",
    error: { message: "${cloudRouters.r.notifications[1].type}: cloudRouters.r has no notifications[1].type: notifications holds 1 item ([0]), so [1] is out of range", hint: HINT },
  },
  {
    name: "a path through a scalar: what the scalar is",
    expression: "cloudRouters.r.equinixAsn.value",
    error: { message: '${cloudRouters.r.equinixAsn.value}: cloudRouters.r has no equinixAsn.value: equinixAsn is the number 30000, so it has no field "value"', hint: HINT },
  },
  {
    name: "a field of a list, not of one of its items",
    expression: "cloudRouters.r.notifications.type",
    error: { message: '${cloudRouters.r.notifications.type}: cloudRouters.r has no notifications.type: notifications is a list of 1 item, not a mapping with a field "type": read one item with [N], e.g. notifications[0].type', hint: HINT },
  },
  {
    name: "an attribute the kind lists that this object lacks",
    expression: "cloudRouters.r.marketplaceSubscription.uuid",
    error: {
      message:
        '${cloudRouters.r.marketplaceSubscription.uuid}: cloudRouters.r has no marketplaceSubscription.uuid: the object has no field "marketplaceSubscription"; its fields are uuid, href, type, name, state, location, package, project, notifications, equinixAsn, connectionsCount, order',
      hint: HINT,
    },
  },
  { name: "an object created in this run: known after apply, checked then", expression: "cloudRouters.r.location.metroCod", router: "absent", description: UNKNOWN_TEXT },
  { name: "an object replaced in this run: known after apply", expression: "cloudRouters.r.location.metroCod", replace: [ROUTER], description: UNKNOWN_TEXT },
  { name: "an object gone from the service, made again: known after apply", expression: "cloudRouters.r.location.metroCod", router: "gone", description: UNKNOWN_TEXT },
];

function planFor(row: Row) {
  const { config, diagnostics } = buildConfiguration([{ file: "netform.yaml", text: configuration(row.expression) }], { kinds: KIND_CATALOG, env: {} });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const router = row.router ?? "present";
  const resources: StateFile["resources"] = router === "absent" ? {} : { [ROUTER]: { kind: "cloudRouters", id: ROUTER_ID, attributes: routerBody, sensitiveHashes: {}, dependencies: [] } };
  const refreshed = new Map<string, Refreshed>(router === "absent" ? [] : [[ROUTER, router === "gone" ? { status: "gone" } : { status: "present", id: ROUTER_ID, body: routerBody }]]);
  return makePlan({
    mode: "normal",
    config,
    state: { version: 1, lineage: "3f0c7c9e-lineage", serial: 3, generator: "netform", resources, outputs: {} },
    refreshed,
    imports: new Map(),
    kinds: KIND_HANDLERS,
    hash: Object.assign((v: unknown) => JSON.stringify(v), { matches: () => true }),
    ...(row.replace ? { replace: row.replace } : {}),
    configHash: "sha256:test",
    requestCount: 0,
  });
}

describe("references into the paths of an object the plan reads", () => {
  it.each(rows)("$name", (row) => {
    const { plan, diagnostics } = planFor(row);
    if (row.error) {
      expect(diagnostics.map((d) => ({ at: `${d.file}:${d.line}:${d.column}`, severity: d.severity, code: d.code, address: d.address, path: d.path, message: d.message, hint: d.hint }))).toEqual([
        { at: DESCRIPTION_AT, severity: "error", code: "reference.path", address: FILTER, path: "description", ...row.error },
      ]);
      return;
    }
    expect(diagnostics).toEqual([]);
    const filter = plan.changes.find((c) => c.address === FILTER);
    expect(filter?.after?.description).toEqual(row.description);
  });

  it("leaves the router itself as it is where it matches", () => {
    const { plan } = planFor(rows[0]!);
    expect(plan.changes.find((c) => c.address === ROUTER)?.action).toBe("no-op");
  });
});
