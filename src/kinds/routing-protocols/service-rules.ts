// The service's rules across routing protocol instances (4.6): a connection takes one DIRECT and one BGP
// instance, and BGP only over a DIRECT one. Checked across the configuration before any API call, and, for
// a connection netform does not manage (a literal uuid), against the service at plan time. A DIRECT subnet
// on a cloud router's connection must not overlap another of the router's (the official validateRoutingProtocol,
// POST /fabric/v4/routers/{id}/validate): asked of the service at plan time, and across the plan's own.

import { BlockList, isIP } from "node:net";
import { ApiError } from "../../api/index.js";
import { identityOf, parsePrefix, placeDiagnostic, readPath, Reference, reveal, UUID_PATTERN, type ConfigResource, type Configuration } from "../../config/index.js";
import type { Diagnostic } from "../../diag/index.js";
import { orGone } from "../common.js";
import type { Body, KindContext } from "../types.js";
import { handler } from "./handler.js";

const locate = (r: ConfigResource) => ({ address: r.address, positions: r.positions });

/** Per connection, one instance of each type, and BGP only beside a DIRECT one the configuration declares. */
export function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byConnection = new Map<string, { DIRECT: ConfigResource[]; BGP: ConfigResource[] }>();
  for (const r of own) {
    const connection = identityOf(r.spec.connection);
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
    const [direct] = group.DIRECT;
    if (direct) for (const bgp of group.BGP) for (const item of peersOutsideSubnet(direct, bgp)) diagnostics.push(item);
    // A literal uuid names a connection netform does not manage: only the service knows its DIRECT instance.
    const connection = group.BGP[0]?.spec.connection;
    if (group.DIRECT.length > 0 || !(connection instanceof Reference) || !all.has(connection.address)) continue;
    for (const bgp of group.BGP) {
      const name = `${connection.name}-direct`;
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

const ipv4Number = (address: string) => address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);

/** Why the service refuses this BGP peer address over this DIRECT subnet (as the simulator's peerProblem), or undefined. */
export function peerProblem(subnet: string, peer: string): string | undefined {
  const [address = "", prefixText = ""] = subnet.split("/");
  const prefix = Number(prefixText);
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  const malformed = isIP(address) === 0 || isIP(peer) !== isIP(address) || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === "ipv4" ? 32 : 128);
  if (malformed) return undefined; // the kind's own rules say so
  // Block lists are native objects, two made and dropped for every BGP instance: IPv4 is answered in
  // arithmetic instead, as they answer it.
  if (family === "ipv4") return ipv4PeerProblem(ipv4Number(address), prefix, ipv4Number(peer));
  const inside = new BlockList();
  inside.addSubnet(address, prefix, family);
  if (!inside.check(peer, family)) return "is not inside the subnet";
  const itself = new BlockList();
  itself.addAddress(address, family);
  if (itself.check(peer, family)) return "is the provider's interface address";
  return undefined;
}

/** peerProblem for an IPv4 subnet (`address`/`prefix`, 0 to 32) and peer, as 32-bit numbers. */
function ipv4PeerProblem(address: number, prefix: number, peer: number): string | undefined {
  const size = 2 ** (32 - prefix);
  if (Math.floor(peer / size) !== Math.floor(address / size)) return "is not inside the subnet";
  if (peer === address) return "is the provider's interface address";
  if (prefix <= 30) {
    const offset = peer % size;
    if (offset === 0 || offset === size - 1) return "is the subnet's network or broadcast address";
  }
  return undefined;
}

/** A BGP session's customerPeerIp must lie in the DIRECT instance's subnet, and not be the provider's own address. */
function peersOutsideSubnet(direct: ConfigResource, bgp: ConfigResource): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const family of ["Ipv4", "Ipv6"] as const) {
    const subnet = reveal(readPath(direct.spec, `direct${family}.equinixIfaceIp`));
    const peer = reveal(readPath(bgp.spec, `bgp${family}.customerPeerIp`));
    if (typeof subnet !== "string" || typeof peer !== "string") continue;
    const problem = peerProblem(subnet, peer);
    if (problem) {
      diagnostics.push(
        placeDiagnostic(locate(bgp), {
          path: [`bgp${family}`, "customerPeerIp"],
          code: "rule.bgp-peer-address",
          message: `customerPeerIp ${peer} ${problem} ${subnet} of ${direct.address}; the service refuses it`,
          hint: `use another address of ${subnet}`,
        }),
      );
    }
  }
  return diagnostics;
}

/**
 * The service refuses a BGP instance on a connection without a PROVISIONED DIRECT one. A BGP instance to be
 * created on an existing connection named by its uuid, with no DIRECT instance declared beside it, is checked
 * against what the connection has: one read per such connection, before anything is applied.
 */
export async function preflight(ctx: KindContext, creates: readonly ConfigResource[], config: Configuration, resolved: (resource: ConfigResource) => Body): Promise<Diagnostic[]> {
  const [bgp, subnets] = await Promise.all([bgpNeedsDirect(ctx, creates, config), routerSubnets(ctx, creates, config, resolved)]);
  return [...bgp, ...subnets];
}

async function bgpNeedsDirect(ctx: KindContext, creates: readonly ConfigResource[], config: { resources: ReadonlyMap<string, ConfigResource> }): Promise<Diagnostic[]> {
  const literal = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : undefined);
  const kind = creates[0]?.kind;
  const own = [...config.resources.values()].filter((r) => r.kind === kind);
  const declaredDirect = new Set(own.filter((r) => r.spec.type === "DIRECT").map((r) => literal(r.spec.connection)));
  const byConnection = new Map<string, ConfigResource[]>();
  for (const resource of creates) {
    if (resource.spec.type !== "BGP") continue;
    const connection = literal(resource.spec.connection);
    if (connection === undefined || declaredDirect.has(connection)) continue;
    byConnection.set(connection, [...(byConnection.get(connection) ?? []), resource]);
  }
  const diagnostics: Diagnostic[] = [];
  await Promise.all(
    [...byConnection].map(async ([connection, bgps]) => {
      const direct = await handler.lookup(ctx, { connection, type: "DIRECT" });
      const state = direct?.body.state;
      if (state === "PROVISIONED") return;
      for (const bgp of bgps) {
        diagnostics.push(
          placeDiagnostic(locate(bgp), {
            path: ["connection"],
            code: "plan.bgp-needs-direct",
            message: direct
              ? `the DIRECT routing protocol of connection ${connection} is ${String(state)}, and the service accepts ${bgp.address} (BGP) only over a PROVISIONED one`
              : `connection ${connection} has no DIRECT routing protocol, and the service refuses ${bgp.address} (BGP) without one`,
            hint: direct
              ? "plan again once it is PROVISIONED"
              : `declare a DIRECT instance on the same connection (type: DIRECT, connection: ${connection}, directIpv4.equinixIfaceIp in the BGP peer's subnet), or create it on the service first`,
          }),
        );
      }
    }),
  );
  return diagnostics;
}

const FAMILIES = [
  { field: "directIpv4", property: "/directIpv4/equinixIfaceIp" },
  { field: "directIpv6", property: "/directIpv6/equinixIfaceIp" },
] as const;

/** A uuid, or a subnet, that is known: what is known only after apply is neither. */
const knownUuid = (v: unknown): string | undefined => (typeof v === "string" && UUID_PATTERN.test(v) ? v : undefined);
const knownSubnet = (v: unknown): string | undefined => (typeof v === "string" && parsePrefix(v) !== undefined ? v : undefined);

/** The cloud router at either end of a connection, from its spec or its answer: its uuid when known. */
const routerAt = (connection: Body | undefined): string | undefined =>
  connection && (knownUuid(readPath(connection, "aSide.accessPoint.router.uuid")) ?? knownUuid(readPath(connection, "zSide.accessPoint.router.uuid")));

/** Which cloud router a declared connection names, known or not: its uuid, or the router resource it refers to. */
const routerNamed = (connection: ConfigResource): string | undefined =>
  identityOf(readPath(connection.spec, "aSide.accessPoint.router.uuid")) ?? identityOf(readPath(connection.spec, "zSide.accessPoint.router.uuid"));

/** A DIRECT instance to be made on a cloud router's connection, with what the checks need of it. */
interface RouterSubnet {
  resource: ConfigResource;
  field: (typeof FAMILIES)[number]["field"];
  property: string;
  subnet: string;
  /** The router's uuid, when it exists. */
  router: string | undefined;
  /** The router, however the plan knows it: its uuid, or the router resource the plan makes. */
  routerKey: string;
  connection: string | undefined;
}

/**
 * Where each DIRECT instance the plan makes sits: its connection (known when it exists), and that
 * connection's cloud router, read from the service, or from the connection's own spec when the plan makes it.
 */
async function routerSubnetsOf(ctx: KindContext, creates: readonly ConfigResource[], config: Configuration, resolved: (resource: ConfigResource) => Body): Promise<RouterSubnet[]> {
  const reads = new Map<string, Promise<Body | undefined>>();
  const read = (uuid: string) => {
    let found = reads.get(uuid);
    if (!found) reads.set(uuid, (found = orGone(() => ctx.api.call<Body>("GET", `/fabric/v4/connections/${encodeURIComponent(uuid)}`))));
    return found;
  };
  const out: RouterSubnet[] = [];
  for (const resource of creates) {
    if (resource.spec.type !== "DIRECT") continue;
    const spec = resolved(resource);
    const connection = knownUuid(spec.connection);
    const declared = resource.spec.connection instanceof Reference ? config.resources.get(resource.spec.connection.address) : undefined;
    const router = connection !== undefined ? routerAt(await read(connection)) : declared ? routerAt(resolved(declared)) : undefined;
    const routerKey = router ?? (declared && routerNamed(declared));
    if (routerKey === undefined) continue;
    for (const { field, property } of FAMILIES) {
      const subnet = knownSubnet(readPath(spec, `${field}.equinixIfaceIp`));
      if (subnet) out.push({ resource, field, property, subnet, router, routerKey, connection });
    }
  }
  return out;
}

/** Whether two prefixes share an address: one holds the other's network. */
function overlaps(a: string, b: string): boolean {
  const [pa, pb] = [parsePrefix(a), parsePrefix(b)];
  if (!pa || !pb || pa.family !== pb.family) return false;
  const family = pa.family === 4 ? "ipv4" : "ipv6";
  const [na, la] = (pa.network ?? pa.text).split("/");
  const [nb, lb] = (pb.network ?? pb.text).split("/");
  const inA = new BlockList();
  inA.addSubnet(na!, Number(la), family);
  const inB = new BlockList();
  inB.addSubnet(nb!, Number(lb), family);
  return inA.check(nb!, family) || inB.check(na!, family);
}

/**
 * Each DIRECT subnet the plan puts on a cloud router's connection, asked of the service (validateRoutingProtocol)
 * against the router's other connections, and checked against the plan's own on the same router: two of them,
 * each fine alone, would have the second refused.
 */
async function routerSubnets(ctx: KindContext, creates: readonly ConfigResource[], config: Configuration, resolved: (resource: ConfigResource) => Body): Promise<Diagnostic[]> {
  const subnets = await routerSubnetsOf(ctx, creates, config, resolved);
  const diagnostics: Diagnostic[] = [];
  const at = (r: RouterSubnet, message: string, hint: string) => placeDiagnostic(locate(r.resource), { path: [r.field, "equinixIfaceIp"], code: "plan.router-subnet", message, hint });
  await Promise.all(
    subnets.map(async (s) => {
      if (s.router === undefined) return;
      const and = [{ property: s.property, operator: "=", values: [s.subnet] }, ...(s.connection ? [{ property: "/connection/uuid", operator: "=", values: [s.connection] }] : [])];
      try {
        await ctx.api.call("POST", `/fabric/v4/routers/${encodeURIComponent(s.router)}/validate`, { body: { filter: { and } }, readOnly: true });
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 400) throw e;
        const problem = e.problems[0];
        diagnostics.push(at(s, `the service refuses ${s.subnet} on cloud router ${s.router}${problem ? ` (${problem.code})` : ""}: ${problem?.reason ?? problem?.message ?? "HTTP 400"}`, "give the connection a subnet none of the router's other connections uses"));
      }
    }),
  );
  subnets.forEach((s, i) => {
    const earlier = subnets.slice(0, i).find((o) => o.routerKey === s.routerKey && o.resource !== s.resource && overlaps(o.subnet, s.subnet));
    if (earlier) diagnostics.push(at(s, `${s.subnet} overlaps ${earlier.subnet} of ${earlier.resource.address}, which this plan also puts on the same cloud router; the service refuses the second`, "give one of them a subnet that does not overlap"));
  });
  return diagnostics;
}
