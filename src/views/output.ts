// The one place that writes to the terminal. Everything netform shows goes through an Output, which
// knows whether colour is wanted (terminal, --no-color, NO_COLOR, FORCE_COLOR) and where each stream goes.

import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

export interface OutputOptions {
  color?: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Colour follows the terminal unless NO_COLOR (any value) or --no-color turns it off. */
export function colorWanted(stream: { isTTY?: boolean }, flag: boolean | undefined, env = process.env): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY);
}

export class Output {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly c: Colors;
  readonly color: boolean;

  constructor(options: OutputOptions = {}) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.color = colorWanted(this.stdout, options.color);
    this.c = pc.createColors(this.color);
  }

  /** Writes lines to standard output. */
  out(text: string): void {
    this.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Writes lines to standard error. */
  err(text: string): void {
    this.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  get interactive(): boolean {
    return Boolean(this.stdout.isTTY);
  }
}
