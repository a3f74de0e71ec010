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
  /** For a `required` error: the one missing property waived. */
  missingProperty?: string;
  reason: string;
}

/** The keyword of the violation "a success status the description does not list for this operation". */
export const UNDOCUMENTED_STATUS = "undocumentedStatus";

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
  ...[
    { operation: "GET /ne/v1/devices/{uuid}", instancePath: "/additionalBandwidth" },
    { operation: "GET /ne/v1/devices", instancePath: "/data/*/additionalBandwidth" },
  ].map((x) => ({ ...x, status: "200", keyword: "type", reason: "specification 2.10: a device's additionalBandwidth is an integer (Mbps); the official schema says string" })),
  ...["PUT /ne/v1/vpn/{uuid}", "DELETE /ne/v1/vpn/{uuid}"].map((operation) => ({
    operation,
    status: "202",
    instancePath: "",
    keyword: UNDOCUMENTED_STATUS,
    reason: "specification 4.7 and 3.5: VPN update and delete answer 202 Accepted; the official description lists 200 and 204",
  })),
  {
    operation: "GET /ne/v1/vpn/{uuid}",
    status: "404",
    instancePath: "",
    reason: "errors of the device service are problem style B objects (specification 7.1); the official description types this 404 as a bare code string",
  },
  ...[
    { operation: "GET /ne/v1/vpn/{uuid}", instancePath: "" },
    { operation: "GET /ne/v1/vpn", instancePath: "/data/*" },
  ].map((x) => ({ ...x, status: "200", keyword: "required", missingProperty: "password", reason: "specification 4.7: a VPN's BGP password is optional, so a VPN made without one has none; the official response schema requires it" })),
  ...["GET /fabric/v4/routeFilters/{routeFilterId}/routeFilterRules/{routeFilterRuleId}", "GET /fabric/v4/routeAggregations/{routeAggregationId}/routeAggregationRules/{routeAggregationRuleId}"].map((operation) => ({
    operation,
    status: "200",
    instancePath: "",
    keyword: UNDOCUMENTED_STATUS,
    reason: "a read of one rule answers 200 like every other read; the description lists 202, a copy of the create's",
  })),
];

/**
 * Formats checked more loosely than the description states, with the reason. The simulator's `href`
 * fields are paths relative to wherever it is served (it cannot know the address a client reached it
 * by), so `uri` is checked as a URI reference.
 */
export const FORMAT_OVERRIDES: Record<string, string> = {
  uri: "uri-reference",
};
