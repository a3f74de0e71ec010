// Input variables: declared under `variables`, given with --var NAME=VALUE, --var-file FILE, the environment
// (NETFORM_VAR_NAME), or their default, in that order of precedence. Values are typed: a value given as
// text (a flag, the environment) is converted to the declared type, and one that cannot be is an error at
// the place it was given.

import { readFileSync } from "node:fs";
import { parse as parseYamlValue } from "yaml";
import { fileProblem, type Diagnostic } from "../diag/index.js";
import { parseYaml, type SourcePosition } from "./positions.js";
import { Sensitive } from "./sensitive.js";
import { Invalid } from "./values.js";
import { didYouMean } from "../diag/suggest.js";
import { VARIABLE_NAME, type VariableType } from "./schema-meta.js";

export interface VariableDeclaration {
  name: string;
  type?: VariableType;
  default?: unknown;
  description?: string;
  sensitive: boolean;
  /** Where the variable is declared (its key). */
  position: SourcePosition;
  defaultPosition?: SourcePosition;
}

export type VariableSource = "flag" | "file" | "environment" | "default";

export interface VariableValue {
  /** Wrapped in Sensitive when the variable is declared sensitive. */
  value: unknown;
  source: VariableSource;
}

export interface VariableInputs {
  /** --var NAME=VALUE, already split; later entries win. */
  vars?: Readonly<Record<string, string>>;
  /** --var-file paths, later files win. */
  varFiles?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** How file names are shown in diagnostics. */
  display?: (file: string) => string;
}

/** Splits `NAME=VALUE` (the value may contain "="). */
export function parseVarFlag(text: string): { name: string; value: string } | undefined {
  const eq = text.indexOf("=");
  if (eq <= 0) return undefined;
  const name = text.slice(0, eq).trim();
  return VARIABLE_NAME.test(name) ? { name, value: text.slice(eq + 1) } : undefined;
}

export const ENV_PREFIX = "NETFORM_VAR_";

export function declaredType(d: Pick<VariableDeclaration, "type" | "default">): VariableType | undefined {
  if (d.type) return d.type;
  const v = d.default;
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "map";
  return "string";
}

const article = (t: VariableType): string => {
  switch (t) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "list":
      return "a list";
    case "map":
      return "a mapping";
    default: {
      const never: never = t;
      return String(never);
    }
  }
};

/** Converts a value to a variable's type; text from flags and the environment is parsed, data from files is checked. */
export function convertVariable(raw: unknown, type: VariableType | undefined, fromText: boolean): { value: unknown } | { error: string } {
  if (type === undefined) return { value: raw };
  const fail = { error: `expected ${article(type)}` };
  switch (type) {
    case "string":
      return typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? { value: String(raw) } : fail;
    case "number": {
      if (typeof raw === "number") return { value: raw };
      if (typeof raw === "string" && raw.trim() !== "" && Number.isFinite(Number(raw))) return { value: Number(raw) };
      return fail;
    }
    case "boolean":
      if (typeof raw === "boolean") return { value: raw };
      if (raw === "true" || raw === "false") return { value: raw === "true" };
      return fail;
    case "list":
    case "map": {
      let v = raw;
      if (fromText && typeof raw === "string") {
        try {
          v = parseYamlValue(raw);
        } catch {
          return fail;
        }
      }
      const ok = type === "list" ? Array.isArray(v) : v !== null && typeof v === "object" && !Array.isArray(v);
      return ok ? { value: v } : fail;
    }
    default: {
      const never: never = type;
      return { error: String(never) };
    }
  }
}

/**
 * The value of every declared variable (undefined for one with no value anywhere), and diagnostics for
 * values that do not convert, flags naming undeclared variables, and unreadable variable files.
 */
export function resolveVariables(declarations: ReadonlyMap<string, VariableDeclaration>, inputs: VariableInputs, diagnostics: Diagnostic[]): Map<string, VariableValue | undefined> {
  const display = inputs.display ?? ((f: string) => f);
  const given = new Map<string, { raw: unknown; source: VariableSource; fromText: boolean; where?: SourcePosition; label: string }>();

  for (const [name, d] of declarations) {
    if (d.default !== undefined) given.set(name, { raw: d.default, source: "default", fromText: false, ...(d.defaultPosition ? { where: d.defaultPosition } : {}), label: `the default of variable "${name}"` });
  }
  const env = inputs.env ?? {};
  for (const name of declarations.keys()) {
    const v = env[`${ENV_PREFIX}${name}`];
    if (v !== undefined) given.set(name, { raw: v, source: "environment", fromText: true, label: `${ENV_PREFIX}${name}` });
  }
  for (const file of inputs.varFiles ?? []) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      diagnostics.push({ severity: "error", code: "variables.file-unreadable", file: display(file), message: `cannot read the variable file ${display(file)}: ${fileProblem(e)}`, hint: "--var-file takes a YAML file of NAME: VALUE, relative to the current directory" });
      continue;
    }
    const parsed = parseYaml(display(file), text);
    for (const item of parsed.diagnostics) diagnostics.push(item);
    if (parsed.value === null || parsed.value === undefined) continue;
    if (typeof parsed.value !== "object" || Array.isArray(parsed.value)) {
      diagnostics.push({ severity: "error", code: "variables.file-shape", file: display(file), line: 1, column: 1, message: "a variable file is a mapping of variable names to values" });
      continue;
    }
    for (const [name, raw] of Object.entries(parsed.value)) {
      const span = parsed.index.root.get(name);
      if (!declarations.has(name)) {
        diagnostics.push({
          severity: "warning",
          code: "variables.undeclared",
          file: display(file),
          ...(span?.key ? { line: span.key.line, column: span.key.column } : {}),
          message: `no variable "${name}" is declared; the value is ignored`,
          ...hint(didYouMean(name, declarations.keys())),
        });
        continue;
      }
      given.set(name, { raw, source: "file", fromText: false, ...(span ? { where: span.value } : {}), label: `variable "${name}"` });
    }
  }
  for (const [name, raw] of Object.entries(inputs.vars ?? {})) {
    if (!declarations.has(name)) {
      diagnostics.push({ severity: "error", code: "variables.undeclared", message: `--var ${name}: no variable "${name}" is declared`, ...hint(didYouMean(name, declarations.keys()) ?? `declare it under variables: ${name}: { type: string }`) });
      continue;
    }
    given.set(name, { raw, source: "flag", fromText: true, label: `--var ${name}` });
  }

  const values = new Map<string, VariableValue | undefined>();
  for (const [name, d] of declarations) {
    const g = given.get(name);
    if (g === undefined) {
      values.set(name, undefined);
      continue;
    }
    const converted = convertVariable(g.raw, declaredType(d), g.fromText);
    if ("error" in converted) {
      diagnostics.push({
        severity: "error",
        code: "variables.type",
        ...(g.where ? { file: g.where.file, line: g.where.line, column: g.where.column } : {}),
        ...(g.source === "default" || g.source === "file" ? { path: `variables.${name}` } : {}),
        message: `${g.label}: ${converted.error}`,
      });
      // Reported here, once; its uses are skipped rather than reported again as unset.
      values.set(name, { value: new Invalid(`\${var.${name}}`), source: g.source });
      continue;
    }
    values.set(name, { value: d.sensitive ? new Sensitive(converted.value) : converted.value, source: g.source });
  }
  return values;
}

const hint = (h: string | undefined): { hint?: string } => (h ? { hint: h } : {});
