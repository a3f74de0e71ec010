// The command line as it ships: bundled (scripts/bundle.mjs), a chunk per command. A --debug stack trace
// still points into the sources, through the bundle's source maps.

import { describe, expect, it } from "vitest";
import { netform, workspace } from "./cli.js";

describe("the bundled command line", () => {
  it("names the source file and line of each frame of a --debug stack trace", async () => {
    const ws = workspace("netform: 1\n");
    const res = await netform(["validate", "--format", "xml", "--debug"], { cwd: ws.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('--format must be text, json or terraform-json, got "xml"');
    expect(res.stderr).toMatch(/\bat format \(\S*src\/cli\/validate\.ts:\d+:\d+\)/);
  });

  it("shows no stack trace without --debug", async () => {
    const ws = workspace("netform: 1\n");
    const res = await netform(["validate", "--format", "xml"], { cwd: ws.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).not.toMatch(/\bat \S+ \(/);
  });
});
