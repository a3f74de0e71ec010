// Golden diagnostics: every folder under test/fixtures/config is a configuration (one file or several) with
// the diagnostics it must produce in expected.txt, rendered as `file:line:col  address.field  message`.
// Options (vars, env, missing) come from options.json. UPDATE_GOLDEN=1 rewrites the expected files.

import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfiguration, type LoadOptions } from "../../../src/config/index.js";
import { formatDiagnosticsText } from "../../../src/views/diagnostics.js";

const root = join(import.meta.dirname, "../../fixtures/config");
const scenarios = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface ScenarioOptions {
  vars?: Record<string, string>;
  env?: Record<string, string>;
  missing?: LoadOptions["missing"];
}

describe("golden diagnostics", () => {
  it("has at least 25 scenarios", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(25);
  });

  for (const name of scenarios) {
    it(name, () => {
      const dir = join(root, name);
      const optionsFile = join(dir, "options.json");
      const options: ScenarioOptions = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, "utf8")) as ScenarioOptions) : {};
      const { diagnostics } = loadConfiguration(dir, { kinds: KIND_CATALOG, baseDir: dir, env: options.env ?? {}, ...(options.vars ? { vars: options.vars } : {}), missing: options.missing ?? "error" });
      const actual = `${formatDiagnosticsText(diagnostics).join("\n")}\n`;
      const expectedFile = join(dir, "expected.txt");
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(expectedFile)) writeFileSync(expectedFile, actual);
      expect(actual).toBe(readFileSync(expectedFile, "utf8"));
      expect(diagnostics.some((d) => d.severity === "error")).toBe(true);
    });
  }
});
