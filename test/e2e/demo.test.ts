// `netform demo` as the quick start runs it from a checkout (`npm run demo`): it succeeds, and every
// command it prints runs as printed from the user's shell in any folder, without a package registry.

import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, netform } from "./cli.js";

describe("demo", () => {
  it("prints commands that run this netform from anywhere, and they explore and clean up", { timeout: 120_000 }, async () => {
    // Offline: a command that fell through to the registry (`npx netform` outside a project) fails instead of fetching.
    const env = { NO_COLOR: "1", npm_config_offline: "true" };
    const demo = await netform(["demo"], { cwd: mkdtempSync(join(tmpdir(), "netform-checkout-")), env });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain("Quick start complete");

    // Node by name when the PATH's node is the one running, and netform by its absolute path: no npx.
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const invocation = new RegExp(`^(node|${literal(process.execPath)}) ${literal(CLI)}$`);
    const explore = /^Explore: (cd \S+ && (.+) state list)$/m.exec(demo.stdout);
    const cleanUp = /^Clean up: (cd \S+ && (.+) destroy --auto-approve)$/m.exec(demo.stdout);
    expect(explore?.[2], demo.stdout).toMatch(invocation);
    expect(cleanUp?.[2], demo.stdout).toBe(explore![2]);
    // The transcript of what it ran shows the same command.
    const transcript = demo.stdout.split("\n").filter((line) => line.startsWith("$ "));
    expect(transcript).toEqual(["validate", "plan", "apply --auto-approve", "plan --detailed-exitcode"].map((args) => `$ ${explore![2]} ${args}`));

    const shell = (command: string) => spawnSync("sh", ["-c", command], { cwd: mkdtempSync(join(tmpdir(), "netform-user-")), env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, encoding: "utf8" });
    const list = shell(explore![1]!);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trim().split("\n")).toEqual([
      "connections.dc-primary-to-secondary",
      "routeFilterAttachments.customer-in-on-dc",
      "routeFilters.customer-in",
      "routingProtocols.dc-bgp",
      "routingProtocols.dc-direct",
    ]);
    const destroy = shell(cleanUp![1]!);
    expect(destroy.status, destroy.stderr).toBe(0);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
  });
});
