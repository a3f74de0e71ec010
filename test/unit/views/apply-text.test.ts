// Golden tests of the apply progress view: event sequences as the engine emits them, rendered to one
// transcript in which standard-error lines are marked "stderr| ", so the order of the two streams shows.

import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EngineEvent, StepKind } from "../../../src/engine/events.js";
import { summarize, type Action, type ResourceChange } from "../../../src/plan/types.js";
import { ApplyTextView, formatDuration } from "../../../src/views/apply-text.js";
import { Output } from "../../../src/views/output.js";
import { ANSI, expectGolden } from "./golden.js";
import { USUAL_REASON } from "./plans.js";

interface Transcript {
  output: Output;
  lines: string[];
}

function transcript(tty = false): Transcript {
  const lines: string[] = [];
  const stream = (prefix: string) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, callback) {
          for (const line of chunk.toString().split("\n").slice(0, -1)) lines.push(`${prefix}${line}`);
          callback();
        },
      }),
      { isTTY: tty },
    );
  return { output: new Output({ stdout: stream(""), stderr: stream("stderr| ") }), lines };
}

function run(events: EngineEvent[], options: { timestamps: boolean; now?: () => number } = { timestamps: false }, tty = false): string {
  const t = transcript(tty);
  const view = new ApplyTextView(t.output, options);
  for (const e of events) view.handle(e);
  return `${t.lines.join("\n")}\n`;
}

function planned(address: string, action: Action, fields: Partial<ResourceChange> = {}): EngineEvent {
  return { type: "planned_change", change: { address, kind: address.split(".")[0] ?? "", action, reasonCode: USUAL_REASON[action], changes: [], unknown: [], sensitive: [], dependencies: [], ...fields } };
}

const start = (address: string, action: Action, step: StepKind): EngineEvent => ({ type: "apply_start", address, action, step });
const done = (address: string, action: Action, step: StepKind, elapsedMs: number, id?: string): EngineEvent => ({ type: "apply_complete", address, action, step, elapsedMs, ...(id ? { id } : {}) });

/** Polls every `everyMs` up to `untilMs`, the state changing at the given times. */
function polls(address: string, action: Action, step: StepKind, everyMs: number, untilMs: number, states: [atMs: number, state: string][]): EngineEvent[] {
  const events: EngineEvent[] = [];
  for (let t = everyMs; t <= untilMs; t += everyMs) {
    const state = [...states].reverse().find(([at]) => t >= at)?.[1];
    events.push({ type: "apply_progress", address, action, step, elapsedMs: t, ...(state ? { state } : {}) });
  }
  return events;
}

const changes = [
  planned("connections.dc", "create"),
  planned("routeFilters.y", "update", { id: "rf-y" }),
  planned("connections.y", "replace", { id: "conn-old" }),
  planned("devices.e", "import", { importId: "dev-e", changes: [{ path: "hostname", before: "a", after: "b" }] }),
  planned("routingProtocols.b", "no-op", { id: "rp-b", awaiting: "create" }),
  planned("vpns.z", "delete", { id: "vpn-z" }),
];
const summary = summarize(changes.flatMap((e) => (e.type === "planned_change" ? [e.change] : [])));

const success: EngineEvent[] = [
  { type: "refresh_start", resources: 6 },
  { type: "refresh_complete", resources: 6, requests: 9 },
  ...changes,
  { type: "diagnostic", diagnostic: { severity: "warning", code: "W1", message: "not shown by this view" } },
  start("connections.dc", "create", "create"),
  start("routeFilters.y", "update", "update"),
  done("routeFilters.y", "update", "update", 3_200),
  ...polls("connections.dc", "create", "create", 2_000, 50_000, [[0, "PROVISIONING"], [34_000, "PENDING_INTERFACE_CONFIGURATION"]]),
  done("connections.dc", "create", "create", 52_700, "conn-dc"),
  start("connections.y", "replace", "delete"),
  ...polls("connections.y", "replace", "delete", 5_000, 15_000, [[0, "DEPROVISIONING"]]),
  done("connections.y", "replace", "delete", 16_000),
  start("connections.y", "replace", "create"),
  done("connections.y", "replace", "create", 75_000, "conn-new"),
  start("devices.e", "import", "import"),
  done("devices.e", "import", "import", 800, "dev-e"),
  start("devices.e", "import", "update"),
  done("devices.e", "import", "update", 1_500),
  start("routingProtocols.b", "no-op", "wait"),
  ...polls("routingProtocols.b", "no-op", "wait", 4_000, 12_000, [[0, "PROVISIONING"]]),
  done("routingProtocols.b", "no-op", "wait", 13_000, "rp-b"),
  start("vpns.z", "delete", "delete"),
  done("vpns.z", "delete", "delete", 3_100),
  { type: "change_summary", operation: "apply", summary, failed: 0, skipped: 0, interrupted: 0 },
];

const failure: EngineEvent[] = [
  { type: "refresh_start", resources: 1 },
  planned("connections.dc", "create"),
  planned("routingProtocols.dc", "create"),
  planned("routeFilters.x", "create"),
  start("connections.dc", "create", "create"),
  start("routeFilters.x", "create", "create"),
  ...polls("connections.dc", "create", "create", 3_000, 12_000, [[0, "PROVISIONING"]]),
  done("routeFilters.x", "create", "create", 4_000, "rf-x"),
  { type: "apply_errored", address: "connections.dc", action: "create", step: "create", elapsedMs: 14_000, message: "the connection failed to provision: state FAILED\nport c4d9350e is not active", code: "EQ-3142012" },
  { type: "apply_skipped", address: "routingProtocols.dc", action: "create", blockedBy: "connections.dc" },
  { type: "apply_skipped", address: "routeFilterAttachments.dc", action: "create", blockedBy: "connections.dc" },
  { type: "change_summary", operation: "apply", summary: { add: 1, change: 0, replace: 0, destroy: 0, import: 0 }, failed: 1, skipped: 2, interrupted: 0 },
];

const destroy: EngineEvent[] = [
  { type: "refresh_start", resources: 2 },
  planned("vpns.z", "delete", { id: "vpn-z" }),
  planned("devices.e", "delete", { id: "dev-e" }),
  start("vpns.z", "delete", "delete"),
  done("vpns.z", "delete", "delete", 3_000),
  start("devices.e", "delete", "delete"),
  ...polls("devices.e", "delete", "delete", 30_000, 3_900_000, [[0, "DEPROVISIONING"]]).filter((e) => e.type === "apply_progress" && e.elapsedMs % 600_000 === 0),
  done("devices.e", "delete", "delete", 3_725_000),
  { type: "change_summary", operation: "destroy", summary: { add: 0, change: 0, replace: 0, destroy: 2, import: 0 }, failed: 0, skipped: 0, interrupted: 0 },
];

/** Interrupted while a connection provisions: what was answered is reported, what was not started is not. */
const interrupted: EngineEvent[] = [
  { type: "refresh_start", resources: 0 },
  planned("connections.dc", "create"),
  planned("routeFilters.x", "create"),
  planned("routingProtocols.dc", "create"),
  start("connections.dc", "create", "create"),
  start("routeFilters.x", "create", "create"),
  done("routeFilters.x", "create", "create", 900, "rf-x"),
  ...polls("connections.dc", "create", "create", 3_000, 9_000, [[0, "PROVISIONING"]]),
  { type: "interrupted", signal: "SIGTERM" },
  { type: "apply_interrupted", address: "connections.dc", action: "create", step: "create", elapsedMs: 9_400, id: "conn-dc" },
  { type: "change_summary", operation: "apply", summary: { add: 1, change: 0, replace: 0, destroy: 0, import: 0 }, failed: 0, skipped: 0, interrupted: 2 },
];

describe("ApplyTextView", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("apply-success", () => {
    expectGolden("apply-success", run(success));
  });

  it("apply-failed", () => {
    expectGolden("apply-failed", run(failure));
  });

  it("destroy", () => {
    expectGolden("apply-destroy", run(destroy));
  });

  it("apply-interrupted", () => {
    expectGolden("apply-interrupted", run(interrupted));
  });

  it("apply-interrupted-timestamps: the notice is a stamped line on standard error", () => {
    let t = Date.parse("2026-01-01T00:00:00Z");
    const now = () => (t += 1_250);
    expectGolden("apply-interrupted-timestamps", run(interrupted, { timestamps: true, now }));
  });

  it("apply-timestamps", () => {
    let t = Date.parse("2026-01-01T00:00:00Z");
    const now = () => (t += 1_250);
    expectGolden("apply-timestamps", run(failure, { timestamps: true, now }));
  });

  it("prints at most one progress line per 10 s, plus one per state change", () => {
    const events = [start("connections.dc", "create", "create"), ...polls("connections.dc", "create", "create", 1_000, 60_000, [[0, "PROVISIONING"], [15_000, "PROVISIONED"]])];
    const still = run(events).split("\n").filter((l) => l.includes("Still creating"));
    expect(still).toEqual([
      "connections.dc: Still creating... [10s elapsed, state PROVISIONING]",
      "connections.dc: Still creating... [15s elapsed, state PROVISIONED]",
      "connections.dc: Still creating... [25s elapsed, state PROVISIONED]",
      "connections.dc: Still creating... [35s elapsed, state PROVISIONED]",
      "connections.dc: Still creating... [45s elapsed, state PROVISIONED]",
      "connections.dc: Still creating... [55s elapsed, state PROVISIONED]",
    ]);
  });

  it("prints nothing for planned changes, diagnostics and the end of a refresh", () => {
    expect(run([changes[0]!, { type: "diagnostic", diagnostic: { severity: "error", code: "E1", message: "x" } }, { type: "refresh_complete", resources: 3, requests: 4 }])).toBe("\n");
  });

  it("colours on a terminal and not with NO_COLOR", () => {
    vi.stubEnv("FORCE_COLOR", undefined);
    vi.stubEnv("NO_COLOR", undefined);
    expect(run(failure, { timestamps: false }, true)).toMatch(ANSI);
    vi.stubEnv("NO_COLOR", "1");
    expect(run(failure, { timestamps: false }, true)).not.toMatch(ANSI);
  });

  it("formats durations as people read them", () => {
    expect([0, 999, 52_700, 60_000, 65_000, 3_725_000].map(formatDuration)).toEqual(["0s", "0s", "52s", "1m0s", "1m5s", "1h2m5s"]);
  });
});
