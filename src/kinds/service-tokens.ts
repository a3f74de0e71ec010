// Service tokens (official: /fabric/v4/serviceTokens): an authorisation handed to a partner, who makes one
// connection with it to (a z-side token) or from (an a-side token) a port, a virtual device or, for z-side
// tokens, a network, without access to the owner's project. The name, description, expiry, notifications
// and bandwidths change in place through the PATCH paths the official description allows; the token's
// type, connection type, side and access point cannot, so changing one is a new token. The service reads
// a token INACTIVE until a connection uses it, ACTIVE while one does, EXPIRED past its expiry: all three
// are a token that exists. A deleted token stays readable as DELETED, and an unknown one is a 400 "Token
// not found" (EQ-3034016): both count as gone. The service deletes only unused tokens, so a token goes
// after the connections made with it, which references to its uuid order.
//
// The official description marks no field of a token secret (no writeOnly field, no password format): a
// token is its uuid, which every read returns and every connection made with it names, so it is an
// identifier here. Hand it out through an output.

import { z } from "zod";
import { ApiError } from "../api/index.js";
import { isPlainObject, lazily, project, readPath, SecretPaths, uuid, vlanTag, type FieldPath, type RuleContext } from "../config/index.js";
import { asNumber, compact, deleteIdempotently, isNotFound, patchChanged, patchUpdatable, projectFor, projectIdOf, readinessFrom, sameNameAndType, searchByUuid, type StateTable, uuidOf } from "./common.js";
import { notificationsSpec, sortedNotifications } from "./notifications.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

/** The official enumeration (fabricv4 ServiceTokenConnection.type). */
export const TOKEN_CONNECTION_TYPES = ["EVPL_VC", "EPL_VC", "EVPLAN_VC", "EPLAN_VC", "IPWAN_VC", "IP_VC", "EVPTREE_VC", "EPTREE_VC"] as const;
export const SELECTOR_TYPES = ["COLO", "VD", "NETWORK"] as const;
type SelectorType = (typeof SELECTOR_TYPES)[number];
const MAX_BANDWIDTH = 100_000;

const bandwidth = () => z.int().min(1, { error: `a bandwidth is 1 to ${MAX_BANDWIDTH} Mbps` }).max(MAX_BANDWIDTH, { error: `a bandwidth is 1 to ${MAX_BANDWIDTH} Mbps` });

const selectorSpec = lazily(() =>
  z.strictObject({
    type: z.enum(SELECTOR_TYPES),
    port: z.strictObject({ uuid: uuid() }).optional().describe("COLO: the port"),
    linkProtocol: z
      .strictObject({ type: z.enum(["UNTAGGED", "DOT1Q", "QINQ"]), vlanTag: vlanTag().optional(), vlanSTag: vlanTag().optional(), vlanCTag: vlanTag().optional() })
      .optional()
      .describe("COLO: the port's encapsulation and the tag the connection gets"),
    virtualDevice: z.strictObject({ type: z.enum(["EDGE"]).optional(), uuid: uuid() }).optional().describe("VD: the device"),
    interface: z.strictObject({ type: z.enum(["NETWORK"]).optional(), id: z.int().min(0) }).optional().describe("VD: the device interface"),
    network: z.strictObject({ uuid: uuid() }).optional().describe("NETWORK (z-side only): the network, normally ${networks.NAME.uuid}"),
  }),
);

const sideSpec = lazily(() =>
  z.strictObject({
    accessPointSelectors: z.array(selectorSpec()).length(1, { error: "a token's side takes exactly one access point selector" }),
  }),
);

const schema = lazily(() =>
  z.strictObject({
    type: z.enum(["VC_TOKEN", "EPL_TOKEN"]).optional().describe("default: VC_TOKEN"),
    name: z.string().min(1).optional().describe("display name; default: the resource name"),
    description: z.string().optional(),
    expirationDateTime: z.iso.datetime({ offset: true, error: "must be a date-time such as 2030-01-31T00:00:00Z" }).describe("when the token stops being usable"),
    connection: z.strictObject({
      type: z.enum(TOKEN_CONNECTION_TYPES).describe("the type of the connection made with the token"),
      allowRemoteConnection: z.boolean().optional().describe("default false: the connection must stay within the token's metro"),
      allowCustomBandwidth: z.boolean().optional().describe("default false: only supportedBandwidths"),
      bandwidthLimit: bandwidth().optional().describe("the most the connection may use (Mbps)"),
      supportedBandwidths: z.array(bandwidth()).min(1).optional().describe("the bandwidths the connection may use (Mbps)"),
      aSide: sideSpec().optional().describe("an a-side token: connections start at this access point"),
      zSide: sideSpec().optional().describe("a z-side token: connections end at this access point"),
    }),
    project: project().optional().describe("default: provider.projectId"),
    notifications: notificationsSpec("a service token"),
  }),
);

/** What each selector type needs, and the fields that belong to one type only. */
const SELECTOR_FIELDS: Readonly<Record<SelectorType, { required: readonly string[]; allowed: readonly string[] }>> = {
  COLO: { required: ["port", "linkProtocol"], allowed: ["port", "linkProtocol"] },
  VD: { required: ["virtualDevice"], allowed: ["virtualDevice", "interface"] },
  NETWORK: { required: ["network"], allowed: ["network"] },
};
const TYPED_FIELDS = ["port", "linkProtocol", "virtualDevice", "interface", "network"];

function rules(r: RuleContext): void {
  const sides = (["aSide", "zSide"] as const).filter((s) => r.has(["connection", s]));
  if (sides.length !== 1) {
    r.report({ path: ["connection", sides[1] ?? "zSide"], code: "rule.token-side", message: "a token is for one side of a connection: give connection.aSide or connection.zSide", atKey: sides.length > 1 });
  }
  if (!r.has(["connection", "bandwidthLimit"]) && !r.has(["connection", "supportedBandwidths"])) {
    r.report({ path: ["connection", "bandwidthLimit"], code: "rule.token-bandwidth", message: "a token needs bandwidthLimit or supportedBandwidths: what its connection may use" });
  }
  for (const side of sides) selectorRules(r, ["connection", side, "accessPointSelectors", 0], side);
  if (!r.has(["project"])) {
    r.report({ path: ["project"], code: "rule.project", message: "a service token needs a project (project.projectId)", hint: "set project.projectId here or provider.projectId" });
  }
}

function selectorRules(r: RuleContext, at: FieldPath, side: "aSide" | "zSide"): void {
  const type = r.get([...at, "type"]);
  if (typeof type !== "string" || !(SELECTOR_TYPES as readonly string[]).includes(type)) return;
  if (type === "NETWORK" && side === "aSide") {
    r.report({ path: [...at, "type"], code: "rule.token-selector", message: "a network is only ever a destination: a NETWORK token is a z-side token" });
  }
  const fields = SELECTOR_FIELDS[type as SelectorType];
  for (const f of fields.required) if (!r.has([...at, f])) r.report({ path: [...at, f], code: "rule.token-selector", message: `a ${type} selector needs ${f}` });
  for (const f of TYPED_FIELDS) {
    if (r.has([...at, f]) && !fields.allowed.includes(f)) r.report({ path: [...at, f], code: "rule.token-selector", message: `${f} does not apply to a ${type} selector`, atKey: true });
  }
  const lp = r.get([...at, "linkProtocol", "type"]);
  if (lp === "DOT1Q" && !r.has([...at, "linkProtocol", "vlanTag"])) r.report({ path: [...at, "linkProtocol", "vlanTag"], code: "rule.link-protocol", message: "DOT1Q needs vlanTag" });
  if (lp === "QINQ" && !r.has([...at, "linkProtocol", "vlanSTag"])) r.report({ path: [...at, "linkProtocol", "vlanSTag"], code: "rule.link-protocol", message: "QINQ needs vlanSTag (the outer tag)" });
}

const BASE = "/fabric/v4/serviceTokens";
/** The service's answer to a token it does not have (a 400, not a 404). */
const TOKEN_NOT_FOUND = "EQ-3034016";

const STATES: StateTable = {
  done: { create: ["INACTIVE", "ACTIVE", "EXPIRED"], update: ["INACTIVE", "ACTIVE", "EXPIRED"], delete: ["DELETED"] },
  failed: [],
};

const PATCHES = [
  { field: "name", path: "/name" },
  { field: "description", path: "/description" },
  { field: "expirationDateTime", path: "/expirationDateTime" },
  { field: "notifications", path: "/notifications" },
  { field: "connection.bandwidthLimit", path: "/connection/bandwidthLimit" },
  { field: "connection.supportedBandwidths", path: "/connection/supportedBandwidths" },
] as const;

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => stateOf(body) === "DELETED";
const isUnknown = (e: unknown): boolean => isNotFound(e) || (e instanceof ApiError && e.status === 400 && e.problems.some((p) => p.code === TOKEN_NOT_FOUND));

/** A date-time in the service's own spelling (milliseconds, UTC), so that 2030-01-01T00:00:00Z is no change. */
function instant(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const at = Date.parse(v);
  return Number.isNaN(at) ? v : new Date(at).toISOString();
}

/** A selector with the only device and interface types there are filled in, as the service asks for them. */
function withTypes(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  const vd = v.virtualDevice;
  const iface = v.interface;
  return {
    ...v,
    ...(isPlainObject(vd) ? { virtualDevice: { type: "EDGE", ...vd } } : {}),
    ...(isPlainObject(iface) ? { interface: { type: "NETWORK", ...iface } } : {}),
  };
}

function selector(v: unknown): Body | undefined {
  if (!isPlainObject(v)) return undefined;
  const pick = (o: unknown, fields: readonly string[]): Body | undefined => (isPlainObject(o) ? Object.fromEntries(fields.map((f) => [f, asNumber(o[f])])) : undefined);
  const typed = withTypes(v) as Body;
  return compact({
    type: typed.type,
    port: pick(typed.port, ["uuid"]),
    linkProtocol: pick(typed.linkProtocol, ["type", "vlanTag", "vlanSTag", "vlanCTag"]),
    virtualDevice: pick(typed.virtualDevice, ["type", "uuid"]),
    interface: pick(typed.interface, ["type", "id"]),
    network: pick(typed.network, ["uuid"]),
  }) as Body;
}

const SIDES = ["aSide", "zSide"] as const;

function side(v: unknown): Body | undefined {
  if (!isPlainObject(v) || !Array.isArray(v.accessPointSelectors)) return undefined;
  return { accessPointSelectors: v.accessPointSelectors.map(selector) };
}

/** The create body: the spec with its selectors' types filled in. */
function requestOf(spec: Body): Body {
  const connection = isPlainObject(spec.connection) ? { ...spec.connection } : {};
  for (const s of SIDES) {
    const selectors = readPath(connection, `${s}.accessPointSelectors`);
    if (Array.isArray(selectors)) connection[s] = { accessPointSelectors: selectors.map(withTypes) };
  }
  return { ...spec, connection };
}

/**
 * The comparable form of a spec (withDefaults) or of a response. An absent description reads as "", as for
 * route filters. The defaults of allowRemoteConnection and allowCustomBandwidth, which cannot change in
 * place, are the spec's only: an answer without them (ServiceTokenConnection marks both optional) does not
 * say, and is not a reason to issue the token again.
 */
function comparable(body: Body, withDefaults: boolean): Body {
  const projectId = projectIdOf(body.project);
  const connection = isPlainObject(body.connection) ? body.connection : {};
  const bandwidths = connection.supportedBandwidths;
  return compact({
    type: body.type,
    name: body.name,
    description: typeof body.description === "string" ? body.description : "",
    expirationDateTime: instant(body.expirationDateTime),
    connection: {
      type: connection.type,
      allowRemoteConnection: connection.allowRemoteConnection ?? (withDefaults ? false : undefined),
      allowCustomBandwidth: connection.allowCustomBandwidth ?? (withDefaults ? false : undefined),
      bandwidthLimit: asNumber(connection.bandwidthLimit),
      supportedBandwidths: Array.isArray(bandwidths) ? bandwidths.map(Number).sort((a, b) => a - b) : bandwidths,
      aSide: side(connection.aSide),
      zSide: side(connection.zSide),
    },
    project: projectId === undefined ? undefined : { projectId },
    notifications: sortedNotifications(body.notifications),
  }) as Body;
}


async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  try {
    const body = await ctx.api.call<Body>("GET", `${BASE}/${ref.id}`);
    return isGone(body) ? undefined : body;
  } catch (e) {
    if (isUnknown(e)) return undefined;
    throw e;
  }
}

/** Which side a token is for and what its access point names: the token's identity besides its name. */
function endpointOf(body: Body): string {
  const connection = comparable(body, false).connection;
  for (const s of SIDES) {
    const sel = readPath(connection, `${s}.accessPointSelectors`);
    if (Array.isArray(sel)) return `${s}:${JSON.stringify(sel)}`;
  }
  return "";
}

/** The create request: the token's request fields, its type and project. */
const createRequest = (ctx: KindContext, spec: Body): Body => compact({ ...requestOf(spec), type: spec.type ?? "VC_TOKEN", project: projectFor(ctx, spec) }) as Body;

const handler: KindHandler = {
  noun: "service token",

  observe,

  observeMany: (ctx, refs) => searchByUuid(ctx, `${BASE}/search`, refs, isGone),

  desired: (spec) => comparable(spec, true),
  observed: (body) => comparable(body, false),

  updatable: patchUpdatable(PATCHES),

  async create(ctx, spec) {
    const body = await ctx.api.call<Body>("POST", BASE, { body: createRequest(ctx, spec) });
    return { id: uuidOf(body, "create service token"), body };
  },

  update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `service token ${ref.id}`, PATCHES, comparable(spec, true), changed),

  // createServiceToken and updateServiceTokenByUuid take dryRun (the official description).
  dryRun: {
    async create(ctx, spec) {
      await ctx.api.call("POST", BASE, { query: { dryRun: true }, body: createRequest(ctx, spec), readOnly: true });
    },
    update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `service token ${ref.id}`, PATCHES, comparable(spec, true), changed, true),
  },

  // A token the service does not know is a 400, which a fresh read finds gone: deleted.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${BASE}/${ref.id}`),
      () => observe(ctx, ref),
      isGone,
    ),

  readiness(body: Body, operation: Operation): Readiness {
    return readinessFrom(STATES, stateOf(body), operation);
  },

  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const wanted = endpointOf(spec);
    for await (const body of sameNameAndType(ctx, `${BASE}/search`, { ...spec, type: spec.type ?? "VC_TOKEN" })) {
      if (isGone(body) || endpointOf(body) !== wanted || owned?.has(String(body.uuid))) continue;
      return { id: uuidOf(body, "service token search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const serviceTokens: KindDefinition<"serviceTokens"> = {
  name: "serviceTokens",
  topology: "service token",
  description: "service tokens handed to partners, who connect to or from the token's access point, by name",
  get spec() {
    return schema();
  },
  rules,
  displayName: "name",
  defaults: (d) => {
    d.set("type", "VC_TOKEN");
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
  },
  sensitive: SecretPaths.NONE,
  attributes: ["href", "uuid", "type", "name", "description", "state", "expirationDateTime", "expiry", "issuerSide", "connection", "notifications", "account", "project", "changeLog", "changelog"],
  serverSet: ["href", "uuid", "state", "expiry", "issuerSide", "account", "changeLog", "changelog"],
  parents: {},
  timeoutMs: 5 * 60_000,
  // A token is issued at once.
  typicalSeconds: { create: 2, update: 2, delete: 2 },
  handler,
};
