import { describe, expect, it } from "vitest";
import { ApiError, OutcomeUnknownError } from "../../../src/api/index.js";
import { CreateBatcher } from "../../../src/engine/create-batcher.js";
import { Turns } from "../../../src/engine/turns.js";
import type { Body, KindContext, KindHandler, Observed } from "../../../src/kinds/index.js";

/** A kind with a bulk create, keyed by `parent`; it records every request and refuses the prefixes in `refused`. */
function bulkKind(options: { refused?: string[]; bulkError?: unknown } = {}) {
  const calls: string[] = [];
  let next = 0;
  const made = (spec: Body): Observed => ({ id: `id-${next++}`, parent: String(spec.parent), body: { ...spec } });
  const refuse = (spec: Body) => {
    if (options.refused?.includes(String(spec.prefix))) throw new ApiError({ status: 400, method: "POST", path: "/rules", body: [{ errorCode: "EQ-3044013", errorMessage: "Invalid argument value passed" }] });
  };
  const kind = {
    noun: "rule",
    create: async (_ctx: KindContext, spec: Body) => {
      calls.push(`one ${String(spec.parent)} ${String(spec.prefix)}`);
      refuse(spec);
      return made(spec);
    },
    bulkCreate: {
      key: (spec: Body) => String(spec.parent),
      create: async (_ctx: KindContext, specs: Body[]) => {
        calls.push(`bulk ${String(specs[0]!.parent)} ${specs.map((s) => String(s.prefix)).join(",")}`);
        if (options.bulkError) throw options.bulkError;
        specs.forEach(refuse);
        return specs.map(made);
      },
    },
  } as unknown as KindHandler;
  return { kind, calls };
}

const ctx = {} as KindContext;
const spec = (parent: string, prefix: string): Body => ({ parent, prefix });

describe("CreateBatcher", () => {
  it("sends the creates asked for in one turn as one request per key, and answers each with its own object", async () => {
    const { kind, calls } = bulkKind();
    const batcher = new CreateBatcher(ctx, new Turns(10));
    const results = await Promise.all([
      batcher.create(kind, spec("f1", "10.0.0.0/8"), 0),
      batcher.create(kind, spec("f2", "10.1.0.0/16"), 0),
      batcher.create(kind, spec("f1", "10.2.0.0/16"), 0),
    ]);
    expect(calls.sort()).toEqual(["bulk f1 10.0.0.0/8,10.2.0.0/16", "one f2 10.1.0.0/16"]);
    expect(results.map((r) => `${r.parent} ${String(r.body.prefix)}`)).toEqual(["f1 10.0.0.0/8", "f2 10.1.0.0/16", "f1 10.2.0.0/16"]);
  });

  it("gathers again after a flush: creates asked for later go in a request of their own", async () => {
    const { kind, calls } = bulkKind();
    const batcher = new CreateBatcher(ctx, new Turns(10));
    await Promise.all([batcher.create(kind, spec("f1", "10.0.0.0/8"), 0), batcher.create(kind, spec("f1", "10.1.0.0/16"), 0)]);
    await Promise.all([batcher.create(kind, spec("f1", "10.2.0.0/16"), 0), batcher.create(kind, spec("f1", "10.3.0.0/16"), 0)]);
    expect(calls).toEqual(["bulk f1 10.0.0.0/8,10.1.0.0/16", "bulk f1 10.2.0.0/16,10.3.0.0/16"]);
  });

  it("sends a refused bulk again one create at a time, so only the bad one fails", async () => {
    const { kind, calls } = bulkKind({ refused: ["10.9.0.1/16"] });
    const batcher = new CreateBatcher(ctx, new Turns(10));
    const outcomes = await Promise.allSettled([batcher.create(kind, spec("f1", "10.0.0.0/8"), 0), batcher.create(kind, spec("f1", "10.9.0.1/16"), 0)]);
    expect(calls).toEqual(["bulk f1 10.0.0.0/8,10.9.0.1/16", "one f1 10.0.0.0/8", "one f1 10.9.0.1/16"]);
    expect(outcomes[0]).toMatchObject({ status: "fulfilled", value: { parent: "f1" } });
    expect(outcomes[1]).toMatchObject({ status: "rejected", reason: expect.any(ApiError) });
  });

  it("gives every create of a bulk whose outcome is unknown that error, for each to look its object up", async () => {
    const unknown = new OutcomeUnknownError("POST", "/rules/bulk", new Error("socket hang up"));
    const { kind, calls } = bulkKind({ bulkError: unknown });
    const batcher = new CreateBatcher(ctx, new Turns(10));
    const outcomes = await Promise.allSettled([batcher.create(kind, spec("f1", "10.0.0.0/8"), 0), batcher.create(kind, spec("f1", "10.1.0.0/16"), 0)]);
    expect(calls).toEqual(["bulk f1 10.0.0.0/8,10.1.0.0/16"]);
    expect(outcomes.map((o) => (o.status === "rejected" ? o.reason : o.value))).toEqual([unknown, unknown]);
  });

  it("creates one at a time for a kind without a bulk create", async () => {
    let creates = 0;
    const kind = { create: async (_ctx: KindContext, s: Body) => ({ id: String(++creates), body: s }) } as unknown as KindHandler;
    const batcher = new CreateBatcher(ctx, new Turns(10));
    await Promise.all([batcher.create(kind, { a: 1 }, 0), batcher.create(kind, { a: 2 }, 0)]);
    expect(creates).toBe(2);
  });

  it("sends a group with the urgency of its most urgent create: it goes before a less urgent request waiting for a turn", async () => {
    const order: string[] = [];
    const turns = new Turns(1);
    let release!: () => void;
    // The one turn is taken until the creates below are waiting.
    void turns.take(0, () => new Promise<void>((resolve) => (release = resolve)));
    const { kind } = bulkKind();
    const plain = { create: async (_ctx: KindContext, s: Body) => (order.push(`one ${String(s.a)}`), { id: "x", body: s }) } as unknown as KindHandler;
    const batcher = new CreateBatcher(ctx, turns);
    const done = Promise.all([batcher.create(plain, { a: "lazy" }, 1), batcher.create(kind, spec("f1", "10.0.0.0/8"), 0), batcher.create(kind, spec("f1", "10.1.0.0/16"), 5)]);
    await new Promise((resolve) => setImmediate(resolve));
    const bulk = kind.bulkCreate!.create;
    kind.bulkCreate!.create = async (c, specs) => (order.push(`bulk ${specs.length}`), bulk(c, specs));
    release();
    await done;
    expect(order).toEqual(["bulk 2", "one lazy"]);
  });
});
