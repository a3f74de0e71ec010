// Rules across resources: two attachments of one filter to one connection would fight over the same
// object; a VPN's peerIp is unique per device (4.7); a VPN on a redundant device needs the secondary
// tunnel with its own config name (4.7).

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
