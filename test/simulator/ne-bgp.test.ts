import { describe, expect, it } from "vitest";
import { seedConnection, seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

/** A provisioned connection from a provisioned device to a port. */
function deviceConnection(deviceStatus = "PROVISIONED"): { connection: string; device: string } {
  const device = seedDevice(t, { status: deviceStatus });
  const connection = seedConnection(t);
  t.sim.world.edit(t.sim.world.get(connection, "connections")!, (body) => (body.aSide = { accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid: device }, interface: { type: "NETWORK", id: 3 } } }));
  return { connection, device };
}

const SESSION = { localIpAddress: "100.210.1.221/30", localAsn: 65010, remoteIpAddress: "100.210.1.222", remoteAsn: 65020, authenticationKey: "bgp-key-123" };

describe("BGP peerings", () => {
  it("peers over a device's connection, comes up on the clock, and changes by PUT", async () => {
    const { connection, device } = deviceConnection();
    const created = await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: connection, ...SESSION } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const uuid = created.body.uuid as string;
    expect(await t.waitFor(`/ne/v1/bgp/${uuid}`, "/provisioningStatus", "PROVISIONED")).toMatchObject({ uuid, connectionUuid: connection, virtualDeviceUuid: device, ...SESSION, state: "Established" });
    expect((await t.call("GET", `/ne/v1/bgp?connectionUuid=${connection}`)).body).toMatchObject({ pagination: { total: 1 }, data: [{ uuid }] });

    const again = await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: connection, ...SESSION } });
    expect(again.body).toMatchObject({ property: "connectionUuid" });
    expect(again.body.errorMessage).toContain(uuid);

    const { authenticationKey: _key, ...withoutKey } = SESSION;
    expect((await t.call("PUT", `/ne/v1/bgp/${uuid}`, { body: { ...withoutKey, remoteAsn: 65030 } })).status).toBe(202);
    const updated = await t.waitFor(`/ne/v1/bgp/${uuid}`, "/provisioningStatus", "PROVISIONED");
    expect(updated).toMatchObject({ remoteAsn: 65030 });
    expect(updated.authenticationKey).toBeUndefined();
    expect((await t.call("DELETE", `/ne/v1/bgp/${uuid}`)).status).toBe(405);
  });

  it("goes with its connection", async () => {
    const { connection } = deviceConnection();
    const uuid = (await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: connection, ...SESSION } })).body.uuid as string;
    t.sim.world.edit(t.sim.world.get(connection, "connections")!, (body) => (body.state = "DEPROVISIONED"));
    expect((await t.call("GET", `/ne/v1/bgp/${uuid}`)).body).toMatchObject({ provisioningStatus: "DEPROVISIONED" });
    expect((await t.call("GET", "/ne/v1/bgp")).body.data).toEqual([]);
  });

  it("refuses a connection that does not end at a provisioned device, and malformed addresses", async () => {
    const plain = seedConnection(t);
    expect((await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: plain, ...SESSION } })).body).toMatchObject({ property: "connectionUuid" });
    const { connection: pending } = deviceConnection("PROVISIONING");
    expect((await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: pending, ...SESSION } })).body).toMatchObject({ property: "connectionUuid" });
    const { connection } = deviceConnection();
    expect((await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: connection, ...SESSION, localIpAddress: "100.210.1.221" } })).body).toMatchObject({ property: "localIpAddress" });
    expect((await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: connection, ...SESSION, remoteAsn: "x" } })).body).toMatchObject({ property: "remoteAsn" });
    expect((await t.call("POST", "/ne/v1/bgp", { body: { connectionUuid: "0b9a2c1e-1111-4222-8333-944455556666", ...SESSION } })).status).toBe(404);
  });
});
