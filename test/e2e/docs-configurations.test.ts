// Every configuration the documentation shows (a YAML block of README.md or of a file under docs/ with a
// top-level `netform:` key), as a reader copies it into a directory and runs it: valid, applied on the
// embedded simulator with every declared resource created, and planned again with nothing to change.
// Its ${secret.X} and ${env.X} inputs are given in the environment, as the reader would.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import { netform, workspace } from "./cli.js";
import { out } from "./service.js";

const root = join(import.meta.dirname, "../..");

interface Block {
  /** Where the block starts, as `file:line`. */
  at: string;
  text: string;
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, "docs"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => join(e.parentPath, e.name));
  return [join(root, "README.md"), ...docs.sort()];
}

function yamlBlocks(file: string): Block[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => ({
    at: `${relative(root, file)}:${text.slice(0, m.index).split("\n").length}`,
    text: m[1] ?? "",
  }));
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A whole configuration rather than a fragment: a mapping with the format version at the top. */
function isConfiguration(text: string): boolean {
  try {
    const doc: unknown = parse(text);
    return isMapping(doc) && "netform" in doc;
  } catch {
    return false;
  }
}

/** A value for every ${secret.X} and ${env.X} the block reads, fit for the fields secrets go in. */
function inputsOf(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\$\{(?:secret|env)\.(\w+)\}/g)].map((m) => [m[1] ?? "", `example-${(m[1] ?? "").toLowerCase()}`]));
}

/** The keys of a block's forEach as the reader's run has them: written in the block, or a variable's default. */
function forEachKeys(doc: Record<string, unknown>, forEach: unknown): string[] {
  const variable = typeof forEach === "string" ? /^\$\{var\.(\w+)\}$/.exec(forEach)?.[1] : undefined;
  const variables = doc.variables;
  const value = variable !== undefined && isMapping(variables) && isMapping(variables[variable]) ? variables[variable].default : forEach;
  return Array.isArray(value) ? value.map(String) : isMapping(value) ? Object.keys(value) : [];
}

function declaredAddresses(text: string): string[] {
  const doc = parse(text) as Record<string, unknown>;
  return KINDS.flatMap((kind) => {
    const section = doc[kind];
    if (!isMapping(section)) return [];
    return Object.entries(section).flatMap(([name, body]) =>
      isMapping(body) && "forEach" in body ? forEachKeys(doc, body.forEach).map((key) => `${kind}.${name}[${JSON.stringify(key)}]`) : [`${kind}.${name}`],
    );
  }).sort();
}

const configurations = markdownFiles()
  .flatMap(yamlBlocks)
  .filter((b) => isConfiguration(b.text));

describe("the documentation's configurations", () => {
  it("are found in README.md and docs/", () => {
    const files = new Set(configurations.map((c) => c.at.split(":")[0]));
    expect(files).toEqual(new Set(["README.md", "docs/configuration.md"]));
  });

  for (const block of configurations) {
    it(`${block.at}: validates, applies on the embedded simulator and plans clean`, { timeout: 120_000 }, async () => {
      const ws = workspace(block.text);
      // The embedded simulator whatever the block's endpoint, fast, its world kept beside the state.
      const env = { NETFORM_ENDPOINT: "embedded", NETFORM_EMBEDDED_SPEED: "2000", NO_COLOR: "1", ...inputsOf(block.text) };
      const run = (...args: string[]) => netform(args, { cwd: ws.dir, env });

      const validated = await run("validate");
      expect(validated.code, out(validated)).toBe(0);
      expect(validated.stdout).not.toContain("warning");

      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      const addresses = declaredAddresses(block.text);
      expect(applied.stdout).toContain(`Apply complete! Resources: ${addresses.length} added, 0 changed, 0 replaced, 0 destroyed.`);
      const state = ws.state().resources;
      expect(Object.keys(state).sort()).toEqual(addresses);
      for (const address of addresses) expect(state[address]?.id, address).toBeTruthy();

      const again = await run("plan", "--detailed-exitcode");
      expect(again.code, out(again)).toBe(0);
      expect(again.stdout).toContain("No changes.");
    });
  }
});
