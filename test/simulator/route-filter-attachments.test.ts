import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;

async function provisionedFilter(type = "BGP_IPv4_PREFIX_FILTER", projectId: string = PRODUCTION): Promise<string> {
  const res = await t.call("POST", "/fabric/v4/routeFilters", { body: { type, name: `rf-${type}`, project: { projectId } } });
  expect(res.status).toBe(202);
  await t.waitFor(`/fabric/v4/routeFilters/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid;
}

const attachPath = (connection: string, filter: string) => `/fabric/v4/connections/${connection}/routeFilters/${filter}`;
const attach = (connection: string, filter: string, direction: unknown = "INBOUND", client: "demo" | "limited" = "demo") =>
  t.call("PUT", attachPath(connection, filter), { body: { direction }, client });

describe("attaching a route filter", () => {
  it("attaches: 202 ATTACHING with the filter's uuid and type, then ATTACHED", async () => {
    const filter = await provisionedFilter();
    const connection = seedConnection(t);
    const res = await attach(connection, filter);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      href: attachPath(connection, filter),
      type: "BGP_IPv4_PREFIX_FILTER",
      uuid: filter,
      attachmentStatus: "ATTACHING",
      direction: "INBOUND",
      changeLog: { createdBy: "demo-user" },
    });
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "ATTACHED");
    const counted = await t.call("GET", `/fabric/v4/routeFilters/${filter}`);
    expect(counted.body.connectionsCount).toBe(1);
  });

  it("attaches one filter of each type in each direction", async () => {
    const connection = seedConnection(t);
    const filters = [await provisionedFilter("BGP_IPv4_PREFIX_FILTER"), await provisionedFilter("BGP_IPv6_PREFIX_FILTER")];
    for (const filter of filters) expect((await attach(connection, filter, "INBOUND")).status).toBe(202);
    const outbound = [await provisionedFilter("BGP_IPv4_PREFIX_FILTER"), await provisionedFilter("BGP_IPv6_PREFIX_FILTER")];
    for (const filter of outbound) expect((await attach(connection, filter, "OUTBOUND")).status).toBe(202);
    const list = await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters`);
    expect(list.body.pagination).toEqual({ offset: 0, limit: 20, total: 4 });
    expect(list.body.data.map((a: { direction: string; type: string }) => `${a.direction} ${a.type}`).sort()).toEqual([
      "INBOUND BGP_IPv4_PREFIX_FILTER",
      "INBOUND BGP_IPv6_PREFIX_FILTER",
      "OUTBOUND BGP_IPv4_PREFIX_FILTER",
      "OUTBOUND BGP_IPv6_PREFIX_FILTER",
    ]);
  });

  it("refuses a second filter of the same type in the same direction, and the same filter twice", async () => {
    const connection = seedConnection(t);
    const first = await provisionedFilter();
    const second = await provisionedFilter();
    expect((await attach(connection, first)).status).toBe(202);
    const sameSlot = await attach(connection, second, "INBOUND");
    expect(sameSlot.status).toBe(400);
    expect(sameSlot.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "direction" }] });
    const twice = await attach(connection, first, "OUTBOUND");
    expect(twice.status).toBe(400);
    expect(twice.body[0].additionalInfo[0].property).toBe("routeFilterId");
  });

  it("requires a direction of INBOUND or OUTBOUND", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    const missing = await t.call("PUT", attachPath(connection, filter), { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body[0]).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "direction" }] });
    const wrong = await attach(connection, filter, "SIDEWAYS");
    expect(wrong.body[0]).toMatchObject({ errorCode: "EQ-3044001", errorMessage: "Invalid input", additionalInfo: [{ property: "direction" }] });
    expect((await attach(connection, filter, 1)).body[0].errorCode).toBe("EQ-3044001");
    expect((await t.call("PUT", attachPath(connection, filter), { raw: "nope", contentType: "application/json" })).status).toBe(400);
    expect((await t.call("PUT", attachPath(connection, filter), { raw: "nope", contentType: "text/plain" })).status).toBe(415);
  });

  it("needs a connection and a filter that exist and that the caller can see", async () => {
    const filter = await provisionedFilter();
    const connection = seedConnection(t);
    const noConnection = await attach("00000000-0000-4000-8000-000000000000", filter);
    expect(noConnection.status).toBe(404);
    expect(noConnection.body[0]).toMatchObject({ errorCode: "EQ-3041120", additionalInfo: [{ property: "connectionId" }] });
    const noFilter = await attach(connection, "00000000-0000-4000-8000-000000000000");
    expect(noFilter.status).toBe(404);
    expect(noFilter.body[0].additionalInfo[0].property).toBe("routeFilterId");
    const hiddenConnection = await attach(connection, filter, "INBOUND", "limited");
    expect(hiddenConnection.status).toBe(404);
    const sandboxConnection = seedConnection(t, { projectId: SANDBOX });
    const hiddenFilter = await attach(sandboxConnection, filter, "INBOUND", "limited");
    expect(hiddenFilter.status).toBe(404);
    expect(hiddenFilter.body[0].additionalInfo[0].property).toBe("routeFilterId");
  });

  it("refuses connections in a transient state (EQ-3044008) or not provisioned", async () => {
    const filter = await provisionedFilter();
    const provisioning = seedConnection(t, { state: "PROVISIONING" });
    const transient = await attach(provisioning, filter);
    expect(transient.status).toBe(400);
    expect(transient.body[0]).toMatchObject({ errorCode: "EQ-3044008", additionalInfo: [{ property: "connectionId" }] });
    const deprovisioned = seedConnection(t, { state: "DEPROVISIONED" });
    const dead = await attach(deprovisioned, filter);
    expect(dead.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "connectionId" }] });
  });

  it("refuses filters that are not PROVISIONED", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    await t.call("PATCH", `/__sim/objects/${filter}`, { body: { state: "REPROVISIONING" } });
    const res = await attach(connection, filter);
    expect(res.status).toBe(400);
    expect(res.body[0].additionalInfo[0]).toMatchObject({ property: "routeFilterId", value: "REPROVISIONING" });
  });

  it("ends in FAILED when a transition failure is injected, and the pair can be attached again", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routeFilterAttachments", count: 1 } } });
    await attach(connection, filter);
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "FAILED");
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.connectionsCount).toBe(0);
    expect((await attach(connection, filter)).status).toBe(202);
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "ATTACHED");
  });
});

describe("connections that go away", () => {
  it("frees the filter when its connection is deprovisioned or deleted", async () => {
    const filter = await provisionedFilter();
    const deprovisioned = seedConnection(t);
    const deleted = seedConnection(t);
    await attach(deprovisioned, filter, "INBOUND");
    await attach(deleted, filter, "OUTBOUND");
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.connectionsCount).toBe(2);
    await t.call("PATCH", `/__sim/objects/${deprovisioned}`, { body: { state: "DEPROVISIONED" } });
    await t.call("DELETE", `/__sim/objects/${deleted}`);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.connectionsCount).toBe(0);
    expect((await t.call("DELETE", `/fabric/v4/routeFilters/${filter}`)).status).toBe(202);
  });
});

describe("reading attachments", () => {
  it("pages a connection's attachments and refuses bad pages and unknown parameters", async () => {
    const connection = seedConnection(t);
    await attach(connection, await provisionedFilter("BGP_IPv4_PREFIX_FILTER"));
    await attach(connection, await provisionedFilter("BGP_IPv6_PREFIX_FILTER"));
    const page = await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters?offset=0&limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.pagination).toMatchObject({ offset: 0, limit: 1, total: 2 });
    expect(page.body.pagination.next).toBe(`/fabric/v4/connections/${connection}/routeFilters?offset=1&limit=1`);
    expect(page.body.data).toHaveLength(1);
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters?limit=101`)).status).toBe(400);
    const unknown = await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters?direction=INBOUND`);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "direction" }] });
  });

  it("answers 404 for an unknown connection or a filter that is not attached", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    expect((await t.call("GET", "/fabric/v4/connections/nope/routeFilters")).status).toBe(404);
    const notAttached = await t.call("GET", attachPath(connection, filter));
    expect(notAttached.status).toBe(404);
    expect(notAttached.body[0].additionalInfo[0].property).toBe("routeFilterId");
    await attach(connection, filter);
    expect((await t.call("GET", attachPath(connection, filter), { client: "limited" })).status).toBe(404);
  });
});

describe("detaching a route filter", () => {
  it("detaches: 202 DETACHING, then DETACHED, then gone; the filter can then be deleted", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    await attach(connection, filter, "OUTBOUND");
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "ATTACHED");
    const res = await t.call("DELETE", attachPath(connection, filter));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ uuid: filter, attachmentStatus: "DETACHING", direction: "OUTBOUND", changeLog: { deletedBy: "demo-user" } });
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "DETACHED");
    expect((await t.call("GET", `/fabric/v4/routeFilters/${filter}`)).body.connectionsCount).toBe(0);
    expect((await t.call("DELETE", attachPath(connection, filter))).status).toBe(404);
    await t.eventually(async () => ((await t.call("GET", attachPath(connection, filter))).status === 404 ? true : undefined), "the attachment to disappear");
    expect((await t.call("DELETE", `/fabric/v4/routeFilters/${filter}`)).status).toBe(202);
  });

  it("refuses to detach while attaching, on a transient connection, or when nothing is attached", async () => {
    const connection = seedConnection(t);
    const filter = await provisionedFilter();
    await attach(connection, filter);
    await t.waitFor(attachPath(connection, filter), "/attachmentStatus", "ATTACHED");
    // Hold the attachment in ATTACHING, independent of the fast clock.
    const attachment = t.sim.world.list("routeFilterAttachments")[0]!;
    t.sim.world.settle(attachment);
    t.sim.world.apply(attachment, { at: t.sim.world.now(), set: { "/attachmentStatus": "ATTACHING" } });
    const attaching = await t.call("DELETE", attachPath(connection, filter));
    expect(attaching.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "routeFilterId", value: "ATTACHING" }] });
    t.sim.world.apply(attachment, { at: t.sim.world.now(), set: { "/attachmentStatus": "ATTACHED" } });
    await t.call("PATCH", `/__sim/objects/${connection}`, { body: { state: "REPROVISIONING" } });
    const transient = await t.call("DELETE", attachPath(connection, filter));
    expect(transient.body[0]).toMatchObject({ errorCode: "EQ-3044008", additionalInfo: [{ property: "connectionId" }] });
    const other = await provisionedFilter("BGP_IPv6_PREFIX_FILTER");
    expect((await t.call("DELETE", attachPath(connection, other))).status).toBe(404);
    expect((await t.call("DELETE", attachPath("nope", filter))).body[0].errorCode).toBe("EQ-3041120");
  });
});
