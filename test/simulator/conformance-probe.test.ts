// Every operation the simulator serves, asked the ways a request commonly goes wrong: without a token,
// with a query parameter it does not define, about an object that does not exist (with no body, an empty
// object and an empty list), with a body in a media type it does not read. Each answer's status must be one its official description lists, or one a named
// exception in conformance-exceptions.ts allows (the harness checks every answer when the file ends), and
// none may be a server error.

import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator, type CallOptions } from "../support/sim.js";

const t = useSimulator();

/** An id that names nothing, in every path parameter. */
const UNKNOWN = "0c5d0c8b-0000-4000-8000-00000000abcd";

/** Paths answered without a bearer token: the token endpoints, and the bare-metal API's own key header. */
const OWN_AUTH = ["/oauth2/", "/metal/"];

describe("every served operation, asked wrongly", () => {
  it("answers each with a documented status or a named exception's, and never with a server error", async () => {
    const operations = new Map<string, { method: string; path: string }>();
    for (const route of t.sim.app.routes) {
      if (route.method === "ALL" || route.path.startsWith("/__sim") || route.path.includes("*")) continue;
      const path = route.path.replace(/:[^/]+/g, UNKNOWN);
      operations.set(`${route.method} ${path}`, { method: route.method, path });
    }
    expect(operations.size).toBeGreaterThan(150);

    const serverErrors: string[] = [];
    const ask = async (method: string, path: string, options: CallOptions) => {
      const res = await t.call(method, path, options);
      if (res.status >= 500) serverErrors.push(`${method} ${path} -> ${res.status}: ${res.text.slice(0, 200)}`);
    };
    for (const { method, path } of operations.values()) {
      const withBody = method === "POST" || method === "PUT" || method === "PATCH";
      if (!OWN_AUTH.some((prefix) => path.startsWith(prefix))) await ask(method, path, { client: "none" });
      await ask(method, `${path}?notAParameter=1`, {});
      await ask(method, path, {});
      // An object and a list: whichever the operation takes gets past the body's shape to the unknown id.
      if (withBody) for (const body of [{}, []]) await ask(method, path, { body });
      if (withBody) await ask(method, path, { raw: "not json", contentType: "text/plain" });
    }
    expect(serverErrors).toEqual([]);
  });

  it("answers a create in a project the caller may not use with 403, where the description has one or an exception names it", async () => {
    const sandboxOnly = { client: "limited" as const };
    const acl = await t.call("POST", "/ne/v1/aclTemplates", {
      ...sandboxOnly,
      body: { name: "elsewhere", projectId: PROJECTS.production.projectId, inboundRules: [{ protocol: "TCP", srcPort: "any", dstPort: "22", subnet: "198.51.100.0/24" }] },
    });
    expect(acl.status).toBe(403);
  });
});
