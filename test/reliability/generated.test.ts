// A thousand generated configurations (generated-configurations.ts, fixed seed) through `validate` and
// `plan`, as a pull request's pipeline runs them: every one ends with an answer, valid or a located error,
// and none with "Internal error", a stack trace or a hang. The commands run in this process, on the
// embedded simulator, so that a thousand of each take seconds rather than the minutes a thousand
// processes would.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { registerValidate } from "../../src/cli/validate.js";
import { registerPlan } from "../../src/cli/plan.js";
import { generatedConfigurations } from "./generated-configurations.js";

const SEED = 20261128;
const COUNT = 1_000;
/** Not a measure of speed: a command still running after this long has hung, and the case fails. */
const HANG_MS = 10_000;

const root = mkdtempSync(join(tmpdir(), "netform-generated-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs one netform command in this process and returns its exit code and everything it printed. */
async function netform(args: string[]): Promise<{ code: number; output: string }> {
  const program = createProgram("0.0.0-generated");
  registerValidate(program);
  registerPlan(program);
  let output = "";
  const write = (chunk: string | Uint8Array) => ((output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString()), true);
  const [stdout, stderr] = [process.stdout.write, process.stderr.write];
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  process.exitCode = undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`netform ${args.join(" ")} still running after ${HANG_MS} ms`)), HANG_MS)));
    await Promise.race([program.parseAsync(["node", "netform", ...args]), hang]);
  } finally {
    clearTimeout(timer);
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, output };
}

describe("generated configurations", () => {
  it(`${COUNT} configurations through validate and plan: an answer for each, never an internal error`, { timeout: 600_000 }, async () => {
    const env = { NO_COLOR: process.env.NO_COLOR, NETFORM_EMBEDDED_SPEED: process.env.NETFORM_EMBEDDED_SPEED };
    process.env.NO_COLOR = "1";
    process.env.NETFORM_EMBEDDED_SPEED = "1000";
    const outcomes = { valid: 0, invalid: 0, planned: 0, planRefused: 0 };
    try {
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
    } finally {
      for (const [name, value] of Object.entries(env)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    // The generator reaches both sides of each command, or it tests less than it claims.
    expect(outcomes.valid).toBeGreaterThan(COUNT / 10);
    expect(outcomes.invalid).toBeGreaterThan(COUNT / 10);
    expect(outcomes.planned).toBeGreaterThan(COUNT / 10);
  });
});
