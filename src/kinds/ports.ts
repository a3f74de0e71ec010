// Ports (sections 2.14 and 4.13; official: /fabric/v4/ports): an order for a physical port (or a link
// aggregation group of them) in a data center, which connections then start at. The official PATCH changes
// the name, the encapsulation and link aggregation in place; every other field is part of the order, so
// changing it orders a new port. A released port stays readable as DEPROVISIONED, which counts as gone.
// The service checks an order only it can check: a plan sends each port it would order as a dry run first.

import { z } from "zod";
import { digits, isPlainObject, lazily, metroCode, project, readPath, SecretPaths, text, type RuleContext } from "../config/index.js";
import { asNumber, compact, deleteIdempotently, patchChanged, patchUpdatable, projectFor, projectIdOf, readinessFrom, readUnlessGone, sameNameInProject, searchByUuid, type StateTable, uuidOf } from "./common.js";
import { portPricing } from "./ports-pricing.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

/** Port speeds the service orders (Mbps), and the optics that run at each. */
const SPEEDS = [1000, 10000, 100000, 400000] as const;
const OPTICS = ["1000BASE_LX", "1000BASE_SX", "10GBASE_LR", "10GBASE_ER", "10GBASE_SMF", "10GBASE_L", "100GBASE_LR4", "400GBASE_LR4"] as const;
/** The port's notification contacts by type (PortNotification); the service fills in the types left out. */
const NOTIFICATION_TYPES = ["TECHNICAL", "NOTIFICATION", "PEERING", "ESCALATION"] as const;
const IBX = /^[A-Z]{2}\d{1,2}$/;

const schema = lazily(() =>
  z.strictObject({
    type: z.enum(["XF_PORT"]).optional().describe("default: XF_PORT"),
    name: text(1, 50, "name").optional().describe("display name; default: the resource name"),
    description: z.string().min(1).optional(),
    physicalPortsSpeed: z
      .int()
      .refine((v) => (SPEEDS as readonly number[]).includes(v), { error: `physicalPortsSpeed must be one of ${SPEEDS.join(", ")} (Mbps)` })
      .describe(`speed of each physical port in Mbps: ${SPEEDS.join(", ")}`),
    physicalPortsType: z.enum(OPTICS).describe("the optics, which must run at physicalPortsSpeed"),
    physicalPortsCount: z.int().min(1).max(8).optional().describe("physical ports in the order, 1 to 8 (more than one needs lagEnabled); default: 1"),
    connectivitySourceType: z.enum(["COLO", "BMMR", "REMOTE"]).describe("COLO: in your cage; BMMR: in a meet-me room; REMOTE: through a provider"),
    location: z.strictObject({ metroCode: metroCode() }).describe("the metro the port is ordered in"),
    demarcationPointIbx: z.string().regex(IBX, { error: "must be a data-center code such as DC6" }).optional().describe("the data center of the port's demarcation point, in the location's metro"),
    lagEnabled: z.boolean().optional().describe("a link aggregation group; default: false"),
    package: z.strictObject({ code: z.enum(["STANDARD", "UNLIMITED", "UNLIMITED_PLUS"]) }).optional().describe("default: STANDARD"),
    settings: z
      .strictObject({ buyout: z.boolean().optional(), placeVcOrderPermission: z.boolean().optional(), viewPortPermission: z.boolean().optional() })
      .optional(),
    encapsulation: z
      .strictObject({ type: z.enum(["DOT1Q", "QINQ", "UNTAGGED"]), tagProtocolId: z.enum(["0x8100", "0x88A8", "0x9100"]).optional().describe("DOT1Q: 0x8100; QINQ: 0x88A8 (default), 0x9100 or 0x8100") })
      .describe("how the port tags its traffic"),
    redundancy: z
      .strictObject({ priority: z.enum(["PRIMARY", "SECONDARY"]), group: z.string().min(1).optional().describe("the redundancy group of the primary a SECONDARY port joins") })
      .optional()
      .describe("default: a PRIMARY port of a new group"),
    notifications: z
      .array(z.strictObject({ type: z.enum(NOTIFICATION_TYPES), registeredUsers: z.array(z.string().min(1)).min(1) }))
      .min(1)
      .optional()
      .describe("who the service informs; the types left out go to the TECHNICAL contacts"),
    order: z
      .strictObject({
        customerReferenceId: z.string().min(1).optional(),
        purchaseOrder: z
          .strictObject({
            type: z.enum(["NEW", "EXISTING", "BLANKET", "EXEMPTION"]),
            number: z.string().min(1).optional(),
            amount: z.string().min(1).optional(),
            startDate: z.string().optional(),
            endDate: z.string().optional(),
          })
          .optional(),
      })
      .optional()
      .describe("the purchase order the port is billed under"),
    project: project().optional().describe("default: provider.projectId"),
    account: z.strictObject({ accountNumber: digits("accountNumber") }).optional().describe("the billing account; default: provider.accountNumber"),
  }),
);

function rules(r: RuleContext): void {
  if (!r.has(["account"])) {
    r.report({ path: ["account"], code: "rule.account", message: "a port is ordered for an account (account.accountNumber)", hint: "set account.accountNumber here or provider.accountNumber" });
  }
}

const BASE = "/fabric/v4/ports";

const STATES: StateTable = {
  done: { create: ["ACTIVE", "PROVISIONED"], update: ["ACTIVE", "PROVISIONED"], delete: ["DEPROVISIONED", "DELETED"] },
  failed: ["FAILED", "INACTIVE"],
};
const LEAVING = ["DEPROVISIONING", "DEPROVISIONED", "DELETED"];

/** The fields the official PATCH replaces in place, each with its path. */
const PATCHES = [
  { field: "name", path: "/name" },
  { field: "encapsulation", path: "/encapsulation" },
  { field: "lagEnabled", path: "/lagEnabled" },
] as const;

const stateOf = (body: Body): string | undefined => (typeof body.state === "string" ? body.state : undefined);
const isGone = (body: Body): boolean => ["DEPROVISIONED", "DELETED"].includes(stateOf(body) ?? "");

/** The four notification types as the service keeps them: each written type's users, the others the technical contacts'. */
function expandedNotifications(v: unknown): unknown {
  if (!Array.isArray(v)) return undefined;
  const given = new Map<unknown, unknown>(v.map((n: Body) => [n.type, Array.isArray(n.registeredUsers) ? [...n.registeredUsers].map(String).sort() : n.registeredUsers]));
  const fallback = given.get("TECHNICAL") ?? given.values().next().value;
  return NOTIFICATION_TYPES.map((type) => ({ type, registeredUsers: given.get(type) ?? fallback }));
}

/** Without a tag protocol written, the service tags as the encapsulation's first identifier. */
const DEFAULT_TPID: Readonly<Record<string, string>> = { DOT1Q: "0x8100", QINQ: "0x88A8" };

/**
 * A tag protocol identifier as a number. The official clients send and read it as the string "0x8100"
 * (PortEncapsulation.tagProtocolId is a string), the specification types it an integer, and every example of
 * the official description answers the decimal number (33024): all three are one identifier.
 */
function tagProtocol(v: unknown): unknown {
  if (typeof v === "string" && /^0x[0-9a-f]+$/i.test(v.trim())) return Number.parseInt(v.trim().slice(2), 16);
  return asNumber(v);
}

/**
 * How many physical ports the order has: as written, or as the answer lists them. The official description's
 * answers leave physicalPortsCount out (portByUUID) and list the ports under physicalPorts; an answer with
 * neither does not say, and is compared as not returned rather than as the default of one.
 */
function physicalPortsCount(body: Body, withDefault: boolean): unknown {
  if (body.physicalPortsCount !== undefined && body.physicalPortsCount !== null) return asNumber(body.physicalPortsCount);
  if (withDefault) return 1;
  return Array.isArray(body.physicalPorts) && body.physicalPorts.length > 0 ? body.physicalPorts.length : undefined;
}

/**
 * The comparable form of a spec (withDefaults) or of a response (which adds hrefs, order numbers, bandwidths,
 * physical ports, and settings of its own such as sharedPortType). Settings are compared only where the spec
 * writes them: the service fills in the ones an order leaves out (portByUUID answers all three). The defaults
 * of fields that cannot change in place are the spec's only: an answer without them does not say, and is
 * not a reason to order the port again.
 */
function comparable(body: Body, withDefaults: boolean): Body {
  const projectId = projectIdOf(body.project);
  const accountNumber = readPath(body, "account.accountNumber");
  const encapsulation = readPath(body, "encapsulation.type");
  const settings = isPlainObject(body.settings) ? body.settings : undefined;
  return compact({
    type: body.type,
    name: body.name,
    description: body.description,
    physicalPortsSpeed: asNumber(body.physicalPortsSpeed),
    physicalPortsType: body.physicalPortsType,
    physicalPortsCount: physicalPortsCount(body, withDefaults),
    connectivitySourceType: body.connectivitySourceType,
    location: { metroCode: readPath(body, "location.metroCode") },
    demarcationPointIbx: body.demarcationPointIbx,
    lagEnabled: body.lagEnabled ?? false,
    package: { code: readPath(body, "package.code") ?? (withDefaults ? "STANDARD" : undefined) },
    settings: settings && { buyout: settings.buyout, placeVcOrderPermission: settings.placeVcOrderPermission, viewPortPermission: settings.viewPortPermission },
    encapsulation:
      encapsulation === undefined ? undefined : { type: encapsulation, tagProtocolId: tagProtocol(readPath(body, "encapsulation.tagProtocolId") ?? DEFAULT_TPID[String(encapsulation)]) },
    redundancy: { priority: readPath(body, "redundancy.priority") ?? (withDefaults ? "PRIMARY" : undefined), group: readPath(body, "redundancy.group") },
    notifications: expandedNotifications(body.notifications),
    project: projectId === undefined ? undefined : { projectId },
    account: accountNumber === undefined ? undefined : { accountNumber: asNumber(accountNumber) },
  }) as Body;
}

/** The order as sent: the spec with its type, project and account filled in. */
function orderBody(ctx: KindContext, spec: Body): Body {
  const accountNumber = readPath(spec, "account.accountNumber") ?? ctx.provider.accountNumber;
  return compact({ ...spec, type: spec.type ?? "XF_PORT", project: projectFor(ctx, spec), account: accountNumber === undefined ? undefined : { accountNumber: asNumber(accountNumber) } }) as Body;
}

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  return readUnlessGone(ctx, `${BASE}/${ref.id}`, isGone);
}

const handler: KindHandler = {
  noun: "port",

  observe,

  observeMany: (ctx, refs) => searchByUuid(ctx, `${BASE}/search`, refs, isGone),

  desired: (spec) => comparable(spec, true),
  observed: (body) => comparable(body, false),

  updatable: patchUpdatable(PATCHES),

  async create(ctx, spec) {
    const body = await ctx.api.call<Body>("POST", BASE, { body: orderBody(ctx, spec) });
    return { id: uuidOf(body, "order port"), body };
  },

  // The service checks what only it can check (its metros, the optics of each speed, the account's rights).
  dryRun: {
    async create(ctx, spec) {
      await ctx.api.call("POST", BASE, { query: { dryRun: true }, body: orderBody(ctx, spec), readOnly: true });
    },
    update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `port ${ref.id}`, PATCHES, spec, changed, true),
  },

  update: (ctx, ref, spec, changed) => patchChanged(ctx, `${BASE}/${ref.id}`, `port ${ref.id}`, PATCHES, spec, changed),

  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", `${BASE}/${ref.id}`),
      () => observe(ctx, ref),
      (now) => LEAVING.includes(stateOf(now) ?? ""),
    ),

  readiness(body: Body, operation: Operation): Readiness {
    return readinessFrom(STATES, stateOf(body), operation);
  },

  stateOf,

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const wanted = comparable(spec, true);
    for await (const body of sameNameInProject(ctx, `${BASE}/search`, spec)) {
      if (LEAVING.includes(stateOf(body) ?? "") || owned?.has(String(body.uuid))) continue;
      const found = comparable(body, false);
      const same = (path: string) => readPath(found, path) === readPath(wanted, path);
      if (!["name", "location.metroCode", "physicalPortsSpeed", "connectivitySourceType"].every(same)) continue;
      return { id: uuidOf(body, "port search"), body };
    }
    return undefined;
  },

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const ports: KindDefinition<"ports"> = {
  name: "ports",
  topology: "port",
  description: "port orders: physical ports (or link aggregation groups) in a data center, by name",
  get spec() {
    return schema();
  },
  rules,
  displayName: "name",
  defaults: (d) => {
    d.set("type", "XF_PORT");
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
    if (d.provider.accountNumber) d.set("account", { accountNumber: d.provider.accountNumber });
  },
  sensitive: SecretPaths.NONE,
  // A purchase order is part of the order: the service keeps it as it was placed, and no call changes it.
  writeOnly: ["order"],
  attributes: [
    "href", "uuid", "type", "name", "description", "state", "location", "demarcationPointIbx", "bandwidth", "availableBandwidth", "usedBandwidth",
    "physicalPortsSpeed", "physicalPortsType", "physicalPortsCount", "connectivitySourceType", "lagEnabled", "package", "settings", "encapsulation",
    "redundancy", "notifications", "order", "project", "account", "operation", "connectionsCount", "changeLog",
  ],
  serverSet: ["href", "uuid", "state", "bandwidth", "availableBandwidth", "usedBandwidth", "operation", "connectionsCount", "changeLog"],
  parents: {},
  // A port is built and cross-connected in the data center: days on the real service.
  timeoutMs: 30 * 24 * 3600_000,
  typicalSeconds: { create: 5 * 24 * 3600, update: 60, delete: 24 * 3600 },
  handler,
  pricing: portPricing,
};
