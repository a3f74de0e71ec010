#!/usr/bin/env node
// Bundles the command line into dist/cli after `tsc` has checked and compiled the sources:
//
// - netform.cjs, the whole program (src/cli/netform.ts and everything it reaches) in one CommonJS file. A
//   command's modules are still initialised only when it runs. One file, because Node 20 spends most of a
//   short command's start-up resolving, reading and linking modules one at a time; CommonJS, because only a
//   script (not an ES module) can be compiled from V8's code cache on Node 20 (src/cli/code-cache.ts).
// - main.js, the entry point (src/cli/main.ts), which runs netform.cjs through that cache.
// - package.json, which tells Node that the .js files here are CommonJS (the package's own are modules).
//
// The rest of dist/ stays as tsc wrote it, for the benchmarks and tests that import a layer.
//
//   node scripts/bundle.mjs      (run by `npm run build`)

import { rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/cli");

// Loaded on first use, from node_modules as installed: a Postgres backend and a PDF order summary are each
// needed by few runs, and pdfkit reads its font files beside its own module. undici is bundled: every
// command that calls the service loads it, and in the bundle it starts from the code cache (a fifth of an
// embedded plan's start-up when it was loaded from node_modules).
const EXTERNAL = ["pg", "pdfkit"];

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

/** What both files share: CommonJS for Node 20, `import.meta.url` from the file's own path. */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Names are kept, so a --debug stack trace still names its functions; source maps give the lines.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { "import.meta.url": "__netformModuleUrl" },
  banner: { js: 'const __netformModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
};

rmSync(out, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: ["src/cli/netform.ts"],
  outfile: join(out, "netform.cjs"),
  external: EXTERNAL,
  plugins: [englishZodMessagesOnly],
  // A dynamic import of a bundled module becomes a lazy initialisation; of a package left outside, a
  // require: a script compiled by vm.Script cannot import() on Node 20.
  supported: { "dynamic-import": false },
  sourcemap: true,
  sourcesContent: false,
});
await build({ ...common, entryPoints: ["src/cli/main.ts"], outfile: join(out, "main.js") });
writeFileSync(join(out, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
