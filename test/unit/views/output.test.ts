// The process's own streams get what one turn of the event loop printed as one write, in the order it was
// printed across the two streams; other streams (a capture, a test's) get each piece at once.

import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Output } from "../../../src/views/output.js";

/** Records the writes made to the process's streams instead of printing them. */
function recordProcessWrites(): Array<[string, string]> {
  const writes: Array<[string, string]> = [];
  for (const [name, stream] of [["out", process.stdout], ["err", process.stderr]] as const) {
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push([name, chunk.toString()]);
      return true;
    });
  }
  return writes;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("Output", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes a turn's lines to the process's streams as one write per run of one stream, in order", async () => {
    const writes = recordProcessWrites();
    const output = new Output({ stdout: process.stdout, stderr: process.stderr, color: false });
    output.out("Creating a");
    output.out("Creating b\n");
    expect(writes).toEqual([]);
    output.err("Error: c");
    output.write("out", "d");
    output.out("");
    expect(writes).toEqual([
      ["out", "Creating a\nCreating b\n"],
      ["err", "Error: c\n"],
    ]);
    await nextTurn();
    expect(writes.at(-1)).toEqual(["out", "d\n"]);
    expect(writes).toHaveLength(3);
  });

  it("writes what it holds when asked to, before something else writes to the stream (a prompt)", () => {
    const writes = recordProcessWrites();
    const output = new Output({ stdout: process.stdout, stderr: process.stderr, color: false });
    output.out("Plan: 1 to add");
    output.flush();
    expect(writes).toEqual([["out", "Plan: 1 to add\n"]]);
  });

  it("writes to any other stream at once", () => {
    let text = "";
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    });
    const output = new Output({ stdout: stream, stderr: stream, color: false });
    output.out("a");
    output.write("err", "b");
    expect(text).toBe("a\nb");
  });
});
