// The JSON lines of `apply --format json`: one object per event, with type, timestamp and address, the
// same field names whatever the engine left out, and no secret in a planned change.

import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../../src/engine/events.js";
import { summarize } from "../../../src/plan/types.js";
import { eventLine } from "../../../src/views/events-json.js";
import { expectGolden } from "./golden.js";
import { replaceConnection, secrets } from "./plans.js";

const now = new Date("2026-03-01T06:00:00.000Z");

const events: EngineEvent[] = [
  { type: "refresh_start", resources: 3 },
  { type: "refresh_complete", resources: 3, requests: 5 },
  { type: "planned_change", change: replaceConnection },
  { type: "planned_change", change: secrets[0]! },
  { type: "apply_start", address: "connections.y", action: "replace", step: "delete" },
  { type: "apply_progress", address: "connections.y", action: "replace", step: "delete", elapsedMs: 5_000, state: "DEPROVISIONING" },
  { type: "apply_progress", address: "connections.y", action: "replace", step: "delete", elapsedMs: 10_000 },
  { type: "apply_complete", address: "connections.y", action: "replace", step: "delete", elapsedMs: 16_000 },
  { type: "apply_complete", address: "connections.y", action: "replace", step: "create", elapsedMs: 75_000, id: "conn-new" },
  { type: "apply_errored", address: "vpns.s", action: "create", step: "create", elapsedMs: 1_200, message: "peerIp is already in use", code: "EQ-3142102" },
  { type: "apply_errored", address: "vpns.s", action: "create", step: "wait", elapsedMs: 1_300, message: "timed out" },
  { type: "apply_skipped", address: "routingProtocols.bgp", action: "replace", blockedBy: "connections.y" },
  { type: "interrupted", signal: "SIGINT" },
  { type: "apply_interrupted", address: "connections.z", action: "create", step: "create", elapsedMs: 2_000, id: "conn-z" },
  { type: "apply_interrupted", address: "connections.w", action: "update", step: "update", elapsedMs: 2_100 },
  { type: "diagnostic", diagnostic: { severity: "warning", code: "plan.slow", address: "connections.y", message: "took long", hint: "raise the timeout" } },
  { type: "diagnostic", diagnostic: { severity: "error", code: "state.lock", message: "lock held" } },
  { type: "change_summary", operation: "apply", summary: summarize([replaceConnection, secrets[0]!]), failed: 1, skipped: 1, interrupted: 0 },
];

describe("eventLine", () => {
  it("renders every event type", () => {
    expectGolden("events-json-apply", `${events.map((e) => eventLine(e, now)).join("\n")}\n`);
  });

  it("is one line of JSON with type, timestamp and the address where there is one", () => {
    for (const e of events) {
      const line = eventLine(e, now);
      expect(line).not.toContain("\n");
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(record.type).toBe(e.type);
      expect(record.timestamp).toBe("2026-03-01T06:00:00.000Z");
      const address = e.type === "planned_change" ? e.change.address : e.type === "diagnostic" ? e.diagnostic.address : "address" in e ? e.address : undefined;
      expect(record.address).toBe(address);
    }
  });

  it("keeps the same fields when the engine leaves some out", () => {
    const keys = (e: EngineEvent) => Object.keys(JSON.parse(eventLine(e, now)) as object).sort();
    expect(keys(events[5]!)).toEqual(keys(events[6]!));
    expect(keys(events[7]!)).toEqual(keys(events[8]!));
    expect(keys(events[9]!)).toEqual(keys(events[10]!));
    expect(keys(events[13]!)).toEqual(keys(events[14]!));
  });

  it("never carries a secret", () => {
    expect(events.map((e) => eventLine(e, now)).join("\n")).not.toContain("hunter2");
  });
});
