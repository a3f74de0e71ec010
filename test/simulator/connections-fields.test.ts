// Optional fields the service keeps: what a client sends comes back, so a declarative client sees no
// difference that never goes away.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { DIRECT_PROFILE, coloSide, connectionBody, profileSide, seededPort } from "./connections-fixtures.js";

const t = useSimulator();

describe("connection optional fields", () => {
  it("keeps the order's customer reference number and a service profile side's peering type", async () => {
    const zSide = profileSide(DIRECT_PROFILE, "SV");
    const body = connectionBody({
      order: { purchaseOrderNumber: "PO-1", customerReferenceNumber: "REF-42" },
      zSide: { accessPoint: { ...zSide.accessPoint, peeringType: "PRIVATE" } },
    });
    const created = await t.call("POST", "/fabric/v4/connections", { body });
    expect(created.status).toBe(201);
    const read = await t.call("GET", `/fabric/v4/connections/${created.body.uuid}`);
    expect(read.body.order).toMatchObject({ purchaseOrderNumber: "PO-1", customerReferenceNumber: "REF-42" });
    expect(read.body.zSide.accessPoint.peeringType).toBe("PRIVATE");
  });

  it("refuses a peering type outside the official list, naming it", async () => {
    const zSide = profileSide(DIRECT_PROFILE, "SV");
    const res = await t.call("POST", "/fabric/v4/connections", { body: connectionBody({ zSide: { accessPoint: { ...zSide.accessPoint, peeringType: "SIDEWAYS" } } }) });
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-2012025", additionalInfo: [{ property: "/zSide/accessPoint/peeringType" }] });
  });
});

describe("seeded endpoints", () => {
  it("offers a network, a cloud router and a service token to connect to", async () => {
    const { SEEDED_ENDPOINTS } = await import("../../src/simulator/core/seed.js");
    const { network, router, serviceToken } = SEEDED_ENDPOINTS;
    const dc = coloSide(seededPort("DC", "PRIMARY"), 200);
    const bodies = [
      connectionBody({ name: "to-network", type: "EVPLAN_VC", aSide: dc, zSide: { accessPoint: { type: "NETWORK", network: { uuid: network.uuid } } } }),
      connectionBody({ name: "from-router", type: "IP_VC", aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router.uuid } } }, zSide: coloSide(seededPort("DC", "PRIMARY"), 201) }),
      connectionBody({ name: "to-token", aSide: coloSide(seededPort("DC", "PRIMARY"), 202), zSide: { serviceToken: { uuid: serviceToken.uuid } } }),
    ];
    for (const body of bodies) {
      const created = await t.call("POST", "/fabric/v4/connections", { body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    for (const kind of ["networks", "routers", "serviceTokens"]) {
      expect((await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data).toHaveLength(1);
    }
  });
});
