import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
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
          // reliability tests; each file in a process of its own.
          name: "e2e",
          include: ["test/**/*.test.ts"],
          exclude: ["test/unit/**", "test/kinds/**"],
          globalSetup: ["test/e2e/global-setup.ts"],
        },
      },
    ],
  },
});
