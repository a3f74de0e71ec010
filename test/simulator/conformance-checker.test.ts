// The conformance check must be able to fail: these cases prove it reads the official descriptions
// and rejects what they do not allow.

import { describe, expect, it } from "vitest";
import { checkExchange } from "../support/conformance.js";

const exchange = (method: string, path: string, status: number, body: unknown, contentType = "application/json") => ({
  method,
  path,
  status,
  contentType,
  body: body === undefined ? "" : JSON.stringify(body),
});

const FABRIC_ERROR = [{ errorCode: "EQ-3000039", errorMessage: "User not found in request or invalid.", correlationId: "c" }];
const DEVICE_ERROR = { errorCode: "EQ-3000039", errorMessage: "User not found in request or invalid.", moreInfo: "c", property: "Authorization", status: "401" };

describe("conformance checker", () => {
  it("accepts a token response of the documented shape", () => {
    const ok = exchange("POST", "/oauth2/v1/token", 200, { access_token: "abc", token_timeout: "3599", token_type: "Bearer", user_name: "u" });
    expect(checkExchange(ok)).toBeUndefined();
  });

  it("rejects a token response missing a required field or with a wrong type", () => {
    const missing = checkExchange(exchange("POST", "/oauth2/v1/token", 200, { access_token: "abc", token_type: "Bearer", user_name: "u" }));
    expect(missing?.errors.join()).toMatch(/token_timeout/);
    const wrongType = checkExchange(exchange("POST", "/oauth2/v1/token", 200, { access_token: "abc", token_timeout: 3599, token_type: "Bearer", user_name: "u" }));
    expect(wrongType?.errors.join()).toMatch(/token_timeout must be string/);
  });

  it("follows $refs into the Fabric description and checks enums", () => {
    const bad = checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 200, { type: "NOT_A_FILTER_TYPE", uuid: "x" }));
    expect(bad?.operation).toBe("GET /fabric/v4/routeFilters/{routeFilterId}");
    expect(bad?.errors.join()).toMatch(/type must be equal to one of the allowed values/);
  });

  it("reads Swagger 2 and the multi-file bare-metal description", () => {
    const ne = checkExchange(exchange("GET", "/ne/v1/deviceTypes", 200, { data: "not an array" }));
    expect(ne?.errors.join()).toMatch(/data must be array/);
    const metal = checkExchange(exchange("GET", "/metal/v1/user/api-keys", 200, { api_keys: "not an array" }));
    expect(metal?.errors.join()).toMatch(/api_keys must be array/);
  });

  it("flags undocumented statuses, success or error, and non-JSON bodies, and skips paths it has no description for", () => {
    expect(checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 299, {}))?.errors.join()).toMatch(/not documented/);
    const conflict = checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 409, FABRIC_ERROR));
    expect(conflict?.errors.join()).toMatch(/status 409 is not documented \(documented: 200, 400, 401, 403, 404, 415, 500\), and no exception/);
    expect(checkExchange(exchange("GET", "/fabric/v4/metros/XX", 404, FABRIC_ERROR))?.errors.join()).toMatch(/status 404 is not documented/);
    expect(checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 200, {}, "text/plain"))?.errors.join()).toMatch(/served as text\/plain/);
    expect(checkExchange(exchange("GET", "/internetAccess/v1/signaturePolicies", 200, { anything: true }))).toBeUndefined();
  });

  it("checks the media type a response is documented with, charset included", () => {
    // The service profiles' answers are documented as application/json; charset=UTF-8.
    const profiles = { pagination: { offset: 0, limit: 20, total: 0 }, data: [] };
    expect(checkExchange(exchange("GET", "/fabric/v4/serviceProfiles", 200, profiles, "application/json;charset=utf-8"))).toBeUndefined();
    expect(checkExchange(exchange("GET", "/fabric/v4/serviceProfiles", 200, profiles))?.errors.join()).toMatch(/documented as application\/json; charset=UTF-8, served as application\/json$/);
    expect(checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 200, {}, "application/json; charset=UTF-8"))?.errors.join()).toMatch(/documented as application\/json, served as/);
  });

  it("lets a named exception allow an undocumented status, and still checks the body it carries", () => {
    // 401: every device-service operation needs a bearer token, though GET /ne/v1/devices documents only 200 and 500.
    expect(checkExchange(exchange("GET", "/ne/v1/devices", 401, DEVICE_ERROR))).toBeUndefined();
    expect(checkExchange(exchange("GET", "/ne/v1/devices", 401, FABRIC_ERROR))?.errors.join()).toMatch(/must be object/);
    expect(checkExchange(exchange("POST", "/oauth2/v1/token", 401, DEVICE_ERROR))?.errors.join()).toMatch(/status 401 is not documented/);
    // 404 for an unknown port, in the shape DELETE /fabric/v4/ports/{portId} documents.
    expect(checkExchange(exchange("GET", "/fabric/v4/ports/x", 404, FABRIC_ERROR))).toBeUndefined();
    expect(checkExchange(exchange("GET", "/fabric/v4/ports/x", 404, { error: "gone" }))?.errors.join()).toMatch(/must be array/);
    // 202 with no body for VPN update and delete (specification 4.7).
    expect(checkExchange(exchange("PUT", "/ne/v1/vpn/x", 202, undefined, ""))).toBeUndefined();
    expect(checkExchange(exchange("PUT", "/ne/v1/vpn/x", 202, { status: "accepted" }))?.errors.join()).toMatch(/no body expected/);
  });

  it("allows 429 and 5xx an operation does not document only when fault injection produced them", () => {
    const unavailable = { ...exchange("GET", "/fabric/v4/connections/x", 503, FABRIC_ERROR) };
    expect(checkExchange(unavailable)?.errors.join()).toMatch(/status 503 is not documented/);
    expect(checkExchange({ ...unavailable, injectedFault: true })).toBeUndefined();
    expect(checkExchange({ ...exchange("GET", "/fabric/v4/connections/x", 429, { retry: "later" }), injectedFault: true })?.errors.join()).toMatch(/must be array/);
  });
});
