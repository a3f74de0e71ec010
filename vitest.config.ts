import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is a worker per core less one: on a 2-core machine, one, and the files ran one after
    // the other while the cores idled through each file's waits (on the simulator's pace, on the command
    // lines a test starts). Two per core keep them busy: on 2 cores the suite took 1101 s with one worker,
    // 728 s with four.
    maxWorkers: availableParallelism() * 2,
    projects: [
      {
        extends: true,
        test: {
          // The unit tests and the kinds' tests, on the sources: they share no module state, so each worker
          // loads the modules once for all its files instead of once per file (a third of the time). Alone
          // (`npm run test:quick`), the inner loop's subset: nothing built, nothing spawned.
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/kinds/**/*.test.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // End to end: the built command line against the simulator, the simulator itself, and the
          // reliability tests. Each file starts its own simulator (and database, and workspaces) and puts
          // back what it changes of the process (environment, timers), so the files of a worker share its
          // loaded modules and compiled response schemas instead of loading them once per file: on
          // 2 cores, the test/simulator files took half the time and half the CPU.
          name: "e2e",
          include: ["test/**/*.test.ts"],
          exclude: ["test/unit/**", "test/kinds/**"],
          globalSetup: ["test/e2e/global-setup.ts"],
          isolate: false,
        },
      },
    ],
  },
});
