// A sorted search cuts its page without sorting every match: the page must be the one a full sort gives,
// ties in the order the matches came in, whatever the values and wherever the page falls.

import { describe, expect, it } from "vitest";
import { paginate, sortBy, sortedPage } from "../../src/simulator/core/http.js";
import { Random } from "../../src/simulator/core/random.js";
import type { SimError } from "../../src/simulator/core/errors.js";
import type { Json, JsonObject } from "../../src/simulator/core/world.js";

const ALLOWED = ["/name", "/size", "/at"];

/** Items whose values repeat often (ties), some missing, of one kind per property or of both. */
function items(random: Random, count: number, mixed: boolean): JsonObject[] {
  const pick = <T>(choices: T[]): T => choices[Math.floor(random.next() * choices.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const item: JsonObject = { id: i, name: pick(["a", "b", "c", "B", ""]), at: pick(["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"]) };
    const size = pick<number | string | undefined>(mixed ? [1, 2, "10", "9", "1a", "x", undefined] : [1, 2, 10, 9, undefined]);
    if (size !== undefined) item.size = size;
    return item;
  });
}

describe("sortedPage", () => {
  it("gives the page a full sort gives, for any sort, direction and page", () => {
    const random = new Random(11);
    for (let round = 0; round < 300; round++) {
      const all = items(random, Math.floor(random.next() * 40), round % 3 === 0);
      const keys = ALLOWED.filter(() => random.next() < 0.6);
      const sort = keys.map((property) => ({ property, direction: random.next() < 0.5 ? "ASC" : "DESC" }));
      const page = { offset: Math.floor(random.next() * 45), limit: 1 + Math.floor(random.next() * 10) };
      const expected = paginate(sortBy(all, sort, ALLOWED), page);
      expect(sortedPage(all, sort, ALLOWED, page), JSON.stringify({ sort, page })).toEqual(expected);
    }
  });

  it("checks the sort as a full sort does, even with nothing to sort", () => {
    const refusal = (sort: Json) => {
      try {
        sortedPage([], sort, ALLOWED, { offset: 0, limit: 1 });
      } catch (e) {
        return { key: (e as SimError).key, details: (e as SimError).details };
      }
      return undefined;
    };
    expect(refusal([{ property: "/colour" }])).toMatchObject({ key: "invalidProperty", details: [{ property: "/sort/0/property" }] });
    expect(refusal([{ property: "/name", direction: "UP" }])).toMatchObject({ key: "unsupportedSortDirection", details: [{ property: "/sort/0/direction" }] });
  });
});
