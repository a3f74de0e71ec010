// Every error the simulator can answer with, in one table: the HTTP status, the service's code and its
// message. Handlers throw `SimError` with a key of this table and the offending properties; the server
// renders it in the problem style of the API family that was called (section 7.1 of the specification).
//
// Style A (Fabric, `/fabric/v4`, codes `EQ-nnnnnnn`): an array of
//   {errorCode, errorMessage, correlationId, additionalInfo: [{property, reason}]}
// Style B (network edge `/ne/v1` and legacy `/ecx/v3`): {errorCode, errorMessage, moreInfo, property, status}
// Token endpoint: the OAuth error body of the official description.

export type ProblemStyle = "A" | "B" | "oauth" | "metal";

export interface ErrorDef {
  status: number;
  code: string;
  message: string;
}

export const ERRORS = {
  // ── Generic, every API family ───────────────────────────────────────────────────────────
  // Conditions named in section 7.2 of the specification (all HTTP 400).
  invalidProperty: { status: 400, code: "EQ-2010010", message: "One or more properties are invalid" },
  invalidQueryParameter: { status: 400, code: "EQ-2014010", message: "One or more properties are invalid" },
  referenceNotFound: { status: 400, code: "EQ-2012010", message: "One or more properties are invalid" },
  missingProperty: { status: 400, code: "EQ-2012011", message: "One or more mandatory properties are missing" },
  attachmentInvalid: { status: 400, code: "EQ-2012012", message: "Attachment is invalid" },
  notInAllowedList: { status: 400, code: "EQ-2012025", message: "Selected value is not in allowed list of values" },
  serviceDeskOnly: { status: 400, code: "EQ-2019010", message: "One or more properties are invalid" },
  invalidFutureDate: { status: 400, code: "EQ-2021010", message: "One or more properties are invalid" },
  // Conditions the specification leaves open; codes and wording from the official description's examples.
  malformedJson: { status: 400, code: "EQ-3046116", message: "JSON syntax error." },
  unsupportedSortDirection: { status: 400, code: "EQ-3040054", message: "Invalid value for sorting direction." },
  unsupportedSearchProperty: { status: 400, code: "EQ-3040055", message: "Unsupported search property" },
  unauthorized: { status: 401, code: "EQ-3000039", message: "User not found in request or invalid." },
  // The metro endpoints document their own closed list of codes.
  metrosUnauthorized: { status: 401, code: "EQ-3036001", message: "Unauthorized" },
  forbidden: { status: 403, code: "EQ-3001033", message: "You are not authorized to execute the requested action on the resource" },
  notFound: { status: 404, code: "EQ-3073004", message: "Resource not found" },
  methodNotAllowed: { status: 405, code: "EQ-3034003", message: "Method not supported,Please check the URL passed" },
  unsupportedMediaType: { status: 415, code: "EQ-3040016", message: "Unsupported media type, please check the request's Content-Type or Content-Encoding" },
  tooManyRequests: { status: 429, code: "EQ-3000429", message: "Too many requests, retry later" },
  internalError: { status: 500, code: "EQ-3001206", message: "Internal Server Error" },
  badGateway: { status: 502, code: "EQ-3000502", message: "Bad gateway" },
  serviceUnavailable: { status: 503, code: "EQ-3000503", message: "The system is unable to process your request." },
  gatewayTimeout: { status: 504, code: "EQ-3000504", message: "Gateway timeout" },

  // ── OAuth token endpoint ────────────────────────────────────────────────────────────────
  // Messages of the official description's 400 responses of the token and refresh endpoints.
  invalidClient: { status: 400, code: "IC-AUTH-400", message: "Please enter a valid client id/client secret and try again." },
  unsupportedGrant: { status: 400, code: "IC-AUTH-401", message: "Unsupported grant_type; use client_credentials or password" },
  invalidUserCredentials: { status: 400, code: "IC-AUTH-402", message: "Please enter a valid client id/client secret/username/password and try again." },
  invalidRefreshToken: { status: 400, code: "IC-AUTH-403", message: "Please enter valid client id/client secret/refresh token and try again." },

  // ── Route filters and attachments (4.3) ─────────────────────────────────────────────────
  // area:route-filters
  // Codes and wording from the official description's examples for /fabric/v4/routeFilters and attachments.
  routeFilterStillAttached: { status: 400, code: "EQ-3044007", message: "Cannot delete route filter still attached to a connection" },
  routeFilterInvalidDirection: { status: 400, code: "EQ-3044001", message: "Invalid input" },
  routeFilterConnectionTransient: { status: 400, code: "EQ-3044008", message: "Cannot attach or detach route filter with connection in transient state" },
  routeFilterInvalidOperation: { status: 400, code: "EQ-3044011", message: "Invalid argument passed" },
  routeFilterConnectionNotFound: { status: 404, code: "EQ-3041120", message: "The connection ID was not found or was already deleted." },
  // Route aggregations, and the rules of filters and aggregations: the same family's examples.
  routeAggregationStillAttached: { status: 400, code: "EQ-3044007", message: "Cannot delete route aggregation still attached to a connection" },
  routeAggregationConnectionTransient: { status: 400, code: "EQ-3044008", message: "Cannot attach or detach route aggregation with connection in transient state" },
  routeRuleInvalidValue: { status: 400, code: "EQ-3044013", message: "Invalid argument value passed" },
  routeRuleTransient: { status: 400, code: "EQ-3044215", message: "Cannot delete or change a rule in transient state" },

  // ── Connections (4.5) ───────────────────────────────────────────────────────────────────
  // area:connections
  connectionTransientState: { status: 400, code: "EQ-3142510", message: "Connection is in transient state" },
  connectionAlreadyDeleted: { status: 400, code: "EQ-3041120", message: "The connection ID was not found or was already deleted." },

  // ── Routing protocols (4.6) ─────────────────────────────────────────────────────────────
  // area:routing-protocols
  routingProtocolConnectionNotFound: { status: 404, code: "EQ-3041120", message: "The connection ID was not found or was already deleted." },
  routingProtocolConnectionTransient: { status: 400, code: "EQ-3142510", message: "Connection is in transient state" },
  routingProtocolTransient: { status: 400, code: "EQ-3041012", message: "The system is unable to process your request." },
  routingProtocolBgpBeforeDirect: { status: 400, code: "EQ-3041016", message: "The system is unable to process your request." },

  // ── Cloud routers, networks, service tokens ─────────────────────────────────────────────
  // area:fabric-endpoints
  // Codes and wording from the official description's examples for /fabric/v4/routers, /serviceTokens and
  // the lists under a network.
  routerInvalidName: { status: 400, code: "EQ-3040022", message: "Name is minimum 3 and up to 24 characters in length" },
  routerPackageNotFound: { status: 400, code: "EQ-3040028", message: "Package not found" },
  routerInvalidAccount: { status: 400, code: "EQ-3040032", message: "Invalid account number" },
  routerCreateRejected: { status: 400, code: "EQ-3040060", message: "Create request rejected" },
  routerTransientState: { status: 400, code: "EQ-3040030", message: "Cannot delete Fabric Cloud Router in transient state" },
  routerInvalidOperation: { status: 400, code: "EQ-3044011", message: "Invalid argument passed" },
  // validateRoutingProtocol's two examples; the routing protocol's create refuses an overlapping subnet alike.
  routerSubnetInvalid: { status: 400, code: "EQ-2041022", message: "Invalid argument value passed." },
  routerSubnetOverlap: { status: 400, code: "EQ-2041022", message: "The provided subnet is not valid." },
  serviceTokenNotFound: { status: 400, code: "EQ-3034016", message: "Token not found" },
  networkNotFound: { status: 400, code: "EQ-3152004", message: "Invalid input" },

  // ── Metros, prices, ports, cloud events ─────────────────────────────────────────────────
  // area:catalogue
  // Metros: the official MetroError codes (the only ones its schema allows) for bad queries, paths, unknown
  // codes. GET /fabric/v4/metros/{metroCode} documents 400 for a code that names no metro, not 404.
  invalidMetroQuery: { status: 400, code: "EQ-3036013", message: "Invalid Query Parameter" },
  invalidMetroCode: { status: 400, code: "EQ-3036013", message: "Invalid Path Parameter" },
  metroNotFound: { status: 400, code: "EQ-3036100", message: "Metro Not Found" },
  // Price search: the official PriceError codes (the only ones its schema allows).
  priceValidation: { status: 400, code: "EQ-3038010", message: "Validation failure" },
  priceInvalidValue: { status: 400, code: "EQ-3038022", message: "Invalid value" },
  // Port orders: the official port-400 examples, for the business rules the specification leaves open.
  portNotificationInvalid: { status: 400, code: "EQ-3143101", message: "NOTIFICATION_CONTACT_NOT_VALID" },
  portMetroUnavailable: { status: 400, code: "EQ-3143113", message: "provided metroCode is not available for this user" },
  portPriorityNotPrimary: { status: 400, code: "EQ-3143115", message: "PORT_PRIORITY_SHOULD_BE_PRIMARY" },
  portSpeedInvalid: { status: 400, code: "EQ-3143116", message: "INVALID_PHYSICAL_PORTS_SPEED" },
  portTypeInvalid: { status: 400, code: "EQ-3143117", message: "INVALID_PHYSICAL_PORTS_TYPE" },
  portAccountInvalid: { status: 400, code: "EQ-3143124", message: "ACCOUNT_SERVICE_ERROR" },
  portUntaggedRedundant: { status: 400, code: "EQ-3143128", message: "UNTAGGED_REDUNDANT" },
  portUntaggedLag: { status: 400, code: "EQ-3143129", message: "UNTAGGED_LAG" },
  portUntaggedTpid: { status: 400, code: "EQ-3143131", message: "UNTAGGED_TPID" },
  portLagRequired: { status: 400, code: "EQ-3143135", message: "LAG_PORT_WITHOUT_LAG" },

  // ── Network edge: devices, device types and their catalogue calls (style B) ─────────────
  // area:ne-devices

  // ── Network edge: VPN, backups, images, keys, files, order summary (style B) ────────────
  // area:ne-services
  // Codes of the VPN service's error enumeration in the official description (GET /ne/v1/vpn/{uuid}).
  vpnNotFound: { status: 404, code: "VPN_CONFIG_NOT_FOUND", message: "VPN configuration not found" },
  vpnDeviceNotFound: { status: 404, code: "VPN_DEVICE_NOT_FOUND", message: "Virtual device not found" },
  vpnDeviceNotReady: { status: 400, code: "VPN_DEVICE_NOT_IN_READY_STATE", message: "Virtual device is not in a ready state" },
  vpnAlreadyDeleted: { status: 400, code: "VPN_ALREADY_DELETED", message: "VPN configuration is already deleted" },
  // SSH users: codes of the device service's error enumeration, as an earlier official description of
  // /ne/v1/sshUsers lists them (equinix/equinix-sdk-go's SSH user API). A device named in the create body
  // that names no device is a bad request there (the create documents no 404), one named in a path is not found.
  sshUserNotFound: { status: 404, code: "RESOURCE_NOT_FOUND", message: "SSH user not found" },
  sshUserDeviceNotFound: { status: 404, code: "VIRTUAL_DEVICE_NOT_FOUND", message: "Virtual device not found" },
  sshUserDeviceInvalid: { status: 400, code: "VIRTUAL_DEVICE_NOT_FOUND", message: "Virtual device not found" },
  sshUserDeviceNotReady: { status: 400, code: "SSH_USER_DEVICE_STATE_NOT_VALID", message: "The virtual device is not in a state that takes SSH users" },
  sshUserExists: { status: 400, code: "SSH_USER_ALREADY_EXISTS", message: "SSH user already exists" },
  // The code the Terraform provider (equinix/ne-go's ErrorCodeSSHPublicKeyInvalid) reads as "no such key".
  publicKeyNotFound: { status: 404, code: "EQ-4010206", message: "Invalid SSH public key identifier" },

  // ── Signature policies, bare-metal API keys, maintenance notifications, legacy layer 2 ──
  // area:other
  // Bare-metal API (`{errors: [...]}`; the code is never shown): request bodies it cannot use.
  metalUnprocessable: { status: 422, code: "METAL-422", message: "Unprocessable entity" },
  // Legacy layer 2 (section 7.3, all HTTP 400 as the legacy interface answers them).
  layer2Invalid: { status: 400, code: "IC-LAYER2-402", message: "Invalid input" },
  layer2ConnectionNotFound: { status: 400, code: "IC-LAYER2-4023", message: "Connection does not exist or do not belong to user,Please check connection Id" },
  layer2NamedTagInUse: { status: 400, code: "IC-LAYER2-AUTH-006", message: "Named tag is already used in another connection under this authorization key" },
  layer2KeyMetroMismatch: { status: 400, code: "IC-LAYER2-AUTH-007", message: "Authorization key does not match the destination metro" },
  layer2Dot1qLimit: { status: 400, code: "IC-LAYER2-DOT1Q-001", message: "No more than three Dot1Q connections are allowed per authorization key" },
  layer2PortNotFound: { status: 400, code: "IC-LAYER2-PORTS-001", message: "Port does not exist or not belong to user" },
  layer2PortTypesDiffer: { status: 400, code: "IC-LAYER2-PORTS-016", message: "Different port types used for the primary and secondary connections" },
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof ERRORS;

export interface ProblemDetail {
  property: string;
  reason: string;
  value?: unknown;
}

/** Thrown by handlers; the server turns it into a response in the right problem style. */
export class SimError extends Error {
  readonly def: ErrorDef;
  constructor(
    readonly key: ErrorKey,
    readonly details: ProblemDetail[] = [],
    readonly headers: Record<string, string> = {},
    messageOverride?: string,
  ) {
    const def = ERRORS[key];
    super(messageOverride ?? def.message);
    this.def = messageOverride ? { ...def, message: messageOverride } : def;
  }
}

/** Shorthand for the common case of one offending property. */
export const fail = (key: ErrorKey, property?: string, reason?: string, value?: unknown): never => {
  const detail: ProblemDetail[] = property ? [{ property, reason: reason ?? ERRORS[key].message, ...(value === undefined ? {} : { value }) }] : [];
  throw new SimError(key, detail);
};

export function problemStyleFor(path: string): ProblemStyle {
  if (path.startsWith("/ne/") || path.startsWith("/ecx/")) return "B";
  if (path.startsWith("/oauth2/")) return "oauth";
  if (path.startsWith("/metal/")) return "metal";
  return "A";
}

export function renderProblem(err: SimError, style: ProblemStyle, correlationId: string): unknown {
  const { code, message, status } = err.def;
  switch (style) {
    case "A":
      return [
        {
          errorCode: code,
          errorMessage: message,
          correlationId,
          ...(err.details.length
            ? {
                additionalInfo: err.details.map((d) => ({
                  property: d.property,
                  reason: d.reason,
                  ...(d.value === undefined ? {} : { value: String(d.value) }),
                })),
              }
            : {}),
        },
      ];
    case "B": {
      // Style B is one object with one property (the official schema); further problems are counted in the message.
      const first = err.details[0];
      const more = err.details.length > 1 ? ` (and ${err.details.length - 1} more problems)` : "";
      return {
        errorCode: code,
        errorMessage: (first && first.reason !== message ? `${message}: ${first.reason}` : message) + more,
        moreInfo: correlationId,
        property: first?.property ?? "",
        status: String(status),
      };
    }
    case "oauth":
      return {
        error_domain: "apigateway",
        error_title: status === 401 ? "Unauthorized" : "Invalid request",
        error_code: code,
        developer_message: err.details[0]?.reason ?? message,
        error_message: message,
      };
    case "metal":
      return { errors: [err.details[0]?.reason ?? message] };
    default: {
      const unreachable: never = style;
      return unreachable;
    }
  }
}
