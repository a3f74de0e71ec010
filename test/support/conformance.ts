// Conformance of the simulator to the official API descriptions: every response served during a test
// file is validated against the schema the official description documents for the same path, method
// and status (ajv, over the conformance snapshot of the descriptions, see openapi.ts). Paths the
// descriptions do not cover (the specification is their only source) are counted, not checked.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { Exchange } from "../../src/simulator/index.js";
import { CONFORMANCE_EXCEPTIONS, FAMILY_ERRORS, FORMAT_OVERRIDES, STATUS_EXCEPTIONS, type StatusException } from "./conformance-exceptions.js";
import { SNAPSHOT_URL, findOperation, findOperationByKey, loadSnapshot, type Operation } from "./openapi.js";

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

/** The validator of the schema at `pointer` (a JSON pointer into the snapshot). */
function compiled(pointer: string): ValidateFunction {
  const known = validators.get(pointer);
  if (known) return known;
  const v = validator().compile({ $ref: `${SNAPSHOT_URL.href}#${pointer}` });
  validators.set(pointer, v);
  return v;
}

const responsePointer = (op: Operation, status: string) => `/operations/${op.index}/responses/${status}`;

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

const operationPatterns = new Map<string, RegExp>();
// In an exception's "METHOD /path/template", "*" stands for any run of characters.
function operationMatches(pattern: string, operation: string): boolean {
  let re = operationPatterns.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    operationPatterns.set(pattern, re);
  }
  return re.test(operation);
}

/** The named exception that lets this operation answer this undocumented status, if any. */
function statusException(operation: string, e: Pick<Exchange, "status" | "injectedFault">): StatusException | undefined {
  return STATUS_EXCEPTIONS.find(
    (x) => x.statuses.includes(e.status) && (!x.injectedFaultOnly || e.injectedFault === true) && x.operations.some((pattern) => operationMatches(pattern, operation)),
  );
}

/** What a response's body must be: valid against the schema at `pointer` in the snapshot, or nothing at all. */
type BodyCheck = { pointer: string } | "empty";

/** How the body of a response that an exception allows is still checked. */
function exceptionBody(exception: StatusException, op: Operation, status: string): BodyCheck | undefined {
  if (exception.body === "empty") return "empty";
  if (exception.body === "family error") {
    const family = FAMILY_ERRORS.find((f) => op.template.startsWith(f.prefix));
    return family && { pointer: `/definitions/${family.schema}` };
  }
  const like = findOperationByKey(exception.body.like);
  return like?.responses[status] ? { pointer: responsePointer(like, status) } : undefined;
}

/** A media type as compared: case and the spaces around parameters do not matter ("application/json; charset=UTF-8"). */
const mediaType = (type: string): string => type.toLowerCase().replace(/\s+/g, "");

/** Checks one exchange; returns its violation, or undefined when it conforms or is not covered. */
export function checkExchange(e: Exchange): Violation | undefined {
  const op = findOperation(e.method, e.path);
  if (!op) return undefined;
  const status = String(e.status);
  const operation = `${op.method} ${op.template}`;
  const label = `${e.method} ${e.path} -> ${status}`;
  const violation = (...errors: string[]): Violation => ({ exchange: label, operation, errors });

  let check: BodyCheck | undefined;
  if (status in op.responses || "default" in op.responses) {
    const documented = status in op.responses ? status : "default";
    if (!op.responses[documented]) return undefined;
    const documentedType = op.mediaTypes?.[documented] ?? "application/json";
    if (mediaType(e.contentType) !== mediaType(documentedType)) return violation(`documented as ${documentedType}, served as ${e.contentType || "no content type"}`);
    check = { pointer: responsePointer(op, documented) };
  } else {
    const exception = statusException(operation, e);
    if (!exception) {
      return violation(`status ${status} is not documented (documented: ${Object.keys(op.responses).join(", ")}), and no exception in conformance-exceptions.ts allows it`);
    }
    check = exceptionBody(exception, op, status);
    if (check === undefined) return violation(`exception "${exception.name}" names no schema for status ${status}`);
  }
  if (check === "empty") return e.body === "" ? undefined : violation(`no body expected, served ${e.body.length} characters`);

  if (!e.contentType.includes("json")) return violation(`documented as JSON, served as ${e.contentType || "no content type"}`);
  let body: unknown;
  try {
    body = JSON.parse(e.body);
  } catch {
    return violation("the body is not valid JSON");
  }
  const validate = compiled(check.pointer);
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).filter((err) => !waived(operation, status, err));
  if (errors.length === 0) return undefined;
  return violation(...errors.slice(0, 8).map((err) => `${err.instancePath || "(root)"} ${err.message ?? err.keyword}${err.params ? ` ${JSON.stringify(err.params)}` : ""}`));
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
      // One line per operation and problem: a problem a test meets many times is still one problem to fix.
      const distinct = new Map<string, Violation>();
      for (const v of found) distinct.set(`${v.operation}\u0000${v.errors.join("\n")}`, distinct.get(`${v.operation}\u0000${v.errors.join("\n")}`) ?? v);
      const shown = [...distinct.values()].slice(0, 15).map((v) => `${v.exchange} [${v.operation}]\n    ${v.errors.join("\n    ")}`);
      throw new Error(`${found.length} responses (${distinct.size} distinct problems) do not match the official API description:\n${shown.join("\n")}`);
    },
  };
}
