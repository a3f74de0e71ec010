// The one place that writes to the terminal. Everything netform shows goes through an Output, which
// knows whether colour is wanted (terminal, --no-color, NO_COLOR, FORCE_COLOR) and where each stream goes.
//
// A reader that closes the pipe early (`netform plan | head -1`) is not an error: the rest of the output
// is dropped and the command carries on, instead of crashing on an unhandled EPIPE (EIO for a terminal
// that was closed: SIGHUP stops the run safely, and what it says on the way out goes nowhere). That includes an
// apply: it keeps applying, silently. Stopping it like an interrupt would leave the approved plan half
// done (dependents missing until another run) for no reason — Ctrl-C on a pipeline reaches netform as its
// own SIGINT, so a closed pipe alone only means the reader stopped reading. The exit code still reports
// how the work went.
//
// What is written to the process's own streams in one turn of the event loop goes out as one write at its
// end (a wave of answers prints hundreds of lines: one system call each cost an apply of 10,000 resources
// about half a second). Text for the other stream first sends what is held, so the two keep their order
// when they are one terminal or one file (2>&1); what is held when the process exits is written then.

import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

export interface OutputOptions {
  color?: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** The environment NO_COLOR and FORCE_COLOR are read from; the process's by default. */
  env?: NodeJS.ProcessEnv;
}

/** Colour follows the terminal unless NO_COLOR (any value) or --no-color turns it off. */
export function colorWanted(stream: { isTTY?: boolean }, flag: boolean | undefined, env = process.env): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY);
}

/** The process's standard streams whose reader has gone. */
const readerGone = new WeakSet<object>();
let watchingReaders = false;

function dropOutputWhenReaderGoes(): void {
  if (watchingReaders) return;
  watchingReaders = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "EIO") throw error;
      readerGone.add(stream);
    });
  }
  // A run that ends at once (a second Ctrl-C) still writes what it held, as it would have written its last line.
  process.on("exit", release);
}

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

/** Text for one of the process's streams, held until the end of this turn of the event loop. */
let held: { stream: Stream; text: string } | undefined;

function hold(stream: Stream, text: string): void {
  if (held?.stream === stream) {
    held.text += text;
    return;
  }
  release();
  held = { stream, text };
  setImmediate(release);
}

function release(): void {
  const what = held;
  held = undefined;
  if (what && !readerGone.has(what.stream)) what.stream.write(what.text);
}

const isProcessStream = (stream: Stream): boolean => stream === process.stdout || stream === process.stderr;

export class Output {
  readonly stdout: Stream;
  readonly stderr: Stream;
  readonly c: Colors;
  readonly color: boolean;

  constructor(options: OutputOptions = {}) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    dropOutputWhenReaderGoes();
    this.color = colorWanted(this.stdout, options.color, options.env);
    this.c = pc.createColors(this.color);
  }

  /** Writes lines to standard output. */
  out(text: string): void {
    this.write("out", text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Writes lines to standard error. */
  err(text: string): void {
    this.write("err", text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Writes `text` as it is: the process's streams get it at the end of this turn of the event loop, others at once. */
  write(to: "out" | "err", text: string): void {
    const stream = to === "out" ? this.stdout : this.stderr;
    if (isProcessStream(stream)) hold(stream, text);
    else if (!readerGone.has(stream)) stream.write(text);
  }

  /** Writes what is held now: before something else writes to the stream itself (a prompt). */
  flush(): void {
    release();
  }

  get interactive(): boolean {
    return Boolean(this.stdout.isTTY);
  }
}
