// A directed acyclic graph of string ids: node -> the nodes it depends on. Knows nothing of the domain.

export class Graph {
  private readonly deps = new Map<string, Set<string>>();

  addNode(id: string): void {
    if (!this.deps.has(id)) this.deps.set(id, new Set());
  }

  /** `dependent` needs `dependency` done first. Both nodes are added if missing. */
  addEdge(dependent: string, dependency: string): void {
    this.addNode(dependent);
    this.addNode(dependency);
    this.deps.get(dependent)!.add(dependency);
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

  dependentsOf(id: string): string[] {
    return this.nodes.filter((n) => this.deps.get(n)!.has(id));
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
      stack.push(...next(n));
    }
    return seen;
  }

  /** One cycle, as the list of nodes around it (first node repeated at the end), or undefined. */
  findCycle(): string[] | undefined {
    const state = new Map<string, "visiting" | "done">();
    const path: string[] = [];
    const visit = (n: string): string[] | undefined => {
      state.set(n, "visiting");
      path.push(n);
      for (const d of [...this.deps.get(n)!].sort()) {
        const s = state.get(d);
        if (s === "visiting") return [...path.slice(path.indexOf(d)), d];
        if (s === undefined) {
          const found = visit(d);
          if (found) return found;
        }
      }
      path.pop();
      state.set(n, "done");
      return undefined;
    };
    for (const n of [...this.deps.keys()].sort()) {
      if (state.get(n) === undefined) {
        const found = visit(n);
        if (found) return found;
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
    const visit = (n: string) => {
      if (done.has(n)) return;
      done.add(n);
      for (const d of [...this.deps.get(n)!].sort()) visit(d);
      out.push(n);
    };
    for (const n of [...this.deps.keys()].sort()) visit(n);
    return out;
  }
}

export class CycleError extends Error {
  constructor(readonly cycle: string[]) {
    super(`dependency cycle: ${cycle.join(" -> ")}`);
    this.name = "CycleError";
  }
}
