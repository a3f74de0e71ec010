// Where the simulator deliberately differs from the official API descriptions, because the service
// specification says otherwise or the description is self-contradictory or silent. Listed once, with the
// reason; the conformance check still validates everything else in those responses.

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
  ...["POST /fabric/v4/connections/search", "GET /fabric/v4/networks/{networkId}/connections"].flatMap((operation) =>
    CONNECTION_DIFFERENCES.map((d) => ({ ...d, operation, status: "200", instancePath: `/data/*${d.instancePath}` })),
  ),
  ...[
    { operation: "GET /ne/v1/devices/{uuid}", instancePath: "/additionalBandwidth" },
    { operation: "GET /ne/v1/devices", instancePath: "/data/*/additionalBandwidth" },
  ].map((x) => ({ ...x, status: "200", keyword: "type", reason: "specification 2.10: a device's additionalBandwidth is an integer (Mbps); the official schema says string" })),
  {
    operation: "GET /ne/v1/links",
    status: "200",
    instancePath: "",
    keyword: "type",
    reason: "real answers list device link groups as one page {pagination, data} (equinix/ne-go's recorded ne_device_links_get_resp.json); the official description says an array of such pages",
  },
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
  ...[
    { operation: "GET /fabric/v4/routers/{routerId}", instancePath: "/change/data/*/value" },
    { operation: "PATCH /fabric/v4/routers/{routerId}", instancePath: "/change/data/*/value" },
    { operation: "POST /fabric/v4/routers/search", instancePath: "/data/*/change/data/*/value" },
    { operation: "GET /fabric/v4/networks/{networkId}/changes", instancePath: "/data/*/data/*/value" },
    { operation: "GET /fabric/v4/networks/{networkId}/changes/{changeId}", instancePath: "/data/*/value" },
  ].map((x) => ({ ...x, status: "200", keyword: "type", reason: "a change's value is the field's own type (a name, a package code, a list of notifications), as the official examples show, not the object the schema declares" })),
];

/**
 * A status an operation answers although its description does not list it. Without one of these, an
 * undocumented status is a violation. The body is still checked: against what `like` documents for the
 * same status, against the error schema of the operation's API family, or as no body at all.
 */
export interface StatusException {
  name: string;
  statuses: number[];
  /** "METHOD /path/template" as in the snapshot; `*` stands for any run of characters ("* /ne/v1/*", "POST *"). */
  operations: string[];
  body: { like: string } | "family error" | "empty";
  /** Only responses that fault injection produced (never the service's own rules). */
  injectedFaultOnly?: boolean;
  reason: string;
}

/** The error schema each API family documents for its errors, used where an operation documents none. */
export const FAMILY_ERRORS: Array<{ prefix: string; schema: string }> = [
  { prefix: "/fabric/v4/", schema: "fabricv4.ErrorList" },
  { prefix: "/ne/v1/", schema: "networkedgev1.FieldErrorResponse" },
  { prefix: "/oauth2/v1/", schema: "accesstokenv1.Oauth2TokenErrorResponse" },
  { prefix: "/metal/v1/", schema: "metalv1.Error" },
];

const EVERY_FABRIC_AND_DEVICE_OPERATION = ["* /fabric/v4/*", "* /ne/v1/*"];

export const STATUS_EXCEPTIONS: StatusException[] = [
  {
    name: "validation failure",
    statuses: [400],
    operations: EVERY_FABRIC_AND_DEVICE_OPERATION,
    body: "family error",
    reason:
      "specification 7.1: HTTP 400 is the service's answer to every malformed request or failed field or business rule, and 7.2's codes (an unknown query parameter, a missing mandatory property, a value outside its list) can arise on any operation; the descriptions list 400 on most operations but not all (GET /ne/v1/devices lists only 200 and 500)",
  },
  {
    name: "missing, malformed, unknown or expired bearer token",
    statuses: [401],
    operations: EVERY_FABRIC_AND_DEVICE_OPERATION,
    body: "family error",
    reason:
      "specification 5.1: every call sends a bearer token, so every operation refuses a call without a valid one; the Fabric description documents this 401 on most operations, the device service's on almost none. (The token endpoints take no bearer token, and the bare-metal API documents its 401s.)",
  },
  {
    name: "request body in a media type the operation does not read",
    statuses: [415],
    operations: ["POST *", "PUT *", "PATCH *"],
    body: "family error",
    reason:
      "specification 4: a call with a body sends its Content-Type; the Fabric description documents 415 for a body the operation cannot read on 101 of its operations (POST /fabric/v4/routeFilters among them), and the simulator refuses such a body alike on every operation that takes one rather than guess at its content",
  },
  {
    name: "injected faults",
    statuses: [429, 500, 502, 503, 504],
    operations: ["* *"],
    injectedFaultOnly: true,
    body: "family error",
    reason: "fault injection (POST /__sim/faults, --faults) rehearses rate limits and server errors on any operation, in the operation's own error style; the service's rules never produce these",
  },
  {
    name: "write with a read-only API key",
    statuses: [403],
    operations: ["POST /metal/v1/user/api-keys", "POST /metal/v1/projects/{id}/api-keys", "DELETE /metal/v1/api-keys/{id}", "DELETE /metal/v1/user/api-keys/{id}"],
    body: "family error",
    reason:
      "specification 5.3: a key chosen read-only at creation cannot write; the bare-metal description documents no status for that refusal, and 403 is the one for an authenticated caller refused an action",
  },
  {
    name: "create in a project the caller may not use",
    statuses: [403],
    operations: ["POST /fabric/v4/ports"],
    body: { like: "POST /fabric/v4/connections" },
    reason: "every other Fabric create that names a project documents 403 for a project the caller may not use (POST /fabric/v4/connections, POST /fabric/v4/routeFilters); the port order's description lists no 403",
  },
  {
    name: "ACL template in a project the caller may not use",
    statuses: [403],
    operations: ["POST /ne/v1/aclTemplates"],
    body: { like: "POST /ne/v1/devices" },
    reason: "a template made in a project the caller has no access to is refused as a device order naming such a project is (POST /ne/v1/devices documents 403); the template's description lists no 403",
  },
  {
    name: "unknown port",
    statuses: [404],
    operations: ["GET /fabric/v4/ports/{portId}", "PATCH /fabric/v4/ports/{portId}"],
    body: { like: "DELETE /fabric/v4/ports/{portId}" },
    reason: "a port id that names no port the caller can see; DELETE /fabric/v4/ports/{portId} documents 404 for the same id",
  },
  {
    name: "unknown service profile",
    statuses: [404],
    operations: ["GET /fabric/v4/serviceProfiles/{serviceProfileId}"],
    body: { like: "DELETE /fabric/v4/serviceProfiles/{serviceProfileId}" },
    reason: "a profile id that names no profile; PUT, PATCH and DELETE /fabric/v4/serviceProfiles/{serviceProfileId} document 404 for the same id",
  },
  {
    name: "unknown virtual device",
    statuses: [404],
    operations: [
      "PUT /ne/v1/devices/{uuid}",
      "PATCH /ne/v1/devices/{uuid}",
      "GET /ne/v1/devices/{virtualDeviceUUID}/softReboot",
      "POST /ne/v1/devices/{virtualDeviceUUID}/softReboot",
      "GET /ne/v1/devices/{virtualDeviceUuid}/resourceUpgrade",
      "GET /ne/v1/devices/{uuid}/restoreAnalysis",
      "PATCH /ne/v1/devices/{uuid}/restore",
      "POST /ne/v1/devices/licenseFiles/{uuid}",
    ],
    body: { like: "GET /ne/v1/devices/{uuid}" },
    reason: "a device uuid that names no device the caller can see; GET and DELETE /ne/v1/devices/{uuid} and the device's ACL and interface operations document 404 for the same uuid",
  },
  {
    name: "unknown ACL template",
    statuses: [404],
    operations: ["PUT /ne/v1/aclTemplates/{uuid}"],
    body: { like: "GET /ne/v1/aclTemplates/{uuid}" },
    reason: "a template uuid that names no template the caller can see; GET and DELETE /ne/v1/aclTemplates/{uuid} document 404 for the same uuid",
  },
  {
    name: "unknown device link group",
    statuses: [404],
    operations: ["PATCH /ne/v1/links/{uuid}"],
    body: { like: "GET /ne/v1/links/{uuid}" },
    reason: "a uuid that names no device link group the caller can see; GET and DELETE /ne/v1/links/{uuid} document 404 for the same uuid",
  },
  {
    name: "unknown device backup",
    statuses: [404],
    operations: ["GET /ne/v1/deviceBackups/{uuid}", "PATCH /ne/v1/deviceBackups/{uuid}", "GET /ne/v1/deviceBackups/{uuid}/download"],
    body: { like: "DELETE /ne/v1/deviceBackups/{uuid}" },
    reason: "a backup uuid that names no backup the caller can see; DELETE /ne/v1/deviceBackups/{uuid} documents 404 for the same uuid",
  },
  {
    name: "unknown VPN",
    statuses: [404],
    operations: ["PUT /ne/v1/vpn/{uuid}", "DELETE /ne/v1/vpn/{uuid}"],
    body: { like: "POST /ne/v1/vpn" },
    reason: "a uuid that names no VPN the caller can see; GET /ne/v1/vpn/{uuid} documents 404 for it (with the VPN service's code VPN_CONFIG_NOT_FOUND), in problem style B as POST /ne/v1/vpn documents its 404",
  },
  {
    name: "VPN update and delete accepted",
    statuses: [202],
    operations: ["PUT /ne/v1/vpn/{uuid}", "DELETE /ne/v1/vpn/{uuid}"],
    body: "empty",
    reason: "specification 4.7 and 3.5: VPN update and delete answer 202 Accepted with no body; the official description lists 200 and 204",
  },
];

/**
 * Formats checked more loosely than the description states, with the reason. The simulator's `href`
 * fields are paths relative to wherever it is served (it cannot know the address a client reached it
 * by), so `uri` is checked as a URI reference.
 */
export const FORMAT_OVERRIDES: Record<string, string> = {
  uri: "uri-reference",
};
