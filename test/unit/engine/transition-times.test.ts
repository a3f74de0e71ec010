// Typical transition times: the kinds' defaults scaled to the service's pace, a state's learned times
// taking over, the moving average they are learned by, the poller's schedule built on them, and the plan's
// duration estimate (the longest chain of steps, one table row per case).

import { describe, expect, it } from "vitest";
import { stepGraph } from "../../../src/engine/apply.js";
import { estimateDuration, remainingSeconds } from "../../../src/engine/estimate.js";
import { TransitionTimes, withSample } from "../../../src/engine/transition-times.js";
import { FIRST_LOOK, LATEST_FIRST_LOOK_MS, nextLookAfter, paceOf, REAL_SERVICE_POLLING } from "../../../src/engine/wait.js";
import { Graph } from "../../../src/graph/index.js";
import { KIND_HANDLERS, KIND_TYPICAL_SECONDS, timingKey } from "../../../src/kinds/index.js";
import type { ResourceChange } from "../../../src/plan/types.js";
import type { ResourceState } from "../../../src/state/index.js";
import { change, plan } from "../views/plans.js";

describe("TransitionTimes", () => {
  it("answers with the kind's default, scaled to a faster service, until the state has learned its own", () => {
    const times = new TransitionTimes(KIND_TYPICAL_SECONDS, { routeFilters: { create: { seconds: 2.5, samples: 3 } } }, () => 0.2);
    expect(times.typical("connections", "create")).toEqual({ seconds: 55 * 0.2, learned: false });
    expect(times.typical("routeFilters", "create")).toEqual({ seconds: 2.5, learned: true });
    expect(times.typical("routeFilters", "delete")).toEqual({ seconds: 5 * 0.2, learned: false });
  });

  it("times a kind's variants apart: a DIRECT routing protocol is ready long before a BGP session", () => {
    expect(timingKey("routingProtocols", { type: "DIRECT" })).toBe("routingProtocols/DIRECT");
    expect(timingKey("routingProtocols", undefined)).toBe("routingProtocols");
    expect(timingKey("connections", { type: "EVPL_VC" })).toBe("connections");
    const times = new TransitionTimes(KIND_TYPICAL_SECONDS);
    expect(times.typical("routingProtocols/DIRECT", "create").seconds).toBeLessThan(times.typical("routingProtocols/BGP", "create").seconds);
  });

  it("learns by a moving average that weighs the first samples as equals and then follows a change", () => {
    let timing = withSample(undefined, 10);
    expect(timing).toEqual({ seconds: 10, samples: 1 });
    timing = withSample(timing, 20);
    expect(timing).toEqual({ seconds: 15, samples: 2 });
    for (let i = 0; i < 200; i++) timing = withSample(timing, 40);
    expect(timing.samples).toBe(202);
    expect(timing.seconds).toBeCloseTo(40, 3);
  });

  it("takes the pace from the smallest polling interval, never slower than the real service", () => {
    expect(paceOf({ ...REAL_SERVICE_POLLING, minIntervalMs: 200 })).toBe(0.2);
    expect(paceOf({ ...REAL_SERVICE_POLLING, minIntervalMs: 5000 })).toBe(1);
  });
});

describe("nextLookAfter", () => {
  const settings = { minIntervalMs: 100, maxIntervalMs: 5_000, growth: 0.1 };
  const rows: Array<{ name: string; elapsed: number; expected: number; next: number }> = [
    { name: "the first look comes once the typical time has passed", elapsed: 0, expected: 10_000, next: FIRST_LOOK * 10_000 },
    { name: "a wait that began earlier is looked at when its typical time is up", elapsed: 4_000, expected: 10_000, next: FIRST_LOOK * 10_000 - 4_000 },
    { name: "after it, a fraction of the time waited", elapsed: 20_000, expected: 10_000, next: 2_000 },
    { name: "never more often than the smallest interval", elapsed: FIRST_LOOK * 10_000 - 10, expected: 10_000, next: 100 },
    { name: "never less often than the largest", elapsed: 600_000, expected: 10_000, next: 5_000 },
    { name: "with nothing known, backoff from the start", elapsed: 3_000, expected: 0, next: 300 },
    // This service runs ten times faster than the real one (its smallest interval is 100 ms, not 1 s).
    { name: "a kind that takes days (a port order) is first looked at within the latest first look", elapsed: 0, expected: 5 * 86_400_000, next: LATEST_FIRST_LOOK_MS / 10 },
  ];
  for (const row of rows) {
    it(row.name, () => {
      expect(nextLookAfter(row.elapsed, row.expected, settings)).toBeCloseTo(row.next, 6);
    });
  }
});

describe("estimateDuration", () => {
  const C = "connections.c";
  const D = "routingProtocols.direct";
  const B = "routingProtocols.bgp";
  const F = "routeFilters.f";
  const direct = change(D, "create", { after: { type: "DIRECT" }, dependencies: [C] });
  const bgp = change(B, "create", { after: { type: "BGP" }, dependencies: [C, D] });
  const rows: Array<{ name: string; changes: ResourceChange[]; configured: Array<[string, string]>; recorded?: Record<string, ResourceState>; learned?: ConstructorParameters<typeof TransitionTimes>[1]; seconds: number | undefined; chain?: string[] }> = [
    {
      name: "the longest chain of dependencies sets it, each link weighed by its kind's (and variant's) typical time",
      changes: [change(C, "create"), direct, bgp, change(F, "create")],
      configured: [[D, C], [B, C], [B, D]],
      seconds: 55 + 20 + 45,
      chain: [C, D, B],
    },
    {
      name: "independent objects run side by side: the longest one alone",
      changes: [change(C, "create"), change(F, "create")],
      configured: [],
      seconds: 55,
      chain: [C],
    },
    {
      name: "a state's learned time replaces the default",
      changes: [change(C, "create"), change(F, "create")],
      configured: [],
      learned: { routeFilters: { create: { seconds: 90, samples: 4 } } },
      seconds: 90,
      chain: [F],
    },
    {
      name: "a replacement deletes first, then creates: both count, the address once per link",
      changes: [change(C, "replace", { id: "c-1", before: {}, after: {} })],
      configured: [],
      recorded: { [C]: { kind: "connections", id: "c-1", attributes: {}, sensitiveHashes: {}, dependencies: [] } },
      seconds: 55 + 30,
      chain: [C],
    },
    {
      name: "an import without changes only reads: nothing to wait for",
      changes: [change("devices.e", "import", { importId: "x" })],
      configured: [],
      seconds: undefined,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const dependencies = new Graph();
      for (const c of row.changes) dependencies.addNode(c.address);
      for (const [dependent, dependency] of row.configured) dependencies.addEdge(dependent, dependency);
      const { graph, steps } = stepGraph(plan(row.changes), dependencies, row.recorded ?? {}, KIND_HANDLERS);
      const estimate = estimateDuration(graph, steps, new TransitionTimes(KIND_TYPICAL_SECONDS, row.learned));
      expect(estimate?.seconds).toBe(row.seconds);
      if (row.chain) expect(estimate?.chain).toEqual(row.chain);
    });
  }
});

describe("remainingSeconds (the urgency of a step's calls)", () => {
  const C = "connections.c";
  const D = "routingProtocols.direct";
  const B = "routingProtocols.bgp";
  const F = "routeFilters.f";
  const A = "routeFilterAttachments.a";

  it("weighs each step by its own transition and the longest chain that waits for it", () => {
    const changes = [change(C, "create"), change(D, "create", { after: { type: "DIRECT" } }), change(B, "create", { after: { type: "BGP" } }), change(F, "create"), change(A, "create")];
    const dependencies = new Graph();
    for (const c of changes) dependencies.addNode(c.address);
    for (const [dependent, dependency] of [[D, C], [B, C], [B, D], [A, C], [A, F]] as const) dependencies.addEdge(dependent, dependency);
    const { graph, steps } = stepGraph(plan(changes), dependencies, {}, KIND_HANDLERS);
    const remaining = remainingSeconds(graph, steps, new TransitionTimes(KIND_TYPICAL_SECONDS));
    const typical = (kind: string) => KIND_TYPICAL_SECONDS.get(kind)!.create!;
    expect(remaining.get(`${B}+`)).toBe(typical("routingProtocols/BGP"));
    expect(remaining.get(`${D}+`)).toBe(typical("routingProtocols/DIRECT") + typical("routingProtocols/BGP"));
    expect(remaining.get(`${C}+`)).toBe(typical("connections") + typical("routingProtocols/DIRECT") + typical("routingProtocols/BGP"));
    // A filter's attachment is short work: the routing protocols released by the same connection go first.
    expect(remaining.get(`${A}+`)).toBeLessThan(remaining.get(`${D}+`)!);
    expect(remaining.get(`${F}+`)).toBe(typical("routeFilters") + typical("routeFilterAttachments"));
  });
});
