// Networks (official: /fabric/v4/networks): the EVPLAN, EPLAN, IPWAN, EVPTREE and EPTREE networks that
// connections with a NETWORK access point join, spanning every metro (GLOBAL), one region (REGIONAL, named
// in location.region) or one metro (LOCAL). The name and notifications change in place; the type, scope,
// region and project cannot. The service reports progress in operation.equinixStatus (the state stays
// INACTIVE until the network is provisioned), so that is what readiness reads. A deleted network stays
// readable as DELETED, which counts as gone.

import { z } from "zod";
import { lazily, project, readPath, SecretPaths, type RuleContext } from "../config/index.js";
import { compact, deleteIdempotently, patchChanged, patchUpdatable, projectFor, projectIdOf, readinessFrom, readUnlessGone, sameNameAndType, searchByUuid, type StateTable, uuidOf } from "./common.js";
import { notificationsSpec, sortedNotifications } from "./notifications.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

/** The official enumeration (fabricv4 NetworkType); a connection joins a network as its type's _VC. */
export const NETWORK_TYPES = ["EVPLAN", "EPLAN", "IPWAN", "EVPTREE", "EPTREE"] as const;
export const NETWORK_SCOPES = ["GLOBAL", "REGIONAL", "LOCAL"] as const;
const REGIONS = ["AMER", "EMEA", "APAC"] as const;

const schema = lazily(() =>
  z.strictObject({
    type: z.enum(NETWORK_TYPES).describe("what connections join it as: EVPLAN_VC to an EVPLAN network, and so on"),
    name: z.string().min(1).optional().describe("display name; default: the resource name"),
    scope: z.enum(NETWORK_SCOPES).describe("GLOBAL: every metro; REGIONAL: the metros of location.region; LOCAL: one metro, that of its first connection"),
    location: z.strictObject({ region: z.enum(REGIONS) }).optional().describe("REGIONAL only: the region"),
    project: project().optional().describe("default: provider.projectId"),
    notifications: notificationsSpec("a network"),
  }),
);

function rules(r: RuleContext): void {
  const scope = r.get(["scope"]);
  if (scope === "REGIONAL" && !r.has(["location", "region"])) {
    r.report({ path: ["location", "region"], code: "rule.network-scope", message: "a REGIONAL network needs location.region (AMER, EMEA or APAC)" });
  }
  if (typeof scope === "string" && scope !== "REGIONAL" && r.has(["location"])) {
    r.report({ path: ["location"], code: "rule.network-scope", message: `a ${scope} network takes no location; only a REGIONAL network names its region`, atKey: true });
  }
  if (!r.has(["project"])) {
    r.report({ path: ["project"], code: "rule.project", message: "a network needs a project (project.projectId)", hint: "set project.projectId here or provider.projectId" });
  }
}

const BASE = "/fabric/v4/networks";

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["NOT_PROVISIONED", "NOT_DEPROVISIONED"],
};

const PATCHES = [
  { field: "name", path: "/name" },
  { field: "notifications", path: "/notifications" },
] as const;

const equinixStatusOf = (body: Body): string | undefined => {
  const status = readPath(body, "operation.equinixStatus");
  return typeof status === "string" ? status : undefined;
};
const isGone = (body: Body): boolean => body.state === "DELETED";
/** A network on its way out: never the one a create just made. */
const isLeaving = (body: Body): boolean => isGone(body) || ["DEPROVISIONING", "DEPROVISIONED", "NOT_DEPROVISIONED"].includes(equinixStatusOf(body) ?? "");

function comparable(body: Body): Body {
  const projectId = projectIdOf(body.project);
  return compact({
    type: body.type,
    name: body.name,
    scope: body.scope,
    location: readPath(body, "location.region") === undefined ? undefined : { region: readPath(body, "location.region") },
    project: projectId === undefined ? undefined : { projectId },
    notifications: sortedNotifications(body.notifications),
  }) as Body;
}


async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  return readUnlessGone(ctx, `${BASE}/${ref.id}`, isGone);
}

const handler: KindHandler = {
  noun: "network",

  observe,

  observeMany: (ctx, refs) => searchByUuid(ctx, `${BASE}/search`, refs, isGone),

  desired: comparable,
  observed: comparable,

  updatable: patchUpdatable(PATCHES),

  async create(ctx, spec) {
    const body = await ctx.api.call<Body>("POST", BASE, { body: compact({ ...spec, project: projectFor(ctx, spec) }) });
    return { id: uuidOf(body, "create network"), body };
  },

  // createNetwork takes dryRun (the official description).
  dryRun: {
    async create(ctx, spec) {
      await ctx.api.call("POST", BASE, { query: { dryRun: true }, body: compact({ ...spec, project: projectFor(ctx, spec) }), readOnly: true });
    },
  },

  update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `network ${ref.id}`, PATCHES, spec, changed),

  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${BASE}/${ref.id}`),
      () => observe(ctx, ref),
      isLeaving,
    ),

  readiness(body: Body, operation: Operation): Readiness {
    if (operation === "delete" && isGone(body)) return "ready";
    return readinessFrom(STATES, equinixStatusOf(body), operation);
  },

  stateOf: (body) => equinixStatusOf(body) ?? (typeof body.state === "string" ? body.state : undefined),

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const wanted = comparable(spec);
    for await (const body of sameNameAndType(ctx, `${BASE}/search`, spec)) {
      if (isLeaving(body) || owned?.has(String(body.uuid))) continue;
      const found = comparable(body);
      if (found.scope !== wanted.scope || readPath(found, "location.region") !== readPath(wanted, "location.region")) continue;
      return { id: uuidOf(body, "network search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const networks: KindDefinition<"networks"> = {
  name: "networks",
  topology: "network",
  description: "EVPLAN, EPLAN, IPWAN and tree networks that connections join, by name",
  get spec() {
    return schema();
  },
  rules,
  displayName: "name",
  defaults: (d) => {
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
  },
  sensitive: SecretPaths.NONE,
  attributes: ["href", "uuid", "type", "name", "scope", "location", "state", "operation", "connectionsCount", "account", "project", "notifications", "change", "changeLog", "links"],
  serverSet: ["href", "uuid", "state", "operation", "connectionsCount", "account", "change", "changeLog", "links"],
  parents: {},
  timeoutMs: 15 * 60_000,
  typicalSeconds: { create: 20, update: 20, delete: 20 },
  handler,
};
