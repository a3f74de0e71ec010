// The `outputs:` section: named values a pipeline reads after apply (`netform output NAME`), such as the
// uuid of a connection the next job configures. An output is written in full, `{ value, description?,
// sensitive? }`, or, when it is not a mapping, as the value alone (`name: "${connections.x.uuid}"`): a
// mapping is always the full form, so the two never read alike. An output fed by a secret or a sensitive
// variable must say `sensitive: true`, so that nothing shows it by accident.

import type { Diagnostic } from "../diag/index.js";
import { interpolate, newResult, type InterpolationScope } from "./interpolate.js";
import { isPlainObject } from "./json.js";
import type { PositionIndex, SourcePosition } from "./positions.js";
import { didYouMean } from "../diag/suggest.js";
import { placeDiagnostic } from "./validate.js";
import type { Reference } from "./values.js";

export const OUTPUTS_SECTION = "outputs";

export interface ConfigOutput {
  name: string;
  /** Plain data, Reference, Template or Sensitive, as in a resource's spec. */
  value: unknown;
  description?: string;
  sensitive: boolean;
  references: Reference[];
  position?: SourcePosition;
}

/** One file's `outputs:` mapping, with positions relative to it. */
export interface RawOutputs {
  value: unknown;
  positions: PositionIndex;
  position?: SourcePosition;
}

const FIELDS = ["value", "description", "sensitive"];
/** What a shell or a pipeline's variable syntax takes, plus "-" as resource names allow. */
export const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The outputs of every file, interpolated and checked; a name declared twice is an error naming both places. */
export function buildOutputs(raws: readonly RawOutputs[], scope: InterpolationScope, diagnostics: Diagnostic[]): Map<string, ConfigOutput> {
  const outputs = new Map<string, ConfigOutput>();
  for (const raw of raws) {
    if (raw.value === null) continue;
    const loc = { address: OUTPUTS_SECTION, positions: raw.positions };
    const report = (path: (string | number)[], code: string, message: string, hint?: string, atKey = false) => diagnostics.push(placeDiagnostic(loc, { path, code, message, hint, atKey }));
    if (!isPlainObject(raw.value)) {
      diagnostics.push({ severity: "error", code: "config.shape", address: OUTPUTS_SECTION, ...(raw.position ? { file: raw.position.file, line: raw.position.line, column: raw.position.column } : {}), message: "outputs is a mapping of output names to { value, description, sensitive }", hint: 'e.g. outputs: { dc-link-uuid: { value: "${connections.dc-link.uuid}" } }' });
      continue;
    }
    for (const [name, body] of Object.entries(raw.value)) {
      const position = raw.positions.get(name)?.key;
      if (!OUTPUT_NAME.test(name)) {
        report([name], "outputs.name", `output name "${name}" must be letters, digits, "-" and "_", starting with a letter or "_"`, undefined, true);
        continue;
      }
      const first = outputs.get(name);
      if (first) {
        const there = first.position ? `${first.position.file}:${first.position.line}:${first.position.column}` : "another file";
        report([name], "config.duplicate", `outputs.${name} is declared twice: first at ${there}`, "keep one declaration, in one of the files", true);
        continue;
      }
      const full = isPlainObject(body);
      if (full) {
        let known = true;
        for (const key of Object.keys(body)) {
          if (!FIELDS.includes(key)) {
            report([name, key], "schema.unknown-field", `unknown field "${key}"`, didYouMean(key, FIELDS) ?? "an output is { value, description, sensitive }; a mapping as the value itself goes under value:", true);
            known = false;
          }
        }
        if (!("value" in body)) {
          report([name], "outputs.value", `output ${name} has no value`, 'write value: "${KIND.NAME.ATTRIBUTE}", a variable, or a literal', true);
          known = false;
        }
        if (body.description !== undefined && typeof body.description !== "string") {
          report([name, "description"], "schema.invalid-type", "description is a string");
          known = false;
        }
        if (body.sensitive !== undefined && typeof body.sensitive !== "boolean") {
          report([name, "sensitive"], "schema.invalid-type", "sensitive is true or false");
          known = false;
        }
        if (!known) continue;
      }
      const at: (string | number)[] = full ? [name, "value"] : [name];
      const out = newResult();
      const value = interpolate(full ? body.value : body, at, scope, out);
      for (const p of out.problems) diagnostics.push(placeDiagnostic(loc, p));
      const sensitive = full && body.sensitive === true;
      if (out.sensitive.size > 0 && !sensitive) {
        report(at, "outputs.sensitive", `output ${name} shows a secret or a sensitive variable`, full ? "add sensitive: true to this output" : `write it in full: ${name}: { value: ..., sensitive: true }`);
      }
      outputs.set(name, {
        name,
        value,
        ...(full && typeof body.description === "string" ? { description: body.description } : {}),
        sensitive,
        references: out.references,
        ...(position ? { position } : {}),
      });
    }
  }
  return outputs;
}
