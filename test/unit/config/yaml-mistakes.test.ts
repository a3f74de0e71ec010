// The mistake behind a YAML syntax error: each common slip is named at its own line and column, and
// YAML that the parser reads is never blamed (the finder runs only after the parser failed, but a
// false finding would then hide the real one).

import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { findYamlMistake } from "../../../src/config/yaml-mistakes.js";
import { parseYaml } from "../../../src/config/positions.js";

const repo = join(import.meta.dirname, "../../..");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const VALID = `# every construct a configuration uses
netform: 1
a:
  - x: 1
    y: [1, "a: b", 'it''s', { z: "\${var.z}" }]
  - |
    text: with a colon
    more
  - >-
     folded
b:
  desc: a long
    text continued
  url: https://example.net/a#frag   # a comment: with a colon
notifications:
- a
- b
other: "a string
  over two lines"
flow: {
  a: 1,
  b: [2, 3]
}
base: &base
  k: v
use:
  <<: *base
  "quoted key": 1
  'single': 2
connection: \${connections.dc.uuid}
`;

describe("findYamlMistake", () => {
  it("finds nothing in YAML the parser reads", () => {
    const texts = [VALID, ...[...yamlFiles(join(repo, "examples")), ...yamlFiles(join(repo, "test/fixtures"))].map((f) => readFileSync(f, "utf8"))];
    const readable = texts.filter((t) => parseDocument(t, { uniqueKeys: false }).errors.length === 0);
    expect(readable.length).toBeGreaterThan(50);
    for (const text of readable) expect(findYamlMistake(text)).toBeUndefined();
  });

  const cases: Array<[string, string, [number, number, string]]> = [
    ["an expression in a flow mapping", "a:\n  b: { uuid: ${connections.x.uuid} }\n", [2, 14, "yaml.expression-in-flow"]],
    ["an expression in a flow sequence", "a: [${var.x}, b]\n", [1, 5, "yaml.expression-in-flow"]],
    ["a key indented deeper than the key above", "a:\n  type: X\n   name: y\n", [3, 4, "yaml.indentation"]],
    ["a key lined up with no key above", "a:\n  b:\n    c: 1\n   d: 2\n", [4, 4, "yaml.indentation"]],
    ["a key in the column of list items", "a:\n  - x: 1\n  y: 2\n", [3, 3, "yaml.indentation"]],
    ["a list item in the column of keys", "a:\n  b: 1\n  - c\n", [3, 3, "yaml.indentation"]],
    ["a tab as indentation", "a:\n\tb: 1\n", [2, 1, "yaml.tab-indent"]],
    ["a key without its colon", "a:\n  b 1\n  c: 2\n", [2, 3, "yaml.key-colon"]],
    ["a colon without a space", "a:\n  c: 2\n  b:1\n", [3, 3, "yaml.key-colon"]],
    ["a value with a colon and a space", "a: this: that\n", [1, 4, "yaml.colon-in-value"]],
    ["a value starting with @", "a: @home\n", [1, 4, "yaml.reserved-start"]],
    ["a string never closed", 'a:\n  name: "dc\n  b: 1\n', [2, 9, "yaml.unclosed-quote"]],
    ["a brace never closed", "a: { b: 1\nc: 2\n", [1, 4, "yaml.unclosed-flow"]],
    ["a bracket closed by a brace", "a: [1, 2}\n", [1, 9, "yaml.unmatched-close"]],
    ["text after a closing quote", 'a: "x" y\n', [1, 8, "yaml.after-value"]],
  ];
  for (const [what, text, [line, column, code]] of cases) {
    it(`names ${what} where it is written`, () => {
      expect(parseDocument(text).errors.length).toBeGreaterThan(0);
      expect(findYamlMistake(text)).toMatchObject({ line, column, code });
    });
  }
});

describe("parseYaml", () => {
  it("reports one error for a mistake the parser follows with a cascade", () => {
    const text = "netform: 1\nconnections:\n  dc:\n    aSide: { accessPoint: { port: { uuid: ${connections.x.uuid} } } }\n    zSide:\n      accessPoint:\n        port: { uuid: p }\n";
    expect(parseDocument(text).errors.length).toBeGreaterThan(3);
    const { diagnostics } = parseYaml("netform.yaml", text);
    expect(diagnostics).toEqual([
      {
        severity: "error",
        code: "yaml.expression-in-flow",
        file: "netform.yaml",
        line: 4,
        column: 43,
        message: "inside { } or [ ], an expression must be quoted: the braces of ${connections.x.uuid} read as a mapping",
        hint: 'quote it: "${connections.x.uuid}"',
      },
    ]);
  });

  it("falls back to the parser's first error when the mistake is not a common one", () => {
    const { diagnostics } = parseYaml("netform.yaml", 'netform: 1\nname: "bad \\q escape"\n');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "yaml.bad-dq-escape", line: 2, column: 12 });
    expect(diagnostics[0]?.hint).toContain("backslash");
  });

  it("moves a parser's error from a line's indentation to its first character", () => {
    // A complex key (? ...) is beyond what findYamlMistake follows, so the parser's own error is reported.
    const { diagnostics } = parseYaml("netform.yaml", "? complex\n: value\na:\n  - x: 1\n  y: 2\n");
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "yaml.bad-indent", line: 5, column: 3 });
  });

  it("names both places of a key written twice in one mapping", () => {
    const { diagnostics } = parseYaml("netform.yaml", "connections:\n  dc-link:\n    bandwidth: 100\n    bandwidth: 200\n  dc-link:\n    bandwidth: 50\n", KIND_CATALOG);
    expect(diagnostics.map((d) => [d.address, d.path, d.message])).toEqual([
      ["connections.dc-link", "bandwidth", "bandwidth is set twice: netform.yaml:3:5 and netform.yaml:4:5"],
      ["connections.dc-link", undefined, "connections.dc-link is declared twice: netform.yaml:2:3 and netform.yaml:5:3"],
    ]);
  });
});

describe("parseYaml bounds", () => {
  it("stops a merge-key bomb at the merge that expands too far", () => {
    const lines = ["a0: &a0 { x: 1, y: 2, z: 3, w: 4, v: 5, u: 6, t: 7, s: 8, r: 9, q: 10 }"];
    for (let i = 1; i <= 3; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
    lines.push(`b:\n  <<: [${Array.from({ length: 10 }, () => "*a3").join(", ")}]`);
    const { diagnostics } = parseYaml("netform.yaml", `${lines.join("\n")}\n`);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "yaml.alias-expansion", line: 6 })]);
  });

  it("counts the levels aliases nest, beyond what the text's indentation shows", () => {
    const lines = ["a0: &a0 [x]", ...Array.from({ length: 70 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)];
    const { diagnostics } = parseYaml("netform.yaml", `${lines.join("\n")}\n`);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "yaml.too-deep", message: expect.stringContaining("more than 64 levels") })]);
  });

  it("leaves brackets inside quotes, comments and block scalars out of the nesting", () => {
    const brackets = "[".repeat(100);
    const text = `a: "${brackets}"\nb: '${brackets}' # ${brackets}\nc: |\n  ${brackets}\nd: [[1], {e: [2]}]\n`;
    expect(parseYaml("netform.yaml", text).diagnostics).toEqual([]);
  });
});
