// The layers of DESIGN.md are enforced by lint: an import that points the wrong way fails `npm run lint`.
// These rows lint a one-line file placed in each layer, so the rule itself is shown to fail and to pass.

import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from "${specifier}";\nexport const y = x;\n`, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const ROWS: Array<{ file: string; imports: string; allowed: boolean }> = [
  { file: "src/config/probe.ts", imports: "../engine/index.js", allowed: false },
  { file: "src/config/probe.ts", imports: "../kinds/index.js", allowed: false },
  { file: "src/config/probe.ts", imports: "../graph/index.js", allowed: true },
  { file: "src/kinds/connections/probe.ts", imports: "../../config/index.js", allowed: true },
  { file: "src/kinds/connections/probe.ts", imports: "../../engine/index.js", allowed: false },
  { file: "src/plan/probe.ts", imports: "../api/index.js", allowed: false },
  { file: "src/engine/probe.ts", imports: "../simulator/index.js", allowed: false },
  { file: "src/engine/probe.ts", imports: "../views/output.js", allowed: false },
  { file: "src/views/probe.ts", imports: "../simulator/index.js", allowed: false },
  { file: "src/cli/probe.ts", imports: "../state/index.js", allowed: false },
  { file: "src/cli/probe.ts", imports: "../engine/index.js", allowed: true },
  { file: "src/cli/probe.ts", imports: "../simulator/index.js", allowed: true },
  { file: "src/simulator/fabric/probe.ts", imports: "../../config/index.js", allowed: false },
  { file: "src/simulator/fabric/probe.ts", imports: "../core/world.js", allowed: true },
  { file: "src/graph/probe.ts", imports: "../diag/index.js", allowed: false },
];

describe("lint enforces the layers", () => {
  for (const row of ROWS) {
    it(`${row.file} ${row.allowed ? "may" : "may not"} import ${row.imports}`, async () => {
      const errors = await layerErrors(row.file, row.imports);
      if (row.allowed) expect(errors).toEqual([]);
      else expect(errors.join("\n")).toMatch(/may import only/);
    });
  }
});
