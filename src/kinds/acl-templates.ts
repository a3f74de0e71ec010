// ACL templates of the network-edge service: the networks a device's WAN or management interface lets in,
// as an ordered list of inbound rules. Devices name them in aclDetails (${aclTemplates.NAME.uuid}); a
// device changes template in place through its ACL call, and the service refuses to delete a template a
// device still uses, so the reference orders the delete after the device's. Every field changes by one
// PUT of the whole template; a template has no status, so it is ready as soon as it reads back.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { cidr4, isPlainObject, lazily, SecretPaths, text } from "../config/index.js";
import { compact, deleteIdempotently, orGone, uuidOf } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, UpdateMethod } from "./types.js";

const BASE = "/ne/v1/aclTemplates";
const PAGE_SIZE = 100;
const PROTOCOLS = ["IP", "TCP", "UDP"] as const;
const ANY = "any";

/** "any", one port, or a range ("1024-2048"); the service reads ports as strings. */
const port = () =>
  z
    .union([z.int().min(0).max(65535), z.string().regex(/^(any|\d{1,5}(-\d{1,5})?)$/, { error: 'must be "any", a port or a range such as 1024-2048' })])
    .optional()
    .describe('default "any"');

const rule = lazily(() =>
  z.strictObject({
    protocol: z.enum(PROTOCOLS),
    subnet: cidr4().describe("the source network let in, e.g. 198.51.100.0/24"),
    srcPort: port(),
    dstPort: port(),
    description: z.string().max(200).optional(),
  }),
);

const schema = lazily(() =>
  z.strictObject({
    name: text(1, 50, "name").optional().describe("default: the resource name"),
    description: z.string().max(200).optional(),
    projectId: z.string().min(1).optional().describe("default: provider.projectId"),
    inboundRules: z.array(rule()).min(1, { error: "inboundRules needs at least one rule()" }).describe("in order: the service numbers them as listed"),
  }),
);

const templatePath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;
const portOf = (v: unknown): unknown => (v === undefined || v === null ? ANY : String(v));

/** The comparable form, the same for a spec and a response: ports as strings, "any" where none is given. */
function comparable(source: Body): Body {
  const rules = Array.isArray(source.inboundRules) ? source.inboundRules.filter(isPlainObject) : [];
  return compact({
    name: source.name,
    description: source.description,
    inboundRules: rules.map((r) => ({ protocol: r.protocol, subnet: r.subnet, srcPort: portOf(r.srcPort), dstPort: portOf(r.dstPort), description: r.description })),
  }) as Body;
}

/** The request the create and the PUT send: the rules as the service reads them. */
function requestBody(spec: Body): Body {
  return { ...comparable(spec), ...(spec.projectId === undefined ? {} : { projectId: spec.projectId }) };
}

const observe = (ctx: KindContext, ref: ObjectRef) => orGone(() => ctx.api.call<Body>("GET", templatePath(ref.id)));

async function* everyTemplate(ctx: KindContext): AsyncGenerator<Body> {
  yield* listAll<Body>(ctx.api, BASE, { pageSize: PAGE_SIZE });
}

const PUT: UpdateMethod = { via: "put" };

const handler: KindHandler = {
  noun: "ACL template",

  observe,

  async observeMany(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.id));
    const found = new Map<string, Body>();
    for await (const body of everyTemplate(ctx)) {
      if (typeof body.uuid === "string" && wanted.has(body.uuid)) found.set(body.uuid, body);
      if (found.size === wanted.size) break;
    }
    return found;
  },

  desired: comparable,
  observed: comparable,

  updatable: { name: PUT, description: PUT, inboundRules: PUT },

  async create(ctx, spec) {
    const response = await ctx.api.call<Body>("POST", BASE, { body: requestBody(spec) });
    return { id: uuidOf(response, "ACL template create"), body: response };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.length === 0) return;
    await ctx.api.call("PUT", templatePath(ref.id), { body: requestBody(spec) });
  },

  // A template a device still uses is refused with a 400 that names the device: that refusal is the
  // user's to see, so a template still readable after a 400 is no success.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", templatePath(ref.id)),
      () => observe(ctx, ref),
      () => false,
    ),

  readiness: () => "ready",
  stateOf: () => undefined,

  async lookup(ctx, spec, owned) {
    for await (const body of everyTemplate(ctx)) {
      if (body.name === spec.name && typeof body.uuid === "string" && !owned?.has(body.uuid)) return { id: body.uuid, body };
    }
    return undefined;
  },

  eventSubject: (ref) => templatePath(ref.id),
};

export const aclTemplates: KindDefinition<"aclTemplates"> = {
  name: "aclTemplates",
  description: "ACL templates for virtual devices' interfaces, by name",
  get spec() {
    return schema();
  },
  displayName: "name",
  defaults: (d) => {
    if (d.provider.projectId) d.set("projectId", d.provider.projectId);
  },
  sensitive: new SecretPaths([]),
  // The service's template answers do not carry the project it was made in, and no call moves it.
  writeOnly: ["projectId"],
  attributes: ["uuid", "name", "description", "inboundRules", "virtualDeviceDetails", "createdBy", "createdDate"],
  serverSet: ["uuid", "virtualDeviceDetails", "createdBy", "createdDate"],
  parents: {},
  timeoutMs: 5 * 60_000,
  networkEdge: true,
  // A template is stored, not provisioned.
  typicalSeconds: { create: 2, update: 2, delete: 2 },
  handler,
};
