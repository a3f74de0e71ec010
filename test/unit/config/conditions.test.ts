// The conditions' expression language: what it reads, how it evaluates (unknown values included), and
// where and why it refuses what is not an expression.

import { describe, expect, it } from "vitest";
import { evaluateCondition, parseCondition, UNKNOWN } from "../../../src/config/index.js";

const VALUES: Record<string, unknown> = {
  "self.bandwidth": 100,
  "self.name": "dc",
  "self.notifications": [{ type: "ALL" }],
  "self.redundancy": { priority: "PRIMARY" },
  "self.redundancy.priority": "PRIMARY",
  "self.missing": undefined,
  "connections.other.bandwidth": UNKNOWN,
  "var.min": 50,
  "var.metros": ["DC", "SV"],
};

function run(source: string) {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return evaluateCondition(parsed.expression, (path) => VALUES[path.join(".")]);
}

describe("condition expressions", () => {
  it.each([
    ["${self.bandwidth} >= 100", true],
    ["${self.bandwidth} > 100", false],
    ["${self.bandwidth} <= ${var.min}", false],
    ["${self.bandwidth} < 1000 && ${self.bandwidth} != 50", true],
    ["${self.bandwidth} == 50 || ${self.name} == 'dc'", true],
    ['${self.name} == "dc"', true],
    ["!(${self.bandwidth} == 100)", false],
    ["!true || false", false],
    ["${self.bandwidth} in [50, 100, 200]", true],
    ["'SV' in ${var.metros}", true],
    ["'NY' in ${var.metros}", false],
    ["contains(${var.metros}, 'DC')", true],
    ["length(${self.notifications}) == 1 && length(${self.name}) == 2 && length(${self.redundancy}) == 1", true],
    ["${self.redundancy} == ${self.redundancy} && ${self.redundancy.priority} == 'PRIMARY'", true],
    ["${self.missing} == null", true],
    ["'a' < 'b'", true],
    ["-1.5 < 0", true],
    ["(${self.bandwidth} == 100 || false) && (true)", true],
  ])("%s is %s", (source, value) => {
    expect(run(source)).toEqual({ value });
  });

  it.each([
    "${connections.other.bandwidth} > 10",
    "${connections.other.bandwidth} in [1, 2]",
    "true && ${connections.other.bandwidth} == 1",
    "!(${connections.other.bandwidth} == 1)",
    "length([${connections.other.bandwidth}]) == 1",
  ])("%s is unknown until apply", (source) => {
    expect(run(source)).toEqual({ unknown: true });
  });

  it.each([
    ["false && ${connections.other.bandwidth} > 10", false],
    ["${connections.other.bandwidth} > 10 || true", true],
  ])("%s is decided by its known side: %s", (source, value) => {
    expect(run(source)).toEqual({ value });
  });

  it.each([
    ["${self.bandwidth} < 'x'", "< compares two numbers or two strings, not number 100 and string \"x\""],
    ["${self.bandwidth} in 100", "in takes a list on its right, not number 100"],
    ["${self.bandwidth} && true", "&& takes true or false, not number 100"],
    ["length(${self.bandwidth}) > 0", "length takes a list, a string or a mapping, not number 100"],
    ["${self.bandwidth}", "the condition is number 100, not true or false"],
  ])("%s cannot be evaluated: %s", (source, error) => {
    expect(run(source)).toEqual({ error });
  });

  it.each([
    ["${self.bandwidth} = 100", 18, "a comparison is written ==, not ="],
    ["${self.bandwidth >= 100", 0, "this ${ is not closed by }"],
    ["${self.bandwidth >= 100} == true", 0, '"${self.bandwidth >= 100}" is not a reference'],
    ["${self.bandwidth} >= ", 21, "the condition ends where a value was expected"],
    ["bandwidth >= 100", 0, 'unknown word "bandwidth"; references are written ${self.bandwidth}'],
    ["${self.name} == 'dc", 16, "this string is not closed by '"],
    ["(${self.bandwidth} > 1", 22, "expected a closing ), found the end"],
    ["${self.bandwidth} > 1 2", 22, 'expected && or || or the end, found "2"'],
    ["length(1, 2) > 0", 0, "length takes 1 argument, not 2"],
    ["[1 2]", 3, 'expected a comma between items, found "2"'],
    ["${self.bandwidth} > 1 ; true", 22, 'unexpected ";"'],
  ])("%s is refused at offset %i: %s", (source, offset, message) => {
    const parsed = parseCondition(source);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.offset).toBe(offset);
      expect(parsed.message).toContain(message);
    }
  });
});
