// An invocation of netform in memory, for running commands inside a test's process: its standard input
// is the given text (or nothing), and what it writes to its standard streams is kept, as a pipe would
// receive it (no terminal: no colour, no width).

import { PassThrough, Readable, Writable } from "node:stream";
import type { Invocation } from "../../src/cli/program.js";

export interface MemoryInvocation {
  invocation: Invocation;
  stdout(): string;
  stderr(): string;
}

export function memoryInvocation(args: readonly string[], env: NodeJS.ProcessEnv, input?: string): MemoryInvocation {
  const written = { stdout: "", stderr: "" };
  const collector = (stream: keyof typeof written) =>
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, done) {
        written[stream] += chunk.toString();
        done();
      },
    });
  // An input never given is ended at once, as a child's closed standard input is.
  const stdin = input === undefined ? Readable.from([]) : new PassThrough().end(input);
  return {
    invocation: { args, env, stdin, stdout: collector("stdout"), stderr: collector("stderr") },
    stdout: () => written.stdout,
    stderr: () => written.stderr,
  };
}
