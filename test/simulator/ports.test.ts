import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const FIRST_PORT = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";

/** The official COLO single-port example, in the seeded production project and account. */
function order(overrides: Record<string, unknown> = {}) {
  return {
    type: "XF_PORT",
    physicalPortsSpeed: 1000,
    physicalPortsType: "1000BASE_LX",
    connectivitySourceType: "COLO",
    location: { metroCode: "GV" },
    demarcationPointIbx: "GV1",
    package: { code: "STANDARD" },
    lagEnabled: false,
    encapsulation: { type: "DOT1Q", tagProtocolId: 33024 },
    project: { projectId: PROJECTS.production.projectId },
    account: { accountNumber: 270848 },
    notifications: [{ registeredUsers: ["port-orderer"], type: "TECHNICAL" }],
    order: {
      purchaseOrder: { number: 156576, amount: 10, startDate: "2018-06-11T22:25:52.206Z", endDate: "2018-07-11T22:25:52.206Z", type: "NEW" },
      signature: { signatory: "DELEGATE", delegate: { firstName: "John", lastName: "Doe", email: "john.doe@company.com" } },
    },
    physicalPorts: [{ demarcationPoint: { ibx: "GV1", cabinetUniqueSpaceId: "Demarc", cageUniqueSpaceId: "GV1:01:002174", patchPanel: "CP:Demarc:1259684", connectorType: "SC" } }],
    ...overrides,
  };
}

const post = (body: unknown, query = "", client: "demo" | "limited" = "demo") => t.call("POST", `/fabric/v4/ports${query}`, { body, client });

function expectProblem(res: { status: number; body: Array<{ errorCode: string; additionalInfo: Array<{ property: string }> }> }, code: string, property: string) {
  expect(res.status).toBe(400);
  expect(res.body[0]!.errorCode).toBe(code);
  expect(res.body[0]!.additionalInfo[0]!.property).toBe(property);
}

describe("POST /fabric/v4/ports", () => {
  it("validates a dry run and echoes it with the order number and the four notification types, creating nothing", async () => {
    const before = (await t.call("GET", "/__sim/objects?kind=ports")).body.data.length;
    const res = await post(order(), "?dryRun=true");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "XF_PORT",
      physicalPortsSpeed: 1000,
      physicalPortsCount: 1,
      location: { metroCode: "GV", metroName: "Geneva", region: "EMEA" },
      demarcationPointIbx: "GV1",
      redundancy: { priority: "PRIMARY" },
      encapsulation: { type: "DOT1Q", tagProtocolId: "0x8100" },
      settings: { sharedPortType: false },
      order: { orderNumber: expect.stringMatching(/^1-\d{12}$/), purchaseOrder: { type: "NEW", number: "156576", amount: "10" } },
    });
    expect(res.body.notifications).toEqual(["TECHNICAL", "NOTIFICATION", "PEERING", "ESCALATION"].map((type) => ({ type, registeredUsers: ["port-orderer"] })));
    expect(res.body).not.toHaveProperty("uuid");
    expect((await t.call("GET", "/__sim/objects?kind=ports")).body.data).toHaveLength(before);
  });

  it("places an order that provisions on the clock: PENDING, PROVISIONING, ACTIVE", async () => {
    const res = await post(order({ name: "geneva-primary" }));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "PENDING", name: "geneva-primary", href: `/fabric/v4/ports/${res.body.uuid}`, account: { accountNumber: 270848, accountName: "Example Networks Inc" } });
    expect(res.body.order).toMatchObject({ orderNumber: expect.stringMatching(/^1-\d{12}$/), uuid: expect.any(String) });
    expect(res.body.changeLog).toMatchObject({ createdBy: "demo-user" });
    const path = `/fabric/v4/ports/${res.body.uuid}`;
    await t.waitFor(path, "/state", "PROVISIONING");
    const active = await t.waitFor(path, "/state", "ACTIVE");
    expect(active.operation).toMatchObject({ operationalStatus: "UP" });
    expect(active.availableBandwidth).toBe(1000);
    const events = (await t.call("GET", "/__sim/objects?kind=cloudEvents")).body.data.filter((e: { assetUuid: string }) => e.assetUuid === res.body.uuid);
    expect(events.map((e: { state: string }) => e.state)).toEqual(["PENDING", "PROVISIONING", "ACTIVE"]);
    const metros = await t.call("GET", "/fabric/v4/metros?presence=MY_PORTS&limit=100");
    expect(metros.body.data.map((m: { code: string }) => m.code)).toContain("GV");
  });

  it("answers an order and a delete with the port as each left it, however far the clock moves meanwhile", async () => {
    await t.token();
    const placed = await t.racing(() => post(order({ name: "placed" })));
    expect(placed.status).toBe(202);
    expect(placed.body.state).toBe("PENDING");
    // Ordered on the real clock (see racing), and deleted once active.
    const path = `/fabric/v4/ports/${(await post(order({ name: "leaving" }))).body.uuid}`;
    await t.waitFor(path, "/state", "ACTIVE");
    const deleted = await t.racing(() => t.call("DELETE", path));
    expect(deleted.status).toBe(202);
    expect(deleted.body.state).toBe("DEPROVISIONING");
  });

  it("ends in FAILED when a transition failure is injected", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "ports", count: 1 } } });
    const res = await post(order());
    await t.waitFor(`/fabric/v4/ports/${res.body.uuid}`, "/state", "FAILED");
  });

  it("accepts a location by data center, a LAG of two ports and a QINQ encapsulation", async () => {
    const res = await post(
      order({
        location: { ibx: "AM2" },
        demarcationPointIbx: undefined,
        physicalPorts: undefined,
        physicalPortsSpeed: 10000,
        physicalPortsType: "10GBASE_LR",
        physicalPortsCount: 2,
        lagEnabled: true,
        encapsulation: { type: "QINQ" },
        redundancy: { priority: "SECONDARY", group: "1" },
        notifications: undefined,
      }),
      "?dryRun=true",
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ location: { metroCode: "AM" }, demarcationPointIbx: "AM2", physicalPortsCount: 2, encapsulation: { type: "QINQ", tagProtocolId: "0x88A8" } });
    expect(res.body.notifications[3]).toEqual({ type: "ESCALATION", registeredUsers: ["demo-user"] });
  });

  it("accepts BMMR and REMOTE sources and an untagged port", async () => {
    expect((await post(order({ connectivitySourceType: "BMMR", bmmrType: "SELF" }), "?dryRun=true")).status).toBe(200);
    expect((await post(order({ connectivitySourceType: "REMOTE", tetherIbx: "ZH1" }), "?dryRun=true")).status).toBe(200);
    const untagged = await post(order({ encapsulation: { type: "UNTAGGED" } }), "?dryRun=false");
    expect(untagged.status).toBe(202);
    expect(untagged.body.encapsulation).toEqual({ type: "UNTAGGED" });
  });

  it("requires the mandatory fields of a port order", async () => {
    for (const field of ["type", "physicalPortsSpeed", "physicalPortsType", "connectivitySourceType", "location", "encapsulation", "project", "account"]) {
      const res = await post(order({ [field]: undefined }), "?dryRun=true");
      expectProblem(res, "EQ-2012011", `/${field}`);
    }
    expectProblem(await post(order({ account: {} }), "?dryRun=true"), "EQ-2012011", "/account/accountNumber");
    expectProblem(await post(order({ project: {} }), "?dryRun=true"), "EQ-2012011", "/project/projectId");
    expectProblem(await post(order({ location: {} }), "?dryRun=true"), "EQ-2012011", "/location/metroCode");
    expectProblem(await post(order({ encapsulation: {} }), "?dryRun=true"), "EQ-2012011", "/encapsulation/type");
  });

  it("refuses values outside the allowed lists", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: "XF_ROUTER" }, "/type"],
      [{ connectivitySourceType: "CLOUD" }, "/connectivitySourceType"],
      [{ physicalPortsType: "40GBASE_LR4" }, "/physicalPortsType"],
      [{ encapsulation: { type: "VXLAN" } }, "/encapsulation/type"],
      [{ encapsulation: { type: "DOT1Q", tagProtocolId: 0x88a8 } }, "/encapsulation/tagProtocolId"],
      [{ notifications: [{ type: "BILLING", registeredUsers: ["x"] }] }, "/notifications/0/type"],
      [{ package: { code: "GOLD" } }, "/package/code"],
      [{ redundancy: { priority: "TERTIARY" } }, "/redundancy/priority"],
      [{ bmmrType: "OTHER", connectivitySourceType: "BMMR" }, "/bmmrType"],
      [{ order: { purchaseOrder: { number: "1", type: "OLD" } } }, "/order/purchaseOrder/type"],
      [{ order: { signature: { signatory: "ROBOT" } } }, "/order/signature/signatory"],
    ];
    for (const [overrides, property] of cases) expectProblem(await post(order(overrides), "?dryRun=true"), "EQ-2012025", property);
  });

  it("enforces the port's business rules with the official codes", async () => {
    expectProblem(await post(order({ physicalPortsSpeed: 2500 }), "?dryRun=true"), "EQ-3143116", "/physicalPortsSpeed");
    expectProblem(await post(order({ physicalPortsSpeed: 10000 }), "?dryRun=true"), "EQ-3143117", "/physicalPortsType");
    expectProblem(await post(order({ location: { metroCode: "XX" } }), "?dryRun=true"), "EQ-3143113", "/location/metroCode");
    expectProblem(await post(order({ location: { ibx: "QQ1" } }), "?dryRun=true"), "EQ-3143113", "/location/ibx");
    expectProblem(await post(order({ account: { accountNumber: 999 } }), "?dryRun=true"), "EQ-3143124", "/account/accountNumber");
    expectProblem(await post(order({ redundancy: { priority: "SECONDARY" } }), "?dryRun=true"), "EQ-3143115", "/redundancy/priority");
    expectProblem(await post(order({ notifications: [{ type: "TECHNICAL", registeredUsers: [] }] }), "?dryRun=true"), "EQ-3143101", "/notifications/0/registeredUsers");
    expectProblem(await post(order({ physicalPortsCount: 2, physicalPorts: undefined }), "?dryRun=true"), "EQ-3143135", "/lagEnabled");
    expectProblem(await post(order({ encapsulation: { type: "UNTAGGED", tagProtocolId: 33024 } }), "?dryRun=true"), "EQ-3143131", "/encapsulation/tagProtocolId");
    expectProblem(await post(order({ encapsulation: { type: "UNTAGGED" }, lagEnabled: true }), "?dryRun=true"), "EQ-3143129", "/lagEnabled");
    expectProblem(await post(order({ encapsulation: { type: "UNTAGGED" }, redundancy: { priority: "SECONDARY", group: "1" } }), "?dryRun=true"), "EQ-3143128", "/redundancy/priority");
  });

  it("refuses inconsistent or malformed values, naming the property", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ physicalPortsSpeed: "fast" }, "/physicalPortsSpeed"],
      [{ location: { metroCode: "GV", ibx: "ZH1" } }, "/location/ibx"],
      [{ demarcationPointIbx: "ZH1" }, "/demarcationPointIbx"],
      [{ physicalPortsCount: 0 }, "/physicalPortsCount"],
      [{ physicalPortsCount: 2, lagEnabled: true }, "/physicalPorts"],
      [{ physicalPorts: [{ demarcationPoint: { ibx: "LD1" } }] }, "/physicalPorts/0/demarcationPoint/ibx"],
      [{ lagEnabled: "no" }, "/lagEnabled"],
      [{ bmmrType: "SELF" }, "/bmmrType"],
      [{ tetherIbx: "nowhere" }, "/tetherIbx"],
      [{ notifications: "ops" }, "/notifications"],
      [{ notifications: [{ type: "TECHNICAL", registeredUsers: ["a"] }, { type: "TECHNICAL", registeredUsers: ["b"] }] }, "/notifications/1/type"],
      [{ order: { purchaseOrder: { type: "NEW" } } }, "/order/purchaseOrder/number"],
      [{ order: { purchaseOrder: { type: "EXEMPTION", startDate: "2024-02-01T00:00:00Z", endDate: "2024-01-01T00:00:00Z" } } }, "/order/purchaseOrder/endDate"],
      [{ order: { purchaseOrder: { type: "EXEMPTION", startDate: "yesterday" } } }, "/order/purchaseOrder/startDate"],
      [{ order: { signature: { signatory: "DELEGATE" } } }, "/order/signature/delegate"],
      [{ order: { signature: { signatory: "DELEGATE", delegate: { email: "not-an-email" } } } }, "/order/signature/delegate/email"],
      [{ uuid: "c791f8cb-0000-4000-8000-000000000099" }, "/uuid"],
      [{ settings: { sharedPortType: "yes" } }, "/settings/sharedPortType"],
    ];
    for (const [overrides, property] of cases) {
      const res = await post(order(overrides), "?dryRun=true");
      expect(res.status, property).toBe(400);
      expect(res.body[0].additionalInfo[0].property, property).toBe(property);
    }
  });

  it("orders only into the caller's projects and accounts", async () => {
    const res = await post(order({ account: { accountNumber: 270849 } }), "?dryRun=true", "limited");
    expect(res.status).toBe(403);
    const own = await post(order({ project: { projectId: PROJECTS.sandbox.projectId }, account: { accountNumber: 270849 } }), "", "limited");
    expect(own.status).toBe(202);
    expect((await t.call("GET", `/fabric/v4/ports/${own.body.uuid}`, { client: "limited" })).status).toBe(200);
  });

  it("refuses a bad dryRun value, unknown query parameters and malformed bodies", async () => {
    const dry = await post(order(), "?dryRun=yes");
    expect(dry.status).toBe(400);
    expect(dry.body[0].additionalInfo[0].property).toBe("dryRun");
    expect((await post(order(), "?validate=true")).body[0].additionalInfo[0].property).toBe("validate");
    expect((await t.call("POST", "/fabric/v4/ports", { raw: "{", contentType: "application/json" })).status).toBe(400);
    expect((await post([order()])).status).toBe(400);
  });
});

describe("finding ports", () => {
  it("lists the caller's visible ports with pagination", async () => {
    const res = await t.call("GET", "/fabric/v4/ports");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 24, next: "/fabric/v4/ports?offset=20&limit=20" });
    expect(res.body.data).toHaveLength(20);
    const limited = await t.call("GET", "/fabric/v4/ports?limit=100", { client: "limited" });
    expect(limited.body.pagination.total).toBe(8);
    expect(limited.body.data.every((p: { project: { projectId: string } }) => p.project.projectId === PROJECTS.sandbox.projectId)).toBe(true);
    expect((await t.call("GET", "/fabric/v4/ports?limit=101")).status).toBe(400);
    expect((await t.call("GET", "/fabric/v4/ports?metro=DC")).status).toBe(400);
  });

  it("filters by name", async () => {
    const port = (await t.call("GET", `/fabric/v4/ports/${FIRST_PORT}`)).body;
    const res = await t.call("GET", `/fabric/v4/ports?name=${encodeURIComponent(port.name)}`);
    expect(res.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([FIRST_PORT]);
  });

  it("gets a port by uuid, 404 for unknown or invisible ones and 400 for malformed ids", async () => {
    const res = await t.call("GET", `/fabric/v4/ports/${FIRST_PORT}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: FIRST_PORT, type: "XF_PORT", state: "ACTIVE", location: { metroCode: "DC" } });
    expect((await t.call("GET", `/fabric/v4/ports/${FIRST_PORT}`, { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", "/fabric/v4/ports/6f3b1a2c-0000-4000-8000-000000000000")).status).toBe(404);
    const bad = await t.call("GET", "/fabric/v4/ports/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body[0].additionalInfo[0].property).toBe("portId");
  });

  it("searches ports with filters, sorting and pagination", async () => {
    const res = await t.call("POST", "/fabric/v4/ports/search", {
      body: {
        filter: { and: [{ property: "/location/metroCode", operator: "IN", values: ["SV", "LD"] }, { property: "/name", operator: "LIKE", values: ["%PRI%"] }] },
        pagination: { offset: 0, limit: 10 },
        sort: [{ property: "/name", direction: "ASC" }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(4);
    const names = res.body.data.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort());
    const limited = await t.call("POST", "/fabric/v4/ports/search", { client: "limited", body: { filter: { property: "/state", operator: "=", values: ["ACTIVE"] } } });
    expect(limited.body.pagination.total).toBe(8);
    const unsupported = await t.call("POST", "/fabric/v4/ports/search", { body: { filter: { property: "/settings/productCode", operator: "=", values: ["CX"] } } });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body[0].additionalInfo[0].property).toBe("/filter/property");
    expect((await t.call("POST", "/fabric/v4/ports/search", { body: {} })).body[0].additionalInfo[0].property).toBe("/filter");
    const badSort = await t.call("POST", "/fabric/v4/ports/search", { body: { filter: { property: "/state", operator: "=", values: ["ACTIVE"] }, sort: [{ property: "/colour" }] } });
    expect(badSort.status).toBe(400);
  });
});

describe("service profiles", () => {
  it("lists the seeded profiles (buyer view) and none in the seller view", async () => {
    const res = await t.call("GET", "/fabric/v4/serviceProfiles");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 3 });
    expect(res.body.data.map((p: { uuid: string }) => p.uuid)).toContain(PROFILE);
    const seller = await t.call("GET", "/fabric/v4/serviceProfiles?viewPoint=zSide");
    expect(seller.body.data).toEqual([]);
    expect((await t.call("GET", "/fabric/v4/serviceProfiles?viewPoint=middle")).status).toBe(400);
    expect((await t.call("GET", "/fabric/v4/serviceProfiles?limit=0")).status).toBe(400);
    expect((await t.call("GET", "/fabric/v4/serviceProfiles?limit=2")).body.pagination.next).toBe("/fabric/v4/serviceProfiles?limit=2&offset=2");
  });

  it("gets one profile; 404 for unknown, 400 for malformed ids, 403 for the seller view of another's profile", async () => {
    const res = await t.call("GET", `/fabric/v4/serviceProfiles/${PROFILE}`, { client: "limited" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: PROFILE, type: "L2_PROFILE", state: "ACTIVE" });
    expect((await t.call("GET", "/fabric/v4/serviceProfiles/6f3b1a2c-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await t.call("GET", "/fabric/v4/serviceProfiles/nope")).body[0].additionalInfo[0].property).toBe("serviceProfileId");
    expect((await t.call("GET", `/fabric/v4/serviceProfiles/${PROFILE}?viewPoint=zSide`)).status).toBe(403);
  });

  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((p) => p.name).sort();

  it("searches profiles by the description's properties with =, a list of values matching any of them", async () => {
    const byName = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { and: [{ property: "/name", operator: "=", values: ["CloudExchange Direct"] }] } } });
    expect(byName.status).toBe(200);
    expect(byName.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([PROFILE]);
    expect(byName.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 1 });
    const either = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { property: "/name", operator: "=", values: ["CloudExchange Direct", "Global SaaS Access"] } } });
    expect(names(either)).toEqual(["CloudExchange Direct", "Global SaaS Access"]);
  });

  it("matches /metros/code against each metro a profile serves", async () => {
    const inNy = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { and: [{ property: "/metros/code", operator: "=", values: ["NY"] }] } } });
    expect(names(inNy)).toEqual(["CloudExchange Direct", "Secure Storage Network"]);
    const inNyAndSg = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { and: [{ property: "/metros/code", operator: "=", values: ["SG"] }, { property: "/type", operator: "=", values: ["L2_PROFILE"] }] } } });
    expect(names(inNyAndSg)).toEqual(["CloudExchange Direct", "Global SaaS Access"]);
  });

  it("pages through the results and refuses what the description does not take", async () => {
    const page = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { property: "/state", operator: "=", values: ["ACTIVE"] }, pagination: { offset: 2, limit: 2 }, sort: [{ property: "/name", direction: "ASC" }] } });
    expect(page.body.data.map((p: { name: string }) => p.name)).toEqual(["Secure Storage Network"]);
    expect(page.body.pagination).toMatchObject({ offset: 2, limit: 2, total: 3 });
    const property = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { property: "/description", operator: "=", values: ["x"] } } });
    expect(property.status).toBe(400);
    const operator = await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { filter: { property: "/name", operator: "LIKE", values: ["Cloud%"] } } });
    expect(operator.status).toBe(400);
    expect((await t.call("POST", "/fabric/v4/serviceProfiles/search", { body: { query: {} } })).status).toBe(400);
  });
});
