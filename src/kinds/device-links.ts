// Device link groups of the network-edge service: provisioned devices joined on a private subnet, each on
// one of its interfaces with its ASN, with a metro link (and its throughput) for each metro when the devices
// are in several. Every field changes in place by one PATCH of the whole group; the group names the
// devices by uuid, so it is made after them and deleted before them.
//
// Reading the real service (equinix/ne-go's recorded answers ne_device_links_get_resp.json and
// ne_device_link_get_resp.json): the list is `{pagination, data}` (the official description says a bare
// array: both are read), `redundancyType` comes back as "Primary" (compared without regard to case), a
// member's `asn` is left out (compared only when there), and a metro link names its account as
// `accountNumber` or `account_number` (left out of the comparison: the service may answer with the
// account's name instead).

import { z } from "zod";
import { listAll } from "../api/index.js";
import { cidr4, digits, lazily, metroCode, SecretPaths, text, uuid } from "../config/index.js";
import { asNumber, compact, deleteIdempotently, orGone, readinessFrom, uuidOf, type StateTable } from "./common.js";
import { enumeration, objectsOf } from "./reading.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, UpdateMethod } from "./types.js";

const BASE = "/ne/v1/links";

const schema = lazily(() =>
  z.strictObject({
    groupName: text(1, 50, "groupName").optional().describe("default: the resource name"),
    subnet: cidr4().describe("the private subnet the devices are given addresses in, e.g. 192.168.40.0/29"),
    redundancyType: z.enum(["PRIMARY", "SECONDARY", "Primary", "Secondary"]).optional().describe("compared without regard to case: the service answers \"Primary\""),
    linkDevices: z
      .array(
        z.strictObject({
          deviceUuid: uuid().describe("normally ${devices.NAME.uuid}"),
          asn: z.int().min(1).max(4294967295).optional(),
          interfaceId: z.int().min(1).optional().describe("the device's interface the link uses"),
        }),
      )
      .min(2, { error: "linkDevices needs at least two devices" }),
    metroLinks: z
      .array(
        z.strictObject({
          metroCode: metroCode(),
          throughput: digits("throughput"),
          throughputUnit: z.enum(["Mbps", "Gbps"]),
          accountNumber: digits("accountNumber").optional().describe("default: the caller's first account"),
        }),
      )
      .optional()
      .describe("one per metro, when the devices are in more than one"),
  }),
);

const TABLE: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED"],
};

const PAGE_SIZE = 100;

const groupPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
const statusOf = (body: Body): string | undefined => (typeof body.status === "string" ? body.status : undefined);
const byDevice = (a: Body, b: Body) => String(a.deviceUuid).localeCompare(String(b.deviceUuid));
const byMetro = (a: Body, b: Body) => String(a.metroCode).localeCompare(String(b.metroCode));

/**
 * The comparable form, the same for a spec and a response: members and metro links in one order (the
 * service keeps none), throughputs as the strings the service answers, enumerations in capitals.
 */
function comparable(source: Body): Body {
  return compact({
    groupName: source.groupName,
    subnet: source.subnet,
    redundancyType: enumeration(source.redundancyType),
    linkDevices: objectsOf(source.linkDevices)
      .map((d) => ({ deviceUuid: d.deviceUuid, asn: asNumber(d.asn), interfaceId: asNumber(d.interfaceId) }))
      .sort(byDevice),
    metroLinks: objectsOf(source.metroLinks)
      .map((m) => ({ metroCode: m.metroCode, throughput: String(m.throughput), throughputUnit: m.throughputUnit }))
      .sort(byMetro),
  }) as Body;
}

/**
 * The request a create and an update send: the whole group, as the official client sends it (throughputs
 * and account numbers as strings, `redundancyType` in capitals as the official description writes it).
 */
function requestBody(spec: Body): Body {
  return compact({
    groupName: spec.groupName,
    subnet: spec.subnet,
    redundancyType: enumeration(spec.redundancyType),
    linkDevices: spec.linkDevices,
    metroLinks: objectsOf(spec.metroLinks).map((m) => ({ ...m, throughput: String(m.throughput), ...(m.accountNumber === undefined ? {} : { accountNumber: String(m.accountNumber) }) })),
  }) as Body;
}

async function everyGroup(ctx: KindContext, query: Record<string, string> = {}): Promise<Body[]> {
  const groups: Body[] = [];
  for await (const group of listAll<Body>(ctx.api, BASE, { query, pageSize: PAGE_SIZE })) groups.push(group);
  return groups;
}

const observe = (ctx: KindContext, ref: ObjectRef) => orGone(() => ctx.api.call<Body>("GET", groupPath(ref.id)));

const UPDATE: UpdateMethod = { via: "update" };

const handler: KindHandler = {
  noun: "device link group",

  observe,

  async observeMany(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.id));
    return new Map((await everyGroup(ctx)).filter((g) => typeof g.uuid === "string" && wanted.has(g.uuid)).map((g) => [g.uuid as string, g]));
  },

  desired: comparable,
  observed: comparable,

  updatable: { groupName: UPDATE, subnet: UPDATE, redundancyType: UPDATE, linkDevices: UPDATE, metroLinks: UPDATE },
  mayOmit: ["linkDevices[].asn", "linkDevices[].interfaceId", "redundancyType"],

  async create(ctx, spec) {
    const response = await ctx.api.call<Body>("POST", BASE, { body: requestBody(spec) });
    return { id: uuidOf(response, "device link group create"), body: response };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.length === 0) return;
    await ctx.api.call("PATCH", groupPath(ref.id), { body: requestBody(spec) });
  },

  // A group already being deleted is refused with a 400.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", groupPath(ref.id)),
      () => observe(ctx, ref),
      (now) => ["DEPROVISIONING", "DEPROVISIONED"].includes(statusOf(now) ?? ""),
    ),

  readiness: (body, operation) => readinessFrom(TABLE, statusOf(body), operation),
  stateOf: statusOf,

  async lookup(ctx, spec, owned) {
    if (typeof spec.groupName !== "string") return undefined;
    const found = (await everyGroup(ctx, { groupName: spec.groupName })).find((g) => g.groupName === spec.groupName && typeof g.uuid === "string" && !owned?.has(g.uuid));
    return found ? { id: found.uuid as string, body: found } : undefined;
  },

  eventSubject: (ref) => groupPath(ref.id),
};

export const deviceLinks: KindDefinition<"deviceLinks"> = {
  name: "deviceLinks",
  topology: "device link",
  description: "device link groups joining virtual devices, by name",
  get spec() {
    return schema();
  },
  displayName: "groupName",
  sensitive: new SecretPaths([]),
  attributes: ["uuid", "groupName", "subnet", "redundancyType", "status", "linkDevices", "metroLinks", "createdBy", "createdDate", "lastUpdatedBy", "lastUpdatedDate"],
  serverSet: ["uuid", "status", "createdBy", "createdDate", "lastUpdatedBy", "lastUpdatedDate"],
  parents: {},
  timeoutMs: 30 * 60_000,
  networkEdge: true,
  typicalSeconds: { create: 30, update: 15, delete: 20 },
  handler,
};
