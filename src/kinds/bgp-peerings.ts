// BGP peerings of virtual devices: a BGP session on a connection that ends at a device, from the device's
// address on the connection to the remote peer, with an optional MD5 authentication key (sensitive). Every
// session field changes in place by one PUT; the connection cannot change. The service has no delete: a
// peering removed from the configuration is forgotten (the plan says so), and goes with its connection.
//
// Reading the real service (equinix/ne-go's recorded answer ne_bgp_get_resp.json): the connection and the
// device are spelled `connectionUUID` and `virtualDeviceUUID` there and `connectionUuid` in the official
// description (both are read), and the answer carries the authentication key, so the key is compared with
// the service's, as the routing protocols' and the VPNs' are.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { cidr4, ipv4, lazily, SecretPaths, uuid } from "../config/index.js";
import { asNumber, compact, orGone, readinessFrom, uuidOf, type StateTable } from "./common.js";
import { uuidField } from "./reading.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Readiness, UpdateMethod } from "./types.js";

const BASE = "/ne/v1/bgp";
const PAGE_SIZE = 100;
const asn = () => z.int().min(1, { error: "ASN must be 1 to 4294967295" }).max(4294967295, { error: "ASN must be 1 to 4294967295" });

const schema = lazily(() =>
  z.strictObject({
    connectionUuid: uuid().describe("the connection the session runs on, normally ${connections.NAME.uuid}; it must end at a device"),
    localIpAddress: cidr4().describe("the device's address on the connection, with its prefix, e.g. 100.210.1.221/30"),
    localAsn: asn(),
    remoteIpAddress: ipv4().describe("the remote peer's address"),
    remoteAsn: asn(),
    authenticationKey: z.string().min(6).max(80).optional().describe("BGP MD5 key (sensitive); use ${secret.NAME}"),
  }),
);

const TABLE: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED"],
};

const peeringPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
const statusOf = (body: Body): string | undefined => (typeof body.provisioningStatus === "string" ? body.provisioningStatus : undefined);
const isGone = (body: Body) => statusOf(body) === "DEPROVISIONED";

/** The comparable form; the engine compares the authentication key, a secret, apart. */
const comparable = (source: Body): Body =>
  compact({ connectionUuid: uuidField(source, "connectionUuid"), localIpAddress: source.localIpAddress, localAsn: asNumber(source.localAsn), remoteIpAddress: source.remoteIpAddress, remoteAsn: asNumber(source.remoteAsn) }) as Body;

/** What the PUT takes: the session, its key included (the service keeps no key the PUT leaves out). */
const sessionBody = (spec: Body): Body =>
  compact({ localIpAddress: spec.localIpAddress, localAsn: spec.localAsn, remoteIpAddress: spec.remoteIpAddress, remoteAsn: spec.remoteAsn, authenticationKey: spec.authenticationKey }) as Body;

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", peeringPath(ref.id)));
  return body === undefined || isGone(body) ? undefined : body;
}

const PUT: UpdateMethod = { via: "put" };

const handler: KindHandler = {
  noun: "BGP peering",

  observe,

  async observeMany(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.id));
    const found = new Map<string, Body>();
    for await (const body of listAll<Body>(ctx.api, BASE, { pageSize: PAGE_SIZE })) {
      if (typeof body.uuid === "string" && wanted.has(body.uuid) && !isGone(body)) found.set(body.uuid, body);
      if (found.size === wanted.size) break;
    }
    return found;
  },

  desired: comparable,
  observed: comparable,

  updatable: { localIpAddress: PUT, localAsn: PUT, remoteIpAddress: PUT, remoteAsn: PUT, authenticationKey: PUT },
  returnedSecrets: new SecretPaths(["authenticationKey"]),

  async create(ctx, spec) {
    const response = await ctx.api.call<Body>("POST", BASE, { body: { connectionUuid: spec.connectionUuid, ...sessionBody(spec) } });
    return { id: uuidOf(response, "BGP peering create"), body: response };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.length === 0) return;
    await ctx.api.call("PUT", peeringPath(ref.id), { body: sessionBody(spec) });
  },

  delete: () => Promise.resolve(),
  keptByService: "the service has no delete for BGP peerings: netform forgets the peering, which goes with its connection",

  readiness(body, operation): Readiness {
    // Nothing to wait for when forgetting.
    if (operation === "delete") return "ready";
    return readinessFrom(TABLE, statusOf(body), operation, typeof body.state === "string" ? `session ${body.state}` : undefined);
  },
  stateOf: statusOf,

  async lookup(ctx, spec, owned) {
    if (typeof spec.connectionUuid !== "string") return undefined;
    for await (const body of listAll<Body>(ctx.api, BASE, { query: { connectionUuid: spec.connectionUuid }, pageSize: PAGE_SIZE })) {
      // A service that ignores the filter must not hand over another connection's peering.
      if (uuidField(body, "connectionUuid") !== spec.connectionUuid) continue;
      if (typeof body.uuid === "string" && !isGone(body) && !owned?.has(body.uuid)) return { id: body.uuid, body };
    }
    return undefined;
  },

  eventSubject: (ref) => peeringPath(ref.id),
};

export const bgpPeerings: KindDefinition<"bgpPeerings"> = {
  name: "bgpPeerings",
  description: "BGP peerings of virtual devices over their connections, by name",
  get spec() {
    return schema();
  },
  sensitive: new SecretPaths(["authenticationKey"]),
  attributes: ["uuid", "connectionUuid", "virtualDeviceUuid", "localIpAddress", "localAsn", "remoteIpAddress", "remoteAsn", "authenticationKey", "provisioningStatus", "state"],
  serverSet: ["uuid", "virtualDeviceUuid", "provisioningStatus", "state", "createdBy", "createdDate", "lastUpdatedBy", "lastUpdatedDate"],
  parents: {},
  timeoutMs: 30 * 60_000,
  networkEdge: true,
  typicalSeconds: { create: 30, update: 30, delete: 10 },
  handler,
};
