// Shared by the backends' fencing tests: a runner paused mid-apply (SIGSTOP, as a stalled CI machine is),
// whose lock another runner force-unlocks and whose work it finishes, then resumed (SIGCONT). The
// resumed runner must stop before its next change to the service and write nothing more; the service
// must hold exactly what the state records.

import { expect } from "vitest";
import type { TestSim } from "../support/sim.js";
import { start, type CliResult } from "./cli.js";
import { CONFIG_HEADER, objects, out } from "./service.js";

export const FILTERS = 4;

/** Route filters, each after the one before: the apply is a sequence of steps, each a change to the service. */
export const chainOfFilters = (backend: string): string =>
  `${CONFIG_HEADER}${backend}routeFilters:\n${Array.from({ length: FILTERS }, (_, i) => `  chain-${i}:\n    type: BGP_IPv4_PREFIX_FILTER\n${i > 0 ? `    dependsOn: [routeFilters.chain-${i - 1}]\n` : ""}`).join("")}`;

/** The route filters the service holds, deleted ones left out. */
export const filtersOnService = async (t: TestSim): Promise<string[]> =>
  (await objects(t, "routeFilters")).filter((o) => !/DEPROVISION/.test(String(o.state))).map((o) => String(o.uuid));

export interface PausedHolder {
  /** The holder's lock ID, as its backend records it. */
  lockId: string;
  /** The IDs of the route filters the holder had created when it was paused. */
  created: string[];
  /** Resumes the holder; resolves with how it ended. */
  resume(): Promise<CliResult>;
  /** Kills the holder where it is paused (SIGKILL, as a machine lost); resolves once it is gone. */
  killed(): Promise<CliResult>;
  /** Ends the holder, should the test fail before it resumes it. */
  kill(): void;
}

/**
 * Starts an apply of `chainOfFilters` against a slow service, and pauses it once it holds the lock and
 * its first create reached the service. `lockIdOf` reads the holder's lock ID from the backend.
 */
export async function pauseHolderMidApply(t: TestSim, where: { cwd: string; env: Record<string, string> }, lockIdOf: () => Promise<string | undefined>): Promise<PausedHolder> {
  t.sim.faults.configure({ latencyMs: 300 });
  const holder = start(["apply", "--auto-approve"], where);
  const lockId = await t.eventually(lockIdOf, "the holder to take the lock");
  await t.eventually(async () => ((await filtersOnService(t)).length > 0 ? true : undefined), "the holder's first create");
  holder.child.kill("SIGSTOP");
  const created = await filtersOnService(t);
  t.sim.faults.configure({});
  return {
    lockId,
    created,
    async resume() {
      holder.child.kill("SIGCONT");
      return holder.done;
    },
    async killed() {
      holder.child.kill("SIGKILL");
      return holder.done;
    },
    kill() {
      holder.child.kill("SIGKILL");
    },
  };
}

/**
 * How a resumed holder that lost its lock must end: stopped, saying why, without claiming success, and
 * naming what it created with the command to import it.
 */
export function expectStoppedForLostLock(resumed: CliResult, paused: Pick<PausedHolder, "lockId" | "created">): void {
  const { lockId } = paused;
  expect(resumed.code, out(resumed)).toBe(1);
  expect(resumed.stderr).toContain(`the state lock ${lockId} on `);
  expect(resumed.stderr).toContain("is no longer this run's");
  expect(resumed.stderr).toContain("This run stopped before its next change to the service and wrote nothing more to the state.");
  expect(resumed.stdout).not.toContain("Apply complete!");
  for (const id of paused.created) expect(resumed.stderr).toContain(`${id})`);
  expect(resumed.stderr).toContain(`netform import routeFilters.chain-0 ${paused.created[0]}`);
  expect(resumed.stderr).not.toMatch(/Internal error| {4}at /);
}
