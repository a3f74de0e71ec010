// Preconditions and postconditions: `{ condition, message }` entries on a resource, each condition a small
// expression language read by the parser below and never evaluated as code. It has references
// (`${self.bandwidth}`, `${connections.dc.bandwidth}`, `${var.min}`), literals (numbers, 'strings' or
// "strings", true, false, null, [lists]), comparisons (== != < <= > >=), `in`, && || !, parentheses, and
// length(x) and contains(list, x). A reference whose value is not known yet makes the condition unknown,
// and it is checked later, when it is.

import type { Diagnostic } from "../diag/index.js";
import { isPlainObject } from "./json.js";
import type { PositionIndex, SourcePosition } from "./positions.js";
import { placeDiagnostic } from "./validate.js";

export type ConditionKind = "preconditions" | "postconditions";

export type Expression =
  | { type: "literal"; value: unknown }
  | { type: "reference"; path: string[]; text: string }
  | { type: "list"; items: Expression[] }
  | { type: "not"; operand: Expression }
  | { type: "binary"; operator: BinaryOperator; left: Expression; right: Expression }
  | { type: "call"; name: FunctionName; args: Expression[] };

type BinaryOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "in";
type FunctionName = "length" | "contains";

export interface Condition {
  /** The condition as written. */
  source: string;
  message: string;
  expression: Expression;
  /** Where the condition is written. */
  position?: SourcePosition;
  /** preconditions[0].condition */
  path: string;
  /** The addresses of other resources it reads. */
  addresses: string[];
}

export type ParseResult = { ok: true; expression: Expression } | { ok: false; offset: number; message: string };

interface Token {
  type: "number" | "string" | "reference" | "word" | "operator" | "end";
  text: string;
  value?: unknown;
  offset: number;
}

const OPERATORS = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ","];
const FUNCTIONS: Record<FunctionName, number> = { length: 1, contains: 2 };
const REFERENCE = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)*$/;

class SyntaxProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (source.startsWith("${", i)) {
      const end = source.indexOf("}", i);
      if (end < 0) throw new SyntaxProblem(start, "this ${ is not closed by }");
      const text = source.slice(i + 2, end).trim();
      if (!REFERENCE.test(text)) throw new SyntaxProblem(start, `"\${${text}}" is not a reference; write e.g. \${self.bandwidth}, \${connections.NAME.bandwidth} or \${var.NAME}`);
      tokens.push({ type: "reference", text, offset: start });
      i = end + 1;
    } else if (/[0-9]/.test(ch) || (ch === "-" && /[0-9]/.test(source[i + 1] ?? ""))) {
      const m = /^-?\d+(\.\d+)?/.exec(source.slice(i))!;
      tokens.push({ type: "number", text: m[0], value: Number(m[0]), offset: start });
      i += m[0].length;
    } else if (ch === "'" || ch === '"') {
      let value = "";
      i++;
      while (i < source.length && source[i] !== ch) {
        if (source[i] === "\\" && i + 1 < source.length) i++;
        value += source[i];
        i++;
      }
      if (i >= source.length) throw new SyntaxProblem(start, `this string is not closed by ${ch}`);
      i++;
      tokens.push({ type: "string", text: source.slice(start, i), value, offset: start });
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))!;
      tokens.push({ type: "word", text: m[0], offset: start });
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (!op) throw new SyntaxProblem(start, ch === "=" ? 'a comparison is written ==, not =' : `unexpected "${ch}"`);
      tokens.push({ type: "operator", text: op, offset: start });
      i += op.length;
    }
  }
  tokens.push({ type: "end", text: "", offset: source.length });
  return tokens;
}

/** Parses a condition; where and why it is not one otherwise (offset into `source`). */
export function parseCondition(source: string): ParseResult {
  try {
    const tokens = tokenize(source);
    let at = 0;
    const peek = () => tokens[at]!;
    const next = () => tokens[at++]!;
    const isOp = (text: string) => peek().type === "operator" && peek().text === text;
    const expect = (text: string, what: string) => {
      if (!isOp(text)) throw new SyntaxProblem(peek().offset, `expected ${what}${found(peek())}`);
      next();
    };
    const binary = (operand: () => Expression, operators: readonly BinaryOperator[]) => (): Expression => {
      let left = operand();
      for (;;) {
        const t = peek();
        const operator = operators.find((o) => (o === "in" ? t.type === "word" && t.text === "in" : t.type === "operator" && t.text === o));
        if (!operator) return left;
        next();
        left = { type: "binary", operator, left, right: operand() };
      }
    };
    const primary = (): Expression => {
      const t = next();
      switch (t.type) {
        case "number":
        case "string":
          return { type: "literal", value: t.value };
        case "reference":
          return { type: "reference", path: t.text.split("."), text: t.text };
        case "word": {
          if (t.text === "true" || t.text === "false") return { type: "literal", value: t.text === "true" };
          if (t.text === "null") return { type: "literal", value: null };
          if (t.text in FUNCTIONS) {
            const name = t.text as FunctionName;
            expect("(", `( after ${name}`);
            const args: Expression[] = [];
            while (!isOp(")")) {
              if (args.length > 0) expect(",", "a comma between arguments");
              args.push(or());
            }
            next();
            if (args.length !== FUNCTIONS[name]) throw new SyntaxProblem(t.offset, `${name} takes ${FUNCTIONS[name]} argument${FUNCTIONS[name] === 1 ? "" : "s"}, not ${args.length}`);
            return { type: "call", name, args };
          }
          throw new SyntaxProblem(t.offset, `unknown word "${t.text}"; references are written \${self.${t.text}}, strings in quotes`);
        }
        case "operator":
          if (t.text === "(") {
            const inner = or();
            expect(")", "a closing )");
            return inner;
          }
          if (t.text === "[") {
            const items: Expression[] = [];
            while (!isOp("]")) {
              if (items.length > 0) expect(",", "a comma between items");
              items.push(or());
            }
            next();
            return { type: "list", items };
          }
          if (t.text === "!") return { type: "not", operand: primary() };
          throw new SyntaxProblem(t.offset, `expected a value${found(t)}`);
        default:
          throw new SyntaxProblem(t.offset, "the condition ends where a value was expected");
      }
    };
    const comparison = binary(primary, ["==", "!=", "<=", ">=", "<", ">", "in"]);
    const and = binary(comparison, ["&&"]);
    const or: () => Expression = binary(and, ["||"]);
    const expression = or();
    if (peek().type !== "end") throw new SyntaxProblem(peek().offset, `expected && or || or the end${found(peek())}`);
    return { ok: true, expression };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, offset: error.offset, message: error.message };
    throw error;
  }
}

const found = (t: Token) => (t.type === "end" ? ", found the end" : `, found "${t.text}"`);

/** A value not known until apply. */
export const UNKNOWN: unique symbol = Symbol("unknown");
export type Resolve = (path: readonly string[]) => unknown;

export type Evaluation = { value: boolean } | { unknown: true } | { error: string };

/** Evaluates a condition with the references' values from `resolve` (UNKNOWN when not known yet). */
export function evaluateCondition(expression: Expression, resolve: Resolve): Evaluation {
  try {
    const v = evaluate(expression, resolve);
    if (v === UNKNOWN) return { unknown: true };
    if (typeof v !== "boolean") return { error: `the condition is ${describe(v)}, not true or false` };
    return { value: v };
  } catch (error) {
    if (error instanceof TypeProblem) return { error: error.message };
    throw error;
  }
}

class TypeProblem extends Error {}

function evaluate(e: Expression, resolve: Resolve): unknown {
  switch (e.type) {
    case "literal":
      return e.value;
    case "reference": {
      const v = resolve(e.path);
      return v === undefined ? null : v;
    }
    case "list": {
      const items = e.items.map((i) => evaluate(i, resolve));
      return items.includes(UNKNOWN) ? UNKNOWN : items;
    }
    case "not": {
      const v = evaluate(e.operand, resolve);
      return v === UNKNOWN ? UNKNOWN : !truth(v, "!");
    }
    case "call": {
      const args = e.args.map((a) => evaluate(a, resolve));
      if (args.includes(UNKNOWN)) return UNKNOWN;
      if (e.name === "length") {
        const [v] = args;
        if (typeof v === "string" || Array.isArray(v)) return v.length;
        if (isPlainObject(v)) return Object.keys(v).length;
        throw new TypeProblem(`length takes a list, a string or a mapping, not ${describe(v)}`);
      }
      const [list, item] = args;
      if (!Array.isArray(list)) throw new TypeProblem(`contains takes a list first, not ${describe(list)}`);
      return list.some((x) => same(x, item));
    }
    case "binary":
      return binaryValue(e, resolve);
  }
}

function binaryValue(e: Extract<Expression, { type: "binary" }>, resolve: Resolve): unknown {
  const left = evaluate(e.left, resolve);
  if (e.operator === "&&" || e.operator === "||") {
    // A known side that decides it is enough: false && unknown is false.
    if (left !== UNKNOWN && truth(left, e.operator) === (e.operator === "||")) return e.operator === "||";
    const right = evaluate(e.right, resolve);
    if (right === UNKNOWN) return UNKNOWN;
    if (truth(right, e.operator) === (e.operator === "||")) return e.operator === "||";
    return left === UNKNOWN ? UNKNOWN : e.operator === "&&";
  }
  const right = evaluate(e.right, resolve);
  if (left === UNKNOWN || right === UNKNOWN) return UNKNOWN;
  switch (e.operator) {
    case "==":
      return same(left, right);
    case "!=":
      return !same(left, right);
    case "in":
      if (!Array.isArray(right)) throw new TypeProblem(`in takes a list on its right, not ${describe(right)}`);
      return right.some((x) => same(x, left));
    default: {
      const bothNumbers = typeof left === "number" && typeof right === "number";
      if (!bothNumbers && !(typeof left === "string" && typeof right === "string")) throw new TypeProblem(`${e.operator} compares two numbers or two strings, not ${describe(left)} and ${describe(right)}`);
      const l = left as number | string;
      const r = right as number | string;
      return e.operator === "<" ? l < r : e.operator === "<=" ? l <= r : e.operator === ">" ? l > r : l >= r;
    }
  }
}

function truth(v: unknown, operator: string): boolean {
  if (typeof v !== "boolean") throw new TypeProblem(`${operator} takes true or false, not ${describe(v)}`);
  return v;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return `${typeof v} ${JSON.stringify(v)}`;
}

interface ConditionScope {
  /** The resource's address, for messages. */
  address: string;
  positions: PositionIndex;
  /** Addresses declared in the configuration. */
  addresses?: ReadonlySet<string>;
  variables: ReadonlySet<string>;
  kindNames: readonly string[];
}

/** Reads a resource's preconditions or postconditions: shape, syntax and what they refer to, each mistake placed. */
export function readConditions(kind: ConditionKind, value: unknown, scope: ConditionScope, diagnostics: Diagnostic[]): Condition[] {
  const loc = { address: scope.address, positions: scope.positions };
  const problem = (path: (string | number)[], message: string, hint?: string, offset = 0) => {
    const d = placeDiagnostic(loc, { path, code: `condition.${kind === "preconditions" ? "precondition" : "postcondition"}-invalid`, message, ...(hint ? { hint } : {}) });
    diagnostics.push(offset > 0 && d.column !== undefined ? { ...d, column: d.column + offset } : d);
  };
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problem([kind], `${kind} is a list of { condition, message }`, `e.g. ${kind}: [{ condition: "\${self.bandwidth} >= 100", message: "at least 100 Mbps" }]`);
    return [];
  }
  const conditions: Condition[] = [];
  value.forEach((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.condition !== "string" || typeof entry.message !== "string" || entry.message.trim() === "") {
      problem([kind, i], `each of ${kind} has a condition (an expression) and a message (what is wrong, for whoever reads the error)`);
      return;
    }
    for (const key of Object.keys(entry)) if (key !== "condition" && key !== "message") problem([kind, i, key], `unknown field "${key}"`, "a condition has only condition and message");
    const parsed = parseCondition(entry.condition);
    if (!parsed.ok) {
      problem([kind, i, "condition"], parsed.message, undefined, parsed.offset);
      return;
    }
    const addresses = new Set<string>();
    let valid = true;
    for (const ref of references(parsed.expression)) {
      const [head, name, ...rest] = ref.path;
      if (head === "self") {
        if (name === undefined) valid = refProblem(`\${self} names no field: write \${self.FIELD}`);
      } else if (head === "var") {
        if (name === undefined || !scope.variables.has(name)) valid = refProblem(`\${${ref.text}}: no variable ${name ?? ""} is declared`);
      } else if (head !== undefined && scope.kindNames.includes(head)) {
        const address = `${head}.${name ?? ""}`;
        if (name === undefined || rest.length === 0) valid = refProblem(`\${${ref.text}} names no field: write \${${head}.NAME.FIELD}`);
        else if (scope.addresses && !scope.addresses.has(address)) valid = refProblem(`\${${ref.text}}: ${address} is not declared`);
        else if (address === scope.address) valid = refProblem(`\${${ref.text}} is this resource: write \${self.${rest.join(".")}}`);
        else addresses.add(address);
      } else {
        valid = refProblem(`\${${ref.text}} is not a reference a condition can read`, "conditions read ${self.FIELD}, ${KIND.NAME.FIELD} and ${var.NAME}");
      }
    }
    function refProblem(message: string, hint?: string): false {
      problem([kind, i, "condition"], message, hint);
      return false;
    }
    if (valid) conditions.push({ source: entry.condition, message: entry.message, expression: parsed.expression, path: `${kind}[${i}].condition`, addresses: [...addresses].sort(), ...positionOf(scope.positions, `${kind}[${i}].condition`) });
  });
  return conditions;
}

function positionOf(positions: PositionIndex, path: string): { position?: SourcePosition } {
  const span = positions.get(path);
  const position = span?.value ?? span?.key;
  return position ? { position } : {};
}

function references(e: Expression): Array<Extract<Expression, { type: "reference" }>> {
  switch (e.type) {
    case "reference":
      return [e];
    case "list":
      return e.items.flatMap(references);
    case "not":
      return references(e.operand);
    case "call":
      return e.args.flatMap(references);
    case "binary":
      return [...references(e.left), ...references(e.right)];
    default:
      return [];
  }
}
