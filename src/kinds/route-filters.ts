// Route filters (specification 2.3, 3.1, 4.3): named BGP prefix filters. A filter is configuration only:
// its name and description change in place, its type and project cannot. A deleted filter stays readable
// as DEPROVISIONED for a while, which counts as gone. The create body requires a project (4.3), which may
// come from provider.projectId.

import { z } from "zod";
import { project, SecretPaths, type RuleContext } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { compact, deleteIdempotently, orGone, projectIdOf, readinessFrom, sameNameAndType, searchByUuid, uuidOf, type StateTable } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness, UpdateMethod } from "./types.js";

export const ROUTE_FILTER_TYPES = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER"] as const;

const schema = z.strictObject({
  type: z.enum(ROUTE_FILTER_TYPES).describe("the prefix family the filter matches"),
  name: z.string().min(1).optional().describe("display name; default: the resource name"),
  description: z.string().optional(),
  project: project().optional().describe("default: provider.projectId"),
});

function rules(r: RuleContext): void {
  if (!r.has(["project"])) {
    r.report({ path: ["project"], code: "rule.project", message: "a route filter needs a project (project.projectId)", hint: "set project.projectId here or provider.projectId" });
  }
}

const BASE = "/fabric/v4/routeFilters";
/** The largest page this API family serves (section 8), also used as the number of uuids per search. */

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["NOT_PROVISIONED", "NOT_DEPROVISIONED"],
};
/** States of a filter that is being or has been deleted: never the filter a create just made. */
const DELETING = ["DEPROVISIONING", "DEPROVISIONED", "NOT_DEPROVISIONED"];

/** The two fields a PATCH may replace (the simulator and the service's console accept both). */
const PATCHABLE = ["name", "description"] as const;
type Patchable = (typeof PATCHABLE)[number];

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => stateOf(body) === "DEPROVISIONED";

/**
 * The comparable form, the same for a spec and a response. An absent description reads as "", so that
 * removing it from the configuration shows as a change (and is sent as an empty description).
 */
function comparable(body: Body): Body {
  const projectId = projectIdOf(body.project);
  return compact({
    type: body.type,
    name: body.name,
    description: typeof body.description === "string" ? body.description : "",
    project: projectId === undefined ? undefined : { projectId },
  }) as Body;
}

const covers = (field: string, path: string): boolean => path === field || path.startsWith(`${field}.`);

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", `${BASE}/${ref.id}`));
  return body === undefined || isGone(body) ? undefined : body;
}

const handler: KindHandler = {
  noun: "route filter",

  observe,

  observeMany: (ctx, refs) => searchByUuid(ctx, `${BASE}/search`, refs, isGone),

  desired: comparable,
  observed: comparable,

  updatable: { name: { via: "patch", path: "/name" }, description: { via: "patch", path: "/description" } } satisfies Record<Patchable, UpdateMethod>,

  async create(ctx, spec) {
    const project = spec.project ?? (ctx.provider.projectId ? { projectId: ctx.provider.projectId } : undefined);
    const body = await ctx.api.call<Body>("POST", BASE, { body: compact({ ...spec, project }) });
    return { id: uuidOf(body, "create route filter"), body };
  },

  async update(ctx, ref, spec, changed) {
    const uncovered = changed.filter((path) => !PATCHABLE.some((f) => covers(f, path)));
    if (uncovered.length > 0) {
      throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `route filter ${ref.id}: ${uncovered.join(", ")} cannot change in place` });
    }
    const operations = PATCHABLE.filter((f) => changed.some((path) => covers(f, path))).map((f) => ({ op: "replace", path: `/${f}`, value: comparable(spec)[f] }));
    if (operations.length === 0) return;
    await ctx.api.call("PATCH", `${BASE}/${ref.id}`, { body: operations });
  },

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

  async lookup(ctx, spec): Promise<Observed | undefined> {
    for await (const body of sameNameAndType(ctx, `${BASE}/search`, spec)) {
      if (!DELETING.includes(stateOf(body) ?? "")) return { id: uuidOf(body, "route filter search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const routeFilters: KindDefinition<"routeFilters"> = {
  name: "routeFilters",
  description: "BGP prefix filters, by name",
  spec: schema,
  rules,
  displayName: "name",
  defaults: (d) => {
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
  },
  sensitive: SecretPaths.NONE,
  attributes: ["href", "uuid", "type", "name", "description", "state", "change", "notMatchedRuleAction", "connectionsCount", "rulesCount", "project", "changeLog"],
  serverSet: ["href", "uuid", "state", "change", "changeLog", "changelog", "notMatchedRuleAction", "connectionsCount", "rulesCount"],
  parents: {},
  timeoutMs: 10 * 60_000,
  handler,
};
