// Shared by the view tests: compare rendered text with test/fixtures/views/<name>.txt. UPDATE_GOLDEN=1
// (or a missing file) rewrites the file, so a change in output shows up as a reviewed diff of the fixture.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

const root = join(import.meta.dirname, "../../fixtures/views");

export function expectGolden(name: string, actual: string): void {
  const file = join(root, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

// Any CSI sequence, which is all picocolors writes; built from a string because the lint rule forbids
// control characters in regular-expression literals.
export const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);
