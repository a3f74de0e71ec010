// The dependency graph of a configuration: edges from references and dependsOn, the check that a parent
// field (connection, routeFilter, virtualDeviceUuid) refers to a resource of the right kind, and cycle
// detection that names every address of each cycle.

import { compareAddresses, formatPath, type Address } from "./address.js";
import type { Problem } from "./interpolate.js";
import type { KindSchema } from "./catalog.js";
import type { ConfigResource, DependencyEdge } from "./types.js";
import { isLookupAddress } from "./lookups.js";
import { reveal } from "./sensitive.js";
import { isUnknown, Reference } from "./values.js";

export function dependencyEdges(resource: Pick<ConfigResource, "address" | "references" | "dependsOn" | "preconditions" | "postconditions">): DependencyEdge[] {
  const edges: DependencyEdge[] = [];
  // A condition reads the objects it names: they are made first, so that it can be checked before and after.
  for (const c of [...(resource.preconditions ?? []), ...(resource.postconditions ?? [])]) for (const to of c.addresses) edges.push({ from: resource.address, to: to as Address, via: "reference", path: c.path });
  for (const ref of resource.references) if (!isLookupAddress(ref.address)) edges.push({ from: resource.address, to: ref.address, via: "reference", path: formatPath(ref.path) });
  resource.dependsOn.forEach((to, i) => edges.push({ from: resource.address, to, via: "dependsOn", path: `dependsOn[${i}]` }));
  return edges;
}

/** The other resources a resource's conditions read. */
export const conditionAddresses = (resource: Pick<ConfigResource, "preconditions" | "postconditions">): Address[] => [...(resource.preconditions ?? []), ...(resource.postconditions ?? [])].flatMap((c) => c.addresses as Address[]);

/** A parent field takes the uuid of a resource of the parent's kind. */
export function parentReferenceProblems(kind: KindSchema, resource: Pick<ConfigResource, "spec">): Problem[] {
  const problems: Problem[] = [];
  for (const [field, parentKind] of Object.entries(kind.parents)) {
    const v = resource.spec[field];
    // A lookup of the parent's kind is resolved to a uuid before the plan; the service checks it is one.
    if (!(v instanceof Reference) || isLookupAddress(v.address)) continue;
    if (v.kind !== parentKind) {
      problems.push({ path: [field], code: "reference.parent-kind", message: `${field} takes the uuid of one of ${parentKind}, not of ${v.address}`, hint: `e.g. \${${parentKind}.NAME.uuid}` });
    } else if (v.attribute !== "uuid") {
      problems.push({ path: [field], code: "reference.parent-attribute", message: `${field} takes the uuid of ${v.address}, not its ${v.attribute}`, hint: `write \${${v.address}.uuid}` });
    }
  }
  return problems;
}

/**
 * Every cycle, each as the addresses in order starting from the smallest, with the edge that leaves the
 * first. Found without recursion: sinks are peeled off repeatedly, and from what is left every walk along
 * remaining edges must come back on itself. What peeling leaves does not depend on the order it goes in, so
 * only that (in a configuration without cycles, nothing) is sorted, and lists are made for the nodes with
 * edges only.
 */
export function findCycles(nodes: Iterable<Address>, edges: readonly DependencyEdge[]): { cycle: Address[]; edge: DependencyEdge }[] {
  const all = new Set(nodes);
  const out = new Map<Address, DependencyEdge[]>();
  const into = new Map<Address, DependencyEdge[]>();
  const add = (lists: Map<Address, DependencyEdge[]>, node: Address, e: DependencyEdge) => {
    const list = lists.get(node);
    if (list) list.push(e);
    else lists.set(node, [e]);
  };
  for (const e of edges) {
    if (!all.has(e.to) || !all.has(e.from)) continue;
    add(out, e.from, e);
    add(into, e.to, e);
  }
  // How many distinct nodes each node waits for.
  const outDegree = new Map<Address, number>();
  for (const [n, list] of out) outDegree.set(n, list.length === 1 ? 1 : new Set(list.map((e) => e.to)).size);
  const removed = new Set<Address>();
  const queue = [...all].filter((n) => !outDegree.has(n));
  while (queue.length > 0) {
    const n = queue.pop() as Address;
    if (removed.has(n)) continue;
    removed.add(n);
    const waiting = into.get(n) ?? [];
    const seen = waiting.length > 1 ? new Set<Address>() : undefined;
    for (const e of waiting) {
      if (seen) {
        if (seen.has(e.from)) continue;
        seen.add(e.from);
      }
      const d = (outDegree.get(e.from) ?? 1) - 1;
      outDegree.set(e.from, d);
      if (d === 0) queue.push(e.from);
    }
  }
  const cycles: { cycle: Address[]; edge: DependencyEdge }[] = [];
  const done = new Set<Address>();
  for (const start of [...all].filter((n) => !removed.has(n)).sort()) {
    if (done.has(start)) continue;
    const onPath = new Map<Address, number>();
    const path: Address[] = [];
    let cur: Address | undefined = start;
    while (cur !== undefined && !done.has(cur) && !onPath.has(cur)) {
      onPath.set(cur, path.length);
      path.push(cur);
      const next: DependencyEdge | undefined = [...(out.get(cur) ?? [])].sort((a, b) => compareAddresses(a.to, b.to)).find((e) => !removed.has(e.to));
      cur = next?.to;
    }
    if (cur !== undefined && onPath.has(cur)) {
      const loop = path.slice(onPath.get(cur));
      const first = loop.indexOf([...loop].sort()[0] as Address);
      const cycle = [...loop.slice(first), ...loop.slice(0, first)];
      const second = cycle[1] ?? cycle[0];
      const edge = (out.get(cycle[0] as Address) ?? []).find((e) => e.to === second) as DependencyEdge;
      cycles.push({ cycle, edge });
    }
    for (const n of path) done.add(n);
  }
  return cycles;
}

/**
 * A comparable identity for a field that names another object: the referenced address and attribute, or
 * the literal uuid; undefined while the value is not known.
 */
export function identityOf(v: unknown): string | undefined {
  if (v instanceof Reference) return `${v.address}.${v.attribute}`;
  if (isUnknown(v)) return undefined;
  const raw = reveal(v);
  return typeof raw === "string" ? raw.toLowerCase() : undefined;
}
