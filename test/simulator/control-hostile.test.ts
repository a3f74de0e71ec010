import { expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

it("answers 400, not 500, to a merge patch nested deeper than any object, and leaves the object as it was", async () => {
  const port = ((await t.call("GET", "/__sim/objects?kind=ports")).body.data as Array<{ uuid: string }>)[0]!;
  const depth = 100_000;
  const raw = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const patched = await t.call("PATCH", `/__sim/objects/${port.uuid}`, { raw, contentType: "application/json" });
  expect(patched.status).toBe(400);
  expect(patched.body.error).toMatch(/nested more than \d+ levels/);
  const after = ((await t.call("GET", "/__sim/objects?kind=ports")).body.data as Array<{ uuid: string }>).find((p) => p.uuid === port.uuid);
  expect(after).toEqual(port);
});
