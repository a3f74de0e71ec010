// Waiting for objects' transitions. Every wait of a run goes through one Poller. It follows the service:
// an object is first looked at once its kind's typical transition time has passed (transition-times.ts),
// and after that with adaptive backoff — each interval a fixed fraction of the time already waited, so a
// wait overshoots its transition by at most that fraction while a long one is polled rarely. All the objects of a kind that are due at the same
// moment are read with one list or search request where the kind has one (one per parent for a nested
// kind), instead of one GET each.

import { NetformError } from "../diag/index.js";
import { SEARCH_PAGE, refKey } from "../kinds/common.js";
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

/**
 * The first look, as a fraction of the typical transition time. A look before it would find most objects
 * still in transition: with a learned average, waiting for the whole of it costs an object that finishes
 * early a little of its head start, and saves a read of every object (and of every parent's list, for
 * nested kinds), which is what keeps an apply within two requests per resource.
 */
export const FIRST_LOOK = 1;

/**
 * The latest first look on the real service (scaled by the pace elsewhere): a kind that takes days, a port
 * order, is still looked at within minutes, in case it finishes early; the backoff takes over from there.
 */
export const LATEST_FIRST_LOOK_MS = 10 * 60_000;

/**
 * How fast the service at hand is, against the real one: polling sooner than the real service's smallest
 * interval (a simulator at --speed 5 is polled every 200 ms) says its transitions are that much shorter.
 */
export const paceOf = (settings: PollSettings): number => Math.min(1, settings.minIntervalMs / REAL_SERVICE_POLLING.minIntervalMs);

/** When to read a waiting object next, `elapsedMs` after its wait began, given its typical transition time. */
export function nextLookAfter(elapsedMs: number, expectedMs: number, settings: PollSettings): number {
  const firstLook = Math.min(FIRST_LOOK * expectedMs, LATEST_FIRST_LOOK_MS * paceOf(settings));
  if (elapsedMs < firstLook) return Math.max(settings.minIntervalMs, firstLook - elapsedMs);
  return Math.min(settings.maxIntervalMs, Math.max(settings.minIntervalMs, elapsedMs * settings.growth));
}

export interface WaitOptions {
  address: string;
  operation: Operation;
  /** How long the operation typically takes on this service (0 when nothing is known: polled from the start). */
  expectedMs: number;
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
  /** Its read is a search across the kind, which other waits share: its due times are put on the grid. */
  gridded: boolean;
  /** A read of it is in flight: it is not read again until that one is answered. */
  reading?: boolean;
  resolve(body: Body | undefined): void;
  reject(error: unknown): void;
  /** Settles the wait as interrupted. */
  interrupt(): void;
}

/** The waits on one abort signal, which has one listener for them all: a run waits for many objects at once on one signal. */
interface SignalWaiters {
  waiters: Set<Waiter>;
  onAbort(): void;
}

export class Poller {
  private readonly waiters = new Set<Waiter>();
  private readonly bySignal = new Map<AbortSignal, SignalWaiters>();
  private timer: NodeJS.Timeout | undefined;

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
      const gridded = kind.observeMany !== undefined && ref.parent === undefined;
      const firstLook = options.expectedMs > 0 ? started + nextLookAfter(0, options.expectedMs, this.settings) : started;
      const waiter: Waiter = { kind, ref, options, started, gridded, due: this.dueAt(gridded, firstLook), resolve, reject, interrupt: () => this.settle(waiter, () => reject(interrupted(kind, ref, options))) };
      this.waiters.add(waiter);
      if (options.signal) this.listen(options.signal, waiter);
      this.schedule();
    });
  }

  private listen(signal: AbortSignal, waiter: Waiter): void {
    let entry = this.bySignal.get(signal);
    if (!entry) {
      const waiters = new Set<Waiter>();
      entry = { waiters, onAbort: () => [...waiters].forEach((w) => w.interrupt()) };
      signal.addEventListener("abort", entry.onAbort, { once: true });
      this.bySignal.set(signal, entry);
    }
    entry.waiters.add(waiter);
  }

  private unlisten(waiter: Waiter): void {
    const signal = waiter.options.signal;
    const entry = signal && this.bySignal.get(signal);
    if (!signal || !entry) return;
    entry.waiters.delete(waiter);
    if (entry.waiters.size > 0) return;
    signal.removeEventListener("abort", entry.onAbort);
    this.bySignal.delete(signal);
  }

  private settle(waiter: Waiter, finish: () => void): void {
    if (!this.waiters.delete(waiter)) return;
    this.unlisten(waiter);
    finish();
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    let next = Infinity;
    for (const w of this.waiters) if (!w.reading && w.due < next) next = w.due;
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - this.now()));
  }

  /**
   * Reads every due object, a kind's all at once where it can, and settles or reschedules each. Reads
   * already in flight do not hold up the next tick: a slow read of many routing protocol lists must not
   * keep a connection that finished from being noticed.
   */
  private tick(): void {
    this.timer = undefined;
    const idle = [...this.waiters].filter((w) => !w.reading);
    // Objects read by a search of their kind that are due within half the smallest interval are read now
    // too: one request serves them all. An object read on its own, or under its parent, is read when due:
    // a read before then gains nothing and may find it still in transition.
    const now = this.now();
    const reads = new Map<string, { due: Waiter[]; early: Waiter[] }>();
    for (const w of idle) {
      const key = sharedRead(w);
      let read = reads.get(key);
      if (!read) reads.set(key, (read = { due: [], early: [] }));
      (this.isDue(w, now) ? read.due : read.early).push(w);
    }
    // A read of many objects in one request takes along waiters not yet due, those due soonest first, as
    // far as it costs no more requests: all of a parent's, whose list holds them anyway; for a search, as
    // many as fill the pages the due ones leave room in. Waits that started apart then stay in one read
    // instead of drifting into one read each, and a search of a few does not grow into one of hundreds.
    const due: Waiter[] = [];
    for (const { due: dueNow, early } of reads.values()) {
      if (dueNow.length === 0) continue;
      due.push(...dueNow);
      if (dueNow[0]!.kind.observeMany === undefined) continue;
      if (!dueNow[0]!.gridded) due.push(...early);
      else due.push(...early.sort((a, b) => a.due - b.due).slice(0, Math.ceil(dueNow.length / SEARCH_PAGE) * SEARCH_PAGE - dueNow.length));
    }
    const byKind = new Map<KindHandler, Waiter[]>();
    for (const w of due) {
      w.reading = true;
      const ofKind = byKind.get(w.kind);
      if (ofKind) ofKind.push(w);
      else byKind.set(w.kind, [w]);
    }
    for (const [kind, waiters] of byKind) {
      void this.observe(kind, waiters, now).finally(() => {
        for (const w of waiters) w.reading = false;
        this.schedule();
      });
    }
    this.schedule();
  }

  private async observe(kind: KindHandler, waiters: Waiter[], readAt: number): Promise<void> {
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
    for (const w of waiters) this.check(w, bodies.get(refKey(w.ref)), readAt);
  }

  /** Settles a wait on what a read begun at `readAt` found, or sets when to look at it next. */
  private check(w: Waiter, body: Body | undefined, readAt: number): void {
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
    // A waiter taken along by another's read before it was due keeps its own turn: rescheduled from the
    // read's answer, it would be looked at again an interval later, one more grid step for a searched
    // object, and a wave of objects due one after the other would be noticed together, late.
    if (!this.isDue(w, readAt)) return;
    w.due = this.dueAt(w.gridded, this.now() + nextLookAfter(elapsed, options.expectedMs, this.settings));
  }

  /** Whether a waiter is read at `time`: a searched one within half the smallest interval of its due time. */
  private isDue(w: Waiter, time: number): boolean {
    return w.due <= (w.gridded ? time + this.settings.minIntervalMs / 2 : time);
  }

  /**
   * When a look wanted at `time` is due: for a searched object, rounded up to a grid of the smallest
   * interval, so that objects waiting side by side are read by the same request; otherwise at `time`.
   */
  private dueAt(gridded: boolean, time: number): number {
    if (!gridded) return time;
    const grid = this.settings.minIntervalMs;
    return Math.ceil(time / grid) * grid;
  }
}

/**
 * The request a waiter is read by when its kind reads many objects at once: one per kind, or, for objects
 * nested under a parent (a connection's routing protocols), one per parent.
 */
const sharedRead = (w: Waiter): string => `${w.kind.noun}\u0000${w.ref.parent ?? ""}`;

function interrupted(kind: KindHandler, ref: ObjectRef, options: WaitOptions): InterruptedError {
  return new InterruptedError(`${options.address} (${kind.noun} ${ref.id}): stopped waiting (interrupted)`);
}
