// ACL templates (official description, tag "ACL Template"): the networks allowed in to a device's WAN or
// management interface, as inbound rules. A template is made, read, listed, replaced whole by PUT and
// deleted; none has a status of its own. Devices name templates by uuid in their aclDetails: the service
// refuses a device order or ACL change naming a template it does not have, and refuses to delete a
// template a device still uses.
// Rules answer as the real service's do (equinix/ne-go's recorded answers ne_acltemplate_get_resp.json,
// ne_acltemplates_get_resp.json), where the official description is contradicted: sources as `subnets: [...]`
// with their `srcType`, a request's `subnet` or `subnets` read alike; a DOMAIN rule's `fqdn` resolved to a
// subnet; up to 10 destination ports listed comma separated (the incumbent provider's rule).

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { rejectUnknownFields } from "./device-fields.js";
import { neCreatedBy, neUpdatedBy, oneOf, optionalString, requireString } from "./services-shared.js";
import type { JsonObject, SimObject, World } from "../core/world.js";

export const ACL_TEMPLATE_KIND = "aclTemplates";
const PROTOCOLS = ["IP", "TCP", "UDP"] as const;
/** A device in one of these states no longer holds its templates. */
const RELEASED_DEVICE_STATUSES: readonly unknown[] = ["DEPROVISIONING", "DEPROVISIONED"];
const INTERFACE_FIELDS = [
  ["aclTemplateUuid", "WAN"],
  ["mgmtAclTemplateUuid", "MGMT"],
] as const;

const SOURCE_TYPES = ["SUBNET", "DOMAIN"] as const;
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
/** "any", a port, a range of ports ("1024-2048"), or ports listed with commas ("53,1045,2041"). */
const PORT = /^(any|\d{1,5}-\d{1,5}|\d{1,5}(,\d{1,5})*)$/;
const MAX_LISTED_PORTS = 10;
const FQDN = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

function isCidr(value: string): boolean {
  const m = CIDR.exec(value);
  return m !== null && m.slice(1, 5).every((o) => Number(o) <= 255 && String(Number(o)) === o) && Number(m[5]) <= 32;
}

function port(rule: JsonObject, key: string, property: string, protocol: string): string {
  const raw = rule[key];
  const value = (typeof raw === "number" ? String(raw) : (optionalString(rule, key, property) ?? "any")).replace(/\s+/g, "");
  const ports = value === "any" ? [] : value.split(/[,-]/).map(Number);
  const valid = PORT.test(value) && ports.every((p) => p <= 65535) && (value.includes("-") ? ports[0]! <= ports[1]! : ports.length <= MAX_LISTED_PORTS);
  if (!valid) fail("invalidProperty", property, `${property} must be "any", a port from 0 to 65535, a range such as 1024-2048, or up to ${MAX_LISTED_PORTS} ports separated by commas`, value);
  if (protocol === "IP" && value !== "any") fail("invalidProperty", property, `${property} must be "any" when the protocol is IP`, value);
  return value;
}

/** A stand-in for what a domain resolves to: the simulator reaches no DNS, so a stable address in 198.18.0.0/15 (kept for tests). */
function resolved(fqdn: string): string {
  let h = 0;
  for (const ch of fqdn.toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `198.${18 + (h & 1)}.${(h >>> 1) & 255}.${(h >>> 9) & 255}/32`;
}

/** The sources a rule admits: subnets (`subnet` or `subnets`), or a domain. */
function sources(entry: JsonObject, p: string): JsonObject {
  const rawType = optionalString(entry, "srcType", `${p}.srcType`);
  const srcType = rawType === undefined ? (entry.fqdn === undefined ? "SUBNET" : "DOMAIN") : oneOf(rawType, SOURCE_TYPES, `${p}.srcType`);
  if (srcType === "DOMAIN") {
    const fqdn = requireString(entry, "fqdn", `${p}.fqdn`);
    if (!FQDN.test(fqdn)) fail("invalidProperty", `${p}.fqdn`, `${p}.fqdn must be a domain name, e.g. example.com`, fqdn);
    const written = ["subnet", "subnets"].find((k) => entry[k] !== undefined);
    if (written) fail("invalidProperty", `${p}.${written}`, `${p} is a DOMAIN rule: it admits what fqdn resolves to, and takes no ${written}`);
    return { srcType, fqdn, subnets: [resolved(fqdn)] };
  }
  if (entry.fqdn !== undefined) fail("invalidProperty", `${p}.fqdn`, `${p}.fqdn applies only to rules with srcType DOMAIN`);
  if (entry.subnet !== undefined && entry.subnets !== undefined) fail("invalidProperty", `${p}.subnets`, `${p} takes subnet or subnets, not both`);
  const single = entry.subnets === undefined;
  const listed = single ? [requireString(entry, "subnet", `${p}.subnet`)] : entry.subnets;
  if (!Array.isArray(listed) || listed.length === 0) return fail("invalidProperty", `${p}.subnets`, `${p}.subnets must be a non-empty array of subnets`, JSON.stringify(listed));
  const subnets = listed.map((subnet, j) => {
    const property = single ? `${p}.subnet` : `${p}.subnets[${j}]`;
    if (typeof subnet !== "string" || !isCidr(subnet)) fail("invalidProperty", property, `${property} must be an IPv4 subnet in CIDR notation, e.g. 192.168.1.0/24`, String(subnet));
    return subnet as string;
  });
  return { srcType, subnets };
}

function inboundRules(body: JsonObject): JsonObject[] {
  const raw = body.inboundRules;
  if (raw === undefined || raw === null) return fail("missingProperty", "inboundRules", "inboundRules is required");
  if (!Array.isArray(raw) || raw.length === 0) return fail("invalidProperty", "inboundRules", "inboundRules must be a non-empty array", JSON.stringify(raw));
  return raw.map((entry, i) => {
    const p = `inboundRules[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return fail("invalidProperty", p, `${p} must be an object`);
    rejectUnknownFields(entry, ["protocol", "srcType", "srcPort", "dstPort", "subnet", "subnets", "fqdn", "seqNo", "description"], `${p}.`);
    const protocol = oneOf(requireString(entry, "protocol", `${p}.protocol`), PROTOCOLS, `${p}.protocol`);
    const description = optionalString(entry, "description", `${p}.description`);
    return {
      // The service numbers the rules in the order given.
      seqNo: i + 1,
      ...sources(entry, p),
      protocol,
      srcPort: port(entry, "srcPort", `${p}.srcPort`, protocol),
      dstPort: port(entry, "dstPort", `${p}.dstPort`, protocol),
      ...(description === undefined ? {} : { description }),
    };
  });
}

interface TemplateRequest {
  name: string;
  description?: string;
  inboundRules: JsonObject[];
}

function readTemplate(body: JsonObject): TemplateRequest {
  rejectUnknownFields(body, ["name", "description", "projectId", "inboundRules"]);
  const name = requireString(body, "name");
  if (name.length > 50) fail("invalidProperty", "name", "name must be at most 50 characters", name);
  const description = optionalString(body, "description");
  return { name, ...(description === undefined ? {} : { description }), inboundRules: inboundRules(body) };
}

function findTemplate(world: World, principal: Principal, uuid: string, property = "uuid"): SimObject {
  const template = world.get(uuid, ACL_TEMPLATE_KIND);
  if (!template || !canSee(principal, template)) return fail("notFound", property, `ACL template ${uuid} was not found`, uuid);
  return template;
}

/** The devices holding the template now, with the interface each holds it on. */
function holders(world: World, uuid: string): Array<{ device: JsonObject; interfaceType: string }> {
  return world.list("devices").flatMap((d) => {
    const view = world.view(d);
    if (RELEASED_DEVICE_STATUSES.includes(view.status)) return [];
    return INTERFACE_FIELDS.filter(([field]) => view[field] === uuid).map(([, interfaceType]) => ({ device: view, interfaceType }));
  });
}

/** A device order or ACL change may name only templates the caller's organisation has. */
export function requireAclTemplates(world: World, principal: Principal, aclDetails: readonly JsonObject[], property: string): void {
  aclDetails.forEach((entry, i) => {
    const uuid = String(entry.uuid);
    const template = world.get(uuid, ACL_TEMPLATE_KIND);
    if (!template || !canSee(principal, template)) fail("referenceNotFound", `${property}[${i}].uuid`, `ACL template ${uuid} was not found; create it first (POST /ne/v1/aclTemplates)`, uuid);
  });
}

async function createTemplate(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, ["accountUcmId"]);
  const principal = c.get("principal");
  const body = await readObject(c);
  const request = readTemplate(body);
  const requested = optionalString(body, "projectId");
  if (requested !== undefined && !principal.projectIds.includes(requested)) fail("forbidden", "projectId", `project ${requested} is not accessible to ${principal.userName}`, requested);
  const projectId = requested ?? principal.projectIds[0]!;
  const uuid = world.uuid();
  world.create(ACL_TEMPLATE_KIND, { uuid, ...request, projectId, ...neCreatedBy(principal, world.nowIso()) }, { uuid, projectId });
  c.header("Location", `/ne/v1/aclTemplates/${uuid}`);
  return c.json({ uuid }, 201);
}

function listTemplates(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["offset", "limit", "accountUcmId"]);
  const principal = c.get("principal");
  const page = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
  const items = world
    .list(ACL_TEMPLATE_KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o));
  return c.json(paginate(items, page));
}

function getTemplate(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, []);
  const template = findTemplate(world, c.get("principal"), c.req.param("uuid")!);
  const virtualDeviceDetails = holders(world, template.uuid).map(({ device, interfaceType }) => ({ name: device.name ?? null, uuid: device.uuid ?? null, interfaceType, aclStatus: "PROVISIONED" }));
  return c.json({ ...world.view(template), virtualDeviceDetails });
}

async function replaceTemplate(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, ["accountUcmId"]);
  const principal = c.get("principal");
  const template = findTemplate(world, principal, c.req.param("uuid")!);
  const request = readTemplate(await readObject(c));
  world.settle(template);
  world.edit(template, (stored) => {
    delete stored.description;
    Object.assign(stored, request, neUpdatedBy(principal, world.nowIso()));
  });
  world.recordEvent(template, "updated", world.now(), "ACL template replaced");
  return c.body(null, 204);
}

function deleteTemplate(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["accountUcmId"]);
  const template = findTemplate(world, c.get("principal"), c.req.param("uuid")!);
  const inUse = holders(world, template.uuid);
  if (inUse.length > 0) {
    const names = inUse.map(({ device, interfaceType }) => `${String(device.uuid)} (${interfaceType})`).join(", ");
    fail("invalidProperty", "uuid", `ACL template ${template.uuid} is in use by device ${names}; change the devices' ACLs first`, template.uuid);
  }
  world.remove(template);
  return c.body(null, 204);
}

export const aclTemplatesArea: Area = {
  name: "ne-acl-templates",
  define(world) {
    world.defineKind(ACL_TEMPLATE_KIND, { eventType: "equinix.network_edge.acl_template", subject: (o) => `/ne/v1/aclTemplates/${o.uuid}` });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/aclTemplates", (c) => createTemplate(c, world));
    app.get("/ne/v1/aclTemplates", (c) => listTemplates(c, world));
    app.get("/ne/v1/aclTemplates/:uuid", (c) => getTemplate(c, world));
    app.put("/ne/v1/aclTemplates/:uuid", (c) => replaceTemplate(c, world));
    app.delete("/ne/v1/aclTemplates/:uuid", (c) => deleteTemplate(c, world));
  },
};
