// `${...}` expressions in string values: ${var.NAME}, ${env.NAME}, ${secret.NAME}, ${workspace}, references
// ${kind.name.attribute} (${kind.name["key"].attribute} or ${kind.name[each.key].attribute} for an instance
// of a resource with forEach) and ${lookups.NAME.attribute}, whose attribute is a path that may index lists
// (${lookups.sp.accessPointTypeConfigs[0].type}), and ${each.key} / ${each.value.field} inside a resource
// with forEach. A string that is only one expression keeps the value's type (a number variable stays a
// number); one that embeds expressions becomes a string, or a Template while a part is unknown. `$${` writes
// a literal `${`.

import { address as makeAddress, formatPath, readQuotedKey, type Address, type FieldPath } from "./address.js";
import type { KindCatalog } from "./catalog.js";
import { isPlainObject } from "./json.js";
import { LOOKUPS_SECTION, type LookupSchema } from "./lookups.js";
import { Sensitive } from "./sensitive.js";
import { didYouMean } from "../diag/suggest.js";
import { Invalid, Reference, Template, Unresolved } from "./values.js";
import type { VariableValue } from "./variables.js";

export type MissingValues = "error" | "unknown";

export interface InterpolationScope {
  variables: ReadonlyMap<string, VariableValue | undefined>;
  env: Readonly<Record<string, string | undefined>>;
  missing: MissingValues;
  /** The kinds references may name. */
  kinds: KindCatalog;
  /** Declared addresses; undefined where references are not allowed (the provider block). */
  addresses: ReadonlySet<string> | undefined;
  /** Declared lookups, by address, with their kind's schema; undefined where they may not be referenced. */
  lookups?: ReadonlyMap<string, LookupSchema | undefined>;
  /** The workspace's name, for ${workspace}; undefined where it may not be used (the backend block). */
  workspace?: string;
  /** Inputs already reported as unset (with missing "unknown"), so each is reported once. */
  warned?: Set<string>;
  /**
   * The keys of each resource with forEach, by its block address (`connections.vlan`): Unresolved while
   * its forEach waits for an input `validate` does not have, Invalid when its forEach is in error.
   */
  forEach?: ReadonlyMap<string, readonly string[] | Unresolved | Invalid>;
  /** The instance being built, inside a resource with forEach: what ${each.key} and ${each.value} are. */
  each?: { key: string; value: unknown };
}

export interface Problem {
  path: FieldPath;
  code: string;
  message: string;
  hint?: string;
  severity?: "error" | "warning";
}

export interface InterpolationResult {
  problems: Problem[];
  references: Reference[];
  /** Paths (formatPath) whose value is sensitive. */
  sensitive: Set<string>;
}

export const newResult = (): InterpolationResult => ({ problems: [], references: [], sensitive: new Set() });

/** Replaces every expression in a tree of plain data; subtrees without one are returned as they are. */
export function interpolate(value: unknown, path: (string | number)[], scope: InterpolationScope, out: InterpolationResult): unknown {
  return interpolateAt(value, [...path], scope, out);
}

/** `stack` is the path, pushed and popped along the walk and copied only where an expression is. */
function interpolateAt(value: unknown, stack: (string | number)[], scope: InterpolationScope, out: InterpolationResult): unknown {
  if (typeof value === "string") {
    if (!value.includes("${")) return value;
    const path = stack.slice();
    const v = interpolateString(value, path, scope, out);
    if (v instanceof Sensitive || (v instanceof Reference && v.sensitive) || (v instanceof Template && v.sensitive) || (v instanceof Unresolved && v.source === "secret")) {
      out.sensitive.add(formatPath(path));
    }
    return v;
  }
  // Only what holds an expression is copied: the rest of the tree is the parsed data, shared as it is.
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const old: unknown = value[i];
      stack.push(i);
      const x = interpolateAt(old, stack, scope, out);
      stack.pop();
      if (copy) copy.push(x);
      else if (x !== old) {
        copy = value.slice(0, i);
        copy.push(x);
      }
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    // Other objects than plain mappings are rebuilt as plain mappings of their own fields, as always.
    let copy: Record<string, unknown> | undefined = Object.getPrototypeOf(value) === Object.prototype ? undefined : {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const old = (value as Record<string, unknown>)[k];
      stack.push(k);
      const x = interpolateAt(old, stack, scope, out);
      stack.pop();
      if (copy) copy[k] = x;
      else if (x !== old) {
        copy = {};
        for (let j = 0; j < i; j++) copy[keys[j] as string] = (value as Record<string, unknown>)[keys[j] as string];
        copy[k] = x;
      }
    }
    return copy ?? value;
  }
  return value;
}

type Part = string | { expression: string };

function split(text: string): Part[] | { error: string } {
  const parts: Part[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i)) {
      literal += "${";
      i += 3;
      continue;
    }
    if (text.startsWith("${", i)) {
      const end = expressionEnd(text, i + 2);
      if (end < 0) return { error: `unterminated "\${" in "${text}"` };
      if (literal) parts.push(literal);
      literal = "";
      parts.push({ expression: text.slice(i + 2, end).trim() });
      i = end + 1;
      continue;
    }
    literal += text[i];
    i++;
  }
  if (literal) parts.push(literal);
  return parts;
}

/** The `}` that closes an expression starting at `from`: one inside a quoted key does not. */
function expressionEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "}") return i;
    if (text[i] === '"') {
      const quoted = readQuotedKey(text, i);
      if (quoted) i = quoted.end - 1;
    }
  }
  return -1;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const SEGMENT_AT = /[A-Za-z0-9_-]+/y;

/** An instance key in brackets: a quoted string, or an expression (each.key) whose value is the key. */
type Instance = { quoted: string } | { expression: string };

/** A dotted segment, or what a pair of brackets holds (trimmed, or the key of a quoted one). */
type Token = { segment: string } | { bracket: string; quoted?: string };

/** `a.b[...].c`: segments joined by dots, each followed by any number of brackets; undefined when not so. */
function tokenize(expression: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    SEGMENT_AT.lastIndex = i;
    const segment = SEGMENT_AT.exec(expression)?.[0];
    if (!segment) return undefined;
    out.push({ segment });
    i += segment.length;
    while (expression[i] === "[") {
      const quoted = readQuotedKey(expression, i + 1);
      const close = quoted ? quoted.end : expression.indexOf("]", i);
      if (close < 0 || expression[close] !== "]") return undefined;
      out.push(quoted ? { bracket: expression.slice(i + 1, close), quoted: quoted.key } : { bracket: expression.slice(i + 1, close).trim() });
      i = close + 1;
    }
    if (i === expression.length) break;
    if (expression[i] !== ".") return undefined;
    i++;
    if (i === expression.length) return undefined;
  }
  return out;
}

interface ParsedExpression {
  /** The dotted segments, list indexes left out: head, name, then the attribute's fields. */
  segs: string[];
  /** The key in brackets right after the name: `kind.name["key"]`, `kind.name[each.key]`. */
  instance?: Instance;
  /** What follows the name (and instance): fields, and list indexes as numbers. */
  attribute: (string | number)[];
}

const LIST_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * `a.b.c`, `kind.name[INSTANCE].attribute...`, with `[N]` list indexes anywhere after the attribute's first
 * field; undefined when not an expression at all, `{ error }` for a bracket that is no list index.
 */
function parseExpression(expression: string): ParsedExpression | { error: string; hint: string } | undefined {
  const tokens = tokenize(expression);
  if (!tokens) return undefined;
  const [head, name, third] = tokens;
  if (!head || !("segment" in head) || (name && !("segment" in name))) return undefined;
  const instance: Instance | undefined = third && "bracket" in third ? (third.quoted !== undefined ? { quoted: third.quoted } : { expression: third.bracket }) : undefined;
  const rest = tokens.slice(instance ? 3 : 2);
  if (rest[0] && !("segment" in rest[0])) return undefined;
  const attribute: (string | number)[] = [];
  for (const token of rest) {
    if ("segment" in token) attribute.push(token.segment);
    else if (token.quoted !== undefined) {
      return { error: `"\${${expression}}": [${JSON.stringify(token.quoted)}] is not a list index; a field is read after a dot`, hint: SEGMENT.test(token.quoted) ? `write .${token.quoted}` : "a list index is a whole number from 0: [0] is the first item" };
    } else if (LIST_INDEX.test(token.bracket)) attribute.push(Number(token.bracket));
    else {
      const what = /^-\s*[0-9]+$/.test(token.bracket) ? "a negative number" : /^[0-9]*\.[0-9]+$|^[0-9]+\.$/.test(token.bracket) ? "not a whole number" : /^[0-9]+$/.test(token.bracket) ? "written with a leading zero" : "not a number";
      return { error: `"\${${expression}}": [${token.bracket}] is not a list index (${what})`, hint: `a list index is a whole number from 0: [0] is the first item, [1] the second` };
    }
  }
  const segs = [head.segment, ...(name && "segment" in name ? [name.segment] : []), ...attribute.filter((a): a is string => typeof a === "string")];
  return { segs, ...(instance ? { instance } : {}), attribute };
}

/** At most a few keys, quoted: a block of a thousand instances is not listed whole in a hint. */
function someKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((k) => JSON.stringify(k)).join(", ");
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
}

function interpolateString(text: string, path: FieldPath, scope: InterpolationScope, out: InterpolationResult): unknown {
  const parts = split(text);
  if ("error" in parts) {
    out.problems.push({ path, code: "expression.syntax", message: parts.error, hint: 'write "$${" for a literal "${"' });
    return new Invalid(text);
  }
  const resolved = parts.map((p) => (typeof p === "string" ? p : resolveExpression(p.expression, path, scope, out)));
  if (resolved.some((r) => r instanceof Invalid)) return new Invalid(text);
  if (resolved.length === 1 && typeof parts[0] !== "string") return resolved[0];
  const pieces: (string | Sensitive<string> | Reference | Unresolved)[] = [];
  for (const r of resolved) {
    if (r instanceof Reference || r instanceof Unresolved) pieces.push(r);
    else if (r instanceof Template) pieces.push(...r.parts);
    else if (r instanceof Sensitive) {
      const raw = r.reveal();
      if (!isScalar(raw)) return embedError(path, out, text);
      pieces.push(new Sensitive(String(raw)));
    } else if (isScalar(r)) pieces.push(String(r));
    else if (r === undefined) pieces.push("");
    else return embedError(path, out, text);
  }
  if (pieces.some((p) => p instanceof Reference || p instanceof Unresolved)) return new Template(pieces);
  const joined = pieces.map((p) => (p instanceof Sensitive ? p.reveal() : (p as string))).join("");
  return pieces.some((p) => p instanceof Sensitive) ? new Sensitive(joined) : joined;
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

function embedError(path: FieldPath, out: InterpolationResult, text: string): Invalid {
  out.problems.push({ path, code: "expression.embed", message: "a list or mapping cannot be embedded in a string", hint: "use the expression as the whole value" });
  return new Invalid(text);
}

const EXPRESSION_HINT = 'expressions are ${var.NAME}, ${env.NAME}, ${secret.NAME}, ${workspace}, ${kind.name.attribute}, ${kind.name["key"].attribute}, ${lookups.NAME.attribute} (an attribute may read a list item: ${kind.name.list[0].field}), ${each.key} and ${each.value}';

/** The value of one expression; Invalid after reporting a problem. */
function resolveExpression(expression: string, path: FieldPath, scope: InterpolationScope, out: InterpolationResult): unknown {
  const problem = (code: string, message: string, hint?: string): Invalid => {
    out.problems.push({ path, code, message, ...(hint ? { hint } : {}) });
    return new Invalid(`\${${expression}}`);
  };
  const parsed = parseExpression(expression);
  if (!parsed) return problem("expression.syntax", `"\${${expression}}" is not a valid expression`, EXPRESSION_HINT);
  if ("error" in parsed) return problem("expression.syntax", parsed.error, parsed.hint);
  const { segs, instance: written, attribute: after } = parsed;
  const [head = "", name = ""] = segs;
  // A list lookup's item: `${lookups.ports[0].name}` reads the first object found.
  const item = head === LOOKUPS_SECTION && written && "expression" in written && LIST_INDEX.test(written.expression) ? Number(written.expression) : undefined;
  const instance = item === undefined ? written : undefined;
  const attribute = item === undefined ? after : [item, ...after];
  if (instance && !scope.kinds.has(head)) return problem("expression.syntax", `"\${${expression}}": only a resource's instances are named with [...]`, EXPRESSION_HINT);
  if (attribute.some((a) => typeof a === "number") && !scope.kinds.has(head) && head !== LOOKUPS_SECTION) {
    return problem("expression.syntax", `"\${${expression}}": a list index [N] reads an item of a resource's or a lookup's attribute`, head === "each" ? "each.value's fields are read with dots; give each instance its own value instead of a list" : EXPRESSION_HINT);
  }
  switch (head) {
    case "var": {
      if (segs.length !== 2) return problem("expression.syntax", `"\${${expression}}": a variable is written \${var.NAME}`);
      if (!scope.variables.has(name)) {
        return problem("variables.undeclared", `undeclared variable "${name}"`, didYouMean(name, scope.variables.keys()) ?? `declare it under variables: ${name}: { type: string }`);
      }
      const v = scope.variables.get(name);
      if (v !== undefined) return v.value;
      if (scope.missing === "unknown") return new Unresolved("var", name);
      return problem("variables.unset", `variable "${name}" has no value`, `set it with --var ${name}=VALUE, a --var-file, ${"NETFORM_VAR_"}${name}, or give it a default`);
    }
    case "env":
    case "secret": {
      if (segs.length !== 2) return problem("expression.syntax", `"\${${expression}}": write \${${head}.NAME}`);
      const v = scope.env[name];
      if (v !== undefined) return head === "secret" ? new Sensitive(v) : v;
      if (scope.missing === "unknown") {
        if (scope.warned && !scope.warned.has(`${head}.${name}`)) {
          scope.warned.add(`${head}.${name}`);
          out.problems.push({ path, code: `${head}.unset`, severity: "warning", message: `environment variable ${name} is not set; the fields that use it are checked at plan time` });
        }
        return new Unresolved(head, name);
      }
      return problem(`${head}.unset`, `environment variable ${name} is not set`, `${head === "secret" ? "the secret" : "the value"} is read from the environment: export ${name}=...`);
    }
    case "each":
      return eachValue(expression, segs, scope, problem);
    case "workspace":
      if (segs.length !== 1) return problem("expression.syntax", `"\${${expression}}": the workspace's name is written \${workspace}`);
      if (scope.workspace === undefined) {
        return problem(
          "workspace.not-allowed",
          "${workspace} cannot be used in the backend block: the backend keeps each workspace's state apart by itself",
          "write the backend block for the default workspace; an http address takes {workspace} where the name goes, e.g. https://state.example.net/netform/{workspace}",
        );
      }
      return scope.workspace;
    default:
      break;
  }
  if (head === LOOKUPS_SECTION && scope.lookups) return lookupReference(name, attribute, path, scope.lookups, out, problem);
  const kind = scope.kinds.get(head);
  if (!kind) return problem("expression.unknown", `unknown expression "\${${expression}}"`, didYouMean(head, ["var", "env", "secret", "workspace", ...scope.kinds.keys()]) ?? EXPRESSION_HINT);
  if (scope.addresses === undefined) return problem("reference.not-allowed", `references to resources are not allowed here ("\${${expression}}")`);
  if (segs.length < 3) return problem("expression.syntax", `"\${${expression}}": a reference is written \${${head}.NAME.ATTRIBUTE}, e.g. \${${head}.${name || "NAME"}.uuid}`);
  const block = `${head}.${name}`;
  const keys = scope.forEach?.get(block);
  let key: string | undefined;
  const attributeText = formatPath(attribute);
  if (instance) {
    if (keys === undefined) {
      if (!scope.addresses.has(block)) return problem("reference.undeclared", `reference to undeclared ${block}`, didYouMean(block, [...scope.addresses].filter((a) => a.startsWith(`${head}.`))) ?? `declare ${name} under ${head}`);
      return problem("reference.not-for-each", `${block} has no forEach: it is one object, named without a key`, `write \${${block}.${attributeText}}`);
    }
    const k = "quoted" in instance ? instance.quoted : instanceKey(instance.expression, scope, problem);
    if (typeof k !== "string") return k;
    key = k;
  } else if (keys !== undefined) {
    const example = Array.isArray(keys) && keys.length > 0 ? makeAddress(head, name, keys[0]) : `${block}["KEY"]`;
    return problem("reference.instance", `${block} has forEach: a reference names one of its instances`, `e.g. \${${example}.${attributeText}}${scope.each ? `, or \${${block}[each.key].${attributeText}} for the instance of the same key` : ""}`);
  }
  const address = makeAddress(head, name, key);
  // Below the first field, what an attribute holds is known only once the object is read: plan checks it.
  const first = segs[2] ?? "";
  if (!kind.attributes.includes(first)) {
    return problem("reference.attribute", `${head} have no attribute "${first}"`, didYouMean(first, kind.attributes) ?? `attributes: ${kind.attributes.join(", ")}`);
  }
  // Its instances are not known yet (validate), or its forEach is already reported: nothing more to say.
  if (keys instanceof Unresolved) return keys;
  if (keys instanceof Invalid) return keys;
  if (!scope.addresses.has(address)) {
    if (key !== undefined && keys !== undefined) {
      const suggestion = didYouMean(key, keys);
      return problem("reference.undeclared", `reference to undeclared ${address}: ${block} has no key ${JSON.stringify(key)}`, `${suggestion ? `${suggestion} ` : ""}${keys.length === 0 ? `${block} has no instances` : `its keys are ${someKeys(keys)}`}`);
    }
    const sameKind = [...scope.addresses].filter((a) => a.startsWith(`${head}.`));
    return problem("reference.undeclared", `reference to undeclared ${address}`, didYouMean(address, sameKind) ?? `declare ${name} under ${head}`);
  }
  const ref = new Reference(address, head, name, attributeText, [...path], kind.sensitive.covers(attributeText));
  out.references.push(ref);
  return ref;
}

/** `${each.key}`, `${each.value}` or `${each.value.field...}` of the instance being built. */
function eachValue(expression: string, segs: readonly string[], scope: InterpolationScope, problem: (code: string, message: string, hint?: string) => Invalid): unknown {
  const [, which = "", ...fields] = segs;
  if (which !== "key" && which !== "value") return problem("expression.syntax", `"\${${expression}}": write \${each.key} or \${each.value}`);
  if (!scope.each) return problem("each.outside", `\${${expression}} is only valid in a resource with forEach`, "add forEach: to the resource, or write the value itself");
  if (which === "key") return fields.length === 0 ? scope.each.key : problem("expression.syntax", `"\${${expression}}": each.key is a string and has no fields`);
  let value = scope.each.value;
  let at = "each.value";
  for (const field of fields) {
    if (!isPlainObject(value)) return problem("each.value-field", `${at} is not a mapping, so it has no field "${field}"`, `${at} is ${JSON.stringify(value)} for key ${JSON.stringify(scope.each.key)}`);
    if (!(field in value)) {
      const present = Object.keys(value);
      return problem("each.value-field", `${at} has no field "${field}"`, didYouMean(field, present) ?? (present.length > 0 ? `its fields: ${present.join(", ")}` : `${at} is an empty mapping`));
    }
    value = value[field];
    at = `${at}.${field}`;
  }
  return value;
}

/** The key an index expression (`each.key`, `each.value.name`) gives: a string, or Invalid after a problem. */
function instanceKey(expression: string, scope: InterpolationScope, problem: (code: string, message: string, hint?: string) => Invalid): string | Invalid {
  const segs = expression.split(".");
  if (segs[0] !== "each" || !segs.every((s) => SEGMENT.test(s))) return problem("expression.syntax", `an instance is named by a quoted key or by each.key, not by "${expression}"`, 'e.g. connections.vlan["1001"] or connections.vlan[each.key]');
  const value = eachValue(expression, segs, scope, problem);
  if (value instanceof Invalid) return value;
  if (typeof value !== "string") return problem("expression.syntax", `${expression} is not a string, so it cannot name an instance`, "name the instance by each.key, or by a string field of each.value");
  return value;
}

/**
 * `${lookups.NAME.attribute...}`: known at plan time, once the lookup is resolved; unknown to `validate`. Any
 * attribute path of the object found may be read, so what it holds is checked at plan time, not here.
 */
function lookupReference(name: string, attribute: readonly (string | number)[], path: FieldPath, lookups: ReadonlyMap<string, LookupSchema | undefined>, out: InterpolationResult, problem: (code: string, message: string, hint?: string) => Invalid): Reference | Invalid {
  const address = `${LOOKUPS_SECTION}.${name}` as Address;
  const declared = lookups.get(address);
  if (declared?.many) return listLookupReference(address, attribute, path, declared, out, problem);
  const attributeText = formatPath(attribute);
  if (typeof attribute[0] === "number") return problem("lookup.not-list", `"\${${address}${attributeText}}": ${address} finds exactly one object, not a list`, `read its attributes as \${${address}.ATTRIBUTE}, or add many: true to ${address} for a list`);
  if (attribute.length === 0) return problem("expression.syntax", `"\${${address}}": a lookup is read as \${${LOOKUPS_SECTION}.NAME.ATTRIBUTE}, e.g. \${${LOOKUPS_SECTION}.${name || "NAME"}.uuid}`);
  if (!lookups.has(address)) return problem("reference.undeclared", `reference to undeclared ${address}`, didYouMean(address, lookups.keys()) ?? `declare ${name} under ${LOOKUPS_SECTION}`);
  const lookup = lookups.get(address);
  if (!lookup) return new Invalid(`\${${address}.${attributeText}}`);
  const ref = new Reference(address, LOOKUPS_SECTION, name, attributeText, [...path], lookup.sensitive.covers(attributeText));
  out.references.push(ref);
  return ref;
}

/** What a list lookup's value holds: `count`, and `items`, the objects found. */
export const LIST_ITEMS = "items";
export const LIST_COUNT = "count";

/**
 * `${lookups.NAME}` (the list of objects found), `${lookups.NAME[N].attribute...}` (one of them) or
 * `${lookups.NAME.count}` of a list lookup, read from its value `{ count, items }`.
 */
function listLookupReference(address: Address, attribute: readonly (string | number)[], path: FieldPath, lookup: LookupSchema, out: InterpolationResult, problem: (code: string, message: string, hint?: string) => Invalid): Reference | Invalid {
  const name = address.slice(LOOKUPS_SECTION.length + 1);
  let read: (string | number)[];
  if (attribute.length === 0) read = [LIST_ITEMS];
  else if (typeof attribute[0] === "number") read = [LIST_ITEMS, ...attribute];
  else if (attribute.length === 1 && attribute[0] === LIST_COUNT) read = [LIST_COUNT];
  else {
    return problem(
      "reference.list-lookup",
      `"\${${address}.${formatPath(attribute)}}": ${address} is a list lookup (many: true), read as a whole, by item or by count`,
      `write \${${address}} (the objects found), \${${address}[0].${String(attribute[0])}} (the first one's) or \${${address}.${LIST_COUNT}} (how many)`,
    );
  }
  const attributeText = formatPath(read);
  const itemPath = formatPath(read.slice(2));
  const ref = new Reference(address, LOOKUPS_SECTION, name, attributeText, [...path], read[0] === LIST_ITEMS && (read.length <= 2 ? !lookup.sensitive.empty : lookup.sensitive.covers(itemPath)));
  out.references.push(ref);
  return ref;
}
