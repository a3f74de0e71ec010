// A thousand generated configurations (generated-configurations.ts, fixed seed) through `validate` and
// `plan`, as a pull request's pipeline runs them: every one ends with an answer, valid or a located error,
// and none with "Internal error", a stack trace or a hang. The commands run in this process, on the
// embedded simulator, so that a thousand of each take seconds rather than the minutes a thousand
// processes would.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProgram, runProgram } from "../../src/cli/program.js";
import { registerValidate } from "../../src/cli/validate.js";
import { registerPlan } from "../../src/cli/plan.js";
import { memoryInvocation } from "../support/invocation.js";
import { generatedConfigurations } from "./generated-configurations.js";

const SEED = 20261128;
const COUNT = 1_000;
/** Not a measure of speed: a command still running after this long has hung, and the case fails. */
const HANG_MS = 10_000;

const root = mkdtempSync(join(tmpdir(), "netform-generated-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The environment of every command: no colour, and the embedded simulator at the tests' pace. */
const ENV = { ...process.env, NO_COLOR: "1", NETFORM_EMBEDDED_SPEED: "1000" };

/** Runs one netform command in this process and returns its exit code and everything it printed. */
async function netform(args: string[]): Promise<{ code: number; output: string }> {
  const run = memoryInvocation(args, ENV);
  const program = createProgram("0.0.0-generated", run.invocation);
  registerValidate(program);
  registerPlan(program);
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`netform ${args.join(" ")} still running after ${HANG_MS} ms`)), HANG_MS)));
    const code = await Promise.race([runProgram(program, args), hang]);
    return { code, output: run.stdout() + run.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

describe("generated configurations", () => {
  it(`${COUNT} configurations through validate and plan: an answer for each, never an internal error`, { timeout: 600_000 }, async () => {
    const outcomes = { valid: 0, invalid: 0, planned: 0, planRefused: 0 };
    for (const generated of generatedConfigurations(SEED, COUNT)) {
      const dir = join(root, `case-${generated.index}`);
      mkdirSync(dir);
      writeFileSync(join(dir, "netform.yaml"), generated.yaml);
      if (generated.state) writeFileSync(join(dir, "netform.state.json"), JSON.stringify(generated.state));
      const what = `case ${generated.index} (seed ${SEED}; broken: ${generated.broken.join(", ") || "nothing"}):\n${generated.yaml}`;

      const validated = await netform(["validate", "-c", dir]);
      expect(validated.output, what).not.toMatch(/Internal error|defect in netform|Maximum call stack|\n\s+at \S+ \(/);
      expect([0, 1], `${what}\n${validated.output}`).toContain(validated.code);
      if (validated.code === 1) expect(validated.output, what).toMatch(/netform\.yaml:\d+:\d+|Error:/);
      outcomes[validated.code === 0 ? "valid" : "invalid"]++;

      const planned = await netform(["plan", "-c", dir, "--lock=false"]);
      expect(planned.output, what).not.toMatch(/Internal error|defect in netform|Maximum call stack|\n\s+at \S+ \(/);
      expect([0, 1], `${what}\n${planned.output}`).toContain(planned.code);
      // A configuration validate refused is refused by plan too: plan checks at least what validate does.
      if (validated.code === 1) expect(planned.code, `${what}\n${planned.output}`).toBe(1);
      outcomes[planned.code === 0 ? "planned" : "planRefused"]++;
    }
    // The generator reaches both sides of each command, or it tests less than it claims.
    expect(outcomes.valid).toBeGreaterThan(COUNT / 10);
    expect(outcomes.invalid).toBeGreaterThan(COUNT / 10);
    expect(outcomes.planned).toBeGreaterThan(COUNT / 10);
  });
});
