// At real speed a new connection stays PENDING_AUTO_APPROVAL for seconds: long enough to see what the
// service refuses mid-transition and what the approval actions do.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { connectionBody, problem } from "./connections-fixtures.js";

const t = useSimulator({ speed: 1 });
const CONNECTIONS = "/fabric/v4/connections";

const create = async () => (await t.call("POST", CONNECTIONS, { body: connectionBody() })).body.uuid as string;
const action = (uuid: string, type: string) => t.call("POST", `${CONNECTIONS}/${uuid}/actions`, { body: { type } });
const read = async (uuid: string) => (await t.call("GET", `${CONNECTIONS}/${uuid}`)).body;

/** Marks a pending connection provisioned out of band, as if its provisioning had finished. */
const markProvisioned = (uuid: string) =>
  t.call("PATCH", `/__sim/objects/${uuid}`, { body: { state: "PROVISIONED", operation: { equinixStatus: "PROVISIONED", providerStatus: "AVAILABLE" } } });

describe("connections in transient states", () => {
  it("refuses patches and deletion while the connection is pending, with EQ-3142510", async () => {
    const uuid = await create();
    expect((await read(uuid)).state).toBe("PENDING_AUTO_APPROVAL");
    const patched = await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: [{ op: "replace", path: "/name", value: "x" }] });
    expect(patched.status).toBe(400);
    expect(problem(patched.body)).toMatchObject({ errorCode: "EQ-3142510", errorMessage: "Connection is in transient state", additionalInfo: [{ property: "state" }] });
    const deleted = await t.call("DELETE", `${CONNECTIONS}/${uuid}`);
    expect(problem(deleted.body).errorCode).toBe("EQ-3142510");
  });

  it("provisions at once on CONNECTION_CREATION_ACCEPTANCE", async () => {
    const uuid = await create();
    const res = await action(uuid, "CONNECTION_CREATION_ACCEPTANCE");
    expect(res.status).toBe(202);
    expect(await read(uuid)).toMatchObject({ state: "PROVISIONING", operation: { equinixStatus: "PROVISIONING" }, change: { status: "APPROVED" } });
  });

  it("cancels on rejection and its acknowledgement, which frees the VLAN and ends the connection", async () => {
    const uuid = await create();
    expect((await action(uuid, "CONNECTION_CREATION_REJECTION")).status).toBe(202);
    expect(await read(uuid)).toMatchObject({ state: "PENDING", operation: { equinixStatus: "REJECTED", providerStatus: "REJECTED" }, change: { status: "REJECTED" } });
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody() })).status).toBe(400);
    expect((await action(uuid, "CONNECTION_REJECTION_ACCEPTANCE")).status).toBe(202);
    expect(await read(uuid)).toMatchObject({ state: "CANCELLED", operation: { equinixStatus: "REJECTED_ACK" } });
    expect((await t.call("POST", CONNECTIONS, { body: connectionBody() })).status).toBe(201);
    const patched = await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: [{ op: "replace", path: "/name", value: "x" }] });
    expect(problem(patched.body).errorCode).toBe("EQ-3041120");
  });

  it("refuses changes while deprovisioning, and finishes the deletion on CONNECTION_DELETION_ACCEPTANCE", async () => {
    const uuid = await create();
    await markProvisioned(uuid);
    expect((await t.call("DELETE", `${CONNECTIONS}/${uuid}`)).body.state).toBe("DEPROVISIONING");
    const patched = await t.call("PATCH", `${CONNECTIONS}/${uuid}`, { body: [{ op: "replace", path: "/bandwidth", value: 50 }] });
    expect(problem(patched.body).errorCode).toBe("EQ-3142510");
    expect(problem((await t.call("DELETE", `${CONNECTIONS}/${uuid}`)).body).errorCode).toBe("EQ-3142510");
    expect((await action(uuid, "CONNECTION_DELETION_ACCEPTANCE")).status).toBe(202);
    expect(await read(uuid)).toMatchObject({ state: "DEPROVISIONED", operation: { equinixStatus: "DEPROVISIONED" }, change: { type: "CONNECTION_DELETION", status: "COMPLETED" } });
  });
});
