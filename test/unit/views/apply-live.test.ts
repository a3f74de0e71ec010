// The live terminal view, driven through a fake terminal: a stream with isTTY and columns whose writes a
// small emulator applies (text, newlines, carriage returns, cursor up, erase to the end of the screen), so
// the tests can look at what a person would see on the screen mid-run and at the end. The clock and the
// frame timer are the test's: no real time passes.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { EngineEvent, StepKind } from "../../../src/engine/events.js";
import type { Action, ResourceChange } from "../../../src/plan/types.js";
import { ApplyLiveView, FRAME_INTERVAL_MS } from "../../../src/views/apply-live.js";
import { ApplyTextView, interruptNotice } from "../../../src/views/apply-text.js";
import { cells } from "../../../src/views/cells.js";
import { Output } from "../../../src/views/output.js";
import { progressView } from "../../../src/views/progress.js";
import { ANSI } from "./golden.js";
import { USUAL_REASON } from "./plans.js";

const ESC = String.fromCharCode(27);
const CSI = new RegExp(`^${ESC}\\[(\\d*)([A-Za-z])`);

/** Applies what is written to a screen of lines. Only the sequences the views use are understood. */
class Terminal {
  readonly screen: string[] = [""];
  readonly writes: string[] = [];
  private row = 0;
  private col = 0;

  write(text: string): void {
    this.writes.push(text);
    let rest = text;
    while (rest.length > 0) {
      const csi = CSI.exec(rest);
      if (csi) {
        const [whole, n = "", command] = csi;
        if (command === "A") this.row = Math.max(0, this.row - Number(n || "1"));
        else if (command === "J") {
          this.screen.length = this.row + 1;
          this.screen[this.row] = (this.screen[this.row] ?? "").slice(0, this.col);
        } else if (command !== "m") throw new Error(`unexpected control sequence ${JSON.stringify(whole)}`);
        rest = rest.slice(whole.length);
        continue;
      }
      const ch = rest[0]!;
      rest = rest.slice(1);
      if (ch === "\n") {
        this.row++;
        this.col = 0;
        this.screen[this.row] ??= "";
      } else if (ch === "\r") this.col = 0;
      else {
        const line = (this.screen[this.row] ?? "").padEnd(this.col);
        this.screen[this.row] = line.slice(0, this.col) + ch + line.slice(this.col + 1);
        this.col++;
      }
    }
  }

  /** The screen without colour, without the empty line the cursor sits on after a final newline. */
  lines(): string[] {
    const plain = this.screen.map((l) => l.replace(new RegExp(`${ESC}\\[\\d*m`, "g"), ""));
    return plain[plain.length - 1] === "" ? plain.slice(0, -1) : plain;
  }
}

interface Harness {
  terminal: Terminal;
  stdoutWrites: string[];
  output: Output;
  clock: { t: number };
  tick(ms?: number): void;
  stopped: () => boolean;
  options: { now: () => number; ticker: (tick: () => void, ms: number) => () => void };
}

/** A terminal both streams write to, like a real one; `tty: false` makes stdout a pipe instead. */
function harness(tty = true, columns = 80): Harness {
  const terminal = new Terminal();
  const stdoutWrites: string[] = [];
  const fake = (isStdout: boolean) =>
    ({
      isTTY: tty,
      columns,
      write(chunk: string | Uint8Array): boolean {
        const text = chunk.toString();
        if (isStdout) stdoutWrites.push(text);
        terminal.write(text);
        return true;
      },
    }) as unknown as NodeJS.WritableStream & { isTTY: boolean };
  const output = new Output({ stdout: fake(true), stderr: fake(false) });
  const clock = { t: 1_000_000 };
  let tickFn: (() => void) | undefined;
  let started = 0;
  let stops = 0;
  const h: Harness = {
    terminal,
    stdoutWrites,
    output,
    clock,
    tick(ms = FRAME_INTERVAL_MS) {
      clock.t += ms;
      tickFn?.();
    },
    stopped: () => started > 0 && stops === started,
    options: {
      now: () => clock.t,
      ticker: (tick, ms) => {
        expect(ms).toBeGreaterThanOrEqual(100);
        tickFn = tick;
        started++;
        return () => {
          stops++;
          tickFn = undefined;
        };
      },
    },
  };
  return h;
}

const planned = (address: string, action: Action, fields: Partial<ResourceChange> = {}): EngineEvent => ({
  type: "planned_change",
  change: { address, kind: address.split(".")[0] ?? "", action, reasonCode: USUAL_REASON[action], changes: [], unknown: [], sensitive: [], dependencies: [], ...fields },
});
const start = (address: string, action: Action, step: StepKind): EngineEvent => ({ type: "apply_start", address, action, step });
const progress = (address: string, action: Action, step: StepKind, elapsedMs: number, state?: string): EngineEvent => ({ type: "apply_progress", address, action, step, elapsedMs, ...(state ? { state } : {}) });
const done = (address: string, action: Action, step: StepKind, elapsedMs: number, id?: string): EngineEvent => ({ type: "apply_complete", address, action, step, elapsedMs, ...(id ? { id } : {}) });

/** A run, as [event, milliseconds that pass before it] pairs; the view gets a frame every 100 ms between. */
const script: [EngineEvent, number][] = [
  [{ type: "refresh_start", resources: 3 }, 0],
  [{ type: "refresh_complete", resources: 3, requests: 4 }, 0],
  [planned("connections.dc", "create"), 0],
  [planned("routeFilters.y", "update", { id: "rf-y" }), 0],
  [planned("routingProtocols.dc", "create"), 0],
  [start("connections.dc", "create", "create"), 0],
  [start("routeFilters.y", "update", "update"), 0],
  [progress("connections.dc", "create", "create", 2_000, "PROVISIONING"), 2_000],
  [done("routeFilters.y", "update", "update", 3_200), 1_200],
  [progress("connections.dc", "create", "create", 40_000, "PROVISIONING"), 36_800],
  [done("connections.dc", "create", "create", 52_700, "conn-dc"), 12_700],
  [start("routingProtocols.dc", "create", "create"), 0],
  [{ type: "apply_errored", address: "routingProtocols.dc", action: "create", step: "create", elapsedMs: 4_000, message: "BGP session refused\npeer 192.0.2.1 unreachable", code: "EQ-1" }, 4_000],
  [{ type: "change_summary", operation: "apply", summary: { add: 2, change: 1, replace: 0, destroy: 0, import: 0 }, failed: 1, skipped: 0, interrupted: 0 }, 0],
];

/** Feeds the script, advancing the clock frame by frame as the engine's time passes. */
function play(h: Harness, view: { handle(e: EngineEvent): void }, events = script): void {
  for (const [event, after] of events) {
    for (let waited = 0; waited + FRAME_INTERVAL_MS <= after; waited += FRAME_INTERVAL_MS) h.tick();
    h.clock.t += after % FRAME_INTERVAL_MS;
    view.handle(event);
  }
}

/** What the line view prints for the same run, less the start and "Still ..." lines the region replaces. */
function lineViewText(): string[] {
  const h = harness(true);
  const view = new ApplyTextView(h.output, { timestamps: false });
  for (const [event] of script) if (event.type !== "apply_start" && event.type !== "apply_progress") view.handle(event);
  return h.terminal.lines();
}

describe("ApplyLiveView", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("leaves the line view's permanent lines and the summary, with the live region erased at the end", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    play(h, new ApplyLiveView(h.output, h.options));
    expect(h.terminal.lines()).toEqual([
      "Refreshing state... (3 resources)",
      "routeFilters.y: Modifications complete after 3s [id=rf-y]",
      "connections.dc: Creation complete after 52s [id=conn-dc]",
      "routingProtocols.dc: Error: BGP session refused (EQ-1)",
      "  peer 192.0.2.1 unreachable",
      "",
      "Apply failed: 1 error, 0 skipped. Resources: 2 added, 1 changed, 0 replaced, 0 destroyed.",
    ]);
    expect(h.terminal.lines()).toEqual(lineViewText());
    expect(h.stopped()).toBe(true);
    expect(h.terminal.lines().join("\n")).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });

  it("shows the running steps below the permanent lines, their time ticking and the state last seen", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    play(h, view, script.slice(0, 10));
    h.tick(2_000);
    expect(h.terminal.lines()).toEqual(["Refreshing state... (3 resources)", "routeFilters.y: Modifications complete after 3s [id=rf-y]", "1/3 done", "⠋ connections.dc  creating  42s  PROVISIONING"]);
    view.handle(start("routingProtocols.dc", "create", "create"));
    h.tick(1_000);
    expect(h.terminal.lines().slice(2)).toEqual(["1/3 done", "⠋ connections.dc       creating  43s  PROVISIONING", "⠋ routingProtocols.dc  creating   1s"]);
    h.tick();
    expect(h.terminal.lines()[3]).toMatch(/^⠙ connections\.dc/);
  });

  it("redraws only on its timer: a burst of events costs one write to the terminal", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    for (let i = 0; i < 20; i++) view.handle(start(`connections.c${i}`, "create", "create"));
    for (let i = 0; i < 20; i++) view.handle(done(`connections.c${i}`, "create", "create", 1_000));
    expect(h.stdoutWrites).toEqual([]);
    h.tick();
    expect(h.stdoutWrites).toHaveLength(1);
    expect(h.terminal.lines()).toHaveLength(20);
    h.tick();
    h.tick();
    expect(h.stdoutWrites).toHaveLength(1);
  });

  it("cuts rows to the terminal's width and lists at most ten running steps", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness(true, 30);
    const view = new ApplyLiveView(h.output, h.options);
    for (let i = 0; i < 12; i++) view.handle(start(`connections.a-rather-long-name-${i}`, "create", "create"));
    h.tick();
    const rows = h.terminal.lines();
    expect(rows).toHaveLength(10);
    for (const r of rows) expect([...r].length).toBeLessThan(30);
    expect(rows[9]).toBe("  ... and 3 more running");
    view.close();
    expect(h.terminal.lines()).toEqual([]);
  });

  it("on a 40-column terminal keeps the overall progress, each step's elapsed time and its state in view, in display cells", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness(true, 40);
    const view = new ApplyLiveView(h.output, h.options);
    const planned40: EngineEvent[] = [
      { ...planned("connections.dc-primary-to-secondary-backup", "create"), remainingSeconds: 600 } as EngineEvent,
      { ...planned("devices.東京-エッジ-primary", "create"), remainingSeconds: 900 } as EngineEvent,
      { ...planned("routeFilters.x", "create"), remainingSeconds: 60 } as EngineEvent,
    ];
    for (const e of planned40) view.handle(e);
    view.handle(start("connections.dc-primary-to-secondary-backup", "create", "create"));
    view.handle(start("devices.東京-エッジ-primary", "create", "create"));
    view.handle(start("routeFilters.x", "create", "create"));
    // Its state from the first look on: the create's answer.
    view.handle(progress("devices.東京-エッジ-primary", "create", "create", 0, "WAITING_FOR_PRIMARY"));
    h.tick(1_000);
    view.handle(done("routeFilters.x", "create", "create", 1_000, "rf-x"));
    view.handle(progress("connections.dc-primary-to-secondary-backup", "create", "create", 120_000, "PROVISIONING"));
    h.tick(180_000);
    const region = h.terminal.lines().slice(-3);
    // The verbs gave way, then the addresses (cut in the middle): elapsed times and states are whole.
    expect(region).toEqual(["1/3 done, about 12 min left", "⠋ conne…ckup  5m0s  PROVISIONING", "⠋ devic…mary  3m1s  WAITING_FOR_PRIMARY"]);
    for (const row of region) expect(cells(row)).toBeLessThanOrEqual(39);
    view.close();
    expect(h.terminal.lines().slice(-1)).toEqual(["routeFilters.x: Creation complete after 1s [id=rf-x]"]);
  });

  it("does not bring back a finished step for a poll reported after it ended", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    view.handle(start("connections.dc", "create", "create"));
    view.handle(done("connections.dc", "create", "create", 5_000, "conn-dc"));
    view.handle(progress("connections.dc", "create", "create", 5_000, "PROVISIONED"));
    h.tick();
    expect(h.terminal.lines()).toEqual(["connections.dc: Creation complete after 5s [id=conn-dc]"]);
  });

  it("close() erases the region and stops the timer when the run ends without a summary", () => {
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    view.handle(start("connections.dc", "create", "create"));
    h.tick();
    expect(h.terminal.lines()).toHaveLength(1);
    view.close();
    view.close();
    expect(h.terminal.lines()).toEqual([]);
    expect(h.stopped()).toBe(true);
  });

  it("above() prints other output with the region out of the way", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    view.handle(start("connections.dc", "create", "create"));
    h.tick();
    view.above(() => h.output.err("warning: something"));
    expect(h.terminal.lines()).toEqual(["warning: something", "⠙ connections.dc  creating  0s"]);
  });

  it("shows an interrupt's notice at once, above the running steps, and keeps it there to the end", () => {
    vi.stubEnv("NO_COLOR", "1");
    const h = harness();
    const view = new ApplyLiveView(h.output, h.options);
    view.handle(start("connections.dc", "create", "create"));
    h.tick();
    view.handle({ type: "interrupted", signal: "SIGINT" });
    const notice = interruptNotice("SIGINT");
    expect(h.terminal.lines()).toEqual([...notice, "⠙ connections.dc  creating  0s"]);
    h.tick();
    h.tick();
    expect(h.terminal.lines().slice(0, 2)).toEqual(notice);
    view.handle({ type: "apply_interrupted", address: "connections.dc", action: "create", step: "create", elapsedMs: 300, id: "conn-dc" });
    view.handle({ type: "change_summary", operation: "apply", summary: { add: 0, change: 0, replace: 0, destroy: 0, import: 0 }, failed: 0, skipped: 0, interrupted: 1 });
    expect(h.terminal.lines()).toEqual([
      ...notice,
      "connections.dc: Interrupted after 0s [id=conn-dc]; the next run picks it up",
      "",
      "Apply interrupted: 1 step not finished. Resources: 0 added, 0 changed, 0 replaced, 0 destroyed. Run apply again to finish.",
    ]);
  });

  it("colours unless NO_COLOR, and redraws on a terminal either way", () => {
    vi.stubEnv("FORCE_COLOR", undefined);
    vi.stubEnv("NO_COLOR", undefined);
    const coloured = harness();
    play(coloured, new ApplyLiveView(coloured.output, coloured.options));
    expect(coloured.stdoutWrites.join("")).toMatch(new RegExp(`${ESC}\\[\\d+m`));

    vi.stubEnv("NO_COLOR", "1");
    const plain = harness();
    play(plain, new ApplyLiveView(plain.output, plain.options));
    const written = plain.stdoutWrites.join("");
    expect(written).not.toMatch(new RegExp(`${ESC}\\[\\d*m`));
    expect(written).toMatch(new RegExp(`${ESC}\\[\\d+A`));
    expect(written).toContain(`${ESC}[0J`);
  });
});

describe("progressView", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is live on a terminal", () => {
    const h = harness(true);
    const view = progressView(h.output, h.options);
    expect(view).toBeInstanceOf(ApplyLiveView);
    view.close();
  });

  it("writes timestamped lines and no control codes at all off a terminal", () => {
    vi.stubEnv("FORCE_COLOR", undefined);
    vi.stubEnv("NO_COLOR", undefined);
    const h = harness(false);
    const view = progressView(h.output, h.options);
    expect(view).toBeInstanceOf(ApplyTextView);
    play(h, view);
    view.above(() => h.output.err("note"));
    view.close();
    const all = h.terminal.writes.join("");
    expect(all).not.toMatch(ANSI);
    expect(all).not.toContain(ESC);
    expect(h.terminal.lines()[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ Refreshing state\.\.\. \(3 resources\)$/);
    expect(all).toContain("connections.dc: Still creating... [40s elapsed, state PROVISIONING]");
  });
});

describe("display cells", () => {
  const cases: Array<[string, number]> = [
    ["connections.dc", 14],
    ["devices.東京", 12],
    ["e\u0301", 1],
    ["🚀x", 3],
  ];
  for (const [text, width] of cases) it(`${JSON.stringify(text)} takes ${width} cells`, () => expect(cells(text)).toBe(width));
});
