// Waiting for an object's transition: poll its observe with adaptive backoff until the state tables
// say ready or failed, or the kind's timeout passes. The interval grows with the time already waited
// (a fixed fraction of it), so a wait overshoots the transition by at most that fraction while a long
// one is polled rarely.

import { NetformError } from "../diag/index.js";
import type { Body, KindContext, ObjectRef, Operation, ResourceKind } from "../resources/types.js";

export interface PollSettings {
  /** The first interval, and the smallest. */
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Each interval is this fraction of the time waited so far. */
  growth: number;
}

export const REAL_SERVICE_POLLING: PollSettings = { minIntervalMs: 1000, maxIntervalMs: 30_000, growth: 0.08 };

export interface WaitOptions {
  address: string;
  operation: Operation;
  timeoutMs: number;
  poll: PollSettings;
  onProgress(state: string | undefined, elapsedMs: number): void;
  signal?: AbortSignal;
  now?: () => number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal?.addEventListener("abort", wake, { once: true });
  });

/** Resolves with the object as last observed (undefined once a deleted object is gone). */
export async function waitForTransition(kind: ResourceKind, ctx: KindContext, ref: ObjectRef, options: WaitOptions): Promise<Body | undefined> {
  const now = options.now ?? Date.now;
  const started = now();
  const noun = `${options.address} (${kind.noun} ${ref.id})`;
  for (;;) {
    if (options.signal?.aborted) {
      throw new NetformError({ code: "apply.interrupted", message: `${noun}: stopped waiting (interrupted)`, hint: "the next plan or apply picks up where this one stopped" });
    }
    const body = await kind.observe(ctx, ref);
    const elapsed = now() - started;
    if (!body) {
      if (options.operation === "delete") return undefined;
      throw new NetformError({ code: "apply.vanished", message: `${noun} disappeared while being ${options.operation === "create" ? "created" : "updated"}`, hint: "someone may have deleted it outside netform; run plan again" });
    }
    const readiness = kind.readiness(body, options.operation);
    if (readiness === "ready") return body;
    if (typeof readiness === "object") {
      throw new NetformError({ code: "apply.failed", message: `${noun}: the service reports ${readiness.failed}`, hint: "the next plan replaces a failed object" });
    }
    const state = kind.stateOf(body);
    options.onProgress(state, elapsed);
    if (elapsed > options.timeoutMs) {
      throw new NetformError({
        code: "apply.timeout",
        message: `${noun}: still ${state ?? "not ready"} after ${Math.round(elapsed / 1000)}s, longer than the ${Math.round(options.timeoutMs / 1000)}s allowed`,
        hint: `raise provider.timeouts.${kind.kind} if the service is known to be slow; the next apply waits for it again`,
      });
    }
    const interval = Math.min(options.poll.maxIntervalMs, Math.max(options.poll.minIntervalMs, elapsed * options.poll.growth));
    await sleep(interval, options.signal);
  }
}
