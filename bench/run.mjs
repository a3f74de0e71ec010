// Runs every benchmark (bench/*.bench.mjs) against the built code and prints its figures. Each
// benchmark default-exports an async function returning [{name, value, unit, goal}]. Figures are
// ratios or sizes where possible, so they mean the same on a slower machine.

import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here).filter((f) => f.endsWith(".bench.mjs") && (!only || f.includes(only))).sort();
let failed = false;
for (const file of files) {
  const run = (await import(pathToFileURL(join(here, file)).href)).default;
  try {
    for (const r of await run()) {
      const value = typeof r.value === "number" ? Number(r.value.toPrecision(4)) : r.value;
      console.log(`${r.name.padEnd(64)} ${String(value).padStart(10)} ${r.unit ?? ""}${r.goal ? `   (goal ${r.goal})` : ""}`);
    }
  } catch (e) {
    failed = true;
    console.error(`${file}: ${e instanceof Error ? e.stack : e}`);
  }
}
if (failed) process.exitCode = 1;
