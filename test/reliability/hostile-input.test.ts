// Hostile configurations, as a plan of an untrusted pull request would read them: each gets a located
// error quickly, never a hang, a stack trace or "Maximum call stack size exceeded".

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { netform, workspace } from "../e2e/cli.js";

const HEADER = "netform: 1\nprovider:\n  endpoint: embedded\n  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01\n";
const filter = (name: string, extra = "") => `  ${name}:\n    name: ${name}\n    type: BGP_IPv4_PREFIX_FILTER\n${extra}`;

async function validate(yaml: string) {
  const ws = workspace(yaml);
  const result = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
  const output = result.stdout + result.stderr;
  expect(output).not.toMatch(/Maximum call stack|Internal error|\n\s+at /);
  return { code: result.code, output };
}

/** Ten anchors, each a list of ten aliases of the one before: ten billion values once expanded, in 1 KB. */
function aliasBomb(): string {
  const lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i <= 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
  return lines.join("\n");
}

describe("hostile input", () => {
  it("stops an alias bomb at the alias that expands too far", async () => {
    const bomb = `${HEADER}variables:\n  bomb:\n    default:\n      ${aliasBomb().split("\n").join("\n      ")}\nrouteFilters:\n${filter("f", "    description: ${var.bomb}\n")}`;
    const result = await validate(bomb);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +the aliases here expand to more than/);
  });

  it("reports nesting deeper than a configuration has at its place, without parsing on", async () => {
    const depth = 100_000;
    const result = await validate(`${HEADER}routeFilters:\n${filter("f", `    description: ${"[".repeat(depth)}${"]".repeat(depth)}\n`)}`);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:9:\d+ .*nested more than \d+ levels deep/);
  });

  it("reports block nesting deeper than a configuration has", async () => {
    const depth = 200;
    const nested = Array.from({ length: depth }, (_, i) => `${" ".repeat(6 + 2 * i)}k${i}:`).join("\n");
    const result = await validate(`${HEADER}routeFilters:\n${filter("f", `    description:\n${nested} x\n`)}`);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:\d+:\d+ .*nested more than \d+ levels deep/);
  });

  it("reports sequences nested on one line (a compact sequence opens a level with each dash)", async () => {
    const result = await validate(`${HEADER}routeFilters:\n${filter("f", `    description:\n      ${"- ".repeat(200)}x\n`)}`);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:10:\d+ .*nested more than \d+ levels deep/);
  });

  it("bounds dependsOn, at its place", async () => {
    const entries = Array.from({ length: 100_000 }, () => "      - routeFilters.b").join("\n");
    const result = await validate(`${HEADER}routeFilters:\n${filter("b")}${filter("a", `    dependsOn:\n${entries}\n`)}`);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:13:7 +routeFilters\.a\.dependsOn +.*at most/);
  });

  it("bounds a dependsOn too long to pass as arguments (200,000 entries in flow form)", async () => {
    const entries = Array.from({ length: 200_000 }, () => "routeFilters.b").join(", ");
    const result = await validate(`${HEADER}routeFilters:\n${filter("b")}${filter("a", `    dependsOn: [${entries}]\n`)}`);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/netform\.yaml:12:16 +routeFilters\.a\.dependsOn +dependsOn lists at most 1000 addresses/);
  });

  // Not a measure of speed: this size takes seconds of CPU, and minutes where four test files share two cores.
  it("follows a dependsOn on a forEach block of 150,000 instances", { timeout: 180_000 }, async () => {
    const keys = Array.from({ length: 150_000 }, (_, i) => `k${i}`).join(", ");
    const result = await validate(`${HEADER}routeFilters:\n  b:\n    forEach: [${keys}]\n    name: b-\${each.key}\n    type: BGP_IPv4_PREFIX_FILTER\n${filter("a", "    dependsOn: [routeFilters.b]\n")}`);
    expect(result.output).toContain("Valid: 150001 resources");
    expect(result.code).toBe(0);
  });
});

describe("a saved plan of the wrong shape", () => {
  it("is named as not a netform plan, or one from another version, by show and apply", async () => {
    const ws = workspace(`${HEADER}routeFilters:\n${filter("f")}`);
    const env = { NO_COLOR: "1" };
    expect((await netform(["plan", "--out", "change.plan"], { cwd: ws.dir, env })).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(ws.dir, "change.plan"), "utf8"));
    delete saved.plan.changes;
    writeFileSync(join(ws.dir, "change.plan"), JSON.stringify(saved));
    for (const command of [["show", "change.plan"], ["apply", "change.plan"]]) {
      const result = await netform(command, { cwd: ws.dir, env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/change\.plan is not a netform saved plan, or one from another version of netform \(at plan\.changes: /);
      expect(result.stderr).not.toMatch(/Internal error|\n\s+at /);
    }
    writeFileSync(join(ws.dir, "change.plan"), JSON.stringify({ ...saved, netformPlan: 2 }));
    expect((await netform(["show", "change.plan"], { cwd: ws.dir, env })).stderr).toMatch(/a saved plan of format 2, and this netform reads format 1/);
  });
});
