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
   * must start with `instancePath`, where `*` stands for one segment (an array index), and their keyword
   * must be `keyword` when given.
   */
  instancePath: string;
  keyword?: string;
  reason: string;
}

/** Where a connection's own fields differ, in every response that carries connections. */
const CONNECTION_DIFFERENCES: Array<Omit<ConformanceException, "operation" | "status">> = [
  { instancePath: "/state", keyword: "enum", reason: "specification 3.3: connections read PENDING_AUTO_APPROVAL and PROVISIONED, which the official state list lacks" },
  { instancePath: "/change/data/value", keyword: "type", reason: "a patch's value is the field's own type (string name, integer bandwidth), as the official examples show, not the object the schema declares" },
  { instancePath: "/bandwidth", keyword: "maximum", reason: "local virtual connections may reach the metro's localVCBandwidthMax (50,000 Mbps), above the schema's 10,000" },
  { instancePath: "/aSide/accessPoint/linkProtocol", keyword: "maximum", reason: "VLAN tags run 2-4094 as the specification states; the official schema caps them at 4092" },
  { instancePath: "/zSide/accessPoint/linkProtocol", keyword: "maximum", reason: "VLAN tags run 2-4094 as the specification states; the official schema caps them at 4092" },
];

const CONNECTION_OPERATIONS = [
  "POST /fabric/v4/connections",
  "GET /fabric/v4/connections/{connectionId}",
  "PATCH /fabric/v4/connections/{connectionId}",
  "DELETE /fabric/v4/connections/{connectionId}",
];

export const CONFORMANCE_EXCEPTIONS: ConformanceException[] = [
  ...CONNECTION_OPERATIONS.flatMap((operation) => CONNECTION_DIFFERENCES.map((d) => ({ ...d, operation, status: "*" }))),
  ...CONNECTION_DIFFERENCES.map((d) => ({ ...d, operation: "POST /fabric/v4/connections/search", status: "200", instancePath: `/data/*${d.instancePath}` })),
];

/**
 * Formats checked more loosely than the description states, with the reason. The simulator's `href`
 * fields are paths relative to wherever it is served (it cannot know the address a client reached it
 * by), so `uri` is checked as a URI reference.
 */
export const FORMAT_OVERRIDES: Record<string, string> = {
  uri: "uri-reference",
};
