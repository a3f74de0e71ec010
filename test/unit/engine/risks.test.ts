// When what the service announces is a risk to a plan: a downtime or maintenance window in progress (a
// missing end is one not over yet), a maintenance notice only where the plan changes something, and the
// places a plan changes something read from its values, whatever the kind.

import { describe, expect, it } from "vitest";
import { downtimeRisk, inProgress, maintenanceRisk, touchedPlaces } from "../../../src/engine/risks.js";
import { summarize, type Plan, type ResourceChange } from "../../../src/plan/types.js";

const NOW = Date.parse("2026-03-01T06:00:00Z");

describe("inProgress", () => {
  const cases: Array<[string, unknown, unknown, boolean]> = [
    ["started, ends later", "2026-03-01T05:00:00Z", "2026-03-01T07:00:00Z", true],
    ["starts later", "2026-03-01T06:00:01Z", "2026-03-01T07:00:00Z", false],
    ["ended", "2026-03-01T04:00:00Z", "2026-03-01T06:00:00Z", false],
    ["starts now", "2026-03-01T06:00:00Z", "2026-03-01T07:00:00Z", true],
    ["no end given", "2026-03-01T05:00:00Z", null, true],
    ["no start given", undefined, "2026-03-01T07:00:00Z", false],
  ];
  for (const [name, start, end, expected] of cases) it(name, () => expect(inProgress(start, end, NOW)).toBe(expected));
});

describe("downtimeRisk", () => {
  const notification = (type: string, start = "2026-03-01T05:00:00Z", end = "2026-03-01T07:00:00Z") => ({
    notificationType: type,
    startTime: start,
    endTime: end,
    impactedServices: [{ serviceName: "Device", impact: "down", errorMessage: "Create device APIs are currently down." }, { serviceName: "VPN", impact: "delay" }],
    additionalMessage: "Recovering.",
  });
  const cases: Array<[string, Record<string, unknown>, string | undefined]> = [
    ["unplanned, in progress", notification("unplanned_downtime"), "network-edge unplanned downtime: Recovering."],
    ["planned, in progress (the service spells it planed)", notification("planed_downtime"), "network-edge planned downtime: Recovering."],
    ["planned, a week ahead", notification("planed_downtime", "2026-03-08T05:00:00Z", "2026-03-08T07:00:00Z"), undefined],
    ["none", { notificationType: "no_downtime", impactedServices: [] }, undefined],
  ];
  for (const [name, body, message] of cases) it(name, () => expect(downtimeRisk(body, NOW)?.message).toBe(message));

  it("lists each impacted service with its impact and message", () => {
    expect(downtimeRisk(notification("unplanned_downtime"), NOW)).toEqual({
      kind: "downtime",
      severity: "warning",
      message: "network-edge unplanned downtime: Recovering.",
      window: { start: "2026-03-01T05:00:00Z", end: "2026-03-01T07:00:00Z" },
      impacts: ["Device (down): Create device APIs are currently down.", "VPN (delay)"],
    });
  });
});

describe("maintenanceRisk", () => {
  const notice = (fields: Record<string, unknown> = {}) => ({
    id: "n-1",
    notificationNumber: "5-210000002",
    type: "IBX_MAINTENANCE",
    startTimestamp: "2026-03-01T05:00:00Z",
    endTimestamp: null,
    ibxs: ["LD1", "LD8", "AM1"],
    status: "IN_PROGRESS",
    summary: "Chiller plant replacement",
    ...fields,
  });
  const cases: Array<[string, Record<string, unknown>, { metros: string[]; ibxs: string[] }, string[] | undefined]> = [
    ["in a metro the plan touches", notice(), { metros: ["LD"], ibxs: [] }, ["LD1 (metro LD)", "LD8 (metro LD)"]],
    ["at an IBX the plan touches", notice(), { metros: [], ibxs: ["AM1"] }, ["AM1 (metro AM)"]],
    ["elsewhere", notice(), { metros: ["DC"], ibxs: ["DC1"] }, undefined],
    ["completed", notice({ status: "COMPLETED" }), { metros: ["LD"], ibxs: [] }, undefined],
    ["scheduled ahead", notice({ startTimestamp: "2026-03-03T05:00:00Z", status: "SCHEDULED" }), { metros: ["LD"], ibxs: [] }, undefined],
  ];
  for (const [name, body, touched, impacts] of cases) {
    it(name, () => expect(maintenanceRisk(body, { metros: new Set(touched.metros), ibxs: new Set(touched.ibxs) }, NOW)?.impacts).toEqual(impacts));
  }
});

describe("touchedPlaces", () => {
  const change = (action: ResourceChange["action"], before?: Record<string, unknown>, after?: Record<string, unknown>): ResourceChange => ({
    address: `x.${action}`,
    kind: "x",
    action,
    reasonCode: "create",
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
    changes: [],
    unknown: [],
    sensitive: [],
    dependencies: [],
  });
  const plan = (changes: ResourceChange[]): Plan => ({ formatVersion: 1, mode: "normal", lineage: "l", serial: 1, configHash: "h", changes, summary: summarize(changes), requestCount: 0 });

  it("reads every metroCode and ibx of what changes, before and after, at any depth", () => {
    const touched = touchedPlaces(
      plan([
        change("create", undefined, { location: { metroCode: "LD" } }),
        change("update", { metroCode: "DC", ibx: "DC6" }, { metroCode: "DC" }),
        change("delete", { aSide: { accessPoint: { location: { metroCode: "SV" } } } }),
        change("no-op", { metroCode: "TY" }, { metroCode: "TY" }),
      ]),
    );
    expect([...touched.metros].sort()).toEqual(["DC", "LD", "SV"]);
    expect([...touched.ibxs]).toEqual(["DC6"]);
  });
});
