// Where the simulator deliberately differs from the official API descriptions, because the service
// specification says otherwise or the description is self-contradictory. Listed once, with the reason;
// the conformance check still validates everything else in those responses.

export interface ConformanceException {
  /** "METHOD /path/template" as in the official description, or "*" for every operation. */
  operation: string;
  /** Status code, or "*" for every status. */
  status: string;
  /**
   * Validation errors to waive: their instancePath (a JSON pointer into the response body, "" for the root)
   * must start with `instancePath`, and their keyword must be `keyword` when given.
   */
  instancePath: string;
  keyword?: string;
  reason: string;
}

export const CONFORMANCE_EXCEPTIONS: ConformanceException[] = [];

/**
 * Formats checked more loosely than the description states, with the reason. The simulator's `href`
 * fields are paths relative to wherever it is served (it cannot know the address a client reached it
 * by), so `uri` is checked as a URI reference.
 */
export const FORMAT_OVERRIDES: Record<string, string> = {
  uri: "uri-reference",
};
