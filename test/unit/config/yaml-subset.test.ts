// The subset reader answers as the yaml package does: for every text it takes, the same value and the same
// position of every value (the diagnostics' lines and columns), and it takes the configurations of the
// examples, the fixtures and the benchmarks. Texts it declines are the yaml package's, so a wrong reading
// could only come from a text it takes: those are held to the yaml package's, for the repository's YAML,
// the constructs one by one, and many small edits of them.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseYaml, parseYamlDocument, type ParsedFile } from "../../../src/config/positions.js";
import { readSubset, scalarValue } from "../../../src/config/yaml-subset.js";
import { topology } from "../../../bench/topology.mjs";

const repo = join(import.meta.dirname, "../../..");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const taken = (text: string): boolean => readSubset("f.yaml", text, null, () => null, 64) !== undefined;

/** Everything a reading gives, in order (the maps' order is the order blockIndex and the diagnostics see). */
const reading = (p: ParsedFile) => ({
  value: p.value,
  root: [...p.index.root],
  scopes: [...p.index.scopes].map(([k, m]) => [k, [...m]]),
  diagnostics: p.diagnostics,
});

function expectSameReading(text: string): void {
  expect(reading(parseYaml("f.yaml", text)), JSON.stringify(text)).toEqual(reading(parseYamlDocument("f.yaml", text)));
}

/** One connection of the engine benchmarks' configuration, with its filter, routing protocols and attachment, as they write it. */
const BENCHMARK = topology(5).yaml;

const CONSTRUCTS = [
  "netform: 1\nprovider:\n  endpoint: embedded\n",
  "a:\nb: 1\n",
  "a:   \nb: 1\n",
  "a: # nothing\nb: 1\n",
  "a:\n",
  "a: ~\nb: null\nc: Null\nd: NULL\n",
  "a: true\nb: False\nc: TRUE\nd: yes\ne: on\n",
  "a: 1\nb: -2\nc: +3\nd: 007\ne: 0o17\nf: 0x1F\ng: 1.5\nh: .5\ni: 1.\nj: 1e3\nk: -1.5E-2\nl: .inf\nm: -.Inf\nn: .nan\no: 99999999999999999999\np: 1_000\nq: 10.0.0.1/30\n",
  "a: 'it''s'\nb: \"double\"\nc: ''\nd: \"\"\ne: 'a: b # c'\n",
  "a: plain text with spaces   \nb: x#y\nc: x # comment\nd: http://example.net/a#frag\ne: ${connections.dc.uuid}\n",
  "a:\n  # a comment\n  x: 1\n",
  "a:\n\n  x: 1\n\n\nb: 2",
  "a:\n  x: 1\n # less indented comment\n  y: 2\n",
  "a: 1\n  # deeper comment\nb: 2\n",
  "a: [1, {b: c}, [d, 'e'], \"f\"]\n",
  "a: {}\nb: []\nc: { x: 1, y: [ ], z: {} }\n",
  "a: {x: }\nb: {x: , y: 1}\n",
  "a: [x, ]\n",
  "a:\n  - x\n  - y: 1\n    z: 2\n  - [1, 2]\n  - {k: v}\n",
  "a:\n- x\n- y\n",
  "- x\n- y\n",
  "a:\n  -   x\n  -  k: 1\n     l: 2\n",
  "connections:\n  dc:\n    type: EVPL_VC\n    aSide: { accessPoint: { port: { uuid: p } } }\n    notifications: [{ type: ALL, emails: [noc@example.com] }]\n",
  "a: x\n  continued\n",
  "a: x\n\n  continued\n",
  "a: 'x'\n  y: 1\n",
  "true: 1\nnull: 2\n",
  "1: a\n",
  "a: &x 1\nb: *x\n",
  "<<: {a: 1}\n",
  "a: |\n  text\n",
  "a: b: c\n",
  "a:\n  b: 1\n   c: 2\n",
  "a: 1\na: 2\n",
  "a: {b: 1, b: 2}\n",
  "__proto__: 1\n",
  "a:\tb\n",
  "a: 1\r\nb: 2\r\n",
  "---\na: 1\n",
  "a: 1\n...\n",
  "a: 1\n---\nb: 2\n",
  "",
  "# only a comment\n",
  "just a scalar\n",
  "  a: 1\n  b: 2\n",
  "  a: 1\nb: 2\n",
  "a: -x\nb: -\nc: --x\nd: -.5\n",
  "a: [b, c\n  , d]\n",
  "a: { b: 1 } # comment\nb: [1] x\n",
  'a: "x\\ny"\n',
  "a: [\"k\": v]\n",
  "a: [${x}]\n",
  "a: é ünïcode ✓\n",
  "a:\n  - - x\n",
  "a:\n  -\n    b: 1\n",
  "a:\n  - x\n  b: 1\n",
  "a:\n  b: 1\n  - x\n",
];

describe("the YAML subset reader", () => {
  it("reads the constructs as the yaml package does, or declines them", () => {
    for (const text of CONSTRUCTS) expectSameReading(text);
  });

  it("takes the configurations of the examples and the fixtures, and reads them as the yaml package does", () => {
    const files = [...yamlFiles(join(repo, "examples")), ...yamlFiles(join(repo, "test/fixtures"))];
    let count = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expectSameReading(text);
      if (taken(text)) count++;
    }
    // Those declined are CI files and YAML mistakes.
    expect(count).toBeGreaterThan(files.length * 0.8);
  });

  it("takes the benchmark's configuration", () => {
    expect(taken(BENCHMARK)).toBe(true);
    expectSameReading(BENCHMARK);
  });

  it("answers each position of a resource when first asked for, as when they are listed", () => {
    // A resource's positions are read again from the text by the first question: any question.
    const expected = parseYamlDocument("f.yaml", BENCHMARK).index.scopes;
    const asked = parseYaml("f.yaml", BENCHMARK).index.scopes;
    expect([...asked.keys()]).toEqual([...expected.keys()]);
    const questions: [string, (positions: Map<string, unknown>) => unknown][] = [
      ["get", (m) => m.get("type")],
      ["has", (m) => m.has("aSide.accessPoint.port.uuid")],
      ["size", (m) => m.size],
      ["keys", (m) => [...m.keys()]],
      ["values", (m) => [...m.values()]],
      ["forEach", (m) => {
        const seen: unknown[] = [];
        m.forEach((span, key) => seen.push([key, span]));
        return seen;
      }],
    ];
    [...asked.entries()].forEach(([scope, positions], i) => {
      const [name, ask] = questions[i % questions.length]!;
      const reference = expected.get(scope)!;
      expect(ask(positions), `${name} of ${scope}`).toEqual(ask(reference));
      expect([...positions], scope).toEqual([...reference]);
    });
  });

  it("reads small edits of the configurations as the yaml package does, or declines them", () => {
    const texts = [...CONSTRUCTS, BENCHMARK, ...yamlFiles(join(repo, "examples")).map((f) => readFileSync(f, "utf8"))];
    const pieces = [" ", "  ", "\n", "#", ":", ": ", "-", "- ", "'", '"', "[", "]", "{", "}", ",", "x", "1", "0x1F", "~", "null", "true", "&a", "*a", "|", "\\", "?", "1.5", ".inf", "a: b", "\n  ", "\n- ", "<<: ", "%", "!", "@", "  #c", ": {a: 1}", "[1, 2]", "'it''s'"];
    // A fixed sequence of pseudo-random edits, so that a failure is found again.
    let seed = 1;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    let takenEdits = 0;
    for (let n = 0; n < 1500; n++) {
      let text = texts[random(texts.length)]!.slice(0, 3000);
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(text.length + 1);
        const op = random(3);
        if (op === 0) text = text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at);
        else if (op === 1) text = text.slice(0, at) + text.slice(at + 1 + random(3));
        else {
          const from = random(text.length);
          text = text.slice(0, at) + text.slice(from, from + 1 + random(20)) + text.slice(at);
        }
      }
      expectSameReading(text);
      if (taken(text)) takenEdits++;
    }
    // Enough of the edits stay in the subset for the comparison to mean something.
    expect(takenEdits).toBeGreaterThan(150);
  });

  it("resolves plain scalars as the core schema does", () => {
    for (const s of ["x", "null", "~", "True", "false", "0", "-0", "+12", "0o17", "0o8", "0x1f", "0X1F", "1.0", "1.", ".5", "1e3", "1E+3", ".Inf", "-.inf", ".NaN", "nan", "1_0", "10.0.0.1", "n", "Y", "$x", "${var.x}", "_1", "/1", "=1", "(null)", "é", "N", "t", "Fa", "+", ".", "+.5", "-.5e1"]) {
      const read = (parseYamlDocument("f.yaml", `a: ${s}\n`).value as { a: unknown }).a;
      expect(Object.is(scalarValue(s), read), s).toBe(true);
    }
  });
});
