// Golden tests of the drift report as text, markdown and JSON: changed (with and without who changed it),
// deleted, missing, secrets, none, and a report too large for one comment.

import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { driftDocument, driftDocumentText } from "../../../src/views/drift-json.js";
import { renderDriftMarkdown } from "../../../src/views/drift-markdown.js";
import { renderDriftText } from "../../../src/views/drift-text.js";
import { ANSI, expectGolden } from "./golden.js";
import { driftScenarios, largeDrift } from "./plans.js";

const plain = pc.createColors(false);
const colored = pc.createColors(true);

describe("drift views", () => {
  for (const [name, report] of Object.entries(driftScenarios)) {
    it(`text: ${name}`, () => {
      expectGolden(`drift-text-${name}`, renderDriftText(report, plain));
    });
    it(`markdown: ${name}`, () => {
      expectGolden(`drift-md-${name}`, renderDriftMarkdown(report));
    });
    it(`json: ${name}`, () => {
      expectGolden(`drift-json-${name}`, driftDocumentText(report));
    });
  }

  it("text: colours when asked and only then", () => {
    expect(renderDriftText(driftScenarios.mixed!, colored)).toMatch(ANSI);
    expect(renderDriftText(driftScenarios.mixed!, plain)).not.toMatch(ANSI);
  });

  it("never prints a secret", () => {
    const report = driftScenarios.secrets!;
    for (const text of [renderDriftText(report, plain), renderDriftText(report, colored), renderDriftMarkdown(report), driftDocumentText(report)]) {
      expect(text).not.toContain("hunter2");
      expect(text).toContain("(sensitive)");
    }
  });

  it("json: is the report, versioned", () => {
    const doc = driftDocument(driftScenarios.changed!);
    expect(doc).toEqual(driftScenarios.changed);
    expect(doc.formatVersion).toBe(1);
  });

  it("markdown: stays under the cap, keeping the table", () => {
    const md = renderDriftMarkdown(largeDrift);
    expect(md.length).toBeLessThan(65_000);
    expect(md).toMatch(/> \d+ of 300 drift sections were left out to keep this comment under 65,000 characters\. Run `netform drift` for the full report\./);
    for (const e of largeDrift.entries) expect(md).toContain(`| \`${e.address}\` |`);
    expect(md.startsWith("### netform drift: 300 changed, 0 deleted, 0 missing\n")).toBe(true);
  });
});
