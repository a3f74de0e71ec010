// The house rule of DESIGN.md: everything about a kind lives in its module under src/kinds/, and the
// registry (src/kinds/index.ts) is the only list of kinds. Outside src/kinds/ and the simulator (an
// independent model of the service), no code names a kind: no string that is a kind's name or one of its
// addresses, no `.kindName` property read, no table keyed by kind names. Comments and prose inside
// messages may mention kinds.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { lazily } from "../../../src/config/index.js";
import { KIND_DEFINITIONS, KINDS } from "../../../src/kinds/index.js";

const SRC = join(import.meta.dirname, "../../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return ["kinds", "simulator"].includes(relative(SRC, path)) ? [] : sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Fields of netform's own records that share a kind's name: the configuration files a configuration was read from. */
const NETFORM_FIELDS: readonly string[] = ["files"];

/** Where a file's code names one of `kinds`, as "kind: line text". */
function namings(file: string, kinds: readonly string[]): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (kind: string, node: ts.Node) => found.push(`${kind}: ${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
  const named = (value: string) => kinds.find((k) => value === k || value.startsWith(`${k}.`));
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      const kind = named(node.text);
      if (kind) report(kind, node);
    } else if (ts.isPropertyAccessExpression(node) && kinds.includes(node.name.text) && !NETFORM_FIELDS.includes(node.name.text)) {
      report(node.name.text, node.name);
    } else if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : "")).filter((k) => kinds.includes(k));
      if (keys.length >= 2) report(keys.join(", "), node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the registry of kinds", () => {
  it("is the only place outside the kinds' modules (and the simulator) that names a kind", () => {
    const offenders = sourceFiles(SRC).flatMap((file) => namings(file, KINDS));
    expect(offenders).toEqual([]);
  });

  it("catches a kind named in code, so the check above can fail", () => {
    const probe = join(import.meta.dirname, "../../fixtures/lint/names-a-kind.ts.txt");
    expect(namings(probe, KINDS).map((n) => n.split(":")[0])).toEqual(["connections", "devices", "routeFilters, vpns", "routingProtocols"]);
  });

  it("holds one definition per kind, named as its section", () => {
    for (const [name, definition] of KIND_DEFINITIONS) {
      expect(definition.name).toBe(name);
      expect(definition.timeoutMs).toBeGreaterThan(0);
      expect(definition.spec.shape).toBeTypeOf("object");
      for (const parent of Object.values(definition.parents)) expect(KINDS).toContain(parent);
    }
  });

  it("gives each kind one spec schema, however often it is read (validation caches by it)", () => {
    for (const definition of KIND_DEFINITIONS.values()) expect(definition.spec).toBe(definition.spec);
  });
});

describe("a lazily built schema", () => {
  it("is built on its first read, and once", () => {
    let builds = 0;
    const schema = lazily(() => ({ build: ++builds }));
    expect(builds).toBe(0);
    expect(schema()).toEqual({ build: 1 });
    expect(schema()).toBe(schema());
    expect(builds).toBe(1);
  });
});
