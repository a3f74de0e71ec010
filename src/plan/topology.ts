// The network as a reviewer draws it on a whiteboard: ports, devices, cloud routers, networks, service
// profiles and service tokens as nodes, connections (and device links) as the lines between them. Built
// from objects that carry their API bodies (a plan's changes, or a configuration's resources) and the
// lookups that name existing objects; `views/topology.ts` draws it as a Mermaid flowchart.
//
// An endpoint is found, in order: by the reference written at the endpoint's field (a configuration says
// exactly which object it names), by the uuid the field holds (the id a plan or a lookup records), or, for
// a uuid not known before apply, by the dependency of the endpoint's kind the other side does not use.
// A uuid that matches nothing known is still drawn, as a node of that uuid.

import { compareAddresses, isPlainObject, readPath } from "../config/index.js";
import { KIND_TOPOLOGY, type TopologyRole } from "../kinds/index.js";
import { type Plan, UNKNOWN_TEXT } from "./types.js";

export type TopologyStatus = "added" | "changed" | "removed" | "unchanged";

/** What a node is, in words: a kind's role (KindDefinition.topology), or a service profile, which only lookups name. */
export type NodeRole = Exclude<TopologyRole, "connection" | "device link"> | "service profile";

export interface TopologyNode {
  /** The address of the resource or lookup, or `ROLE:UUID` for an object known only by its uuid. */
  id: string;
  role: NodeRole;
  label: string;
  status: TopologyStatus;
}

export interface TopologyEdge {
  /** The connection or device link drawn. */
  address: string;
  from: string;
  to: string;
  /** Its name, bandwidth and VLANs: "dc-link, 100 Mbps, VLAN 1001 / 2001". */
  label: string;
  status: TopologyStatus;
}

export interface Topology {
  nodes: TopologyNode[];
  edges: TopologyEdge[];
}

/** An object of the network as its source gives it. */
export interface TopologyObject {
  address: string;
  kind: string;
  status: TopologyStatus;
  /** The API body (a plan's after, or before for a delete; a configuration's spec). */
  body?: Record<string, unknown>;
  /** The object's uuid, when known. */
  id?: string;
  dependencies: readonly string[];
  /** The addresses written at fields of the body, by dotted path ("aSide.accessPoint.port.uuid"). */
  references?: ReadonlyMap<string, string>;
}

/** A lookup's address, kind ("port") and found value, when found. */
export interface TopologyLookup {
  address: string;
  kind: string;
  value?: Record<string, unknown>;
}

/** A kind's place in the drawing: each kind says its own (KindDefinition.topology). */
const roleOfKind = (kind: string): TopologyRole | undefined => KIND_TOPOLOGY.get(kind);

/** A role that is drawn as a node. */
const isNodeRole = (role: TopologyRole | undefined): role is Exclude<TopologyRole, "connection" | "device link"> => role !== undefined && role !== "connection" && role !== "device link";

/** The lookup kinds drawn as nodes. */
const LOOKUP_ROLES: ReadonlyMap<string, NodeRole> = new Map([
  ["port", "port"],
  ["device", "device"],
  ["cloudRouter", "cloud router"],
  ["network", "network"],
  ["serviceProfile", "service profile"],
  ["serviceToken", "service token"],
]);

/** A connection side's endpoint fields, first match wins, with what the object it names is. */
const ENDPOINTS: ReadonlyArray<{ field: string; role: NodeRole }> = [
  { field: "serviceToken", role: "service token" },
  { field: "accessPoint.port", role: "port" },
  { field: "accessPoint.virtualDevice", role: "device" },
  { field: "accessPoint.router", role: "cloud router" },
  { field: "accessPoint.network", role: "network" },
  { field: "accessPoint.profile", role: "service profile" },
];

/** A value known before apply: not the unknown marker, nor a reference object of a configuration. */
const knownText = (v: unknown): string | undefined => (typeof v === "string" && v !== UNKNOWN_TEXT && !v.includes("${") ? v : typeof v === "number" ? String(v) : undefined);

export function buildTopology(objects: readonly TopologyObject[], lookups: readonly TopologyLookup[] = []): Topology {
  const nodes = new Map<string, TopologyNode>();
  const byId = new Map<string, string>();
  /** What each managed object is in the drawing: its kind's role. */
  const roleOf = new Map<string, TopologyRole>();
  for (const o of objects) {
    const role = roleOfKind(o.kind);
    if (role) roleOf.set(o.address, role);
    if (o.id) byId.set(o.id, o.address);
    if (isNodeRole(role)) nodes.set(o.address, { id: o.address, role, label: o.address, status: o.status });
  }
  for (const l of lookups) {
    const role = LOOKUP_ROLES.get(l.kind);
    if (!role) continue;
    const uuid = knownText(l.value?.uuid);
    if (uuid && !byId.has(uuid)) byId.set(uuid, l.address);
    const name = knownText(l.value?.name);
    nodes.set(l.address, { id: l.address, role, label: name ? `${l.address} (${name})` : l.address, status: "unchanged" });
  }
  /** The node a uuid or an address names, made when it is only known by its uuid. */
  const nodeFor = (role: NodeRole, address: string | undefined, uuid: string | undefined): string | undefined => {
    const known = address ?? (uuid ? byId.get(uuid) : undefined);
    if (known !== undefined) {
      if (!nodes.has(known)) nodes.set(known, { id: known, role, label: known, status: "unchanged" });
      return known;
    }
    if (uuid === undefined) return undefined;
    const id = `${role}:${uuid}`;
    if (!nodes.has(id)) nodes.set(id, { id, role, label: uuid, status: "unchanged" });
    return id;
  };

  const edges: TopologyEdge[] = [];
  for (const o of objects) {
    const role = roleOfKind(o.kind);
    if (role === "connection") {
      const used = new Set<string>();
      const a = sideEndpoint(o, "aSide", used, roleOf, nodeFor);
      const z = sideEndpoint(o, "zSide", used, roleOf, nodeFor);
      if (a !== undefined && z !== undefined) edges.push({ address: o.address, from: a, to: z, label: connectionLabel(o), status: o.status });
    } else if (role === "device link") {
      const devices = Array.isArray(o.body?.linkDevices) ? o.body.linkDevices : [];
      const ends = devices.flatMap((d, i) => {
        const ref = o.references?.get(`linkDevices[${i}].deviceUuid`);
        const node = nodeFor("device", ref && roleOf.get(ref) === "device" ? ref : undefined, knownText(isPlainObject(d) ? d.deviceUuid : undefined));
        return node === undefined ? [] : [node];
      });
      const name = knownText(o.body?.groupName) ?? o.address;
      for (let i = 1; i < ends.length; i++) edges.push({ address: o.address, from: ends[0]!, to: ends[i]!, label: `${name}, device link`, status: o.status });
    }
  }
  return {
    nodes: [...nodes.values()].sort((x, y) => compareAddresses(x.id, y.id)),
    edges: edges.sort((x, y) => compareAddresses(x.address, y.address) || compareAddresses(x.from, y.from) || compareAddresses(x.to, y.to)),
  };
}

function sideEndpoint(
  o: TopologyObject,
  side: "aSide" | "zSide",
  used: Set<string>,
  roleOf: ReadonlyMap<string, TopologyRole>,
  nodeFor: (role: NodeRole, address: string | undefined, uuid: string | undefined) => string | undefined,
): string | undefined {
  for (const { field, role } of ENDPOINTS) {
    const path = `${side}.${field}.uuid`;
    const ref = o.references?.get(path);
    const value = readPath(o.body, path);
    if (ref === undefined && value === undefined) continue;
    const uuid = knownText(value);
    // A reference names the object; a dependency of the endpoint's kind stands in for a uuid not yet known.
    const fallback = ref ?? (uuid === undefined ? o.dependencies.find((d) => roleOf.get(d) === role && !used.has(d)) : undefined);
    const node = nodeFor(role, fallback, uuid);
    if (node !== undefined) used.add(node);
    return node;
  }
  return undefined;
}

/** "dc-link, 100 Mbps, VLAN 1001 / 2001". */
function connectionLabel(o: TopologyObject): string {
  const body = o.body ?? {};
  const name = knownText(body.name) ?? o.address;
  const bandwidth = knownText(body.bandwidth);
  const vlans = [vlanOf(readPath(body, "aSide.accessPoint.linkProtocol")), vlanOf(readPath(body, "zSide.accessPoint.linkProtocol"))];
  const tags = vlans.filter((v): v is string => v !== undefined);
  const vlanText = tags.length > 0 ? `VLAN ${tags.join(" / ")}` : "";
  return [name, bandwidth ? `${bandwidth} Mbps` : "", vlanText].filter((s) => s !== "").join(", ");
}

/** A link protocol's tags: "1001" (DOT1Q), "300.1001" (QINQ: outer.inner). */
function vlanOf(protocol: unknown): string | undefined {
  if (!isPlainObject(protocol)) return undefined;
  const tag = knownText(protocol.vlanTag);
  if (tag) return tag;
  const s = knownText(protocol.vlanSTag);
  const c = knownText(protocol.vlanCTag);
  return s && c ? `${s}.${c}` : s;
}

/** The part of a topology a set of changed addresses touches: the changed nodes and edges, and the endpoints of those edges. */
export function touchedTopology(topology: Topology): Topology {
  const edges = topology.edges.filter((e) => e.status !== "unchanged");
  const ids = new Set([...topology.nodes.filter((n) => n.status !== "unchanged").map((n) => n.id), ...edges.flatMap((e) => [e.from, e.to])]);
  return { nodes: topology.nodes.filter((n) => ids.has(n.id)), edges };
}

/** The status the plan's action gives a node or edge. */
export function statusOfAction(action: string): TopologyStatus {
  switch (action) {
    case "create":
      return "added";
    case "delete":
    case "forget":
      return "removed";
    case "update":
    case "replace":
    case "import":
      return "changed";
    default:
      return "unchanged";
  }
}

/** The whole network a plan knows of, each object marked by what the plan does to it. */
export function planTopology(plan: Plan): Topology {
  const objects = plan.changes.map(
    (rc): TopologyObject => ({
      address: rc.address,
      kind: rc.kind,
      status: rc.action === "no-op" && rc.previousAddress !== undefined ? "changed" : statusOfAction(rc.action),
      ...(rc.after ?? rc.before ? { body: rc.action === "delete" || rc.action === "forget" ? (rc.before ?? rc.after) : (rc.after ?? rc.before) } : {}),
      ...(rc.id ? { id: rc.id } : {}),
      dependencies: rc.dependencies,
    }),
  );
  return buildTopology(objects, (plan.lookups ?? []).map((l) => ({ address: l.address, kind: l.kind, value: l.value })));
}
