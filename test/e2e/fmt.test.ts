// netform fmt as a pipeline and an editor use it: rewrites what is not canonical and says which files,
// --check changes nothing and exits 3 (terraform fmt -check's code), --diff shows the change, and a file
// that does not parse is named at its mistake and left as it was. No state, no service: none is set up.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES, netform, workspace } from "./cli.js";

const UNFORMATTED = `routeFilters:
  f:
    description: inbound     # who may send what
    type: BGP_IPv4_PREFIX_FILTER
netform: 1
`;
const FORMATTED = `netform: 1
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
    description: inbound # who may send what
`;

describe("netform fmt", () => {
  it("rewrites the files that need it, names them, and leaves a canonical file and other YAML alone", async () => {
    const ws = workspace(UNFORMATTED);
    ws.write(FORMATTED, "filters.yaml");
    ws.write("stages: [ test ]\n", "ci.yml");
    const fmt = await netform(["fmt"], { cwd: ws.dir });
    expect(fmt.code, fmt.stderr).toBe(0);
    expect(fmt.stdout).toBe("netform.yaml\n");
    expect(readFileSync(join(ws.dir, "netform.yaml"), "utf8")).toBe(FORMATTED);
    expect(readFileSync(join(ws.dir, "ci.yml"), "utf8")).toBe("stages: [ test ]\n");

    const again = await netform(["fmt"], { cwd: ws.dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("");
  });

  it("--check lists the files that need formatting and exits 3, changing nothing", async () => {
    const ws = workspace(UNFORMATTED);
    const check = await netform(["fmt", "--check"], { cwd: ws.dir });
    expect(check.code).toBe(3);
    expect(check.stdout).toBe("netform.yaml\n");
    expect(check.stderr).toContain("1 file needs formatting: run netform fmt netform.yaml to rewrite it");
    expect(readFileSync(join(ws.dir, "netform.yaml"), "utf8")).toBe(UNFORMATTED);

    ws.write(FORMATTED);
    const clean = await netform(["fmt", "--check"], { cwd: ws.dir });
    expect(clean.code).toBe(0);
    expect(clean.stdout + clean.stderr).toBe("");
  });

  it("--diff shows each change as a unified diff", async () => {
    const ws = workspace(UNFORMATTED);
    const diff = await netform(["fmt", "--check", "--diff", "netform.yaml"], { cwd: ws.dir });
    expect(diff.code).toBe(3);
    expect(diff.stdout).toContain("--- a/netform.yaml\n+++ b/netform.yaml\n@@ ");
    expect(diff.stdout).toContain("-    description: inbound     # who may send what\n");
    expect(diff.stdout).toContain("+    description: inbound # who may send what\n");
  });

  it("formats subdirectories with -r only", async () => {
    const ws = workspace(FORMATTED);
    mkdirSync(join(ws.dir, "prod"));
    writeFileSync(join(ws.dir, "prod", "netform.yaml"), UNFORMATTED);
    expect((await netform(["fmt", "--check"], { cwd: ws.dir })).code).toBe(0);
    const recursive = await netform(["fmt", "-r", "--check"], { cwd: ws.dir });
    expect(recursive.code).toBe(3);
    expect(recursive.stdout).toBe(`${join("prod", "netform.yaml")}\n`);
  });

  it("names a file it cannot parse at its mistake, leaves it as it is, and still formats the others", async () => {
    const ws = workspace(UNFORMATTED);
    const broken = "netform: 1\nconnections:\n  dc: { type: EVPL_VC\n";
    ws.write(broken, "broken.yaml");
    const fmt = await netform(["fmt"], { cwd: ws.dir });
    expect(fmt.code).toBe(1);
    expect(fmt.stderr).toMatch(/^broken\.yaml:\d+:\d+ /m);
    expect(fmt.stderr).toContain("1 file was left unformatted");
    expect(fmt.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(ws.dir, "broken.yaml"), "utf8")).toBe(broken);
    expect(readFileSync(join(ws.dir, "netform.yaml"), "utf8")).toBe(FORMATTED);
  });

  it("says which path it cannot read", async () => {
    const fmt = await netform(["fmt", "missing.yaml"], { cwd: workspace().dir });
    expect(fmt.code).toBe(1);
    expect(fmt.stderr).toContain("cannot read missing.yaml");
  });

  it("finds every shipped example already in the canonical form: what users copy is what fmt writes", async () => {
    const check = await netform(["fmt", "--check", "--recursive"], { cwd: EXAMPLES });
    expect(check.stdout).toBe("");
    expect(check.code, check.stderr).toBe(0);
  });
});
