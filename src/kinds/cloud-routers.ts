// Cloud routers (official: /fabric/v4/routers; the packages' limits of specification section 8): a routing
// instance in a metro that IP_VC connections start at. The name, the package and the notifications change
// in place through the PATCH paths the official description allows; the metro, project, account and type
// cannot, so changing one of them is a new router. A deleted router stays readable as DEPROVISIONED, which
// counts as gone. The service requires every router search to name a project: refresh searches the
// provider's project and reads any router it did not find there one by one.

import { z } from "zod";
import { digits, lazily, metroCode, project, readPath, SecretPaths, text, type RuleContext } from "../config/index.js";
import { asNumber, compact, deleteIdempotently, inProject, patchChanged, patchUpdatable, projectFor, projectIdOf, readinessFrom, readUnlessGone, refKey, sameNameInProject, searchByUuid, type StateTable, uuidOf } from "./common.js";
import { pricing } from "./cloud-routers-pricing.js";
import { notificationsSpec, sortedNotifications } from "./notifications.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

export const ROUTER_PACKAGES = ["LAB", "STANDARD"] as const;
export type RouterPackage = (typeof ROUTER_PACKAGES)[number];

/** Section 8: what a package allows each router's connections, and the routes it holds per family; no figure means no limit. */
export const ROUTER_PACKAGE_LIMITS: Readonly<Record<RouterPackage, { connections?: number; bandwidthMbps?: number; routes: { IPv4: number; IPv6: number } }>> = {
  LAB: { connections: 10, bandwidthMbps: 10, routes: { IPv4: 50, IPv6: 50 } },
  STANDARD: { routes: { IPv4: 1000, IPv6: 100 } },
};

const schema = lazily(() =>
  z.strictObject({
    type: z.enum(["XF_ROUTER"]).optional().describe("default: XF_ROUTER"),
    name: text(3, 24, "name").optional().describe("display name, 3 to 24 characters; default: the resource name"),
    location: z.strictObject({ metroCode: metroCode() }).describe("the metro the router runs in"),
    package: z
      .strictObject({ code: z.enum(ROUTER_PACKAGES) })
      .describe("LAB: a trial, 10 connections of up to 10 Mbps and 50 IPv4 and 50 IPv6 routes; STANDARD: 1000 IPv4 and 100 IPv6 routes"),
    project: project().optional().describe("default: provider.projectId"),
    account: z.strictObject({ accountNumber: digits("accountNumber") }).optional().describe("the billing account; default: provider.accountNumber"),
    notifications: notificationsSpec("a cloud router").optional(),
  }),
);

function rules(r: RuleContext): void {
  if (!r.has(["project"])) {
    r.report({ path: ["project"], code: "rule.project", message: "a cloud router needs a project (project.projectId)", hint: "set project.projectId here or provider.projectId" });
  }
}

const BASE = "/fabric/v4/routers";

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["NOT_PROVISIONED", "NOT_DEPROVISIONED"],
};
/** States of a router that is being or has been deleted: never the router a create just made. */
const DELETING = ["DEPROVISIONING", "DEPROVISIONED", "NOT_DEPROVISIONED"];

/** The fields that change in place, each with its PATCH path. */
const PATCHES = [
  { field: "name", path: "/name" },
  { field: "package.code", path: "/package/code" },
  { field: "notifications", path: "/notifications" },
] as const;

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => stateOf(body) === "DEPROVISIONED";

/** The comparable form, the same for a spec and a response (which adds the account's name, hrefs, counts). */
function comparable(body: Body): Body {
  const projectId = projectIdOf(body.project);
  const accountNumber = readPath(body, "account.accountNumber");
  return compact({
    type: body.type,
    name: body.name,
    location: { metroCode: readPath(body, "location.metroCode") },
    package: { code: readPath(body, "package.code") },
    project: projectId === undefined ? undefined : { projectId },
    account: accountNumber === undefined ? undefined : { accountNumber: asNumber(accountNumber) },
    notifications: sortedNotifications(body.notifications),
  }) as Body;
}



async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  return readUnlessGone(ctx, `${BASE}/${ref.id}`, isGone);
}

/** The create request: the spec with its type, project and account filled in. */
function createRequest(ctx: KindContext, spec: Body): Body {
  const accountNumber = readPath(spec, "account.accountNumber") ?? ctx.provider.accountNumber;
  return compact({ ...spec, type: spec.type ?? "XF_ROUTER", project: projectFor(ctx, spec), account: accountNumber === undefined ? undefined : { accountNumber: asNumber(accountNumber) } }) as Body;
}

const handler: KindHandler = {
  noun: "cloud router",

  observe,

  async observeMany(ctx, refs) {
    const projectId = ctx.provider.projectId;
    const found = projectId === undefined ? new Map<string, Body>() : await searchByUuid(ctx, `${BASE}/search`, refs, isGone, [inProject(projectId)]);
    // Routers of other projects (or gone) are not in that search: read them one by one.
    const others = refs.filter((ref) => !found.has(refKey(ref)));
    const read = await Promise.all(others.map(async (ref) => [refKey(ref), await observe(ctx, ref)] as const));
    for (const [key, body] of read) if (body !== undefined) found.set(key, body);
    return found;
  },

  desired: comparable,
  observed: comparable,

  updatable: patchUpdatable(PATCHES),

  async create(ctx, spec) {
    const body = await ctx.api.call<Body>("POST", BASE, { body: createRequest(ctx, spec) });
    return { id: uuidOf(body, "create cloud router"), body };
  },

  // createCloudRouter takes dryRun (the official description): the package, metro and account are checked.
  dryRun: {
    async create(ctx, spec) {
      await ctx.api.call("POST", BASE, { query: { dryRun: true }, body: createRequest(ctx, spec), readOnly: true });
    },
  },

  update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `cloud router ${ref.id}`, PATCHES, spec, changed),

  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${BASE}/${ref.id}`),
      () => observe(ctx, ref),
      (now) => DELETING.includes(stateOf(now) ?? ""),
    ),

  readiness(body: Body, operation: Operation): Readiness {
    return readinessFrom(STATES, stateOf(body), operation);
  },

  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const projectId = projectIdOf(spec.project) ?? ctx.provider.projectId;
    const wanted = comparable({ ...spec, type: spec.type ?? "XF_ROUTER", project: { projectId } });
    for await (const body of sameNameInProject(ctx, `${BASE}/search`, spec)) {
      if (DELETING.includes(stateOf(body) ?? "") || owned?.has(String(body.uuid))) continue;
      const found = comparable(body);
      const same = (path: string) => readPath(found, path) === readPath(wanted, path);
      if (!["name", "type", "location.metroCode", "project.projectId"].every(same)) continue;
      if (readPath(wanted, "account.accountNumber") !== undefined && !same("account.accountNumber")) continue;
      return { id: uuidOf(body, "cloud router search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const cloudRouters: KindDefinition<"cloudRouters"> = {
  name: "cloudRouters",
  topology: "cloud router",
  description: "cloud routers (FCR) that IP_VC connections start at, by name",
  get spec() {
    return schema();
  },
  rules,
  displayName: "name",
  defaults: (d) => {
    d.set("type", "XF_ROUTER");
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
    if (d.provider.accountNumber) d.set("account", { accountNumber: d.provider.accountNumber });
  },
  sensitive: SecretPaths.NONE,
  attributes: ["href", "uuid", "type", "name", "state", "location", "package", "order", "project", "account", "notifications", "equinixAsn", "connectionsCount", "marketplaceSubscription", "changeLog", "change"],
  serverSet: ["href", "uuid", "state", "equinixAsn", "connectionsCount", "changeLog", "change"],
  parents: {},
  timeoutMs: 30 * 60_000,
  typicalSeconds: { create: 60, update: 30, delete: 30 },
  handler,
  pricing,
};
