// A directed acyclic graph of string ids: node -> the nodes it depends on. Knows nothing of the domain.

export class Graph {
  private readonly deps = new Map<string, Set<string>>();
  /** The reverse edges, and each node's place in insertion order: a walk asks for dependents once per node finished. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly position = new Map<string, number>();

  addNode(id: string): void {
    if (this.deps.has(id)) return;
    this.deps.set(id, new Set());
    this.dependents.set(id, new Set());
    this.position.set(id, this.position.size);
  }

  /** `dependent` needs `dependency` done first. Both nodes are added if missing. */
  addEdge(dependent: string, dependency: string): void {
    this.addNode(dependent);
    this.addNode(dependency);
    this.deps.get(dependent)!.add(dependency);
    this.dependents.get(dependency)!.add(dependent);
  }

  has(id: string): boolean {
    return this.deps.has(id);
  }

  get nodes(): string[] {
    return [...this.deps.keys()];
  }

  dependenciesOf(id: string): string[] {
    return [...(this.deps.get(id) ?? [])];
  }

  /** In the order the nodes were added. */
  dependentsOf(id: string): string[] {
    return [...(this.dependents.get(id) ?? [])].sort((a, b) => this.position.get(a)! - this.position.get(b)!);
  }

  /** The same nodes with every edge turned around (deletes run in reverse dependency order). */
  reversed(): Graph {
    const g = new Graph();
    for (const [node, deps] of this.deps) {
      g.addNode(node);
      for (const d of deps) g.addEdge(d, node);
    }
    return g;
  }

  /** Every node reachable from `start` by following dependencies (not including `start`). */
  transitiveDependencies(start: string): Set<string> {
    return this.reach(start, (n) => this.deps.get(n) ?? new Set());
  }

  /** Every node that depends on `start`, directly or not. */
  transitiveDependents(start: string): Set<string> {
    const reverse = this.reversed();
    return reverse.transitiveDependencies(start);
  }

  private reach(start: string, next: (n: string) => Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const stack = [...next(start)];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const m of next(n)) stack.push(m);
    }
    return seen;
  }

  /** One cycle, as the list of nodes around it (first node repeated at the end), or undefined. */
  findCycle(): string[] | undefined {
    const state = new Map<string, "visiting" | "done">();
    // Depth first without recursion: a chain of dependencies may be longer than the call stack is deep.
    for (const root of [...this.deps.keys()].sort()) {
      if (state.has(root)) continue;
      const path: Frame[] = [];
      const enter = (n: string) => {
        state.set(n, "visiting");
        path.push(this.frame(n));
      };
      enter(root);
      while (path.length > 0) {
        const top = path[path.length - 1]!;
        if (top.next === top.dependencies.length) {
          state.set(top.node, "done");
          path.pop();
          continue;
        }
        const d = top.dependencies[top.next++]!;
        const s = state.get(d);
        if (s === "visiting") {
          const nodes = path.map((f) => f.node);
          return [...nodes.slice(nodes.indexOf(d)), d];
        }
        if (s === undefined) enter(d);
      }
    }
    return undefined;
  }

  /** Dependencies before dependents; ties in id order, so the order is stable. Throws on a cycle. */
  order(): string[] {
    const cycle = this.findCycle();
    if (cycle) throw new CycleError(cycle);
    const out: string[] = [];
    const done = new Set<string>();
    for (const root of [...this.deps.keys()].sort()) {
      if (done.has(root)) continue;
      done.add(root);
      const stack = [this.frame(root)];
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        if (top.next === top.dependencies.length) {
          out.push(top.node);
          stack.pop();
          continue;
        }
        const d = top.dependencies[top.next++]!;
        if (!done.has(d)) {
          done.add(d);
          stack.push(this.frame(d));
        }
      }
    }
    return out;
  }

  private frame(node: string): Frame {
    return { node, dependencies: [...this.deps.get(node)!].sort(), next: 0 };
  }
}

/** A node being visited by a depth-first walk: its dependencies in id order, and the next one to visit. */
interface Frame {
  node: string;
  dependencies: string[];
  next: number;
}

export class CycleError extends Error {
  constructor(readonly cycle: string[]) {
    super(`dependency cycle: ${cycle.join(" -> ")}`);
    this.name = "CycleError";
  }
}
