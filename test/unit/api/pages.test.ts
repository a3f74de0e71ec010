import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../../src/api/client.js";
import { itemsOf, listAll, searchAll } from "../../../src/api/pages.js";

/** A service holding `items`, answering pages of at most `cap` with or without a total; it records the offsets asked for and how many were in flight at once. */
function service(items: number[], options: { cap?: number; total?: boolean; failAt?: number } = {}) {
  const asked: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const call = async (_method: string, _path: string, opts: { query?: { offset: number; limit: number }; body?: { pagination: { offset: number; limit: number } } }) => {
    const { offset, limit } = opts.query ?? opts.body!.pagination;
    asked.push(offset);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    // A failing page answers at once, before the pages ahead of it.
    await new Promise((resolve) => setTimeout(resolve, offset === options.failAt ? 0 : 5));
    inFlight--;
    if (offset === options.failAt) throw new Error(`page at ${offset} failed`);
    const data = items.slice(offset, offset + Math.min(limit, options.cap ?? limit));
    return { data, pagination: { offset, limit, ...(options.total === false ? {} : { total: items.length }) } };
  };
  return { api: { call } as unknown as ApiClient, asked, mostInFlight: () => mostInFlight };
}

const collect = async <T>(it: AsyncGenerator<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const items = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("paged reads", () => {
  it("ask for the pages after the first at once when the first gives the total, and give the items in order", async () => {
    const s = service(items(450));
    expect(await collect(listAll<number>(s.api, "/x", { pageSize: 100 }))).toEqual(items(450));
    expect(s.asked).toEqual([0, 100, 200, 300, 400]);
    expect(s.mostInFlight()).toBe(4);
  });

  it("step by the page the service gives when it gives fewer than asked for", async () => {
    const s = service(items(120), { cap: 50 });
    expect(await collect(searchAll<number>(s.api, "/x/search", {}, { pageSize: 100 }))).toEqual(items(120));
    expect(s.asked).toEqual([0, 50, 100]);
  });

  it.each([
    ["fits in one page", 80, [0]],
    ["ends on a page boundary", 200, [0, 100, 200]],
    ["ends with a short page", 230, [0, 100, 200]],
  ])("without a total, read one page after another until a short one: %s", async (_, n, offsets) => {
    const s = service(items(n), { total: false });
    expect(await collect(listAll<number>(s.api, "/x", { pageSize: 100 }))).toEqual(items(n));
    expect(s.asked).toEqual(offsets);
  });

  it("ask for one page when everything fits in it", async () => {
    const s = service(items(100));
    expect(await collect(listAll<number>(s.api, "/x", { pageSize: 100 }))).toEqual(items(100));
    expect(s.asked).toEqual([0]);
  });

  it("fail with the page that failed, leaving no rejection unhandled", async () => {
    const s = service(items(450), { failAt: 300 });
    await expect(collect(listAll<number>(s.api, "/x", { pageSize: 100 }))).rejects.toThrow("page at 300 failed");
  });

  // The official descriptions and real answers disagree on some lists' shape (device link groups, public keys).
  it("read a list answered as a bare array as the whole collection, in one request", async () => {
    const asked: unknown[] = [];
    const call = async (_m: string, _p: string, opts: { query: unknown }) => {
      asked.push(opts.query);
      return items(150);
    };
    expect(await collect(listAll<number>({ call } as unknown as ApiClient, "/x", { pageSize: 100 }))).toEqual(items(150));
    expect(asked).toHaveLength(1);
  });

  it.each([
    ["a page", { pagination: { total: 2 }, data: [1, 2] }, [1, 2]],
    ["a bare array", [1, 2], [1, 2]],
    ["a page without data", { pagination: { total: 0 } }, []],
    ["no list at all", null, []],
  ])("give the items of %s", (_, answer, expected) => {
    expect(itemsOf(answer)).toEqual(expected);
  });
});
