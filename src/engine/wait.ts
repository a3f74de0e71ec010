// Waiting for objects' transitions. Every wait of a run goes through one Poller, which polls with
// adaptive backoff — each object's interval is a fixed fraction of the time it has already waited, so a
// wait overshoots its transition by at most that fraction while a long one is polled rarely — and reads
// all the objects of a kind that are due at the same moment with one list or search request where the
// kind has one, instead of one GET each.

import { NetformError } from "../diag/index.js";
import { refKey } from "../kinds/common.js";
import type { Body, KindContext, ObjectRef, Operation, KindHandler } from "../kinds/index.js";
import { InterruptedError } from "./interrupt.js";

export interface PollSettings {
  /** The first interval, and the smallest. */
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Each interval is this fraction of the time waited so far. */
  growth: number;
}

export const REAL_SERVICE_POLLING: PollSettings = { minIntervalMs: 1000, maxIntervalMs: 30_000, growth: 0.05 };

export interface WaitOptions {
  address: string;
  operation: Operation;
  timeoutMs: number;
  onProgress(state: string | undefined, elapsedMs: number): void;
  signal?: AbortSignal;
}

interface Waiter {
  kind: KindHandler;
  ref: ObjectRef;
  options: WaitOptions;
  started: number;
  due: number;
  resolve(body: Body | undefined): void;
  reject(error: unknown): void;
  /** Removes the abort listener: a long apply waits for many objects on one signal. */
  unsubscribe(): void;
}

export class Poller {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(
    private readonly ctx: KindContext,
    private readonly settings: PollSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves with the object as last observed (undefined once a deleted object is gone); rejects at once when interrupted. */
  wait(kind: KindHandler, ref: ObjectRef, options: WaitOptions): Promise<Body | undefined> {
    return new Promise((resolve, reject) => {
      // A step whose call was answered after the interrupt reaches its wait with the signal already aborted.
      if (options.signal?.aborted) return reject(interrupted(kind, ref, options));
      const started = this.now();
      const onAbort = () => this.settle(waiter, () => reject(interrupted(kind, ref, options)));
      const waiter: Waiter = { kind, ref, options, started, due: started, resolve, reject, unsubscribe: () => options.signal?.removeEventListener("abort", onAbort) };
      this.waiters.add(waiter);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.schedule();
    });
  }

  private settle(waiter: Waiter, finish: () => void): void {
    if (!this.waiters.delete(waiter)) return;
    waiter.unsubscribe();
    finish();
    this.schedule();
  }

  private schedule(): void {
    if (this.ticking) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiters.size === 0) return;
    const next = Math.min(...[...this.waiters].map((w) => w.due));
    this.timer = setTimeout(() => void this.tick(), Math.max(0, next - this.now()));
  }

  /** Reads every due object, a kind's all at once where it can, and settles or reschedules each. */
  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      // Objects due within half the smallest interval are read now too: one request serves them all.
      const horizon = this.now() + this.settings.minIntervalMs / 2;
      const due = [...this.waiters].filter((w) => w.due <= horizon);
      const byKind = new Map<KindHandler, Waiter[]>();
      for (const w of due) byKind.set(w.kind, [...(byKind.get(w.kind) ?? []), w]);
      await Promise.all([...byKind].map(([kind, waiters]) => this.observe(kind, waiters)));
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  private async observe(kind: KindHandler, waiters: Waiter[]): Promise<void> {
    let bodies: Map<string, Body | undefined>;
    try {
      if (kind.observeMany && waiters.length > 1) {
        const found = await kind.observeMany(this.ctx, waiters.map((w) => w.ref));
        bodies = new Map(waiters.map((w) => [refKey(w.ref), found.get(refKey(w.ref))]));
      } else {
        bodies = new Map(await Promise.all(waiters.map(async (w) => [refKey(w.ref), await kind.observe(this.ctx, w.ref)] as const)));
      }
    } catch (error) {
      for (const w of waiters) this.settle(w, () => w.reject(error));
      return;
    }
    for (const w of waiters) this.check(w, bodies.get(refKey(w.ref)));
  }

  private check(w: Waiter, body: Body | undefined): void {
    const { kind, ref, options } = w;
    const elapsed = this.now() - w.started;
    const noun = `${options.address} (${kind.noun} ${ref.id})`;
    if (!body) {
      if (options.operation === "delete") return this.settle(w, () => w.resolve(undefined));
      const error = new NetformError({ code: "apply.vanished", message: `${noun} disappeared while being ${options.operation === "create" ? "created" : "updated"}`, hint: "someone may have deleted it outside netform; run plan again" });
      return this.settle(w, () => w.reject(error));
    }
    const readiness = kind.readiness(body, options.operation);
    if (readiness === "ready") return this.settle(w, () => w.resolve(body));
    if (typeof readiness === "object") {
      const error = new NetformError({ code: "apply.failed", message: `${noun}: the service reports ${readiness.failed}`, hint: "the next plan replaces a failed object" });
      return this.settle(w, () => w.reject(error));
    }
    const state = kind.stateOf(body);
    options.onProgress(state, elapsed);
    if (elapsed > options.timeoutMs) {
      const error = new NetformError({
        code: "apply.timeout",
        message: `${noun}: still ${state ?? "not ready"} after ${Math.round(elapsed / 1000)}s, longer than the ${Math.round(options.timeoutMs / 1000)}s allowed`,
        hint: `raise provider.timeouts.${options.address.split(".")[0]} if the service is known to be slow; the next apply waits for it again`,
      });
      return this.settle(w, () => w.reject(error));
    }
    const interval = Math.min(this.settings.maxIntervalMs, Math.max(this.settings.minIntervalMs, elapsed * this.settings.growth));
    // Due times are rounded up to a grid of the smallest interval, so objects waiting side by side are
    // read by the same request.
    const grid = this.settings.minIntervalMs;
    w.due = Math.ceil((this.now() + interval) / grid) * grid;
  }
}

function interrupted(kind: KindHandler, ref: ObjectRef, options: WaitOptions): InterruptedError {
  return new InterruptedError(`${options.address} (${kind.noun} ${ref.id}): stopped waiting (interrupted)`);
}
