// Golden tests of the pull-request comment, and the rules that matter whatever the layout: counts and the
// destroy warning before any collapsible section, secrets masked, markdown in values escaped, and the
// comment kept under GitHub's limit by dropping sections from the end.

import { describe, expect, it } from "vitest";
import { renderPlanMarkdown } from "../../../src/views/plan-markdown.js";
import { expectGolden } from "./golden.js";
import { escaping, large, plan, planScenarios, secrets } from "./plans.js";

describe("renderPlanMarkdown", () => {
  for (const [name, p] of Object.entries(planScenarios)) {
    it(name, () => {
      expectGolden(`plan-md-${name}`, renderPlanMarkdown(p));
    });
  }

  it("puts the counts, the warning and the table before anything collapsed", () => {
    const md = renderPlanMarkdown(planScenarios.mixed!);
    expect(md.startsWith("### netform plan: 3 to add, 2 to change, 2 to replace, 2 to destroy, 2 to import\n")).toBe(true);
    const firstDetails = md.indexOf("<details>");
    for (const text of ["> [!WARNING]", "`vpns.z` will be destroyed", "`connections.y` will be replaced"]) {
      const at = md.indexOf(text);
      expect(at, text).toBeGreaterThanOrEqual(0);
      expect(at, text).toBeLessThan(firstDetails);
    }
    // More than ten changes: the table is the first collapsed section, under the summary.
    expect(md.slice(firstDetails)).toMatch(/^<details><summary>All 11 changes<\/summary>\n\n\| Action \| Address \| Reason \|/);
  });

  it("has no warning when nothing is destroyed or replaced", () => {
    expect(renderPlanMarkdown(planScenarios.creates!)).not.toContain("[!WARNING]");
  });

  it("never prints a secret", () => {
    const md = renderPlanMarkdown(plan(secrets));
    expect(md).not.toContain("hunter2");
    expect(md).toContain("(sensitive)");
  });

  it("escapes markdown in reasons and values", () => {
    const md = renderPlanMarkdown(plan(escaping));
    const row = md.split("\n").find((l) => l.includes("connections.pipes") && l.startsWith("| "))!;
    // Four columns' worth of unescaped pipes: the reason's own pipe is escaped.
    expect(row.split(/(?<!\\)\|/).length).toBe(5);
    expect(row).toContain("\\<b\\>cannot\\</b\\>");
    expect(row).toContain("\\@netops \\#42");
    // The value holds a ``` run, so its diff block is fenced with four.
    expect(md).toContain("````diff\n");
  });

  it("stays under the cap, dropping sections from the end and saying so", () => {
    const big = plan(large);
    const md = renderPlanMarkdown(big, { planFile: "plan.bin" });
    expect(md.length).toBeLessThan(65_000);
    expect(md).toMatch(/> \d+ of 400 resource sections were left out to keep this comment under 65,000 characters; the full plan is in the run log and in `netform show plan\.bin`\./);
    // The table lists every address, and the sections kept are the first ones.
    for (const rc of big.changes) expect(md).toContain(`| \`${rc.address}\` |`);
    expect(md).toContain("<code>connections.c001</code>");
    expect(md).not.toContain("<code>connections.c399</code>");
    expect(md).toContain("> [!WARNING]");
    expect(md).toContain("The dependency graph (400 resources, 399 dependencies) is too large to draw here");
    // The note comes before the sections, where a reader sees it without scrolling.
    expect(md.indexOf("[!NOTE]")).toBeLessThan(md.indexOf("<details><summary><code>"));
  });

  it("cuts the table only when the title, warning and table alone exceed the cap", () => {
    const md = renderPlanMarkdown(plan(large), { maxLength: 5_000 });
    expect(md.length).toBeLessThanOrEqual(5_000);
    expect(md).toMatch(/^### netform plan: 392 to add, 0 to change, 0 to replace, 8 to destroy\n/);
    // Without a saved plan to show, `netform show` would show the state: a new plan is the way to the full one.
    expect(md).toMatch(/… and \d+ more changes not listed; the full plan is in the run log, or run `netform plan`\./);
    // Only the table's own collapsible section is left.
    expect(md.match(/<details>/g)).toHaveLength(1);
  });

  it("takes a title", () => {
    expect(renderPlanMarkdown(planScenarios.updates!, { title: "production | eu" })).toMatch(/^### production \\\| eu: 0 to add, 1 to change/);
    expect(renderPlanMarkdown(planScenarios["no-changes"]!, { title: "staging" })).toBe("### staging: no changes\n\nNo changes. The service matches the configuration.\n");
  });
});
