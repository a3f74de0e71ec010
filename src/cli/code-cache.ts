// Compiles the bundled program through V8's code cache. Node 20 spends most of a short command's start-up
// parsing and compiling JavaScript: the program, zod, yaml, and for an embedded command the simulator. A
// code cache is V8's compiled code saved to a file; a run that starts from one skips that work for every
// function the cache holds. Node 22 does this itself (module.enableCompileCache); Node 20 offers only
// vm.Script's cachedData, so netform does what Node's CommonJS loader would, with a cache.
//
// - One cache per command: it holds what that command compiled, and main.ts saves it at the end of the run, so
//   the functions that ran are in it, not only the top level. `validate` does not read what `plan`
//   compiled for the simulator.
// - The cache's name carries the bundle's size and modification time and Node's version and architecture:
//   a rebuilt bundle or another Node never reads a cache made for something else. V8 also refuses a cache
//   made by another V8 or under other flags; the run then compiles as usual and saves a new one.
// - Saving is best effort: where the bundle's directory cannot be written (a read-only install), every
//   run compiles, as it would without a cache.

import { isAscii } from "node:buffer";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/** A bundle compiled through the cache, ready to run. */
export interface CachedBundle {
  /** Whether it was compiled from the cache ("read"), or without, so that a cache is to be made ("made"). */
  readonly use: "read" | "made";
  /** Runs it as Node's loader would run the module (same arguments, `require` resolving beside it): its exports. */
  run(): unknown;
  /** Saves V8's code for it and for every function it has run so far, whole or not at all; never throws. */
  save(): void;
}

/**
 * Compiles `bundle`, a CommonJS module, from the cache named `name` in `directory` when there is a usable
 * one. The caller saves the cache when use is "made", at the end of the run, when it holds the most.
 */
export function loadWithCodeCache(bundle: string, directory: string, name: string): CachedBundle {
  const bytes = readFileSync(bundle);
  // The bundle is ASCII (esbuild escapes the rest): read so, it is a tenth of the time of decoding UTF-8.
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const { size, mtimeMs } = statSync(bundle);
  const prefix = `${name}.`;
  const file = join(directory, `${prefix}${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.bin`);
  const cachedData = readIfThere(file);
  // The same wrapper Node's CommonJS loader puts around a module.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: bundle, cachedData });
  return {
    use: cachedData !== undefined && !script.cachedDataRejected ? "read" : "made",
    run() {
      const module = { exports: {} };
      (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
      return module.exports;
    },
    save: () => save(script, directory, file, prefix),
  };
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** A concurrent run reads the old file or the new one, never half of one; the name's stale caches go. */
function save(script: Script, directory: string, file: string, prefix: string): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(directory, { recursive: true });
    writeFileSync(partial, script.createCachedData());
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
