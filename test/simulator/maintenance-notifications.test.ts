import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

async function seeded(kind: "ibxNotifications" | "networkNotifications") {
  return (await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data as Array<Record<string, unknown>>;
}

describe("GET /v1/notifications/ibx/{id}", () => {
  it("returns an IBX notification with every field of section 2.16", async () => {
    const [first] = await seeded("ibxNotifications");
    const res = await t.call("GET", `/v1/notifications/ibx/${String(first!.id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first!.id, type: "IBX_MAINTENANCE", status: "COMPLETED", globalNotification: false });
    expect(res.body.notificationNumber).toMatch(/^\d-\d+$/);
    expect(Date.parse(res.body.startTimestamp)).toBeLessThan(Date.parse(res.body.endTimestamp));
    expect(res.body.ibxs.length).toBeGreaterThan(0);
    expect(typeof res.body.summary).toBe("string");
    expect(res.body).toHaveProperty("priority");
    expect(res.body.emails[0]).toMatchObject({ subject: expect.any(String), body: expect.stringContaining("<html>"), timestamp: expect.any(String) });
    expect(Array.isArray(res.body.emails[0].attachmentIds)).toBe(true);
    expect(res.body).not.toHaveProperty("productTypes");
  });

  it("seeds global notifications, unset end timestamps and unset priorities", async () => {
    const all = await seeded("ibxNotifications");
    const global = all.find((n) => n.globalNotification === true)!;
    const res = await t.call("GET", `/v1/notifications/ibx/${String(global.id)}`);
    expect(res.body).toMatchObject({ globalNotification: true, endTimestamp: null, priority: null, status: "SCHEDULED" });
  });

  it("answers 404 for an unknown id and for a network notification's id", async () => {
    const unknown = await t.call("GET", "/v1/notifications/ibx/no-such-notification");
    expect(unknown.status).toBe(404);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-3073004", additionalInfo: [{ property: "id" }] });
    const [network] = await seeded("networkNotifications");
    expect((await t.call("GET", `/v1/notifications/ibx/${String(network!.id)}`)).status).toBe(404);
  });

  it("requires the IBX Services Notifications permission", async () => {
    const [first] = await seeded("ibxNotifications");
    const res = await t.call("GET", `/v1/notifications/ibx/${String(first!.id)}`, { client: "limited" });
    expect(res.status).toBe(403);
    expect(res.body[0].errorMessage).toBe("Insufficient permissions");
    expect(res.body[0].additionalInfo[0].reason).toMatch(/master administrator/);
    expect((await t.call("GET", "/v1/notifications/ibx/no-such-notification", { client: "limited" })).status).toBe(403);
  });

  it("requires a bearer token and refuses unknown query parameters", async () => {
    const [first] = await seeded("ibxNotifications");
    expect((await t.call("GET", `/v1/notifications/ibx/${String(first!.id)}`, { client: "none" })).status).toBe(401);
    const query = await t.call("GET", `/v1/notifications/ibx/${String(first!.id)}?ibx=DC1`);
    expect(query.status).toBe(400);
    expect(query.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "ibx" }] });
  });
});

describe("GET /v1/notifications/network/{id}", () => {
  it("returns a network notification with product types and without globalNotification", async () => {
    const [first] = await seeded("networkNotifications");
    const res = await t.call("GET", `/v1/notifications/network/${String(first!.id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first!.id, type: "NETWORK_MAINTENANCE", productTypes: ["METRO_CONNECT"], status: "COMPLETED" });
    expect(res.body).not.toHaveProperty("globalNotification");
    expect(res.body.emails).toHaveLength(1);
  });

  it("moves a scheduled maintenance to IN_PROGRESS when its window starts", async () => {
    const soon = (await seeded("networkNotifications")).find((n) => n.status !== "COMPLETED")!;
    const path = `/v1/notifications/network/${String(soon.id)}`;
    const before = await t.call("GET", path);
    expect(["SCHEDULED", "IN_PROGRESS"]).toContain(before.body.status);
    const started = await t.waitFor(path, "/status", "IN_PROGRESS");
    expect(Date.parse(started.startTimestamp)).toBeLessThanOrEqual(Date.now());
  });

  it("answers 404 for an unknown id and 403 without the permission", async () => {
    expect((await t.call("GET", "/v1/notifications/network/nothing")).status).toBe(404);
    const [first] = await seeded("networkNotifications");
    const limited = await t.call("GET", `/v1/notifications/network/${String(first!.id)}`, { client: "limited" });
    expect(limited.status).toBe(403);
    expect(limited.body[0].errorMessage).toBe("Insufficient permissions");
  });
});
