import { describe, expect, it } from "vitest";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { SANDBOX, coloSide, connectionBody, deviceSide, problem, provisioned, qinqSide, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const CONNECTIONS = "/fabric/v4/connections";

const patch = (uuid: string, body: unknown, query = "") => t.call("PATCH", `${CONNECTIONS}/${uuid}${query}`, { body, contentType: "application/json-patch+json" });
const replace = (path: string, value: unknown) => [{ op: "replace", path, value }];
const action = (uuid: string, body: unknown) => t.call("POST", `${CONNECTIONS}/${uuid}/actions`, { body });

async function expectPatchProblem(uuid: string, body: unknown, code: string, property: string): Promise<string> {
  const res = await patch(uuid, body);
  expect(res.status, res.text).toBe(400);
  expect(problem(res.body).errorCode).toBe(code);
  expect(problem(res.body).additionalInfo?.[0]?.property).toBe(property);
  return problem(res.body).additionalInfo![0]!.reason;
}

describe("PATCH /fabric/v4/connections/{uuid}", () => {
  it("renames and resizes a connection, with a completed CONNECTION_UPDATE change and an updated changeLog", async () => {
    const uuid = await provisioned(t);
    const before = (await t.call("GET", `${CONNECTIONS}/${uuid}`)).body;
    const res = await patch(uuid, [...replace("/name", "renamed"), ...replace("/bandwidth", 1000)]);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      name: "renamed",
      bandwidth: 1000,
      state: "PROVISIONED",
      order: { billingTier: "Up to 1 GB" },
      change: { type: "CONNECTION_UPDATE", status: "COMPLETED", data: { op: "replace", path: "/bandwidth", value: 1000 } },
      changeLog: { createdDateTime: before.changeLog.createdDateTime, updatedBy: "demo-user" },
    });
    expect(res.body.change.uuid).not.toBe(before.change.uuid);
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}`)).body.name).toBe("renamed");
  });

  it("accepts the application/json content type as well", async () => {
    const uuid = await provisioned(t);
    expect((await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: replace("/name", "plain-json") })).status).toBe(202);
  });

  it("refuses other ops and paths, naming them", async () => {
    const uuid = await provisioned(t);
    const op = await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: [{ op: "add", path: "/name", value: "x" }] });
    expect(op.status).toBe(400);
    expect(problem(op.body).additionalInfo?.[0]).toMatchObject({ property: "/0/op" });
    expect(problem(op.body).additionalInfo?.[0]?.reason).toMatch(/op add/);
    const reason = await expectPatchProblem(uuid, replace("/description", "x"), "EQ-2012025", "/description");
    expect(reason).toMatch(/\/description cannot be patched/);
    await expectPatchProblem(uuid, replace("/order/termLength", 12), "EQ-2012025", "/order/termLength");
    await expectPatchProblem(uuid, [{ op: "replace", value: "x" }], "EQ-2012011", "/0/path");
    await expectPatchProblem(uuid, [{ op: "replace", path: "/name" }], "EQ-2012011", "/0/value");
    await expectPatchProblem(uuid, [], "EQ-2010010", "body");
    await expectPatchProblem(uuid, ["replace"], "EQ-2010010", "/0");
    expect((await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: { op: "replace" } })).status).toBe(400);
  });

  it("validates values like a create", async () => {
    const uuid = await provisioned(t);
    await expectPatchProblem(uuid, replace("/name", 3), "EQ-2010010", "/name");
    await expectPatchProblem(uuid, replace("/bandwidth", "1000"), "EQ-2010010", "/bandwidth");
    await expectPatchProblem(uuid, replace("/bandwidth", 150), "EQ-2012025", "/bandwidth");
    const many = Array.from({ length: 13 }, (_, i) => `n${i}@example.com`);
    await expectPatchProblem(uuid, replace("/notifications", [{ type: "ALL", emails: many }]), "EQ-2010010", "/notifications");
    const ok = await patch(uuid, replace("/notifications", [{ type: "ALL", emails: many.slice(1) }]));
    expect(ok.body.notifications[0].emails).toHaveLength(12);
  });

  it("keeps a resized connection within its port's available bandwidth", async () => {
    await provisioned(t, { zSide: coloSide(seededPort("DC", "SECONDARY"), 10), bandwidth: 6000 });
    const uuid = await provisioned(t, { aSide: coloSide(seededPort("DC", "PRIMARY"), 11), zSide: coloSide(seededPort("SV", "PRIMARY"), 10), bandwidth: 2000 });
    expect((await patch(uuid, replace("/bandwidth", 4000))).status).toBe(202);
    const reason = await expectPatchProblem(uuid, replace("/bandwidth", 4001), "EQ-2010010", "/bandwidth");
    expect(reason).toMatch(/4000 Mbps available/);
  });

  it("moves the a-side to another port of the same encapsulation with its VLAN free", async () => {
    const uuid = await provisioned(t);
    const moved = await patch(uuid, replace("/aSide/accessPoint/port/uuid", seededPort("SV", "PRIMARY")));
    expect(moved.status, moved.text).toBe(202);
    expect(moved.body.aSide.accessPoint).toMatchObject({ port: { uuid: seededPort("SV", "PRIMARY") }, location: { metroCode: "SV" }, linkProtocol: { vlanTag: 100 } });
    await provisioned(t, { aSide: coloSide(seededPort("NY", "PRIMARY"), 100) });
    await expectPatchProblem(uuid, replace("/aSide/accessPoint/port/uuid", seededPort("NY", "PRIMARY")), "EQ-2010010", "/aSide/accessPoint/port/uuid");
    await expectPatchProblem(uuid, replace("/aSide/accessPoint/port/uuid", seededPort("NY", "QINQ")), "EQ-2010010", "/aSide/accessPoint/port/uuid");
    await expectPatchProblem(uuid, replace("/aSide/accessPoint/port/uuid", "missing"), "EQ-2012010", "/aSide/accessPoint/port/uuid");
    await expectPatchProblem(uuid, replace("/aSide/accessPoint", { virtualDevice: { type: "EDGE", uuid: seedDevice(t) } }), "EQ-2010010", "/aSide/accessPoint");
  });

  it("moves a virtual device a-side to another device and interface", async () => {
    const uuid = await provisioned(t, { aSide: deviceSide(seedDevice(t)) });
    const other = seedDevice(t, { metroCode: "SV" });
    const res = await patch(uuid, replace("/aSide/accessPoint", { virtualDevice: { type: "EDGE", uuid: other }, interface: { type: "CLOUD", id: 7 } }));
    expect(res.status, res.text).toBe(202);
    expect(res.body.aSide.accessPoint).toMatchObject({ type: "VD", virtualDevice: { uuid: other }, interface: { type: "CLOUD", id: 7 }, location: { metroCode: "SV" } });
    await expectPatchProblem(uuid, replace("/aSide/accessPoint", { virtualDevice: { type: "EDGE", uuid: "missing" } }), "EQ-2012010", "/aSide/accessPoint/virtualDevice/uuid");
    await expectPatchProblem(uuid, replace("/aSide/accessPoint/port/uuid", seededPort("SV", "PRIMARY")), "EQ-2010010", "/aSide/accessPoint/port/uuid");
    await expectPatchProblem(uuid, replace("/aSide/accessPoint", "device"), "EQ-2010010", "/aSide/accessPoint");
  });

  it("checks without changing on dryRun=true", async () => {
    const uuid = await provisioned(t);
    const dry = await patch(uuid, replace("/name", "dry"), "?dryRun=true");
    expect(dry.status).toBe(200);
    expect(dry.body.name).toBe("dry");
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}`)).body.name).toBe("dc-to-direct");
  });

  it("answers 404 for unknown and foreign connections, and refuses deprovisioned ones", async () => {
    expect((await patch("00000000-0000-4000-8000-000000000000", replace("/name", "x"))).status).toBe(404);
    const uuid = await provisioned(t);
    expect((await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: replace("/name", "x"), client: "limited" })).status).toBe(404);
    await t.call("DELETE", `${CONNECTIONS}/${uuid}`);
    await t.waitFor(`${CONNECTIONS}/${uuid}`, "/state", "DEPROVISIONED");
    const gone = await patch(uuid, replace("/name", "x"));
    expect(gone.status).toBe(400);
    expect(problem(gone.body).errorCode).toBe("EQ-3041120");
  });
});

describe("DELETE /fabric/v4/connections/{uuid}", () => {
  it("answers 200 DEPROVISIONING, then reads DEPROVISIONED, and refuses a second deletion", async () => {
    const uuid = await provisioned(t);
    const res = await t.call("DELETE", `${CONNECTIONS}/${uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uuid,
      state: "DEPROVISIONING",
      operation: { equinixStatus: "DEPROVISIONING", providerStatus: "DEPROVISIONING" },
      change: { type: "CONNECTION_DELETION", status: "REQUESTED" },
      changeLog: { deletedBy: "demo-user" },
    });
    const gone = await t.waitFor(`${CONNECTIONS}/${uuid}`, "/state", "DEPROVISIONED");
    expect(gone.operation).toEqual({ equinixStatus: "DEPROVISIONED", providerStatus: "DEPROVISIONED" });
    const again = await t.call("DELETE", `${CONNECTIONS}/${uuid}`);
    expect(again.status).toBe(400);
    expect(problem(again.body).errorCode).toBe("EQ-3041120");
  });

  it("deletes a failed connection, and retries a failed deletion through an action", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 2 } } });
    const created = await t.call("POST", CONNECTIONS, { body: connectionBody() });
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "FAILED");
    expect((await t.call("DELETE", `${CONNECTIONS}/${created.body.uuid}`)).status).toBe(200);
    const failed = await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "FAILED");
    expect(failed.operation.equinixStatus).toBe("NOT_DEPROVISIONED");
    expect((await action(created.body.uuid, { type: "CONNECTION_DELETION_RETRY" })).status).toBe(202);
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "DEPROVISIONED");
  });

  it("answers 404 for unknown and foreign connections", async () => {
    expect((await t.call("DELETE", `${CONNECTIONS}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const uuid = await provisioned(t);
    expect((await t.call("DELETE", `${CONNECTIONS}/${uuid}`, { client: "limited" })).status).toBe(404);
  });
});

describe("POST /fabric/v4/connections/{uuid}/actions", () => {
  it("fetches the provider bandwidth and synchronises the provider status", async () => {
    const uuid = await provisioned(t, { bandwidth: 500 });
    const bw = await action(uuid, { type: "CONNECTION_PROVIDER_BANDWIDTH_REQUEST" });
    expect(bw.status).toBe(202);
    expect(bw.body).toMatchObject({ type: "CONNECTION_PROVIDER_BANDWIDTH_REQUEST", data: { providerBandwidth: 500 }, changeLog: { createdBy: "demo-user" } });
    expect(bw.body.href).toBe(`${CONNECTIONS}/${uuid}/actions/${bw.body.uuid}`);
    const sync = await action(uuid, { type: "CONNECTION_PROVIDER_STATUS_REQUEST", description: "BGP sync" });
    expect(sync.body).toMatchObject({ type: "CONNECTION_PROVIDER_STATUS_REQUEST", description: "BGP sync", data: {} });
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}`)).body.change).toMatchObject({ type: "CONNECTION_PROVIDER_STATUS_REQUEST", status: "COMPLETED" });
  });

  it("approves or rejects a bandwidth change waiting for approval", async () => {
    const uuid = await provisioned(t);
    const pending = { change: { type: "CONNECTION_UPDATE", status: "SUBMITTED_FOR_APPROVAL", createdDateTime: "2025-01-01T00:00:00Z", data: { op: "replace", path: "/bandwidth", value: 500 } } };
    await t.call("PATCH", `/__sim/objects/${uuid}`, { body: pending });
    expect((await action(uuid, { type: "CONNECTION_UPDATE_ACCEPTANCE" })).status).toBe(202);
    const approved = (await t.call("GET", `${CONNECTIONS}/${uuid}`)).body;
    expect(approved).toMatchObject({ bandwidth: 500, change: { status: "COMPLETED" }, order: { billingTier: "Up to 500 MB" } });
    await t.call("PATCH", `/__sim/objects/${uuid}`, { body: pending });
    expect((await action(uuid, { type: "CONNECTION_UPDATE_REJECTION", description: "too big" })).status).toBe(202);
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}`)).body.change.status).toBe("REJECTED");
    const none = await action(uuid, { type: "CONNECTION_UPDATE_ACCEPTANCE" });
    expect(none.status).toBe(400);
    expect(problem(none.body).additionalInfo?.[0]?.property).toBe("/type");
  });

  it("retries a failed creation", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "connections", count: 1 } } });
    const created = await t.call("POST", CONNECTIONS, { body: connectionBody() });
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "FAILED");
    expect((await action(created.body.uuid, { type: "CONNECTION_CREATION_RETRY" })).status).toBe(202);
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "PROVISIONED");
    expect((await action(created.body.uuid, { type: "CONNECTION_CREATION_RETRY" })).status).toBe(400);
  });

  it("moves the z-side port on CONNECTION_UPDATE_REQUEST", async () => {
    const uuid = await provisioned(t, { zSide: coloSide(seededPort("DC", "SECONDARY"), 20) });
    const res = await action(uuid, { type: "CONNECTION_UPDATE_REQUEST", data: { zSide: { accessPoint: { type: "COLO", port: { uuid: seededPort("NY", "SECONDARY") } } } } });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.zSide.accessPoint.port.uuid).toBe(seededPort("NY", "SECONDARY"));
    expect((await t.call("GET", `${CONNECTIONS}/${uuid}`)).body.zSide.accessPoint.location.metroCode).toBe("NY");
    const missing = await action(uuid, { type: "CONNECTION_UPDATE_REQUEST" });
    expect(problem(missing.body).additionalInfo?.[0]?.property).toBe("/data");
    const sp = await provisioned(t, { aSide: coloSide(seededPort("DC", "PRIMARY"), 30) });
    const notColo = await action(sp, { type: "CONNECTION_UPDATE_REQUEST", data: { zSide: { accessPoint: { port: { uuid: seededPort("NY", "SECONDARY") } } } } });
    expect(problem(notColo.body).additionalInfo?.[0]?.property).toBe("/data/zSide/accessPoint/port/uuid");
  });

  it("refuses actions that do not apply, unknown types and malformed bodies", async () => {
    const uuid = await provisioned(t);
    for (const type of ["CONNECTION_CREATION_ACCEPTANCE", "CONNECTION_CREATION_REJECTION", "CONNECTION_REJECTION_ACCEPTANCE", "CONNECTION_DELETION_ACCEPTANCE", "CONNECTION_DELETION_RETRY", "MIGRATION_EVPL_VC", "ACCEPT_HOSTED_CONNECTION", "CANCEL_EVPL_VC_DRAFT_ORDERS"]) {
      const res = await action(uuid, { type });
      expect(res.status, type).toBe(400);
      expect(problem(res.body)).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/type" }] });
    }
    const unknown = await action(uuid, { type: "CONNECTION_TELEPORT" });
    expect(problem(unknown.body)).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/type" }] });
    expect(problem((await action(uuid, {})).body)).toMatchObject({ errorCode: "EQ-2012011", additionalInfo: [{ property: "/type" }] });
    expect(problem((await action(uuid, { type: "CONNECTION_PROVIDER_STATUS_REQUEST", data: 3 })).body).additionalInfo?.[0]?.property).toBe("/data");
    expect((await action("00000000-0000-4000-8000-000000000000", { type: "CONNECTION_PROVIDER_STATUS_REQUEST" })).status).toBe(404);
    expect((await t.call("POST", `${CONNECTIONS}/${uuid}/actions`, { body: { type: "CONNECTION_PROVIDER_STATUS_REQUEST" }, client: "limited" })).status).toBe(404);
  });

  it("refuses the provider bandwidth of a deprovisioned connection", async () => {
    const body = connectionBody({ aSide: qinqSide(seededPort("DC", "QINQ"), 300), project: { projectId: SANDBOX } });
    const created = await t.call("POST", CONNECTIONS, { body, client: "limited" });
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "PROVISIONED", "limited");
    await t.call("DELETE", `${CONNECTIONS}/${created.body.uuid}`, { client: "limited" });
    await t.waitFor(`${CONNECTIONS}/${created.body.uuid}`, "/state", "DEPROVISIONED", "limited");
    const res = await t.call("POST", `${CONNECTIONS}/${created.body.uuid}/actions`, { body: { type: "CONNECTION_PROVIDER_BANDWIDTH_REQUEST" }, client: "limited" });
    expect(res.status).toBe(400);
  });
});
