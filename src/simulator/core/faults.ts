// Fault injection (`POST /__sim/faults`, `--faults`): random server errors, rate limiting with
// Retry-After, added latency, transitions that end in their failed state, and requests carried out whose
// answer is lost (a 502 from a gateway, or a reset connection, after the service acted). Its dice are
// seeded, so a failing run can be replayed.

import { SimError, type ErrorKey } from "./errors.js";
import { Random } from "./random.js";
import type { AfterActedFault, FaultSettings, World } from "./world.js";

const STATUS_KEYS: Record<number, ErrorKey> = {
  429: "tooManyRequests",
  500: "internalError",
  502: "badGateway",
  503: "serviceUnavailable",
  504: "gatewayTimeout",
};

export class Faults {
  private settings: FaultSettings = {};
  private dice = new Random(1);
  private requestCount = 0;
  private afterActedLeft = 0;

  constructor(private readonly world: World) {}

  current(): FaultSettings {
    const { afterActed } = this.settings;
    return {
      ...this.settings,
      ...(afterActed?.count !== undefined ? { afterActed: { ...afterActed, count: this.afterActedLeft } } : {}),
      ...(this.settings.failTransitions ? { failTransitions: { ...this.settings.failTransitions, count: this.world.pendingFailures.get(this.settings.failTransitions.kind) ?? 0 } } : {}),
    };
  }

  configure(settings: FaultSettings): void {
    this.settings = settings;
    this.dice = new Random(settings.seed ?? 1);
    this.requestCount = 0;
    this.afterActedLeft = settings.afterActed?.count ?? 0;
    this.world.pendingFailures.clear();
    if (settings.failTransitions) this.world.pendingFailures.set(settings.failTransitions.kind, settings.failTransitions.count);
  }

  /** Added latency for this request, in ms. */
  latency(): number {
    return this.settings.latencyMs ?? 0;
  }

  /** The error to inject into this request to `path`, if the dice say so. */
  draw(path: string): SimError | undefined {
    this.requestCount++;
    const { rateLimit, errorRate, errorStatuses, errorPath } = this.settings;
    if (errorPath !== undefined && !pathMatches(errorPath, path)) return undefined;
    if (rateLimit && rateLimit.every > 0 && this.requestCount % rateLimit.every === 0) {
      return new SimError("tooManyRequests", [], { "Retry-After": String(rateLimit.retryAfterS) });
    }
    if (errorRate && this.dice.next() < errorRate) {
      const statuses = errorStatuses?.length ? errorStatuses : [500, 503];
      const status = statuses[this.dice.int(0, statuses.length - 1)]!;
      return new SimError(STATUS_KEYS[status] ?? "internalError");
    }
    return undefined;
  }

  /**
   * How to lose the answer to a request the service has just carried out (status below 400), if the
 * settings say this one is hit: 502, or "reset" for a connection closed without an answer.
 */
  lostAnswer(method: string, path: string, status: number): AfterActedFault["answer"] | undefined {
    const fault = this.settings.afterActed;
    if (!fault || status >= 400 || !(fault.methods ?? MUTATING).includes(method) || (fault.path !== undefined && !pathMatches(fault.path, path))) return undefined;
    if (fault.count !== undefined) {
      if (this.afterActedLeft <= 0) return undefined;
      this.afterActedLeft--;
      return fault.answer;
    }
    return this.dice.next() < (fault.rate ?? 1) ? fault.answer : undefined;
  }
}

const MUTATING = ["POST", "PUT", "PATCH", "DELETE"];

/** A path against a pattern whose `*` stands for one segment and a final `**` for any that follow. */
function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const have = path.split("/");
  if (want.at(-1) === "**") return have.length >= want.length - 1 && want.slice(0, -1).every((segment, i) => segment === "*" || segment === have[i]);
  return want.length === have.length && want.every((segment, i) => segment === "*" || segment === have[i]);
}

/** Parses the command-line form `errorRate=0.2,seed=7,rateLimit.every=5,failTransitions.kind=connections`. */
export function parseFaultSpec(spec: string): FaultSettings {
  const out: Record<string, unknown> = {};
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    if (eq < 0) throw new Error(`fault setting "${part}" is not of the form name=value`);
    const path = part.slice(0, eq).split(".");
    const raw = part.slice(eq + 1);
    let value: unknown = raw;
    const name = path.join(".");
    if (name === "errorStatuses") value = raw.split(/[;|]/).map(Number);
    else if (name === "afterActed.methods") value = raw.split(/[;|]/);
    else if (name === "afterActed.path" || name === "errorPath") value = raw;
    else if (/^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
    let target = out;
    for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[path[path.length - 1]!] = value;
  }
  return validateFaults(out);
}

const KNOWN = ["errorRate", "errorStatuses", "errorPath", "rateLimit", "latencyMs", "failTransitions", "afterActed", "seed"];

/** Checks a fault settings object from the control API or the command line. */
export function validateFaults(input: unknown): FaultSettings {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new Error("fault settings must be an object");
  const s = input as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!KNOWN.includes(key)) throw new Error(`unknown fault setting ${key}; known: ${KNOWN.join(", ")}`);
  const num = (v: unknown, name: string, min: number, max = Infinity) => {
    if (v === undefined) return undefined;
    if (typeof v !== "number" || Number.isNaN(v) || v < min || v > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
    return v;
  };
  const out: FaultSettings = {};
  const errorRate = num(s.errorRate, "errorRate", 0, 1);
  if (errorRate !== undefined) out.errorRate = errorRate;
  if (s.errorStatuses !== undefined) {
    if (!Array.isArray(s.errorStatuses) || !s.errorStatuses.every((x) => typeof x === "number" && x in STATUS_KEYS)) {
      throw new Error(`errorStatuses must be a list of ${Object.keys(STATUS_KEYS).join(", ")}`);
    }
    out.errorStatuses = s.errorStatuses as number[];
  }
  if (s.errorPath !== undefined) {
    if (typeof s.errorPath !== "string" || !s.errorPath.startsWith("/")) throw new Error("errorPath must be a path pattern, e.g. /fabric/v4/** or /fabric/v4/connections/*");
    out.errorPath = s.errorPath;
  }
  if (s.rateLimit !== undefined) {
    const r = s.rateLimit as Record<string, unknown>;
    out.rateLimit = { every: num(r.every, "rateLimit.every", 1) ?? 10, retryAfterS: num(r.retryAfterS, "rateLimit.retryAfterS", 0) ?? 1 };
  }
  const latency = num(s.latencyMs, "latencyMs", 0, 60_000);
  if (latency !== undefined) out.latencyMs = latency;
  if (s.failTransitions !== undefined) {
    const f = s.failTransitions as Record<string, unknown>;
    if (typeof f.kind !== "string") throw new Error("failTransitions.kind must name a kind, e.g. connections");
    out.failTransitions = { kind: f.kind, count: num(f.count, "failTransitions.count", 0) ?? 1 };
  }
  if (s.afterActed !== undefined) out.afterActed = validateAfterActed(s.afterActed, num);
  const seed = num(s.seed, "seed", 0);
  if (seed !== undefined) out.seed = seed;
  return out;
}

function validateAfterActed(input: unknown, num: (v: unknown, name: string, min: number, max?: number) => number | undefined): AfterActedFault {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new Error("afterActed must be an object");
  const a = input as Record<string, unknown>;
  const known = ["answer", "count", "rate", "methods", "path"];
  for (const key of Object.keys(a)) if (!known.includes(key)) throw new Error(`unknown setting afterActed.${key}; known: ${known.join(", ")}`);
  if (a.answer !== 502 && a.answer !== "502" && a.answer !== "reset") throw new Error('afterActed.answer must be 502 or "reset"');
  const out: AfterActedFault = { answer: a.answer === "reset" ? "reset" : 502 };
  const count = num(a.count, "afterActed.count", 0);
  if (count !== undefined) out.count = count;
  const rate = num(a.rate, "afterActed.rate", 0, 1);
  if (rate !== undefined) out.rate = rate;
  if (a.methods !== undefined) {
    if (!Array.isArray(a.methods) || !a.methods.every((m) => typeof m === "string" && MUTATING.includes(m.toUpperCase()))) throw new Error(`afterActed.methods must be a list of ${MUTATING.join(", ")}`);
    out.methods = (a.methods as string[]).map((m) => m.toUpperCase());
  }
  if (a.path !== undefined) {
    if (typeof a.path !== "string" || !a.path.startsWith("/")) throw new Error("afterActed.path must be a path such as /fabric/v4/connections/*/routeFilters/*");
    out.path = a.path;
  }
  return out;
}
