// The command line's code cache (src/cli/code-cache.ts), run as the entry point uses it: each case is a
// separate Node process, because within one process V8 answers a second compile of the same source from
// its own memory and never reads the cache at all.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let work: string;
let loader: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "netform-code-cache-"));
  loader = join(work, "code-cache.cjs");
  buildSync({ entryPoints: [join(import.meta.dirname, "../../../src/cli/code-cache.ts")], bundle: true, format: "cjs", platform: "node", outfile: loader, logLevel: "error" });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `bundle` through the cache in a new process, as src/cli/main.ts does: what it used and what the module exported. */
function start(bundle: string, directory: string): { use: string; exports: unknown; stderr: string } {
  const driver = `const program = require(${JSON.stringify(loader)}).loadWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(directory)}, "plan");
if (program.use === "made") process.once("exit", () => program.save());
process.stdout.write(JSON.stringify({ use: program.use, exports: program.run() }));`;
  const result = spawnSync(process.execPath, ["-e", driver], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return { ...(JSON.parse(result.stdout) as { use: string; exports: unknown }), stderr: result.stderr };
}

/** A module that exercises what the loader gives it: require beside it, its own file and folder, and code enough to be worth caching. */
function writeBundle(name: string, marker: string): string {
  const bundle = join(work, name, "netform.cjs");
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join("\n");
  mkdirSync(join(work, name), { recursive: true });
  writeFileSync(join(work, name, "sibling.cjs"), "module.exports = 'beside';");
  writeFileSync(bundle, `${body}\nmodule.exports = { marker: ${JSON.stringify(marker)}, sum: f199(1), sibling: require("./sibling.cjs"), file: __filename, dir: __dirname, exportsIsModuleExports: exports === module.exports };\n`);
  return bundle;
}

describe("the code cache", () => {
  it("is made by the first run, read by the next, and the module runs the same either way", () => {
    const bundle = writeBundle("first", "one");
    const directory = join(work, "first", "compile-cache");
    const expected = { marker: "one", sum: 200, sibling: "beside", file: bundle, dir: join(work, "first"), exportsIsModuleExports: true };
    expect(start(bundle, directory)).toEqual({ use: "made", exports: expected, stderr: "" });
    expect(readdirSync(directory)).toHaveLength(1);
    expect(start(bundle, directory)).toEqual({ use: "read", exports: expected, stderr: "" });
  });

  it("is not read for a rebuilt bundle, and the stale one is dropped", () => {
    const bundle = writeBundle("rebuilt", "old");
    const directory = join(work, "rebuilt", "compile-cache");
    start(bundle, directory);
    const [stale] = readdirSync(directory);
    // The same length, another text: V8 alone would take the old cache for it.
    writeFileSync(bundle, readFileSync(bundle, "utf8").replace('"old"', '"new"'));
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const run = start(bundle, directory);
    expect(run.use).toBe("made");
    expect(run.exports).toMatchObject({ marker: "new" });
    expect(readdirSync(directory)).toHaveLength(1);
    expect(readdirSync(directory)).not.toContain(stale);
    expect(start(bundle, directory).use).toBe("read");
  });

  it("refused by V8 (damaged, or from another V8), is replaced, and the run goes on", () => {
    const bundle = writeBundle("damaged", "intact");
    const directory = join(work, "damaged", "compile-cache");
    start(bundle, directory);
    const [cache] = readdirSync(directory);
    writeFileSync(join(directory, cache!), Buffer.alloc(4096, 7));
    const run = start(bundle, directory);
    expect(run).toMatchObject({ use: "made", exports: { marker: "intact" }, stderr: "" });
    expect(start(bundle, directory).use).toBe("read");
  });

  it("where it cannot be written, is left unsaved without a word, and every run still works", () => {
    const bundle = writeBundle("readonly", "works");
    const notADirectory = join(work, "readonly", "compile-cache");
    writeFileSync(notADirectory, "a file where the cache's folder would be");
    expect(start(bundle, notADirectory)).toMatchObject({ use: "made", exports: { marker: "works" }, stderr: "" });
    expect(start(bundle, notADirectory)).toMatchObject({ use: "made", exports: { marker: "works" }, stderr: "" });
    expect(readdirSync(join(work, "readonly")).sort()).toEqual(["compile-cache", "netform.cjs", "sibling.cjs"]);
  });

  it("runs a bundle that is not ASCII with its text intact", () => {
    const bundle = writeBundle("unicode", "café ✓");
    const directory = join(work, "unicode", "compile-cache");
    expect(start(bundle, directory).exports).toMatchObject({ marker: "café ✓" });
    expect(start(bundle, directory)).toMatchObject({ use: "read", exports: { marker: "café ✓" } });
  });
});
