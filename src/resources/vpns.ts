// VPN configurations of a virtual device (sections 2.7, 3.5, 4.7): an IPsec tunnel with a BGP session to
// a remote site, and a second tunnel on the secondary of a redundant pair. Every change is a PUT of the
// whole configuration, secrets included; only the device it lives on cannot change.

import { listAll } from "../api/index.js";
import { NetformError } from "../diag/index.js";
import { asNumber, compact, deleteIdempotently, orGone, readinessFrom, type StateTable } from "./common.js";
import type { Body, KindContext, ObjectRef, Observed, Readiness, ResourceKind, UpdateMethod } from "./types.js";

const BASE = "/ne/v1/vpn";
const PAGE_SIZE = 100;

const TABLE: StateTable = {
  done: { create: ["PROVISIONED"], update: ["PROVISIONED"], delete: ["DEPROVISIONED"] },
  failed: ["FAILED"],
};
/** A VPN in one of these states is being or has been deleted: never the one a create just made. */
const DELETED_STATES: readonly string[] = ["DEPROVISIONING", "DEPROVISIONED"];

/** The fields of one tunnel that are not secret (peerSharedKey and password are compared by the engine's hash). */
const TUNNEL_FIELDS = ["configName", "peerIp", "remoteAsn", "remoteIpAddress", "localAsn", "tunnelIp"] as const;
/** ASNs are strings in some documents and numbers in others (2.7). */
const ASN_FIELDS: readonly string[] = ["remoteAsn", "localAsn"];

const isObject = (v: unknown): v is Body => v !== null && typeof v === "object" && !Array.isArray(v);
const statusOf = (body: Body): string | undefined => (typeof body.status === "string" ? body.status : undefined);
const vpnPath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;

function tunnel(source: unknown): Body | undefined {
  if (!isObject(source)) return undefined;
  return Object.fromEntries(TUNNEL_FIELDS.map((f) => [f, ASN_FIELDS.includes(f) ? asNumber(source[f]) : source[f]]));
}

/** The comparable form, the same for a spec and a response. */
function comparable(source: Body, withDefaults: boolean): Body {
  return compact({
    virtualDeviceUuid: source.virtualDeviceUuid,
    siteName: source.siteName,
    ...tunnel(source),
    // 4.7: false unless the device has a network service connection; a removed `true` is a change.
    useNetworkServiceConnection: withDefaults ? (source.useNetworkServiceConnection ?? false) : source.useNetworkServiceConnection,
    secondary: tunnel(source.secondary),
  }) as Body;
}

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", vpnPath(ref.id)));
  // A deleted VPN stays readable as DEPROVISIONED (3.5); it is gone.
  return body === undefined || statusOf(body) === "DEPROVISIONED" ? undefined : body;
}

/** What the update table of 4.7 takes: every field, secrets included, without the device (it is in the stored record). */
function putBody(spec: Body): Body {
  return compact({ ...spec, useNetworkServiceConnection: spec.useNetworkServiceConnection ?? false }) as Body;
}

/** The tunnel's and BGP session's condition: the service gives no other reason for a FAILED VPN. */
function failureReason(body: Body): string | undefined {
  const parts = [
    typeof body.tunnelStatus === "string" ? `tunnel ${body.tunnelStatus}` : undefined,
    typeof body.bgpState === "string" ? `BGP ${body.bgpState}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

const PUT: UpdateMethod = { via: "put" };

export const vpns: ResourceKind = {
  kind: "vpns",
  noun: "VPN",

  observe,

  async observeMany(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.id));
    const found = new Map<string, Body>();
    // Without statusList the list leaves DEPROVISIONED configurations out: exactly the ones that are gone.
    for await (const body of listAll<Body>(ctx.api, BASE, { pageSize: PAGE_SIZE })) {
      if (typeof body.uuid === "string" && wanted.has(body.uuid)) found.set(body.uuid, body);
      if (found.size === wanted.size) break;
    }
    return found;
  },

  desired: (spec) => comparable(spec, true),
  observed: (body) => comparable(body, false),

  updatable: {
    siteName: PUT,
    configName: PUT,
    peerIp: PUT,
    peerSharedKey: PUT,
    remoteAsn: PUT,
    remoteIpAddress: PUT,
    password: PUT,
    localAsn: PUT,
    tunnelIp: PUT,
    useNetworkServiceConnection: PUT,
    secondary: PUT,
  },

  async create(ctx, spec) {
    // 201 {uuid}, Location /ne/v1/vpn/{uuid}.
    const response = await ctx.api.call<Body>("POST", BASE, { body: putBody(spec) });
    if (typeof response.uuid !== "string") throw new NetformError({ code: "api.unexpected_body", source: "internal", message: "VPN create: the service's answer has no uuid" });
    return { id: response.uuid, body: response };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.length === 0) return;
    await ctx.api.call("PUT", vpnPath(ref.id), { body: putBody(spec) });
  },

  // A VPN already being deleted is refused with VPN_ALREADY_DELETED.
  delete: (ctx, ref) =>
    deleteIdempotently(
      () => ctx.api.call("DELETE", vpnPath(ref.id)),
      () => orGone(() => ctx.api.call<Body>("GET", vpnPath(ref.id))),
      (now) => DELETED_STATES.includes(statusOf(now) ?? ""),
    ),

  readiness(body, operation): Readiness {
    return readinessFrom(TABLE, statusOf(body), operation, failureReason(body));
  },

  stateOf: statusOf,

  async lookup(ctx, spec): Promise<Observed | undefined> {
    const device = spec.virtualDeviceUuid;
    if (typeof device !== "string") return undefined;
    // A device's VPNs are told apart by their configName.
    for await (const body of listAll<Body>(ctx.api, BASE, { query: { virtualDeviceUuid: device }, pageSize: PAGE_SIZE })) {
      if (body.configName === spec.configName && typeof body.uuid === "string" && !DELETED_STATES.includes(statusOf(body) ?? "")) return { id: body.uuid, body };
    }
    return undefined;
  },
};
