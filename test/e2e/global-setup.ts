// The end-to-end tests run the built command line, as users do: build it once before they start, as
// `npm run build` does (tsc, then the bundle that ships as dist/cli).

import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  execFileSync(process.execPath, [resolve(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, [resolve(root, "scripts/bundle.mjs")], { cwd: root, stdio: "inherit" });
}
