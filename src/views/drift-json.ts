// The drift report as JSON (`drift --format json`). The report is already data, so the document is the
// report itself, versioned by its formatVersion; only the field values are masked again, so that a secret
// the engine left in clear is not printed.

import type { DriftReport } from "../plan/drift.js";
import { maskedDriftField, toJson } from "./values.js";

export type DriftDocument = DriftReport;

export function driftDocument(report: DriftReport): DriftDocument {
  return {
    ...report,
    entries: report.entries.map((entry) => ({
      ...entry,
      fields: entry.fields.map((field) => {
        const { before, after } = maskedDriftField(entry, field);
        // JSON has no "absent" value: an absent side stays absent rather than becoming null.
        return { ...field, before: before === undefined ? undefined : toJson(before), after: after === undefined ? undefined : toJson(after) };
      }),
    })),
  };
}

/** The document's text as `drift --format json` prints it. */
export const driftDocumentText = (report: DriftReport): string => `${JSON.stringify(driftDocument(report), null, 2)}\n`;
