// ACL templates of the network-edge service: the networks a device's WAN or management interface lets in,
// as an ordered list of inbound rules. Devices name them in aclDetails (${aclTemplates.NAME.uuid}); a
// device changes template in place through its ACL call, and the service refuses to delete a template a
// device still uses, so the reference orders the delete after the device's. Every field changes by one
// PUT of the whole template; a template has no status, so it is ready as soon as it reads back.
//
// Reading the real service (equinix/ne-go's recorded answers ne_acltemplate_get_resp.json and
// ne_acltemplates_get_resp.json): a rule's sources come back as `subnets: [...]` where the official
// description and the incumbent provider send one `subnet` (both are read, and a rule may declare either),
// a rule may admit a domain (`srcType: DOMAIN`, `fqdn`; its `subnets` are then what the service resolved
// the name to, not compared), and `seqNo` numbers the rules in order. Up to 10 destination ports may be
// listed comma separated, as the provider allows.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { cidr4, lazily, SecretPaths, text, type RuleContext } from "../config/index.js";
import { compact, deleteIdempotently, orGone, uuidOf } from "./common.js";
import { enumeration, objectsOf, oneOrMany } from "./reading.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, UpdateMethod } from "./types.js";

const BASE = "/ne/v1/aclTemplates";
const PAGE_SIZE = 100;
const PROTOCOLS = ["IP", "TCP", "UDP"] as const;
const SOURCE_TYPES = ["SUBNET", "DOMAIN"] as const;
const ANY = "any";
/** The most ports one rule lists (the incumbent provider's rule: "up to 10, comma separated"). */
export const MAX_LISTED_PORTS = 10;

/** "any", one port, a range ("1024-2048"), or up to 10 ports separated by commas ("53,1045,2041"). */
export const PORT_PATTERN = /^(any|\d{1,5}-\d{1,5}|\d{1,5}(\s*,\s*\d{1,5})*)$/;

const portError = `must be "any", a port, a range such as 1024-2048, or up to ${MAX_LISTED_PORTS} ports separated by commas such as 53,1045,2041 (ports 0 to 65535)`;

/** Whether a port definition is one the service takes: its form, each port's range, how many are listed. */
export function isPortDefinition(value: string): boolean {
  if (!PORT_PATTERN.test(value)) return false;
  if (value === ANY) return true;
  const ports = value.split(/[,-]/).map((p) => Number(p.trim()));
  if (!ports.every((p) => p <= 65535)) return false;
  return value.includes("-") ? ports[0]! <= ports[1]! : ports.length <= MAX_LISTED_PORTS;
}

const port = () =>
  z
    .union([z.int().min(0).max(65535), z.string().refine(isPortDefinition, { error: portError })])
    .optional()
    .describe('default "any"');

const rule = lazily(() =>
  z.strictObject({
    protocol: z.enum(PROTOCOLS),
    srcType: z.enum(SOURCE_TYPES).optional().describe("SUBNET (default) or DOMAIN, a rule that admits what fqdn resolves to"),
    subnet: cidr4().optional().describe("the source network let in, e.g. 198.51.100.0/24"),
    subnets: z.array(cidr4()).min(1).optional().describe("several source networks, in place of subnet"),
    fqdn: z.string().min(1).max(255).optional().describe("the source domain, with srcType DOMAIN"),
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
    inboundRules: z.array(rule()).min(1, { error: "inboundRules needs at least one rule" }).describe("in order: the service numbers them as listed"),
  }),
);

/** A rule's sources: a domain, or one or more subnets, never both; the service refuses anything else. */
function rules(r: RuleContext): void {
  const inbound = r.get(["inboundRules"]);
  if (!Array.isArray(inbound)) return;
  inbound.forEach((_, i) => {
    const at = (field: string) => ["inboundRules", i, field];
    const domain = r.get(at("srcType")) === "DOMAIN" || (r.has(at("fqdn")) && !r.has(at("srcType")));
    const subnets = ["subnet", "subnets"].filter((f) => r.has(at(f)));
    if (subnets.length > 1) r.report({ path: at("subnets"), code: "rule.acl-source", message: "give subnet or subnets, not both", atKey: true });
    if (domain) {
      if (!r.has(at("fqdn"))) r.report({ path: at("srcType"), code: "rule.acl-source", message: "a DOMAIN rule needs fqdn, the domain to let in" });
      for (const f of subnets) r.report({ path: at(f), code: "rule.acl-source", message: `a DOMAIN rule admits what fqdn resolves to; remove ${f}`, atKey: true });
    } else {
      if (r.has(at("fqdn"))) r.report({ path: at("fqdn"), code: "rule.acl-source", message: "fqdn applies only to rules with srcType DOMAIN", hint: "set srcType: DOMAIN, or remove fqdn", atKey: true });
      if (subnets.length === 0) r.report({ path: ["inboundRules", i], code: "rule.acl-source", message: "a rule needs subnet (or subnets), the source network to let in", hint: "e.g. subnet: 198.51.100.0/24" });
    }
  });
}

const templatePath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;

/** A port definition as the service keeps it: a string, "any" where none is given, a list without spaces. */
const portOf = (v: unknown): unknown => (v === undefined || v === null ? ANY : String(v).replace(/\s+/g, ""));

const isDomainRule = (r: Body): boolean => enumeration(r.srcType) === "DOMAIN" || (r.srcType === undefined && typeof r.fqdn === "string");

/**
 * One rule in its comparable form, from a spec or an answer: a domain rule by its name (what the service
 * resolved it to changes without anyone changing the rule), a subnet rule by its subnets, one or many.
 */
function ruleForm(r: Body): Body {
  const domain = isDomainRule(r);
  return compact({
    protocol: enumeration(r.protocol),
    srcType: domain ? "DOMAIN" : "SUBNET",
    ...(domain ? { fqdn: r.fqdn } : { subnets: oneOrMany(r, "subnet", "subnets") }),
    srcPort: portOf(r.srcPort),
    dstPort: portOf(r.dstPort),
    description: r.description,
  }) as Body;
}

/** The comparable form, the same for a spec and a response. */
const comparable = (source: Body): Body => compact({ name: source.name, description: source.description, inboundRules: objectsOf(source.inboundRules).map(ruleForm) }) as Body;

/**
 * The request the create and the PUT send, as the official client sends it: one source network as
 * `subnet` (the official description's field), several as `subnets`, a domain as `srcType` and `fqdn`.
 */
function requestBody(spec: Body): Body {
  const inboundRules = objectsOf(spec.inboundRules).map((r) => {
    const { srcType, subnets, fqdn, ...rest } = ruleForm(r);
    const sources = srcType === "DOMAIN" ? { srcType, fqdn } : Array.isArray(subnets) && subnets.length === 1 ? { subnet: subnets[0] } : { subnets };
    return { ...rest, ...sources };
  });
  return compact({ name: spec.name, description: spec.description, inboundRules, projectId: spec.projectId }) as Body;
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
  rules,
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
