#!/usr/bin/env node
// Bundles the command line into dist/cli after `tsc` has checked and compiled the sources: main.js, and one
// chunk per command plus the chunks they share, so a command still loads only its own code. Node 20 spends
// most of a short command's start-up resolving, reading and linking modules one file at a time (the
// configuration layer alone reaches about two hundred, zod's among them); a few bundled files start in a
// fraction of that. The rest of dist/ stays as tsc wrote it, for the benchmarks and tests that import a layer.
//
//   node scripts/bundle.mjs      (run by `npm run build`)

import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/cli");

// Loaded on first use, from node_modules as installed: a Postgres backend, a PDF order summary and the HTTP
// client are each needed by few runs, and pdfkit reads its font files beside its own module.
const EXTERNAL = ["pg", "pdfkit", "undici"];

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

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ["src/cli/main.ts"],
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  plugins: [englishZodMessagesOnly],
  // Names are kept, so a --debug stack trace still names its functions; source maps give the lines.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  sourcesContent: false,
  chunkNames: "[name]-[hash]",
  // The bundled CommonJS packages (yaml, commander) call require for Node's own modules.
  banner: { js: 'import { createRequire as createRequireForBundledPackages } from "node:module"; const require = createRequireForBundledPackages(import.meta.url);' },
  logLevel: "warning",
});
