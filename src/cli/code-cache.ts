// Compiles the bundled program through V8's code cache. Node 20 spends most of a short command's start-up
// parsing and compiling JavaScript: the program, zod, yaml, and for an embedded command the simulator. A
// code cache is V8's compiled code saved to a file; a run that starts from one skips that work for every
// function the cache holds. Node 22 does this itself (module.enableCompileCache); Node 20 offers only
// vm.Script's cachedData, so netform does what Node's CommonJS loader would, with a cache.
//
// - One cache per command and bundle: it holds what that command compiled, and main.ts saves it at the end
//   of the run, so the functions that ran are in it, not only the top level. A bundle's require of a
//   bundle beside it ("./simulator.cjs") goes through the cache too, as the command's own.
// - The cache's name carries the bundle's size and modification time and Node's version and architecture:
//   a rebuilt bundle or another Node never reads a cache made for something else. V8 also refuses a cache
//   made by another V8 or under other flags; the run then compiles as usual and saves a new one.
// - Saved the second time a command runs without one: the first run leaves an empty file to say it ran.
//   Making a cache costs about a tenth of the run that makes it, and a pipeline's job on a fresh machine
//   runs each command once; it would pay that and never use the cache.
// - Saving is best effort: where the bundle's directory cannot be written (a read-only install), every
//   run compiles, as it would without a cache.

import { isAscii } from "node:buffer";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/**
 * The bundles one run loads, each compiled from its cache for the run's command when there is a usable
 * one. Saving at the end of the run saves those that were not.
 */
export class CodeCache {
  private readonly loaded = new Map<string, Loaded>();

  /** `name`: the command, a file name's part (main.ts keeps it to letters and dashes). */
  constructor(
    private readonly directory: string,
    private readonly name: string,
  ) {}

  /**
   * Runs `bundle`, a CommonJS module, once, as Node's loader would (same arguments, `require` resolving
   * beside it): its exports.
   */
  run(bundle: string): unknown {
    const known = this.loaded.get(bundle);
    if (known) return known.module.exports;
    const bytes = readFileSync(bundle);
    // The bundles are ASCII (esbuild escapes the rest): read so, it is a tenth of the time of decoding UTF-8.
    const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
    const { size, mtimeMs } = statSync(bundle);
    const prefix = `${this.name}.${basename(bundle)}.`;
    const file = join(this.directory, `${prefix}${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.bin`);
    const found = readIfThere(file);
    const cachedData = found !== undefined && found.length > 0 ? found : undefined;
    // The same wrapper Node's CommonJS loader puts around a module.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: bundle, cachedData });
    const module = { exports: {} };
    const cache: CacheState = found === undefined ? "none" : cachedData === undefined ? "ran once" : script.cachedDataRejected ? "refused" : "read";
    this.loaded.set(bundle, { script, file, prefix, module, cache });
    const nodeRequire = createRequire(bundle);
    const here = dirname(bundle);
    const require = Object.assign((id: string) => (id.startsWith("./") && id.endsWith(".cjs") ? this.run(join(here, id)) : nodeRequire(id)), nodeRequire);
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, bundle, here);
    return module.exports;
  }

  /** What each bundle run so far found in the cache, by file name. */
  get found(): Record<string, CacheState> {
    return Object.fromEntries([...this.loaded].map(([bundle, { cache }]) => [basename(bundle), cache]));
  }

  /**
   * For each bundle not compiled from the cache: the first time, an empty file that says it ran; after
   * that, V8's code for it with every function run so far. Whole or not at all; never throws.
   */
  save(): void {
    for (const { script, file, prefix, cache } of this.loaded.values()) if (cache !== "read") save(cache === "none" ? Buffer.alloc(0) : script.createCachedData(), this.directory, file, prefix);
  }
}

/** What a bundle's run found: no cache, the mark of one run without, a cache V8 refused (damaged, another V8's), or one it read. */
export type CacheState = "none" | "ran once" | "refused" | "read";

interface Loaded {
  script: Script;
  file: string;
  prefix: string;
  module: { exports: unknown };
  cache: CacheState;
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** A concurrent run reads the old file or the new one, never half of one; the bundle's stale caches go. */
function save(data: Buffer, directory: string, file: string, prefix: string): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(directory, { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, file);
    for (const other of readdirSync(directory)) if (other.startsWith(prefix) && join(directory, other) !== file && !other.endsWith(".partial")) rmSync(join(directory, other), { force: true });
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // There is no partial file where there is no directory.
    }
  }
}
