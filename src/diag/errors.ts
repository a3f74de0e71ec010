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

/** Why a file could not be read, in words rather than an errno code ("no such file", not ENOENT). */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory, not a file";
    case "ENOTDIR":
      return "a part of the path is not a directory";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

export const isUserError = (e: unknown): e is NetformError => e instanceof NetformError && e.source === "user";
