import { describe, expect, it } from "vitest";
import { Turns } from "../../../src/engine/turns.js";

describe("Turns", () => {
  it("lets the most urgent waiting call go first, and never more at once than its slots", async () => {
    const turns = new Turns(2);
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    const call = (name: string) => async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      order.push(name);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return name;
    };
    const results = await Promise.all([turns.take(0, call("first")), turns.take(0, call("second")), turns.take(1, call("low")), turns.take(30, call("high")), turns.take(4, call("middle"))]);
    expect(results).toEqual(["first", "second", "low", "high", "middle"]);
    // The first two found free slots; of those that waited, the most urgent went first.
    expect(order).toEqual(["first", "second", "high", "middle", "low"]);
    expect(most).toBe(2);
  });
});
