// Many objects waited for at once: a run with more concurrent waits than an event target's default
// listener limit (10) warns about nothing, because the waits share one abort listener per run.

import { expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";

const t = useSimulator({ speed: 20 });

it("creates, refreshes and deletes 16 objects at once without a MaxListenersExceededWarning", async () => {
  const filters = Array.from({ length: 16 }, (_, i) => `  f${i}:\n    name: f${i}\n    type: BGP_IPv4_PREFIX_FILTER\n`).join("");
  const ws = workspace(`netform: 1\nprovider:\n  endpoint: embedded\n  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01\n  parallelism: 20\nrouteFilters:\n${filters}`);
  const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) });
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stdout).toMatch(/16 added/);
  expect(applied.stderr).not.toMatch(/MaxListenersExceededWarning|Warning:/);
  const planned = await netform(["plan"], { cwd: ws.dir, env: simEnv(t.url) });
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stderr).not.toMatch(/MaxListenersExceededWarning|Warning:/);
  const destroyed = await netform(["destroy", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) });
  expect(destroyed.code, destroyed.stderr).toBe(0);
  expect(destroyed.stderr).not.toMatch(/MaxListenersExceededWarning|Warning:/);
});
