// What route filters and route aggregations share: a named BGP routing policy of one prefix family in a
// project. It is configuration only: its name and description change in place (PATCH), its type and project
// cannot. A deleted one stays readable as DEPROVISIONED for a while, which counts as gone. The create body
// requires a project, which may come from provider.projectId.

import { z } from "zod";
import { lazily, project, SecretPaths, type RuleContext } from "../config/index.js";
import { compact, deleteIdempotently, patchChanged, type PatchPath, patchUpdatable, projectFor, projectIdOf, readinessFrom, readUnlessGone, sameNameAndType, searchByUuid, type StateTable, uuidOf } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness, TypicalSeconds } from "./types.js";

export interface RoutingPolicyOptions<Name extends string> {
  typicalSeconds: TypicalSeconds;
  name: Name;
  description: string;
  /** For messages: "route filter". */
  noun: string;
  /** The collection's path: "/fabric/v4/routeFilters". */
  base: string;
  types: readonly [string, ...string[]];
  /** What `type` says, for the JSON Schema. */
  typeDescription: string;
  attributes: readonly string[];
}

const STATES: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["NOT_PROVISIONED", "NOT_DEPROVISIONED"],
};
/** States of a policy that is being or has been deleted: never the one a create just made. */
const DELETING = ["DEPROVISIONING", "DEPROVISIONED", "NOT_DEPROVISIONED"];

/** The two fields a PATCH may replace (the simulator and the service's console accept both). */
const PATCHES: readonly PatchPath[] = [
  { field: "name", path: "/name" },
  { field: "description", path: "/description" },
];

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


export function routingPolicyKind<Name extends string>(options: RoutingPolicyOptions<Name>): KindDefinition<Name> {
  const { base, noun } = options;

  const schema = lazily(() =>
    z.strictObject({
      type: z.enum(options.types).describe(options.typeDescription),
      name: z.string().min(1).optional().describe("display name; default: the resource name"),
      description: z.string().optional(),
      project: project().optional().describe("default: provider.projectId"),
    }),
  );

  function rules(r: RuleContext): void {
    if (!r.has(["project"])) {
      r.report({ path: ["project"], code: "rule.project", message: `a ${noun} needs a project (project.projectId)`, hint: "set project.projectId here or provider.projectId" });
    }
  }

  async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
    return readUnlessGone(ctx, `${base}/${ref.id}`, isGone);
  }

  const handler: KindHandler = {
    noun,

    observe,

    observeMany: (ctx, refs) => searchByUuid(ctx, `${base}/search`, refs, isGone),

    desired: comparable,
    observed: comparable,

    updatable: patchUpdatable(PATCHES),

    async create(ctx, spec) {
      const project = projectFor(ctx, spec);
      const body = await ctx.api.call<Body>("POST", base, { body: compact({ ...spec, project }) });
      return { id: uuidOf(body, `create ${noun}`), body };
    },

    update: (ctx, ref, spec, changed) => patchChanged(ctx, `${base}/${ref.id}`, `${noun} ${ref.id}`, PATCHES, comparable(spec), changed),

    delete: (ctx, ref) =>
      deleteIdempotently(
        () => ctx.api.call("DELETE", `${base}/${ref.id}`),
        () => observe(ctx, ref),
        (now) => DELETING.includes(stateOf(now) ?? ""),
      ),

    readiness(body: Body, operation: Operation): Readiness {
      return readinessFrom(STATES, stateOf(body), operation);
    },

    stateOf,

    async lookup(ctx, spec, owned): Promise<Observed | undefined> {
      for await (const body of sameNameAndType(ctx, `${base}/search`, spec)) {
        if (!DELETING.includes(stateOf(body) ?? "") && !owned?.has(String(body.uuid))) return { id: uuidOf(body, `${noun} search`), body };
      }
      return undefined;
    },

    eventSubject: (ref) => `${base}/${ref.id}`,
  };

  return {
    name: options.name,
    description: options.description,
    get spec() {
      return schema();
    },
    rules,
    displayName: "name",
    defaults: (d) => {
      if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
    },
    sensitive: SecretPaths.NONE,
    attributes: options.attributes,
    // What the service returns beyond the request's fields (and the description's other spelling of changeLog).
    serverSet: [...options.attributes.filter((a) => !["type", "name", "description", "project"].includes(a)), "changelog"],
    parents: {},
    timeoutMs: 10 * 60_000,
    typicalSeconds: options.typicalSeconds,
    handler,
  };
}
