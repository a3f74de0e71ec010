// Time in the plan and after the apply: the plan's duration estimate in text, markdown and JSON, and the
// apply's markdown report with its Gantt chart of steps (golden files: UPDATE_GOLDEN=1 rewrites them).

import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../../src/engine/events.js";
import { renderApplyMarkdown } from "../../../src/views/apply-markdown.js";
import { aboutDuration } from "../../../src/views/plan-duration.js";
import { planDocument } from "../../../src/views/plan-json.js";
import { renderPlanMarkdown } from "../../../src/views/plan-markdown.js";
import { renderPlanText } from "../../../src/views/plan-text.js";
import { expectGolden } from "./golden.js";
import { createAttachment, createConnection, createFilter, plan } from "./plans.js";

const estimated = plan([createFilter, createConnection, createAttachment], "normal", {
  estimatedDuration: { seconds: 540, chain: ["connections.dc", "routeFilterAttachments.x-on-dc"] },
});
const c = pc.createColors(false);

describe("the plan's duration estimate", () => {
  it("says it in words, rounded as a reviewer reads it", () => {
    expect([12, 59.6, 61, 540, 3600, 4800].map(aboutDuration)).toEqual(["about 12 s", "about 1 min", "about 1 min", "about 9 min", "about 1 h", "about 1 h 20 min"]);
  });

  it("closes the text plan with the estimate and the chain that sets it", () => {
    const text = renderPlanText(estimated, c);
    expect(text).toContain("Estimated duration: about 9 min: connections.dc, then routeFilterAttachments.x-on-dc.");
    expectGolden("plan-text-estimate", text);
  });

  it("heads the markdown plan with it", () => {
    expectGolden("plan-markdown-estimate", renderPlanMarkdown(estimated));
  });

  it("is a field of the JSON document, in seconds, addresses and words", () => {
    expect(planDocument(estimated).estimatedDuration).toEqual({ seconds: 540, chain: ["connections.dc", "routeFilterAttachments.x-on-dc"], text: "about 9 min: connections.dc, then routeFilterAttachments.x-on-dc" });
    expect(planDocument(plan([createFilter])).estimatedDuration).toBeUndefined();
  });
});

describe("the apply's markdown report", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 6, 0, 0) + s * 1000).toISOString();
  const summary: Extract<EngineEvent, { type: "change_summary" }> = {
    type: "change_summary",
    operation: "apply",
    summary: { add: 2, change: 0, replace: 0, destroy: 0, import: 0 },
    failed: 1,
    skipped: 1,
    interrupted: 0,
    outcomes: [
      { address: "routeFilters.x", action: "create", outcome: "done" },
      { address: "connections.dc", action: "create", outcome: "done" },
      { address: "routingProtocols.bgp", action: "create", outcome: "failed" },
      { address: "routeFilterAttachments.x-on-dc", action: "create", outcome: "skipped" },
    ],
    steps: [
      { address: "connections.dc", step: "create", startedAt: at(0.2), finishedAt: at(55.4), seconds: 55.2, outcome: "done" },
      { address: "routeFilters.x", step: "create", startedAt: at(0), finishedAt: at(5.1), seconds: 5.1, outcome: "done" },
      { address: "routingProtocols.bgp", step: "create", startedAt: at(55.5), finishedAt: at(101), seconds: 45.5, outcome: "failed" },
    ],
  };

  it("charts each step's time as a Mermaid Gantt, a section per kind, failures marked, and lists them", () => {
    const errors = [{ type: "apply_errored" as const, address: "routingProtocols.bgp", action: "create" as const, step: "create" as const, elapsedMs: 45_500, message: "the service reports FAILED", code: "apply.failed" }];
    const markdown = renderApplyMarkdown(summary, errors);
    expect(markdown).toContain("  routingProtocols.bgp create :crit, 55500, 101000");
    expectGolden("apply-markdown", markdown);
  });

  it("says what a failed apply did and did not do, and the commands that finish it or undo what it made", () => {
    const markdown = renderApplyMarkdown(summary);
    expect(markdown).toContain("- **Done:** routeFilters.x (create), connections.dc (create)");
    expect(markdown).toContain("- **Not done:** routingProtocols.bgp (create failed), routeFilterAttachments.x-on-dc (create skipped)");
    expect(markdown).toContain("- **To finish:** `netform apply`");
    expect(markdown).toContain("- **To undo:** `netform destroy -target=routeFilters.x -target=connections.dc`");
  });

  it("has no chart when no step ran", () => {
    const { outcomes: _whole, ...complete } = summary;
    expect(renderApplyMarkdown({ ...complete, failed: 0, skipped: 0, steps: [] })).toBe("### netform apply complete: 2 added, 0 changed, 0 replaced, 0 destroyed\n");
  });
});
