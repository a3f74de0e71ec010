#!/usr/bin/env node
// Bundles the command line into dist/cli after `tsc` has checked and compiled the sources:
//
// - netform.cjs, the whole program (src/cli/netform.ts and everything it reaches) in one CommonJS file. A
//   command's modules are still initialised only when it runs. One file, because Node 20 spends most of a
//   short command's start-up resolving, reading and linking modules one at a time; CommonJS, because only a
//   script (not an ES module) can be compiled from V8's code cache on Node 20 (src/cli/code-cache.ts).
// - simulator.cjs, http.cjs and pg.cjs (the PostgreSQL driver), which netform.cjs loads when a run first
//   needs them.
// - program.cjs, the program without the commands, for a run that names none (`netform --help`).
// - main.js, the entry point (src/cli/main.ts), which runs one of them through that cache.
// - package.json, which tells Node that the .js files here are CommonJS (the package's own are modules).
//
// These files are the whole program as it is packed and installed (package.json `files`): it needs no package
// of its own at run time, so an install from the release tarball fetches nothing. The rest of dist/ stays as
// tsc wrote it, for the benchmarks and tests that import a layer, and is not packed.
//
//   node scripts/bundle.mjs      (run by `npm run build`)

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/cli");

// Loaded from node_modules when used, never bundled: pdfkit reads its font files beside its own module, and is
// an optional peer dependency (a PDF order summary of the simulator is its one use, and it and its fonts are
// most of what an install would otherwise weigh); pg-native is the PostgreSQL driver's optional native
// binding, which it requires only when asked to. The driver itself and undici have bundles of their own
// (SEPARATE below): loaded from node_modules, undici's modules took a fifth of an embedded plan's start-up.
const EXTERNAL = ["pdfkit", "pg-native"];

/**
 * zod's namespace re-exports every translation of its messages (z.locales), a third of its code; netform
 * words its own messages and uses the English defaults zod installs itself, so only those are bundled.
 */
const englishZodMessagesOnly = {
  name: "english-zod-messages-only",
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.importer.includes(join("node_modules", "zod")) ? { path: resolve(args.resolveDir, "../locales/index.js"), namespace: "zod-locales" } : undefined));
    bundle.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: dirname(args.path) }));
  },
};

/**
 * commander loads node:child_process when it loads, for subcommands that are separate executables, which
 * netform has none of; loading it (and the network modules it needs) is a tenth of a bare Node's start.
 * Here it is loaded when commander first spawns. Should commander's line change, the bundle is built as
 * it comes, and the build says so.
 */
const commanderSpawnsOnDemand = {
  name: "commander-spawns-on-demand",
  setup(bundle) {
    const eager = "const childProcess = require('node:child_process');";
    bundle.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const contents = readFileSync(args.path, "utf8");
      if (!contents.includes(eager)) return { contents, warnings: [{ text: `commander no longer has the line ${eager}: it is bundled as it is, and loads node:child_process at start` }] };
      return { contents: contents.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };") };
    });
  },
};

/**
 * The simulator (embedded runs only), undici (runs that call the service) and the PostgreSQL driver (the
 * postgres backend) are bundles of their own, which netform.cjs requires beside it when a run first needs
 * them; a run that needs none (validate, fmt, graph) neither reads nor compiles them. Each is
 * self-contained: the simulator imports nothing of the program's, the client imports undici only through
 * src/api/http-modules.ts, and the backend imports the driver only through `import("pg")`.
 */
const SEPARATE = [
  { importer: "src/cli/", path: "../simulator/index.js", entry: "src/simulator/index.ts", bundle: "simulator.cjs" },
  { importer: "src/api/", path: "./http-modules.js", entry: "src/api/http-modules.ts", bundle: "http.cjs" },
  { importer: "src/backends/", path: "pg", stdin: 'module.exports = require("pg");', bundle: "pg.cjs" },
];
const separateBundles = {
  name: "separate-bundles",
  setup(bundle) {
    bundle.onResolve({ filter: /.*/ }, (args) => {
      const separate = SEPARATE.find((s) => s.path === args.path && args.importer.startsWith(join(root, s.importer)));
      return separate ? { path: `./${separate.bundle}`, external: true } : undefined;
    });
  },
};

/**
 * For program.cjs: the command modules netform.ts loads are left out. A run that names no command never
 * loads one (main.js picks netform.cjs for any that does); if one did, it would say so.
 */
const withoutCommands = {
  name: "without-commands",
  setup(bundle) {
    const entry = join(root, "src/cli/netform.ts");
    const kept = new Set(["./program.js", "./args.js"]);
    bundle.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => (args.importer === entry && !kept.has(args.path) ? { path: args.path, namespace: "without-commands" } : undefined));
    bundle.onLoad({ filter: /.*/, namespace: "without-commands" }, (args) => ({ contents: `throw new Error(${JSON.stringify(`program.cjs has no commands (${args.path}): main.js runs netform.cjs for a command`)});` }));
  },
};

/** What every bundle shares: CommonJS for Node 20, `import.meta.url` from the file's own path. */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Names are kept, so a --debug stack trace still names its functions; source maps give the lines.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  sourcesContent: false,
  define: { "import.meta.url": "__netformModuleUrl" },
  banner: { js: 'const __netformModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  external: EXTERNAL,
  // A dynamic import of a bundled module becomes a lazy initialisation; of a file left outside, a require:
  // a script compiled by vm.Script cannot import() on Node 20.
  supported: { "dynamic-import": false },
  plugins: [commanderSpawnsOnDemand, englishZodMessagesOnly],
  logLevel: "warning",
};

rmSync(out, { recursive: true, force: true });
await build({ ...common, entryPoints: ["src/cli/netform.ts"], outfile: join(out, "netform.cjs"), plugins: [...common.plugins, separateBundles] });
await build({ ...common, entryPoints: ["src/cli/netform.ts"], outfile: join(out, "program.cjs"), plugins: [...common.plugins, withoutCommands] });
for (const separate of SEPARATE) {
  const input = separate.stdin === undefined ? { entryPoints: [separate.entry] } : { stdin: { contents: separate.stdin, resolveDir: root, sourcefile: separate.bundle } };
  await build({ ...common, ...input, outfile: join(out, separate.bundle) });
}
await build({ ...common, entryPoints: ["src/cli/main.ts"], outfile: join(out, "main.js") });
writeFileSync(join(out, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
