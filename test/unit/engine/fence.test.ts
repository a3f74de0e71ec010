import { describe, expect, it } from "vitest";
import { RunFence } from "../../../src/engine/fence.js";
import { lockLost, type HeldLock } from "../../../src/state/index.js";

/** A held lock whose every check waits until the test answers it. */
function answeredLock() {
  const pending: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  const lock: HeldLock = {
    info: { id: "lock-1", operation: "apply", who: "test", created: "2026-11-28T00:00:00Z", expires: "when this test ends" },
    check: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    release: async () => {},
  };
  return { lock, pending };
}

describe("RunFence", () => {
  it("asks the backend once for the changes that ask while its answer is on its way or in the turn it came, and again after", async () => {
    const { lock, pending } = answeredLock();
    const fence = new RunFence(lock);
    const together = Promise.all([fence.check(), fence.check(), fence.check()]);
    expect(pending).toHaveLength(1);
    pending[0]!.resolve();
    await together;
    await fence.check();
    expect(pending).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = fence.check();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve();
    await later;
  });

  it("stops the run when the answer is a lost lock: every change that shared it is refused, and no other is asked", async () => {
    const { lock, pending } = answeredLock();
    const fence = new RunFence(lock);
    const together = [fence.check(), fence.check()];
    const lost = lockLost("netform.state.json", "lock-1", "netform force-unlock removed it");
    pending[0]!.reject(lost);
    for (const check of together) await expect(check).rejects.toBe(lost);
    expect(fence.lost).toBe(lost);
    expect(fence.signal.aborted).toBe(true);
    await expect(fence.check()).rejects.toBe(lost);
    expect(pending).toHaveLength(1);
  });
});
