// Typed errors. A user error (bad input, a refused request, a held lock) is shown as one clear message
// with what to do and never with a stack trace; an internal error is a defect in netform and shows its
// stack with --debug.

export type ErrorSource = "user" | "internal";

export interface NetformErrorInit {
  code: string;
  message: string;
  source?: ErrorSource;
  /** What the user can do about it. */
  hint?: string;
  cause?: unknown;
}

export class NetformError extends Error {
  readonly code: string;
  readonly source: ErrorSource;
  readonly hint: string | undefined;

  constructor(init: NetformErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "NetformError";
    this.code = init.code;
    this.source = init.source ?? "user";
    this.hint = init.hint;
  }
}

export const isUserError = (e: unknown): e is NetformError => e instanceof NetformError && e.source === "user";
