import { describe, expect, it } from "vitest";
import { SPEED_HEADER, createSimulator, parseFaultSpec, type Exchange } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

describe("OAuth token endpoint", () => {
  it("issues a bearer token to a seeded client", async () => {
    const res = await t.call("POST", "/oauth2/v1/token", {
      client: "none",
      body: { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", token_timeout: "3599", user_name: "demo-user" });
    expect(res.body.access_token).toMatch(/^\S{20,}$/);
  });

  it("accepts a form-encoded request", async () => {
    const res = await t.call("POST", "/oauth2/v1/token", {
      client: "none",
      raw: "grant_type=client_credentials&client_id=limited-client&client_secret=limited-secret",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(200);
    expect(res.body.user_name).toBe("limited-user");
  });

  it("refuses a wrong secret and an unsupported grant", async () => {
    const wrong = await t.call("POST", "/oauth2/v1/token", { client: "none", body: { grant_type: "client_credentials", client_id: "demo-client", client_secret: "nope" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error_code: "IC-AUTH-400" });
    const grant = await t.call("POST", "/oauth2/v1/token", { client: "none", body: { grant_type: "authorization_code", client_id: "demo-client", client_secret: "demo-secret" } });
    expect(grant.status).toBe(400);
    expect(grant.body.developer_message).toMatch(/use client_credentials or password/);
  });
});

describe("bearer tokens", () => {
  it("answers 401 in problem style A without a token or with an unknown one", async () => {
    const none = await t.call("GET", "/fabric/v4/metros", { client: "none" });
    expect(none.status).toBe(401);
    expect(none.body[0]).toMatchObject({ errorCode: "EQ-3036001", additionalInfo: [{ property: "Authorization" }] });
    const bad = await t.call("GET", "/fabric/v4/metros", { client: "none", headers: { authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
  });

  it("answers 401 in problem style B on the device service", async () => {
    const res = await t.call("GET", "/ne/v1/devices", { client: "none" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCode: "EQ-3000039", property: "Authorization", status: "401" });
  });
});

describe("bad input never crashes the server", () => {
  it("answers 404 for unknown paths and 405 for unknown methods", async () => {
    const unknown = await t.call("GET", "/fabric/v4/nothingHere");
    expect(unknown.status).toBe(404);
    expect(unknown.body[0].errorCode).toBe("EQ-3073004");
    const method = await t.call("DELETE", "/oauth2/v1/token");
    expect(method.status).toBe(405);
  });

  it("refuses bodies over 5 MB with EQ-2012012 and keeps serving", async () => {
    const huge = "x".repeat(5 * 1024 * 1024 + 1);
    const res = await t.call("POST", "/oauth2/v1/token", { client: "none", raw: huge, contentType: "application/json" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "EQ-2012012" });
    expect((await t.call("GET", "/__sim/health")).body).toEqual({ ok: true });
  });

  it("answers malformed JSON with 400 and the wrong content type with 415", async () => {
    const malformed = await t.call("POST", "/oauth2/v1/token", { client: "none", raw: "{not json", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("EQ-3046116");
    const wrongType = await t.call("POST", "/oauth2/v1/token", { client: "none", raw: "hello", contentType: "text/plain" });
    expect(wrongType.status).toBe(415);
  });
});

describe("the simulator's pace", () => {
  it("says its speed on every answer: a token, an object, an error, a path it does not serve, the control API", async () => {
    const answers = [
      await t.call("POST", "/oauth2/v1/token", { client: "none", body: { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" } }),
      await t.call("GET", "/fabric/v4/metros/DC"),
      await t.call("GET", "/fabric/v4/metros", { client: "none" }),
      await t.call("GET", "/ne/v1/nothingHere"),
      await t.call("GET", "/__sim/health"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 200]);
    // useSimulator starts it at speed 1000.
    for (const answer of answers) expect(answer.headers.get(SPEED_HEADER)).toBe("1000");
  });
});

describe("control API", () => {
  it("reports health and logs API requests", async () => {
    await t.call("DELETE", "/__sim/requests");
    await t.call("GET", "/fabric/v4/metros", { client: "none" });
    const log = await t.call("GET", "/__sim/requests");
    expect(log.body).toEqual([expect.objectContaining({ method: "GET", path: "/fabric/v4/metros", status: 401 })]);
    await t.call("DELETE", "/__sim/requests");
    expect((await t.call("GET", "/__sim/requests")).body).toEqual([]);
  });

  it("lists seeded objects by kind and refuses unknown kinds", async () => {
    const ports = await t.call("GET", "/__sim/objects?kind=ports");
    const metros = new Set(ports.body.data.map((p: { location: { metroCode: string } }) => p.location.metroCode));
    expect(metros.size).toBeGreaterThanOrEqual(6);
    for (const m of ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"]) expect(metros).toContain(m);
    const profiles = await t.call("GET", "/__sim/objects?kind=serviceProfiles");
    expect(profiles.body.data.length).toBeGreaterThanOrEqual(3);
    const projects = await t.call("GET", "/__sim/objects?kind=projects");
    expect(projects.body.data.map((p: { projectId: string }) => p.projectId)).toHaveLength(2);
    expect((await t.call("GET", "/__sim/objects?kind=bogus")).status).toBe(400);
  });

  it("injects rate limits with Retry-After, then clears them", async () => {
    expect((await t.call("POST", "/__sim/faults", { body: { rateLimit: { every: 1, retryAfterS: 3 } } })).status).toBe(200);
    const limited = await t.call("GET", "/fabric/v4/metros");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    await t.call("POST", "/__sim/faults", { body: {} });
    expect((await t.call("POST", "/oauth2/v1/token", { client: "none", body: { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" } })).status).toBe(200);
  });

  it("tells whoever observes the exchanges which responses fault injection produced", async () => {
    const seen: Exchange[] = [];
    const sim = createSimulator({ faults: { rateLimit: { every: 2, retryAfterS: 1 } }, onExchange: (e) => void seen.push(e) });
    await sim.app.request("/fabric/v4/metros");
    await sim.app.request("/fabric/v4/metros");
    expect(seen.map((e) => [e.status, e.injectedFault])).toEqual([
      [401, false],
      [429, true],
    ]);
  });

  it("injects server errors at the configured rate and refuses unknown settings", async () => {
    await t.call("POST", "/__sim/faults", { body: { errorRate: 1, errorStatuses: [503] } });
    const res = await t.call("POST", "/oauth2/v1/token", { client: "none", body: {} });
    expect(res.status).toBe(503);
    const bad = await t.call("POST", "/__sim/faults", { body: { errorRat: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/unknown fault setting errorRat/);
  });

  it("carries out a request and then answers 502, or resets the connection, when told to lose the answer", async () => {
    const filter = { type: "BGP_IPv4_PREFIX_FILTER", name: "lost-answer", project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" } };
    await t.call("POST", "/__sim/faults", { body: { afterActed: { answer: 502, count: 1, methods: ["POST"], path: "/fabric/v4/routeFilters" } } });
    expect((await t.call("POST", "/fabric/v4/routeFilters", { body: filter })).status).toBe(502);
    expect((await t.call("GET", "/__sim/faults")).body.afterActed.count).toBe(0);
    await t.call("POST", "/__sim/faults", { body: { afterActed: { answer: "reset", count: 1, path: "/fabric/v4/routeFilters" } } });
    await expect(t.call("POST", "/fabric/v4/routeFilters", { body: { ...filter, name: "lost-connection" } })).rejects.toThrow();
    const names = (await t.call("GET", "/__sim/objects?kind=routeFilters")).body.data.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining(["lost-answer", "lost-connection"]));
    // A refused request did nothing, so its answer stands.
    await t.call("POST", "/__sim/faults", { body: { afterActed: { answer: 502, count: 1 } } });
    expect((await t.call("POST", "/fabric/v4/routeFilters", { body: { name: "no-type" } })).status).toBe(400);
    const bad = await t.call("POST", "/__sim/faults", { body: { afterActed: { answer: 500 } } });
    expect(bad.body.error).toMatch(/afterActed.answer must be 502 or "reset"/);
  });

  it("reads lost answers from the command line's fault settings", () => {
    expect(parseFaultSpec("afterActed.answer=reset,afterActed.count=2,afterActed.methods=PUT;delete,afterActed.path=/fabric/v4/connections/*/routeFilters/*")).toEqual({
      afterActed: { answer: "reset", count: 2, methods: ["PUT", "DELETE"], path: "/fabric/v4/connections/*/routeFilters/*" },
    });
    expect(parseFaultSpec("afterActed.answer=502,afterActed.rate=0.5")).toEqual({ afterActed: { answer: 502, rate: 0.5 } });
    expect(() => parseFaultSpec("afterActed.answer=502,afterActed.methods=GET")).toThrow(/afterActed.methods must be a list of POST, PUT, PATCH, DELETE/);
  });

  it("applies out-of-band changes as the portal user and deletes objects", async () => {
    const port = (await t.call("GET", "/__sim/objects?kind=ports")).body.data[0];
    const patched = await t.call("PATCH", `/__sim/objects/${port.uuid}`, { body: { description: "changed in the portal" } });
    expect(patched.body).toMatchObject({ description: "changed in the portal", lastUpdatedBy: "portal-user" });
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data;
    expect(events).toContainEqual(expect.objectContaining({ assetUuid: port.uuid, actor: "portal-user" }));
    expect((await t.call("DELETE", `/__sim/objects/${port.uuid}`)).status).toBe(204);
    const after = (await t.call("GET", "/__sim/objects?kind=ports")).body.data;
    expect(after.map((p: { uuid: string }) => p.uuid)).not.toContain(port.uuid);
    expect((await t.call("DELETE", `/__sim/objects/${port.uuid}`)).status).toBe(404);
  });

  it("goes back to the seeded world on reset", async () => {
    const port = (await t.call("GET", "/__sim/objects?kind=ports")).body.data[0];
    await t.call("DELETE", `/__sim/objects/${port.uuid}`);
    await t.call("POST", "/__sim/reset");
    const after = (await t.call("GET", "/__sim/objects?kind=ports")).body.data;
    expect(after.map((p: { uuid: string }) => p.uuid)).toContain(port.uuid);
  });
});
