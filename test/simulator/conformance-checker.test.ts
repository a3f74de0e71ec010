// The conformance check must be able to fail: these cases prove it reads the official descriptions
// and rejects what they do not allow.

import { describe, expect, it } from "vitest";
import { checkExchange } from "../support/conformance.js";

const exchange = (method: string, path: string, status: number, body: unknown, contentType = "application/json") => ({
  method,
  path,
  status,
  contentType,
  body: JSON.stringify(body),
});

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

  it("flags undocumented success statuses and non-JSON bodies, and skips paths it has no description for", () => {
    expect(checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 299, {}))?.errors.join()).toMatch(/not documented/);
    expect(checkExchange(exchange("GET", "/fabric/v4/routeFilters/x", 200, {}, "text/plain"))?.errors.join()).toMatch(/served as text\/plain/);
    expect(checkExchange(exchange("GET", "/internetAccess/v1/signaturePolicies", 200, { anything: true }))).toBeUndefined();
  });
});
