import { beforeEach, describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const PATH = "/ecx/v3/l2/connections";
const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";
const MISSING_UUID = "0f0e0d0c-0b0a-4908-8706-050403020100";

interface Port {
  uuid: string;
  location: { metroCode: string };
  encapsulation: { type: string };
  project: { projectId: string };
}

let ports: Port[] = [];
const portIn = (metro: string, type: "DOT1Q" | "QINQ", n = 0) =>
  ports.filter((p) => p.location.metroCode === metro && p.encapsulation.type === type)[n]!.uuid;

beforeEach(async () => {
  ports = (await t.call("GET", "/__sim/objects?kind=ports")).body.data;
});

function request(overrides: Record<string, unknown> = {}) {
  return {
    primaryName: "LD_CLOUD_1",
    profileUUID: PROFILE,
    speed: 50,
    speedUnit: "MB",
    notifications: ["noc@example.com"],
    purchaseOrderNumber: "PO-2024-001",
    primaryPortUUID: portIn("LD", "DOT1Q"),
    primaryVlanSTag: 1001,
    sellerMetroCode: "LD",
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}, client: "demo" | "limited" = "demo") {
  return t.call("POST", PATH, { body: request(overrides), client });
}

/** Expects a style B error with this code and property. */
async function expectError(overrides: Record<string, unknown>, code: string, property: string, client: "demo" | "limited" = "demo") {
  const res = await create(overrides, client);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ errorCode: code, property, status: "400", moreInfo: expect.any(String) });
  expect(typeof res.body.errorMessage).toBe("string");
  return res.body;
}

describe("POST /ecx/v3/l2/connections", () => {
  it("creates a connection that provisions on the clock", async () => {
    const res = await create({ authorizationKey: "123456789012", namedTag: "Private", primaryVlanCTag: 20 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Connection Saved Successfully", primaryConnectionId: expect.any(String) });
    const path = `${PATH}/${res.body.primaryConnectionId}`;
    const first = await t.call("GET", path);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      uuid: res.body.primaryConnectionId,
      name: "LD_CLOUD_1",
      vlanSTag: 1001,
      vlanCTag: 20,
      portUUID: portIn("LD", "DOT1Q"),
      asideEncapsulation: "dot1q",
      metroCode: "LD",
      metroDescription: "London",
      billingTier: "Up to 50 MB",
      speed: 50,
      speedUnit: "MB",
      redundancyType: "primary",
      sellerMetroCode: "LD",
      sellerServiceUUID: PROFILE,
      authorizationKey: "123456789012",
      namedTag: "Private",
      notifications: ["noc@example.com"],
      purchaseOrderNumber: "PO-2024-001",
      createdBy: "demo-user",
      remote: false,
    });
    // The fast clock may already have finished provisioning; the recorded state changes show the way there.
    expect(["PROVISIONING", "PROVISIONED"]).toContain(first.body.status);
    const done = await t.waitFor(path, "/status", "PROVISIONED");
    expect(done.providerStatus).toBe("PROVISIONED");
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { assetUuid: string }) => e.assetUuid === done.uuid);
    expect(events.map((e: { state: string }) => e.state)).toEqual(["PROVISIONING", "PROVISIONED"]);
  });

  it("ends in FAILED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "legacyConnections", count: 1 } } });
    const res = await create();
    const failed = await t.waitFor(`${PATH}/${res.body.primaryConnectionId}`, "/status", "FAILED");
    expect(failed.providerStatus).toBe("NOT_AVAILABLE");
  });

  it("creates a redundant pair from two ports of the same type", async () => {
    const res = await create({ secondaryName: "LD_CLOUD_2", secondaryPortUUID: portIn("LD", "DOT1Q", 1), secondaryVlanSTag: 1002, speed: 1, speedUnit: "GB" });
    expect(res.status).toBe(200);
    const primary = (await t.call("GET", `${PATH}/${res.body.primaryConnectionId}`)).body;
    const secondary = (await t.call("GET", `${PATH}/${res.body.secondaryConnectionId}`)).body;
    expect(secondary).toMatchObject({ name: "LD_CLOUD_2", redundancyType: "secondary", redundantUUID: primary.uuid, redundancyGroup: primary.redundancyGroup, vlanSTag: 1002 });
    expect(primary.redundantUUID).toBe(secondary.uuid);
    expect(primary.billingTier).toBe("Up to 1 GB");
  });

  it("accepts names with single spaces between words and marks remote connections", async () => {
    const res = await create({ primaryName: "To AWS 1", sellerMetroCode: "FR" });
    expect(res.status).toBe(200);
    const body = (await t.call("GET", `${PATH}/${res.body.primaryConnectionId}`)).body;
    expect(body).toMatchObject({ name: "To AWS 1", remote: true, sellerMetroDescription: "Frankfurt" });
  });

  describe("IC-LAYER2-402 field rules", () => {
    it("name longer than 24 characters (PrimaryName)", async () => {
      await expectError({ primaryName: "A".repeat(25) }, "IC-LAYER2-402", "PrimaryName");
      expect((await create({ primaryName: "A".repeat(24) })).status).toBe(200);
    });

    it("name pattern: letters, digits, underscore and spaces between words (PrimaryName)", async () => {
      for (const name of ["bad-name", "two  spaces", " leading", "trailing ", "dot.name"]) {
        await expectError({ primaryName: name }, "IC-LAYER2-402", "PrimaryName");
      }
    });

    it("invalid profile UUID (profileUUID)", async () => {
      await expectError({ profileUUID: "invalid_uuid" }, "IC-LAYER2-402", "profileUUID");
      await expectError({ profileUUID: MISSING_UUID }, "IC-LAYER2-402", "profileUUID");
    });

    it("purchase order number longer than 30 characters (purchaseOrderNumber)", async () => {
      await expectError({ purchaseOrderNumber: "P".repeat(31) }, "IC-LAYER2-402", "purchaseOrderNumber");
      expect((await create({ purchaseOrderNumber: "P".repeat(30) })).status).toBe(200);
    });

    it("speed unit outside MB, GB (speedUnit)", async () => {
      const body = await expectError({ speedUnit: "KB" }, "IC-LAYER2-402", "speedUnit");
      expect(body.errorMessage).toMatch(/MB, GB/);
    });

    it("C-tag outside 2 to 4094 (primaryVlanCTag)", async () => {
      for (const tag of [1, 4095, "100"]) await expectError({ primaryVlanCTag: tag }, "IC-LAYER2-402", "primaryVlanCTag");
      expect((await create({ primaryVlanCTag: 2 })).status).toBe(200);
    });

    it("S-tag outside 2 to 4094 (primaryVlanSTag)", async () => {
      for (const tag of [0, 4095, 12.5]) await expectError({ primaryVlanSTag: tag }, "IC-LAYER2-402", "primaryVlanSTag");
      expect((await create({ primaryVlanSTag: 4094 })).status).toBe(200);
    });

    it("malformed port identifier (primaryPortUUID)", async () => {
      await expectError({ primaryPortUUID: "port-1" }, "IC-LAYER2-402", "primaryPortUUID");
    });

    it("missing required fields and wrong types", async () => {
      const missing = await t.call("POST", PATH, { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ errorCode: "IC-LAYER2-402", property: "PrimaryName" });
      expect(missing.body.errorMessage).toMatch(/more problems/);
      await expectError({ speed: "fast" }, "IC-LAYER2-402", "speed");
      await expectError({ notifications: ["not-an-email"] }, "IC-LAYER2-402", "notifications");
      await expectError({ sellerMetroCode: 7 }, "IC-LAYER2-402", "sellerMetroCode");
    });

    it("secondary leg rules (SecondaryName, secondaryPortUUID, secondaryVlanSTag)", async () => {
      await expectError({ secondaryName: "X".repeat(25), secondaryPortUUID: portIn("LD", "DOT1Q", 1), secondaryVlanSTag: 5 }, "IC-LAYER2-402", "SecondaryName");
      await expectError({ secondaryName: "SEC", secondaryPortUUID: "nope", secondaryVlanSTag: 5 }, "IC-LAYER2-402", "secondaryPortUUID");
      await expectError({ secondaryName: "SEC", secondaryPortUUID: portIn("LD", "DOT1Q", 1) }, "IC-LAYER2-402", "secondaryVlanSTag");
    });

    it("offer of the profile: seller metro and speed", async () => {
      await expectError({ profileUUID: "4b1e2c3d-5f60-4718-9a2b-3c4d5e6f7a22", sellerMetroCode: "SG" }, "IC-LAYER2-402", "sellerMetroCode");
      await expectError({ speed: 70 }, "IC-LAYER2-402", "speed");
    });
  });

  it("IC-LAYER2-PORTS-001: port that does not exist or is not the caller's (primaryPortUUID)", async () => {
    const missing = await expectError({ primaryPortUUID: MISSING_UUID }, "IC-LAYER2-PORTS-001", "primaryPortUUID");
    expect(missing.errorMessage).toBe("Port does not exist or not belong to user");
    const production = ports.find((p) => p.project.projectId === PROJECTS.production.projectId)!.uuid;
    await expectError({ primaryPortUUID: production }, "IC-LAYER2-PORTS-001", "primaryPortUUID", "limited");
    const sandbox = portIn("LD", "QINQ");
    expect((await create({ primaryPortUUID: sandbox, primaryVlanCTag: 30 }, "limited")).status).toBe(200);
    await expectError({ secondaryName: "SEC", secondaryPortUUID: MISSING_UUID, secondaryVlanSTag: 5 }, "IC-LAYER2-PORTS-001", "secondaryPortUUID");
  });

  it("IC-LAYER2-PORTS-016: different port types for primary and secondary", async () => {
    const body = await expectError(
      { secondaryName: "SEC", secondaryPortUUID: portIn("LD", "QINQ"), secondaryVlanSTag: 5 },
      "IC-LAYER2-PORTS-016",
      "secondaryPortUUID",
    );
    expect(body.errorMessage).toMatch(/DOT1Q.*QINQ/);
  });

  it("IC-LAYER2-AUTH-006: named tag already used under the authorization key (authorizationkey)", async () => {
    expect((await create({ authorizationKey: "111122223333", namedTag: "Private" })).status).toBe(200);
    await expectError({ authorizationKey: "111122223333", namedTag: "Private", primaryVlanSTag: 1002 }, "IC-LAYER2-AUTH-006", "authorizationkey");
    expect((await create({ authorizationKey: "111122223333", namedTag: "Public", primaryVlanSTag: 1003 })).status).toBe(200);
    expect((await create({ authorizationKey: "444455556666", namedTag: "Private", primaryVlanSTag: 1004 })).status).toBe(200);
  });

  it("IC-LAYER2-AUTH-007: authorization key not matching the destination metro (authorizationKey)", async () => {
    expect((await create({ authorizationKey: "777788889999" })).status).toBe(200);
    await expectError({ authorizationKey: "777788889999", sellerMetroCode: "FR", primaryVlanSTag: 1005 }, "IC-LAYER2-AUTH-007", "authorizationKey");
    expect((await create({ authorizationKey: "777788889999", primaryVlanSTag: 1006 })).status).toBe(200);
  });

  it("IC-LAYER2-DOT1Q-001: no more than three Dot1Q connections per authorization key (authorizationKey)", async () => {
    for (const tag of [1101, 1102, 1103]) expect((await create({ authorizationKey: "555500001111", primaryVlanSTag: tag })).status).toBe(200);
    await expectError({ authorizationKey: "555500001111", primaryVlanSTag: 1104 }, "IC-LAYER2-DOT1Q-001", "authorizationKey");
    // QinQ connections do not count against the Dot1Q limit.
    expect((await create({ authorizationKey: "555500001111", primaryPortUUID: portIn("LD", "QINQ"), primaryVlanSTag: 1105 })).status).toBe(200);
  });

  it("counts both legs of a redundant pair against the Dot1Q limit", async () => {
    expect((await create({ authorizationKey: "555500002222", primaryVlanSTag: 1201 })).status).toBe(200);
    expect((await create({ authorizationKey: "555500002222", primaryVlanSTag: 1202 })).status).toBe(200);
    await expectError(
      { authorizationKey: "555500002222", primaryVlanSTag: 1203, secondaryName: "SEC", secondaryPortUUID: portIn("LD", "DOT1Q", 1), secondaryVlanSTag: 1204 },
      "IC-LAYER2-DOT1Q-001",
      "authorizationKey",
    );
  });

  it("answers malformed bodies in style B and requires a bearer token", async () => {
    const malformed = await t.call("POST", PATH, { raw: "{nope", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errorCode: "EQ-3046116", property: "body", status: "400" });
    const array = await t.call("POST", PATH, { body: [] });
    expect(array.status).toBe(400);
    expect(array.body.property).toBe("body");
    expect((await t.call("POST", PATH, { body: request(), client: "none" })).status).toBe(401);
  });
});

describe("GET /ecx/v3/l2/connections/{uuid}", () => {
  it("IC-LAYER2-4023: unknown connection (uuid)", async () => {
    for (const id of [MISSING_UUID, "invalid_uuid"]) {
      const res = await t.call("GET", `${PATH}/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: "IC-LAYER2-4023", property: "uuid", status: "400" });
      expect(res.body.errorMessage).toMatch(/does not exist or do not belong to user/);
    }
  });

  it("IC-LAYER2-4023: another customer's connection (uuid)", async () => {
    const res = await create();
    const foreign = await t.call("GET", `${PATH}/${res.body.primaryConnectionId}`, { client: "limited" });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ errorCode: "IC-LAYER2-4023", property: "uuid" });
  });
});
