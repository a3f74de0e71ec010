// The service's refusals, typed: HTTP status plus the service's own error body in whichever problem
// style its API family uses, so that the user sees the service's code and message.

import { NetformError } from "../diag/index.js";

export interface ServiceProblem {
  code: string;
  message: string;
  property?: string;
  reason?: string;
}

/** Reads the service's error body: style A (array of {errorCode, errorMessage, additionalInfo}), style B, OAuth, metal. */
export function parseProblems(body: unknown): ServiceProblem[] {
  const entries = Array.isArray(body) ? body : [body];
  const problems: ServiceProblem[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== "object") continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.errorCode === "string") {
      const info = Array.isArray(e.additionalInfo) ? (e.additionalInfo as Array<Record<string, unknown>>) : [];
      const first = info[0];
      problems.push({
        code: e.errorCode,
        message: String(e.errorMessage ?? ""),
        ...(typeof e.property === "string" && e.property ? { property: e.property } : {}),
        ...(first && typeof first.property === "string" ? { property: first.property } : {}),
        ...(first && typeof first.reason === "string" ? { reason: first.reason } : {}),
      });
    } else if (typeof e.error_code === "string") {
      problems.push({ code: e.error_code, message: String(e.developer_message ?? e.error_message ?? "") });
    } else if (Array.isArray(e.errors)) {
      for (const m of e.errors) problems.push({ code: "error", message: String(m) });
    }
  }
  return problems;
}

export class ApiError extends NetformError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly problems: ServiceProblem[];

  constructor(init: { status: number; method: string; path: string; body: unknown }) {
    const problems = parseProblems(init.body);
    const first = problems[0];
    const detail = first
      ? `${first.code}: ${first.message}${first.property ? ` (${first.property}${first.reason && first.reason !== first.message ? `: ${first.reason}` : ""})` : ""}`
      : `HTTP ${init.status}`;
    // A service that fails (5xx, after the client's retries of what is safe to repeat) is the service's
    // trouble, not the configuration's and not a defect in netform: said as such, with what to do.
    const failed = init.status >= 500;
    super({
      code: `api.${init.status}`,
      message: failed ? `${init.method} ${init.path} failed: the service answered ${detail}${first ? ` (HTTP ${init.status})` : ""}` : `${init.method} ${init.path} was refused: ${detail}`,
      hint: failed
        ? "the service is failing, not the configuration: run the command again later (what was done is in the state, and nothing is made twice); if it persists, check the service's status"
        : init.status === 401
          ? "check NETFORM_CLIENT_ID and NETFORM_CLIENT_SECRET (or NETFORM_TOKEN)"
          : undefined,
    });
    this.name = "ApiError";
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    this.problems = problems;
  }
}
