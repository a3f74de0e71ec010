// Creates that may share a request. A kind whose API creates many objects at once (a route filter's
// rules) says which creates may go together; the batcher gathers those that start within one turn of
// the event loop (the steps a finished parent releases all start in the same turn) and sends each group
// as one request. Every step has recorded its own pending create before it asks, so what a bulk request
// did when its outcome is unknown is still found address by address.

import { ApiError } from "../api/index.js";
import type { Body, KindContext, KindHandler, Observed } from "../kinds/index.js";
import type { Turns } from "./turns.js";

interface Waiting {
  spec: Body;
  urgency: number;
  resolve(observed: Observed): void;
  reject(error: unknown): void;
}

export class CreateBatcher {
  /** Per kind, per bulk key: the creates asked for since the last flush. */
  private waiting = new Map<KindHandler, Map<string, Waiting[]>>();
  private scheduled = false;

  constructor(
    private readonly ctx: KindContext,
    private readonly turns: Turns,
  ) {}

  /**
   * Creates one object: alone, or with the others of its kind and key asked for in the same turn of the
   * event loop. The request waits for its turn (turns.ts) with the urgency of its most urgent create.
   */
  create(kind: KindHandler, spec: Body, urgency: number): Promise<Observed> {
    const bulk = kind.bulkCreate;
    if (!bulk) return this.turns.take(urgency, () => kind.create(this.ctx, spec));
    return new Promise((resolve, reject) => {
      const groups = this.waiting.get(kind) ?? new Map<string, Waiting[]>();
      this.waiting.set(kind, groups);
      const key = bulk.key(spec);
      const group = groups.get(key);
      if (group) group.push({ spec, urgency, resolve, reject });
      else groups.set(key, [{ spec, urgency, resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = new Map();
    this.scheduled = false;
    for (const [kind, groups] of waiting) for (const group of groups.values()) void this.send(kind, group);
  }

  private async send(kind: KindHandler, group: Waiting[]): Promise<void> {
    if (group.length === 1) return this.sendAlone(kind, group[0]!);
    let made: Observed[];
    try {
      const urgency = Math.max(...group.map((w) => w.urgency));
      made = await this.turns.take(urgency, () => kind.bulkCreate!.create(this.ctx, group.map((w) => w.spec)));
    } catch (error) {
      // A refusal made nothing: each create is sent alone, so that each address gets its own outcome
      // (the one bad rule among many fails, the others are made). Anything else is every address's.
      if (error instanceof ApiError) {
        await Promise.all(group.map((w) => this.sendAlone(kind, w)));
      } else {
        for (const w of group) w.reject(error);
      }
      return;
    }
    group.forEach((w, i) => w.resolve(made[i]!));
  }

  private async sendAlone(kind: KindHandler, waiting: Waiting): Promise<void> {
    try {
      waiting.resolve(await this.turns.take(waiting.urgency, () => kind.create(this.ctx, waiting.spec)));
    } catch (error) {
      waiting.reject(error);
    }
  }
}
