// The command line's code cache (src/cli/code-cache.ts), run as the entry point uses it: each case is a
// separate Node process, because within one process V8 answers a second compile of the same source from
// its own memory and never reads the cache at all.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
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

/** Runs `bundle` through the cache in a new process, as src/cli/main.ts does: what it found for each bundle and what the module exported. */
function start(bundle: string, directory: string): { found: Record<string, string>; exports: unknown; stderr: string } {
  const driver = `const cache = new (require(${JSON.stringify(loader)}).CodeCache)(${JSON.stringify(directory)}, "plan");
process.once("exit", () => cache.save());
const exports = cache.run(${JSON.stringify(bundle)});
process.stdout.write(JSON.stringify({ found: cache.found, exports }));`;
  const result = spawnSync(process.execPath, ["-e", driver], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return { ...(JSON.parse(result.stdout) as { found: Record<string, string>; exports: unknown }), stderr: result.stderr };
}

/**
 * A module that uses what the loader gives it (require of Node's modules and of a bundle beside it, twice,
 * its own file and folder) and has code enough to be worth caching.
 */
function writeBundle(name: string, marker: string): string {
  const folder = join(work, name);
  mkdirSync(folder, { recursive: true });
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join("\n");
  writeFileSync(join(folder, "part.cjs"), `${body}\nmodule.exports = { sum: f199(1), sep: require("node:path").sep };\n`);
  const bundle = join(folder, "netform.cjs");
  writeFileSync(
    bundle,
    `${body}\nconst part = require("./part.cjs");\nmodule.exports = { marker: ${JSON.stringify(marker)}, sum: f199(1), part, onePart: part === require("./part.cjs"), file: __filename, dir: __dirname, exportsIsModuleExports: exports === module.exports };\n`,
  );
  return bundle;
}

/** Runs it until its caches are made: the first run marks them, the second saves them. */
function warm(bundle: string, directory: string): void {
  start(bundle, directory);
  start(bundle, directory);
}

const caches = (directory: string): string[] => readdirSync(directory).sort();

describe("the code cache", () => {
  it("is marked by the first run, made by the second, read by the next, and the module runs the same each time", () => {
    const bundle = writeBundle("first", "one");
    const directory = join(work, "first", "compile-cache");
    const exports = { marker: "one", sum: 200, part: { sum: 200, sep: "/" }, onePart: true, file: bundle, dir: join(work, "first"), exportsIsModuleExports: true };
    expect(start(bundle, directory)).toEqual({ found: { "netform.cjs": "none", "part.cjs": "none" }, exports, stderr: "" });
    // A pipeline's job runs each command once: it pays only for two empty files.
    expect(caches(directory).map((cache) => statSync(join(directory, cache)).size)).toEqual([0, 0]);
    expect(start(bundle, directory)).toEqual({ found: { "netform.cjs": "ran once", "part.cjs": "ran once" }, exports, stderr: "" });
    expect(caches(directory).every((cache) => statSync(join(directory, cache)).size > 0)).toBe(true);
    expect(start(bundle, directory)).toEqual({ found: { "netform.cjs": "read", "part.cjs": "read" }, exports, stderr: "" });
  });

  it("is not read for a rebuilt bundle, and the stale one is dropped", () => {
    const bundle = writeBundle("rebuilt", "old");
    const directory = join(work, "rebuilt", "compile-cache");
    warm(bundle, directory);
    const before = caches(directory);
    // The same length, another text: V8 alone would take the old cache for it.
    writeFileSync(bundle, readFileSync(bundle, "utf8").replace('"old"', '"new"'));
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const run = start(bundle, directory);
    expect(run.found).toEqual({ "netform.cjs": "none", "part.cjs": "read" });
    expect(run.exports).toMatchObject({ marker: "new" });
    const after = caches(directory);
    expect(after).toHaveLength(2);
    expect(after.filter((cache) => !before.includes(cache))).toHaveLength(1);
    warm(bundle, directory);
    expect(start(bundle, directory).found).toEqual({ "netform.cjs": "read", "part.cjs": "read" });
  });

  it("refused by V8 (damaged, or from another V8), is replaced, and the run goes on", () => {
    const bundle = writeBundle("damaged", "intact");
    const directory = join(work, "damaged", "compile-cache");
    warm(bundle, directory);
    const [damaged] = caches(directory).filter((cache) => cache.startsWith("plan.netform.cjs."));
    writeFileSync(join(directory, damaged!), Buffer.alloc(4096, 7));
    expect(start(bundle, directory)).toMatchObject({ found: { "netform.cjs": "refused", "part.cjs": "read" }, exports: { marker: "intact" }, stderr: "" });
    expect(start(bundle, directory).found).toEqual({ "netform.cjs": "read", "part.cjs": "read" });
  });

  it("where it cannot be written, is left unsaved without a word, and every run still works", () => {
    const bundle = writeBundle("readonly", "works");
    const notADirectory = join(work, "readonly", "compile-cache");
    writeFileSync(notADirectory, "a file where the cache's folder would be");
    for (let run = 0; run < 3; run++) expect(start(bundle, notADirectory)).toMatchObject({ found: { "netform.cjs": "none", "part.cjs": "none" }, exports: { marker: "works" }, stderr: "" });
    expect(readdirSync(join(work, "readonly")).sort()).toEqual(["compile-cache", "netform.cjs", "part.cjs"]);
  });

  it("runs a bundle that is not ASCII with its text intact", () => {
    const bundle = writeBundle("unicode", "café ✓");
    const directory = join(work, "unicode", "compile-cache");
    warm(bundle, directory);
    expect(start(bundle, directory)).toMatchObject({ found: { "netform.cjs": "read" }, exports: { marker: "café ✓" } });
  });
});
