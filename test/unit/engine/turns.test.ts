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

  it("lets calls with time to spare hold only a quarter of the slots while more urgent work is ahead, and all once it is not", async () => {
    let ahead = 20;
    const turns = new Turns(8, undefined, () => ahead);
    const order: string[] = [];
    let spareInFlight = 0;
    let mostSpare = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = (name: string, spare: boolean) => async () => {
      order.push(name);
      if (spare) mostSpare = Math.max(mostSpare, ++spareInFlight);
      await gate;
      if (spare) spareInFlight--;
      return name;
    };
    // Urgency 4 is less than half of the 20 s ahead: time to spare. Urgency 13 is not.
    const spare = Array.from({ length: 6 }, (_, i) => turns.take(4, call(`attachment${i}`, true)));
    const urgent = Array.from({ length: 4 }, (_, i) => turns.take(13, call(`direct${i}`, false)));
    await new Promise((resolve) => setImmediate(resolve));
    // Two of the eight slots went to calls with time to spare; the urgent calls did not wait behind the rest.
    expect(order).toEqual(["attachment0", "attachment1", "direct0", "direct1", "direct2", "direct3"]);
    release();
    await Promise.all([...spare, ...urgent]);
    expect(mostSpare).toBe(2);

    // With nothing more urgent ahead, the same calls use every slot.
    ahead = 0;
    order.length = 0;
    spareInFlight = 0;
    mostSpare = 0;
    await Promise.all(Array.from({ length: 8 }, (_, i) => turns.take(4, call(`filter${i}`, true))));
    expect(mostSpare).toBe(8);
  });
});
