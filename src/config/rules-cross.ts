// Rules across resources: two attachments of one filter to one connection would fight over the same
// object; a connection takes one DIRECT and one BGP routing protocol, and BGP only over DIRECT (4.6); a
// VPN's peerIp is unique per device (4.7); a VPN on a redundant device needs the secondary tunnel with its
// own config name (4.7).

import type { Diagnostic } from "../diag/index.js";
import type { Address } from "./address.js";
import { reveal } from "./sensitive.js";
import type { ConfigResource } from "./types.js";
import { placeDiagnostic } from "./validate.js";
import { isUnknown, Reference } from "./values.js";

/** A comparable identity for a parent field: the referenced address or the literal uuid. */
function identity(v: unknown): string | undefined {
  if (v instanceof Reference) return `${v.address}.${v.attribute}`;
  if (isUnknown(v)) return undefined;
  const raw = reveal(v);
  return typeof raw === "string" ? raw.toLowerCase() : undefined;
}

const locate = (r: ConfigResource) => ({ address: r.address, positions: r.positions });

export function crossResourceRules(resources: ReadonlyMap<Address, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byKind = (kind: ConfigResource["kind"]) => [...resources.values()].filter((r) => r.kind === kind).sort((a, b) => a.address.localeCompare(b.address));

  const attachments = new Map<string, ConfigResource>();
  for (const r of byKind("routeFilterAttachments")) {
    const c = identity(r.spec.connection);
    const f = identity(r.spec.routeFilter);
    if (c === undefined || f === undefined) continue;
    const key = `${c} ${f}`;
    const first = attachments.get(key);
    if (first) diagnostics.push(placeDiagnostic(locate(r), { path: ["routeFilter"], code: "rule.attachment-duplicate", message: `attaches the same route filter to the same connection as ${first.address}` }));
    else attachments.set(key, r);
  }

  diagnostics.push(...routingProtocolRules(byKind("routingProtocols"), resources));

  const peers = new Map<string, ConfigResource>();
  for (const r of byKind("vpns")) {
    const device = identity(r.spec.virtualDeviceUuid);
    const peer = reveal(r.spec.peerIp);
    if (device !== undefined && typeof peer === "string") {
      const key = `${device} ${peer}`;
      const first = peers.get(key);
      if (first) diagnostics.push(placeDiagnostic(locate(r), { path: ["peerIp"], code: "rule.vpn-peer", message: `peerIp ${peer} is already used by ${first.address} on the same device; it must be unique per device` }));
      else peers.set(key, r);
    }
    const ref = r.spec.virtualDeviceUuid;
    if (ref instanceof Reference && ref.kind === "devices" && ref.attribute === "uuid") {
      const device = resources.get(ref.address);
      if (device?.spec.secondary !== undefined && device.spec.secondary !== null) {
        const secondary = r.spec.secondary as Record<string, unknown> | undefined;
        if (!secondary) {
          diagnostics.push(placeDiagnostic(locate(r), { path: ["secondary"], code: "rule.vpn-redundant", message: `${ref.address} is a redundant pair, so the VPN needs secondary (with its own configName)` }));
        }
      }
    }
  }
  return diagnostics;
}

/**
 * Per connection, one instance of each type, and BGP only beside a DIRECT one. Whether a connection that
 * netform does not manage (a literal uuid) has its DIRECT instance is for the service to say, at plan time.
 */
function routingProtocolRules(protocols: readonly ConfigResource[], resources: ReadonlyMap<Address, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byConnection = new Map<string, { DIRECT: ConfigResource[]; BGP: ConfigResource[] }>();
  for (const r of protocols) {
    const connection = identity(r.spec.connection);
    const type = r.spec.type;
    if (connection === undefined || (type !== "DIRECT" && type !== "BGP")) continue;
    const group = byConnection.get(connection) ?? { DIRECT: [], BGP: [] };
    group[type].push(r);
    byConnection.set(connection, group);
  }
  for (const group of byConnection.values()) {
    for (const [type, list] of Object.entries(group)) {
      const [first, ...others] = list;
      for (const r of others) {
        diagnostics.push(placeDiagnostic(locate(r), { path: ["type"], code: "rule.routing-protocol-count", message: `the connection already has a ${type} instance, ${first?.address ?? ""}; a connection takes one DIRECT and one BGP instance`, hint: "remove one of them, or put it on another connection" }));
      }
    }
    const connection = group.BGP[0]?.spec.connection;
    if (group.DIRECT.length > 0 || !(connection instanceof Reference) || connection.kind !== "connections" || !resources.has(connection.address)) continue;
    for (const bgp of group.BGP) {
      const name = `${connection.address.slice("connections.".length)}-direct`;
      diagnostics.push(
        placeDiagnostic(locate(bgp), {
          path: ["connection"],
          code: "rule.bgp-needs-direct",
          message: `${bgp.address} is a BGP instance on ${connection.address}, which has no DIRECT instance; the service refuses BGP without one`,
          hint: `declare the DIRECT instance the BGP session runs over, e.g. routingProtocols.${name}: { connection: "\${${connection.address}.uuid}", type: DIRECT, directIpv4: { equinixIfaceIp: 192.168.100.1/30 } }`,
        }),
      );
    }
  }
  return diagnostics;
}
