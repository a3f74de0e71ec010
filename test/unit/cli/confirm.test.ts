// The approval prompt at the readline level: only "yes" approves; any other answer, Ctrl-C typed at a
// terminal and the end of input (Ctrl-D) decline it, leaving the prompt's line ended. (SIGINT and
// SIGTERM sent to the process at the prompt are tested end to end, in test/e2e/signals.test.ts.)

import { PassThrough, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Interrupts } from "../../../src/cli/interrupts.js";
import { confirm } from "../../../src/cli/run-command.js";
import { Output } from "../../../src/views/output.js";

function screen(tty: boolean): { output: Output; text: () => string } {
  let text = "";
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    }),
    { isTTY: tty, columns: 80 },
  );
  return { output: new Output({ stdout: stream, stderr: stream, color: false }), text: () => text };
}

describe("confirm", () => {
  let interrupts: Interrupts;
  beforeEach(() => {
    interrupts = Interrupts.install(() => {});
  });
  afterEach(() => {
    interrupts.uninstall();
  });

  it("approves on 'yes' only", async () => {
    for (const [answer, approved] of [["yes\n", true], ["  yes \n", true], ["no\n", false], ["y\n", false], ["\n", false]] as const) {
      const { output, text } = screen(false);
      const input = new PassThrough();
      const asked = confirm(output, "Do you want to perform these actions?", input, interrupts);
      input.end(answer);
      expect(await asked, JSON.stringify(answer)).toBe(approved);
      expect(text()).toContain("Do you want to perform these actions?\n  Only 'yes' will be accepted to approve.");
    }
  });

  it("declines at the end of input (Ctrl-D), ending the prompt's line", async () => {
    const { output, text } = screen(false);
    const input = new PassThrough();
    const asked = confirm(output, "Do you want to perform these actions?", input, interrupts);
    input.end();
    expect(await asked).toBe(false);
    expect(text()).toMatch(/Enter a value: \r?\n$/);
  });

  it("declines on Ctrl-C typed at a terminal, which reaches it as a key rather than a signal", async () => {
    const { output, text } = screen(true);
    const input = new PassThrough();
    const asked = confirm(output, "Do you really want to destroy all these resources?", input, interrupts);
    input.write("ye\u0003");
    expect(await asked).toBe(false);
    expect(text()).toMatch(/ye\r?\n$/);
    expect(interrupts.signal.aborted, "declining is not interrupting the run").toBe(false);
  });
});
