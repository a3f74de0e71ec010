// VPN configurations of a virtual device (sections 2.7, 3.5, 4.7): an IPsec tunnel with a BGP session to
// a remote site, and a second tunnel on the secondary of a redundant pair. Every change is a PUT of the
// whole configuration, secrets included; only the device it lives on cannot change. Rules (4.7, section 8):
// the remote ASN differs from the local one in each tunnel, a peerIp is unique per device, and a VPN on a
// redundant pair needs the secondary's tunnel with its own config name.

import { z } from "zod";
import { listAll } from "../api/index.js";
import { cidr, identityOf, ipAddress, isPlainObject, lazily, placeDiagnostic, Reference, reveal, SecretPaths, text, uuid, vpnAsn, type ConfigResource, type RuleContext } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { NetformError } from "../diag/index.js";
import { asNumber, compact, deleteIdempotently, orGone, readinessFrom, type StateTable } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Readiness, UpdateMethod } from "./types.js";

/** 4 to 25 characters, letters and digits only, not starting with a digit (section 8). */
export const VPN_PASSWORD = /^[A-Za-z][A-Za-z0-9]{3,24}$/;

const password = () =>
  z.string().refine((s) => VPN_PASSWORD.test(s), { error: "password must be 4 to 25 letters and digits and must not start with a digit" }).describe("BGP password (sensitive)");

const tunnelShape = () => ({
  configName: text(3, 50, "configName"),
  peerIp: ipAddress().describe("address of the remote site; unique per device"),
  peerSharedKey: z.string().min(1).describe("pre-shared key (sensitive); use ${secret.NAME}"),
  remoteAsn: vpnAsn().describe("the remote site's ASN; differs from localAsn"),
  remoteIpAddress: ipAddress().describe("remote address for BGP peering"),
  password: password().optional(),
  localAsn: vpnAsn(),
  tunnelIp: cidr().describe("local tunnel address in CIDR notation"),
});

const schema = lazily(() => {
  const tunnel = tunnelShape();
  return z.strictObject({
    virtualDeviceUuid: uuid().describe("the device's uuid, normally ${devices.NAME.uuid}"),
    siteName: z.string().min(1),
    ...tunnel,
    useNetworkServiceConnection: z.boolean().optional().describe("default false; true only if the device has a network service connection"),
    secondary: z.strictObject(tunnel).optional().describe("the tunnel of the redundant (secondary) device"),
  });
});

function rules(r: RuleContext): void {
  for (const at of [[], ["secondary"]] as const) {
    if (at.length > 0 && !r.has(at)) continue;
    const remote = r.num([...at, "remoteAsn"]);
    const local = r.num([...at, "localAsn"]);
    if (remote !== undefined && local !== undefined && remote === local) {
      r.report({ path: [...at, "remoteAsn"], code: "rule.vpn-asn", message: `remoteAsn must differ from localAsn (both ${remote})` });
    }
  }
}

function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const peers = new Map<string, ConfigResource>();
  for (const r of own) {
    const locate = { address: r.address, positions: r.positions };
    const device = identityOf(r.spec.virtualDeviceUuid);
    const peer = reveal(r.spec.peerIp);
    if (device !== undefined && typeof peer === "string") {
      const key = `${device} ${peer}`;
      const first = peers.get(key);
      if (first) diagnostics.push(placeDiagnostic(locate, { path: ["peerIp"], code: "rule.vpn-peer", message: `peerIp ${peer} is already used by ${first.address} on the same device; it must be unique per device` }));
      else peers.set(key, r);
    }
    const ref = r.spec.virtualDeviceUuid;
    if (ref instanceof Reference && ref.kind === "devices" && ref.attribute === "uuid") {
      const pair = all.get(ref.address)?.spec.secondary;
      if (pair !== undefined && pair !== null && !r.spec.secondary) {
        diagnostics.push(placeDiagnostic(locate, { path: ["secondary"], code: "rule.vpn-redundant", message: `${ref.address} is a redundant pair, so the VPN needs secondary (with its own configName)` }));
      }
    }
  }
  return diagnostics;
}

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

const statusOf = (body: Body): string | undefined => (typeof body.status === "string" ? body.status : undefined);
const vpnPath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;

function tunnel(source: unknown): Body | undefined {
  if (!isPlainObject(source)) return undefined;
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

const handler: KindHandler = {
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
  // 2.7: a VPN's answer carries the primary tunnel's key and password; nothing documents the secondary's.
  returnedSecrets: new SecretPaths(["peerSharedKey", "password"]),
  // The official description's answer (networkedgev1 VpnResponse) has neither field: what was sent stands.
  mayOmit: ["useNetworkServiceConnection", "secondary"],

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

  async lookup(ctx, spec, owned): Promise<Observed | undefined> {
    const device = spec.virtualDeviceUuid;
    if (typeof device !== "string") return undefined;
    // A device's VPNs are told apart by their configName.
    for await (const body of listAll<Body>(ctx.api, BASE, { query: { virtualDeviceUuid: device }, pageSize: PAGE_SIZE })) {
      if (body.configName === spec.configName && typeof body.uuid === "string" && !owned?.has(body.uuid) && !DELETED_STATES.includes(statusOf(body) ?? "")) return { id: body.uuid, body };
    }
    return undefined;
  },

  eventSubject: (ref) => vpnPath(ref.id),
};

export const vpns: KindDefinition<"vpns"> = {
  name: "vpns",
  description: "VPN configurations on virtual devices, by name",
  get spec() {
    return schema();
  },
  rules,
  crossRules,
  defaults: (d) => d.set("useNetworkServiceConnection", false),
  sensitive: new SecretPaths(["peerSharedKey", "password", "secondary.peerSharedKey", "secondary.password"]),
  attributes: ["uuid", "configName", "peerIp", "peerSharedKey", "remoteAsn", "remoteIpAddress", "password", "localAsn", "tunnelIp", "virtualDeviceUuid", "siteName", "status", "bgpState", "tunnelStatus", "useNetworkServiceConnection", "secondary"],
  serverSet: ["uuid", "status", "bgpState", "tunnelStatus", "createdDate", "lastUpdatedDate", "createdBy", "lastUpdatedBy"],
  parents: { virtualDeviceUuid: "devices" },
  timeoutMs: 30 * 60_000,
  networkEdge: true,
  typicalSeconds: { create: 45, update: 20, delete: 20 },
  handler,
};
