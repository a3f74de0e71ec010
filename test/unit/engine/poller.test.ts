import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { InterruptedError } from "../../../src/engine/interrupt.js";
import { FIRST_LOOK, Poller } from "../../../src/engine/wait.js";
import { refKey } from "../../../src/kinds/common.js";
import type { Body, KindContext, ObjectRef, KindHandler } from "../../../src/kinds/index.js";

/** A kind whose objects' states the test sets; it counts how it is read. */
function fakeKind(states: Map<string, string | undefined>) {
  const reads = { one: 0, many: 0 };
  const body = (ref: ObjectRef): Body | undefined => {
    const state = states.get(ref.id);
    return state === undefined ? undefined : { uuid: ref.id, state };
  };
  const kind = {
    kind: "connections",
    noun: "connection",
    observe: async (_ctx: KindContext, ref: ObjectRef) => {
      reads.one++;
      return body(ref);
    },
    observeMany: async (_ctx: KindContext, refs: ObjectRef[]) => {
      reads.many++;
      const out = new Map<string, Body>();
      for (const r of refs) {
        const b = body(r);
        if (b) out.set(r.id, b);
      }
      return out;
    },
    readiness: (b: Body) => (b.state === "PROVISIONED" ? "ready" : b.state === "FAILED" ? { failed: "FAILED" } : "pending"),
    stateOf: (b: Body) => String(b.state),
  } as unknown as KindHandler;
  return { kind, reads };
}

const settings = { minIntervalMs: 5, maxIntervalMs: 20, growth: 0.5 };
const options = (address: string, operation: "create" | "delete" = "create", timeoutMs = 5_000) => ({ address, operation, expectedMs: 0, timeoutMs, onProgress: () => {} });

describe("Poller", () => {
  it("reads objects waiting side by side with one request per kind, and settles each when ready", async () => {
    const states = new Map<string, string | undefined>([["a", "PROVISIONING"], ["b", "PROVISIONING"], ["c", "PROVISIONING"]]);
    const { kind, reads } = fakeKind(states);
    const poller = new Poller({} as KindContext, settings);
    const waits = ["a", "b", "c"].map((id) => poller.wait(kind, { id }, options(`connections.${id}`)));
    setTimeout(() => ["a", "b", "c"].forEach((id) => states.set(id, "PROVISIONED")), 30);
    const bodies = await Promise.all(waits);
    expect(bodies.map((b) => b?.uuid)).toEqual(["a", "b", "c"]);
    expect(reads.one).toBe(0);
    expect(reads.many).toBeGreaterThan(0);
  });

  it("notices a ready object of one kind while a slow read of another kind is still in flight", async () => {
    const fast = fakeKind(new Map([["c", "PROVISIONED"]]));
    let answerSlow!: () => void;
    const slowKind = { ...fakeKind(new Map()).kind, noun: "routing protocol", observe: () => new Promise<Body>((resolve) => (answerSlow = () => resolve({ uuid: "p", state: "PROVISIONED" }))) } as unknown as KindHandler;
    const poller = new Poller({} as KindContext, settings);
    const slow = poller.wait(slowKind, { id: "p", parent: "c0" }, options("routingProtocols.p"));
    while (!answerSlow) await new Promise((resolve) => setTimeout(resolve, 1));
    // The slow read is unanswered; the connection is read and settled all the same.
    await expect(poller.wait(fast.kind, { id: "c" }, options("connections.c"))).resolves.toMatchObject({ uuid: "c" });
    answerSlow();
    await expect(slow).resolves.toMatchObject({ uuid: "p" });
  });

  it("fails a wait on a failed state with the service's reason, without failing the others", async () => {
    const states = new Map<string, string | undefined>([["a", "FAILED"], ["b", "PROVISIONED"]]);
    const { kind } = fakeKind(states);
    const poller = new Poller({} as KindContext, settings);
    const [a, b] = [poller.wait(kind, { id: "a" }, options("connections.a")), poller.wait(kind, { id: "b" }, options("connections.b"))];
    await expect(a).rejects.toThrow("connections.a (connection a): the service reports FAILED");
    await expect(b).resolves.toMatchObject({ uuid: "b" });
  });

  it("treats a deleted object that is gone as done, and a created one that vanished as an error", async () => {
    const states = new Map<string, string | undefined>([["gone", undefined], ["vanished", undefined]]);
    const { kind } = fakeKind(states);
    const poller = new Poller({} as KindContext, settings);
    await expect(poller.wait(kind, { id: "gone" }, options("connections.gone", "delete"))).resolves.toBeUndefined();
    await expect(poller.wait(kind, { id: "vanished" }, options("connections.vanished"))).rejects.toThrow(/disappeared while being created/);
  });

  it("gives up after the kind's timeout, saying how long it waited and what to do", async () => {
    const { kind } = fakeKind(new Map([["slow", "PROVISIONING"]]));
    const poller = new Poller({} as KindContext, settings);
    await expect(poller.wait(kind, { id: "slow" }, options("connections.slow", "create", 30))).rejects.toThrow(/still PROVISIONING after .* longer than the .* allowed/);
  });

  it("stops waiting when interrupted", async () => {
    const { kind } = fakeKind(new Map([["x", "PROVISIONING"]]));
    const poller = new Poller({} as KindContext, settings);
    const abort = new AbortController();
    const waiting = poller.wait(kind, { id: "x" }, { ...options("connections.x"), signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toThrow(/stopped waiting \(interrupted\)/);
  });

  it("does not start waiting once interrupted: a step whose call was answered after the interrupt stops there", async () => {
    const { kind, reads } = fakeKind(new Map([["x", "PROVISIONING"]]));
    const poller = new Poller({} as KindContext, settings);
    const abort = new AbortController();
    abort.abort("SIGINT");
    await expect(poller.wait(kind, { id: "x" }, { ...options("connections.x"), signal: abort.signal })).rejects.toBeInstanceOf(InterruptedError);
    expect(reads).toEqual({ one: 0, many: 0 });
  });

  it("leaves no listener on the signal once a wait is over: one apply waits for many objects", async () => {
    const states = new Map<string, string | undefined>([["a", "PROVISIONED"], ["b", "FAILED"]]);
    const { kind } = fakeKind(states);
    const poller = new Poller({} as KindContext, settings);
    const abort = new AbortController();
    await poller.wait(kind, { id: "a" }, { ...options("connections.a"), signal: abort.signal });
    await expect(poller.wait(kind, { id: "b" }, { ...options("connections.b"), signal: abort.signal })).rejects.toThrow(/FAILED/);
    expect(getEventListeners(abort.signal, "abort")).toEqual([]);
  });

  it("first looks at an object once its kind's typical time has passed, then backs off", async () => {
    // At time 0, the polling grid and the test's clock agree.
    vi.useFakeTimers({ now: 0 });
    try {
      const states = new Map<string, string | undefined>([["a", "PROVISIONING"]]);
      const { kind, reads } = fakeKind(states);
      const poller = new Poller({} as KindContext, settings, Date.now);
      const waiting = poller.wait(kind, { id: "a" }, { ...options("connections.a"), expectedMs: 1_000 });
      await vi.advanceTimersByTimeAsync(Math.round(FIRST_LOOK * 1_000) - settings.minIntervalMs);
      expect(reads).toEqual({ one: 0, many: 0 });
      await vi.advanceTimersByTimeAsync(settings.minIntervalMs);
      expect(reads.one).toBe(1);
      states.set("a", "PROVISIONED");
      // Then backoff: the next look comes at most the largest interval later.
      await vi.advanceTimersByTimeAsync(settings.maxIntervalMs);
      await expect(waiting).resolves.toMatchObject({ uuid: "a" });
      expect(reads.one).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("looks at an object read under its parent when it is due, and puts only searched objects on the grid", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const states = new Map<string, string | undefined>([["p1", "PROVISIONED"], ["p2", "PROVISIONED"], ["c", "PROVISIONED"]]);
      const { kind } = fakeKind(states);
      const reads: string[] = [];
      const nested = {
        ...kind,
        observeMany: async (ctx: KindContext, refs: ObjectRef[]) => {
          reads.push(`${refs.map((r) => r.parent).join()}@${Date.now()}`);
          const byId = await kind.observeMany!(ctx, refs);
          return new Map(refs.filter((r) => byId.has(r.id)).map((r) => [refKey(r), byId.get(r.id)!]));
        },
        observe: async (_ctx: KindContext, ref: ObjectRef) => {
          reads.push(`${ref.parent}@${Date.now()}`);
          return { uuid: ref.id, state: states.get(ref.id) };
        },
      } as KindHandler;
      const searched = {
        ...kind,
        observe: async (ctx: KindContext, ref: ObjectRef) => (reads.push(`search@${Date.now()}`), kind.observe(ctx, ref)),
        observeMany: async (ctx: KindContext, refs: ObjectRef[]) => (reads.push(`search@${Date.now()}`), kind.observeMany!(ctx, refs)),
      } as KindHandler;
      const poller = new Poller({} as KindContext, { minIntervalMs: 200, maxIntervalMs: 2_000, growth: 0.05 }, Date.now);
      const waits = [poller.wait(nested, { id: "p2", parent: "c2" }, { ...options("routingProtocols.p2"), expectedMs: 1_000 })];
      await vi.advanceTimersByTimeAsync(30);
      waits.push(poller.wait(nested, { id: "p1", parent: "c1" }, { ...options("routingProtocols.p1"), expectedMs: 1_000 }));
      waits.push(poller.wait(searched, { id: "c" }, { ...options("connections.c"), expectedMs: 1_000 }));
      await vi.advanceTimersByTimeAsync(1_200);
      await Promise.all(waits);
      // c2's read at 1,000 ms does not take c1's along 30 ms early; the connection waits for the grid.
      expect(reads).toEqual(["c2@1000", "c1@1030", "search@1200"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes along objects not yet due only as far as they fill the pages of the due ones' search", async () => {
    const states = new Map<string, string | undefined>(Array.from({ length: 150 }, (_, i) => [`c${i}`, i < 10 ? "PROVISIONED" : "PROVISIONING"]));
    const { kind } = fakeKind(states);
    const sizes: number[] = [];
    const searched = { ...kind, observeMany: async (ctx: KindContext, refs: ObjectRef[]) => (sizes.push(refs.length), kind.observeMany!(ctx, refs)) } as KindHandler;
    const poller = new Poller({} as KindContext, settings);
    const abort = new AbortController();
    const later = Array.from({ length: 140 }, (_, i) => poller.wait(searched, { id: `c${i + 10}` }, { ...options(`connections.c${i + 10}`), expectedMs: 60_000, signal: abort.signal }));
    await Promise.all(Array.from({ length: 10 }, (_, i) => poller.wait(searched, { id: `c${i}` }, options(`connections.c${i}`))));
    // One page of 100: the 10 due and 90 of those due later, not all 150 in two requests.
    expect(sizes).toEqual([100]);
    abort.abort();
    for (const w of later) await expect(w).rejects.toBeInstanceOf(InterruptedError);
  });

  it("keeps the turn of an object taken along early: a wave due one grid step later is still read then", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const states = new Map<string, string | undefined>([["a", "PROVISIONED"], ["b", "PROVISIONING"]]);
      const { kind } = fakeKind(states);
      const reads: number[] = [];
      // A search takes 10 ms to answer, as a real one does: the answer comes after the grid point it was sent on.
      const answerLater = async <T>(answer: () => Promise<T>): Promise<T> => {
        reads.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 10));
        return answer();
      };
      const searched = {
        ...kind,
        observe: (ctx: KindContext, ref: ObjectRef) => answerLater(() => kind.observe(ctx, ref)),
        observeMany: (ctx: KindContext, refs: ObjectRef[]) => answerLater(() => kind.observeMany!(ctx, refs)),
      } as KindHandler;
      const poller = new Poller({} as KindContext, { minIntervalMs: 200, maxIntervalMs: 2_000, growth: 0.05 }, Date.now);
      const a = poller.wait(searched, { id: "a" }, { ...options("connections.a"), expectedMs: 1_000 });
      await vi.advanceTimersByTimeAsync(200);
      const b = poller.wait(searched, { id: "b" }, { ...options("connections.b"), expectedMs: 1_000 });
      // b's transition ends at 1,150 ms; a's read at 1,000 ms takes b along and finds it unfinished.
      setTimeout(() => states.set("b", "PROVISIONED"), 950);
      await vi.advanceTimersByTimeAsync(1_300);
      await Promise.all([a, b]);
      // b is read again at its own turn, 1,200 ms, not an interval after the early read's answer (1,210 ms, on the grid 1,400).
      expect(reads).toEqual([1_000, 1_200]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads a nested kind's due objects by parent, without taking along those of other parents", async () => {
    const states = new Map<string, string | undefined>([["p1", "PROVISIONED"], ["p2", "PROVISIONING"], ["q", "PROVISIONING"]]);
    const { kind } = fakeKind(states);
    const parents: string[][] = [];
    const nested = {
      ...kind,
      observeMany: async (ctx: KindContext, refs: ObjectRef[]) => {
        parents.push(refs.map((r) => r.parent!));
        const byId = await kind.observeMany!(ctx, refs);
        return new Map(refs.filter((r) => byId.has(r.id)).map((r) => [refKey(r), byId.get(r.id)!]));
      },
    } as KindHandler;
    const poller = new Poller({} as KindContext, settings);
    const abort = new AbortController();
    const later = { ...options("routingProtocols.later"), expectedMs: 60_000, signal: abort.signal };
    const waits = [poller.wait(nested, { id: "p2", parent: "c1" }, later), poller.wait(nested, { id: "q", parent: "c2" }, later)];
    await poller.wait(nested, { id: "p1", parent: "c1" }, { ...options("routingProtocols.p1"), expectedMs: 0 });
    expect(parents).toEqual([["c1", "c1"]]);
    abort.abort();
    for (const w of waits) await expect(w).rejects.toBeInstanceOf(InterruptedError);
  });
});
