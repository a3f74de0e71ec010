// Connection rules across resources, for the endpoints that are resources of their own: a field that names
// a cloud router, a network or a service token takes the uuid of one of that kind; a connection from a
// LAB cloud router keeps within its package (section 8: 10 connections of at most 10 Mbps); a connection
// joins a network as the network's type; a token is used on its own side, for its own connection type.

import { identityOf, placeDiagnostic, readPath, Reference, reveal, type ConfigResource, type FieldPath } from "../../config/index.js";
import type { Diagnostic } from "../../diag/index.js";
import { ROUTER_PACKAGE_LIMITS, type RouterPackage } from "../cloud-routers.js";

const SIDES = ["aSide", "zSide"] as const;

type EndpointKind = "cloudRouters" | "networks" | "serviceTokens";

/** The fields of a side that name an endpoint resource, and the kind each takes. */
const ENDPOINT_FIELDS: ReadonlyArray<{ path: readonly string[]; kind: EndpointKind }> = [
  { path: ["accessPoint", "router", "uuid"], kind: "cloudRouters" },
  { path: ["accessPoint", "network", "uuid"], kind: "networks" },
  { path: ["serviceToken", "uuid"], kind: "serviceTokens" },
];

/** A plain string written in a spec, secrets revealed; undefined for anything not known yet. */
const known = (v: unknown): string | undefined => {
  const raw = reveal(v);
  return typeof raw === "string" ? raw : undefined;
};

export function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const perRouter = new Map<string, number>();
  for (const r of own) {
    const report = (path: FieldPath, code: string, message: string, hint?: string) => diagnostics.push(placeDiagnostic({ address: r.address, positions: r.positions }, { path, code, message, ...(hint ? { hint } : {}) }));
    const type = known(r.spec.type);
    for (const side of SIDES) {
      for (const field of ENDPOINT_FIELDS) {
        const at = [side, ...field.path];
        const ref = readPath(r.spec, at);
        if (!(ref instanceof Reference)) continue;
        if (ref.kind !== field.kind) {
          report(at, "reference.endpoint-kind", `${at.join(".")} takes the uuid of one of ${field.kind}, not of ${ref.address}`, `e.g. \${${field.kind}.NAME.uuid}`);
          continue;
        }
        if (ref.attribute !== "uuid") {
          report(at, "reference.endpoint-attribute", `${at.join(".")} takes the uuid of ${ref.address}, not its ${ref.attribute}`, `write \${${ref.address}.uuid}`);
          continue;
        }
        const target = all.get(ref.address)?.spec;
        if (!target) continue;
        switch (field.kind) {
          case "cloudRouters": {
            const limits = ROUTER_PACKAGE_LIMITS[known(readPath(target, "package.code")) as RouterPackage] ?? {};
            const bandwidth = reveal(r.spec.bandwidth);
            if (limits.bandwidthMbps !== undefined && typeof bandwidth === "number" && bandwidth > limits.bandwidthMbps) {
              report(["bandwidth"], "rule.router-package", `${ref.address} is a LAB router: its connections take up to ${limits.bandwidthMbps} Mbps`, "lower the bandwidth, or make the router STANDARD");
            }
            const count = (perRouter.get(ref.address) ?? 0) + 1;
            perRouter.set(ref.address, count);
            if (limits.connections !== undefined && count === limits.connections + 1) {
              report(at, "rule.router-package", `${ref.address} is a LAB router: it takes up to ${limits.connections} connections`, "make the router STANDARD");
            }
            break;
          }
          case "networks": {
            const networkType = known(target.type);
            if (networkType !== undefined && type !== undefined && type !== `${networkType}_VC`) {
              report(["type"], "rule.network-type", `${ref.address} is an ${networkType} network: connections join it as ${networkType}_VC, not ${type}`);
            }
            break;
          }
          case "serviceTokens": {
            const tokenSide = SIDES.find((s) => readPath(target, `connection.${s}`) !== undefined);
            if (tokenSide !== undefined && tokenSide !== side) {
              report(at, "rule.token-side", `${ref.address} is a${tokenSide === "aSide" ? "n a-side" : " z-side"} token: use it as ${tokenSide}.serviceToken`);
            }
            const tokenType = known(readPath(target, "connection.type"));
            if (tokenType !== undefined && type !== undefined && type !== tokenType) {
              report(["type"], "rule.token-type", `${ref.address} is a token for ${tokenType} connections, not ${type}`);
            }
            break;
          }
          default: {
            const unreachable: never = field.kind;
            return unreachable;
          }
        }
      }
    }
  }
  return [...diagnostics, ...vlansReused(own)];
}

/** A VLAN tag (DOT1Q) or tag pair (QINQ) one side of a declared connection takes on a port. */
interface VlanClaim {
  address: string;
  /** Where the outer tag is written. */
  path: FieldPath;
  port: string;
  outer: number;
  /** QINQ inner tag; absent when the connection takes every inner tag under its outer tag. */
  inner?: number;
}

function claimsOf(r: ConfigResource): VlanClaim[] {
  const claims: VlanClaim[] = [];
  for (const side of SIDES) {
    // Read as segments: a path written as text is split again at every read, for every connection.
    const port = identityOf(readPath(r.spec, [side, "accessPoint", "port", "uuid"]));
    const linkProtocol = readPath(r.spec, [side, "accessPoint", "linkProtocol"]);
    const tag = (name: string) => {
      const v = reveal(readPath(linkProtocol, [name]));
      return typeof v === "number" ? v : undefined;
    };
    const outerField = tag("vlanTag") !== undefined ? "vlanTag" : "vlanSTag";
    const outer = tag(outerField);
    if (port === undefined || outer === undefined) continue;
    const inner = tag("vlanCTag");
    claims.push({ address: r.address, path: [side, "accessPoint", "linkProtocol", outerField], port, outer, ...(inner !== undefined ? { inner } : {}) });
  }
  return claims;
}

const overlaps = (a: VlanClaim, b: VlanClaim) => a.port === b.port && a.outer === b.outer && (a.inner === undefined || b.inner === undefined || a.inner === b.inner);

/** The service takes a VLAN once per port, as the simulator's checkVlanFree does: two declared connections that share one are refused. */
function vlansReused(own: readonly ConfigResource[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // By port and outer tag: only claims there can overlap, so thousands of connections are not compared pairwise.
  const seen = new Map<string, VlanClaim[]>();
  for (const r of own) {
    for (const claim of claimsOf(r)) {
      const key = `${claim.port} ${claim.outer}`;
      const first = seen.get(key)?.find((other) => other.address !== claim.address && overlaps(claim, other));
      if (first) {
        const tags = claim.inner === undefined ? String(claim.outer) : `${claim.outer}.${claim.inner}`;
        diagnostics.push(
          placeDiagnostic(
            { address: r.address, positions: r.positions },
            { path: claim.path, code: "rule.vlan-reused", message: `VLAN ${tags} on this port is already taken by ${first.address}; the service takes a VLAN once per port`, hint: "give one of the connections another VLAN tag" },
          ),
        );
      } else seen.set(key, [...(seen.get(key) ?? []), claim]);
    }
  }
  return diagnostics;
}
