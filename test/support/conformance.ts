// Conformance of the simulator to the official API descriptions: every response served during a test
// file is validated against the schema the official description documents for the same path, method
// and status (ajv, over the conformance snapshot of the descriptions, see openapi.ts). Paths the
// descriptions do not cover (the specification is their only source) are counted, not checked.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { Exchange } from "../../src/simulator/index.js";
import { CONFORMANCE_EXCEPTIONS, FORMAT_OVERRIDES, UNDOCUMENTED_STATUS } from "./conformance-exceptions.js";
import { SNAPSHOT_URL, findOperation, loadSnapshot } from "./openapi.js";

export interface Violation {
  exchange: string;
  operation: string;
  errors: string[];
}

// ajv-formats is CommonJS: under NodeNext its default import may be the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv) => Ajv;

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function validator(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  // The descriptions' numeric and free-form formats carry no constraint a JSON value can break.
  for (const f of ["int32", "int64", "float", "double", "byte", "binary", "password", "string", "enum", "ipv4-cidr", "url"]) ajv.addFormat(f, true);
  for (const [format, as] of Object.entries(FORMAT_OVERRIDES)) {
    ajv.addFormat(format, fullFormats[as as keyof typeof fullFormats]);
  }
  ajv.addSchema({ ...loadSnapshot(), $id: SNAPSHOT_URL.href }, SNAPSHOT_URL.href);
  return ajv;
}

function compiled(operation: number, status: string): ValidateFunction {
  const ref = `${SNAPSHOT_URL.href}#/operations/${operation}/responses/${status}`;
  const known = validators.get(ref);
  if (known) return known;
  const v = validator().compile({ $ref: ref });
  validators.set(ref, v);
  return v;
}

const patternCache = new Map<string, RegExp>();
// In a pattern, "*" stands for one segment: an array index such as the 3 of "/data/3/state".
function pathMatches(pattern: string, instancePath: string): boolean {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]+")}`);
    patternCache.set(pattern, re);
  }
  return re.test(instancePath);
}

type Waivable = Pick<ErrorObject, "instancePath" | "keyword"> & { params?: ErrorObject["params"] };

function waived(operation: string, status: string, error: Waivable): boolean {
  return CONFORMANCE_EXCEPTIONS.some(
    (x) =>
      (x.operation === "*" || x.operation === operation) &&
      (x.status === "*" || x.status === status) &&
      pathMatches(x.instancePath, error.instancePath) &&
      (x.keyword === undefined || x.keyword === error.keyword) &&
      (x.missingProperty === undefined || (error.params as { missingProperty?: string } | undefined)?.missingProperty === x.missingProperty),
  );
}

/** Checks one exchange; returns its violation, or undefined when it conforms or is not covered. */
export function checkExchange(e: Exchange): Violation | undefined {
  const op = findOperation(e.method, e.path);
  if (!op) return undefined;
  const status = String(e.status);
  const operation = `${op.method} ${op.template}`;
  const label = `${e.method} ${e.path} -> ${status}`;
  if (!(status in op.responses) && !("default" in op.responses)) {
    // A status the description does not list for this operation: only error statuses may be added
    // (401, 404, 405, 415, 429, 5xx occur on every real endpoint); a success status must be documented.
    if (e.status >= 400 || waived(operation, status, { instancePath: "", keyword: UNDOCUMENTED_STATUS })) return undefined;
    return { exchange: label, operation, errors: [`success status ${status} is not documented (documented: ${Object.keys(op.responses).join(", ")})`] };
  }
  const documented = status in op.responses ? status : "default";
  if (!op.responses[documented]) return undefined;
  if (!e.contentType.includes("json")) {
    return { exchange: label, operation, errors: [`documented as JSON, served as ${e.contentType || "no content type"}`] };
  }
  let body: unknown;
  try {
    body = JSON.parse(e.body);
  } catch {
    return { exchange: label, operation, errors: ["the body is not valid JSON"] };
  }
  const validate = compiled(op.index, documented);
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).filter((err) => !waived(operation, status, err));
  if (errors.length === 0) return undefined;
  return {
    exchange: label,
    operation,
    errors: errors.slice(0, 8).map((err) => `${err.instancePath || "(root)"} ${err.message ?? err.keyword}${err.params ? ` ${JSON.stringify(err.params)}` : ""}`),
  };
}

/** Records a test file's exchanges and checks them all at the end. */
export function conformanceRecorder() {
  const exchanges: Exchange[] = [];
  return {
    internalErrors: [] as unknown[],
    record: (e: Exchange) => void exchanges.push(e),
    violations(): Violation[] {
      return exchanges.map(checkExchange).filter((v): v is Violation => v !== undefined);
    },
    assertConforms(): void {
      const found = this.violations();
      if (found.length === 0) return;
      const shown = found.slice(0, 15).map((v) => `${v.exchange} [${v.operation}]\n    ${v.errors.join("\n    ")}`);
      throw new Error(`${found.length} responses do not match the official API description:\n${shown.join("\n")}`);
    },
  };
}
