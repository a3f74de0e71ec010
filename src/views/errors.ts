// How an error reaches the user: a user error as its message and hint, an internal one with the
// stack when --debug is on.

import { NetformError, isUserError } from "../diag/index.js";
import type { Output } from "./output.js";

export function renderError(output: Output, error: unknown, debug: boolean): void {
  const { c } = output;
  if (isUserError(error)) {
    output.err(`${c.red(c.bold("Error:"))} ${error.message}`);
    if (error.hint) output.err(`  ${c.dim(error.hint)}`);
    if (debug && error.stack) output.err(c.dim(error.stack));
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.err(`${c.red(c.bold("Internal error:"))} ${message}`);
  if (debug) output.err(c.dim(error instanceof Error && error.stack ? error.stack : String(error)));
  else output.err(c.dim("This is a defect in netform. Run again with --debug for the stack trace, and report it."));
  if (error instanceof NetformError && error.hint) output.err(`  ${c.dim(error.hint)}`);
}
