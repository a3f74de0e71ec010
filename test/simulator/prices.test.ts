import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11"; // seeded "CloudExchange Direct", offered in SV, DC, NY, LD...
const DC_ONLY_PROFILE = "4b1e2c3d-5f60-4718-9a2b-3c4d5e6f7a22"; // "Secure Storage Network": DC, NY, LD, FR

type Expr = [property: string, operator: string, values: unknown[]];

const search = (exprs: Expr[], client: "demo" | "limited" = "demo") =>
  t.call("POST", "/fabric/v4/prices/search", { client, body: { filter: { and: exprs.map(([property, operator, values]) => ({ property, operator, values })) } } });

const vc = (...more: Expr[]): Expr[] => [
  ["/type", "=", ["VIRTUAL_CONNECTION_PRODUCT"]],
  ["/connection/aSide/accessPoint/location/metroCode", "=", ["DC"]],
  ...more,
];

function expectProblem(res: { status: number; body: Array<{ errorCode: string; additionalInfo: Array<{ property: string }> }> }, code: string, property: string) {
  expect(res.status).toBe(400);
  expect(res.body[0]!.errorCode).toBe(code);
  expect(res.body[0]!.additionalInfo[0]!.property).toBe(property);
}

const monthly = (record: { charges: Array<{ type: string; price: number }> }) => record.charges.find((c) => c.type === "MONTHLY_RECURRING")!.price;

describe("price search: virtual connections", () => {
  it("prices the official colo-to-colo example shape with one record per bandwidth", async () => {
    const res = await search(
      vc(
        ["/connection/type", "=", ["EVPL_VC"]],
        ["/connection/bandwidth", "IN", ["50", "1000", 10000]],
        ["/connection/aSide/accessPoint/type", "=", ["COLO"]],
        ["/connection/aSide/accessPoint/port/settings/buyout", "=", ["false"]],
        ["/connection/zSide/accessPoint/type", "=", ["COLO"]],
        ["/connection/zSide/accessPoint/location/metroCode", "=", ["DC"]],
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ offset: 0, limit: 3, total: 3 });
    expect(res.body.data.map((r: { connection: { bandwidth: number } }) => r.connection.bandwidth)).toEqual([50, 1000, 10000]);
    const [first] = res.body.data;
    expect(first).toMatchObject({
      type: "VIRTUAL_CONNECTION_PRODUCT",
      code: "ECX00015.PROD",
      currency: "USD",
      account: { accountNumber: 270848 },
      connection: {
        type: "EVPL_VC",
        bandwidth: 50,
        aSide: { accessPoint: { type: "COLO", location: { metroCode: "DC" }, port: { settings: { buyout: false } } } },
        zSide: { accessPoint: { type: "COLO", location: { metroCode: "DC" } } },
      },
    });
    const prices = res.body.data.map(monthly);
    expect(prices[0]).toBeLessThan(prices[1]);
    expect(prices[1]).toBeLessThan(prices[2]);
  });

  it("is deterministic and charges more for longer distances", async () => {
    const local = await search(vc(["/connection/bandwidth", "IN", [1000]]));
    const again = await search(vc(["/connection/bandwidth", "IN", [1000]]));
    expect(again.body).toEqual(local.body);
    const near = await search(vc(["/connection/bandwidth", "IN", [1000]], ["/connection/zSide/accessPoint/location/metroCode", "=", ["NY"]]));
    const far = await search(vc(["/connection/bandwidth", "IN", [1000]], ["/connection/zSide/accessPoint/location/metroCode", "=", ["SG"]]));
    expect(monthly(local.body.data[0])).toBeLessThan(monthly(near.body.data[0]));
    expect(monthly(near.body.data[0])).toBeLessThan(monthly(far.body.data[0]));
    expect(local.body.data[0].connection.zSide.accessPoint.location.metroCode).toBe("DC");
  });

  it("prices every standard bandwidth when the search names none", async () => {
    const res = await search(vc());
    expect(res.body.data.map((r: { connection: { bandwidth: number } }) => r.connection.bandwidth)).toEqual([50, 200, 500, 1000, 2000, 5000, 10000]);
  });

  it("makes local connections of a buyout port free", async () => {
    const res = await search(vc(["/connection/bandwidth", "IN", [500]], ["/connection/aSide/accessPoint/port/settings/buyout", "=", [true]]));
    expect(monthly(res.body.data[0])).toBe(0);
    expect(res.body.data[0].connection.aSide.accessPoint.port.settings.buyout).toBe(true);
  });

  it("prices a connection to a service profile, which needs the profile uuid", async () => {
    const ok = await search(vc(["/connection/zSide/accessPoint/type", "=", ["SP"]], ["/connection/zSide/accessPoint/profile/uuid", "=", [PROFILE]], ["/connection/bandwidth", "IN", [200]]));
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].connection.zSide.accessPoint).toEqual({ type: "SP", location: { metroCode: "DC" }, profile: { uuid: PROFILE } });
    expectProblem(await search(vc(["/connection/zSide/accessPoint/type", "=", ["SP"]])), "EQ-3038010", "/connection/zSide/accessPoint/profile/uuid");
    expectProblem(
      await search(vc(["/connection/zSide/accessPoint/type", "=", ["SP"]], ["/connection/zSide/accessPoint/profile/uuid", "=", ["6f3b1a2c-0000-4000-8000-000000000000"]])),
      "EQ-3038010",
      "/connection/zSide/accessPoint/profile/uuid",
    );
    expectProblem(await search(vc(["/connection/zSide/accessPoint/profile/uuid", "=", [PROFILE]])), "EQ-3038010", "/connection/zSide/accessPoint/profile/uuid");
    expectProblem(
      await search(vc(["/connection/zSide/accessPoint/type", "=", ["SP"]], ["/connection/zSide/accessPoint/profile/uuid", "=", [DC_ONLY_PROFILE]], ["/connection/zSide/accessPoint/location/metroCode", "=", ["SG"]])),
      "EQ-3038010",
      "/connection/zSide/accessPoint/location/metroCode",
    );
  });

  it("prices a virtual-device chain to a chain group, which needs the bridge package", async () => {
    const chain: Expr[] = [["/connection/type", "=", ["VD_CHAIN_VC"]], ["/connection/aSide/accessPoint/type", "=", ["VD"]], ["/connection/zSide/accessPoint/type", "=", ["CHAINGROUP"]]];
    const ok = await search(vc(...chain, ["/connection/zSide/accessPoint/bridge/package/code", "=", ["REGIONAL"]], ["/connection/bandwidth", "IN", [1000]]));
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].connection.zSide.accessPoint).toEqual({ type: "CHAINGROUP", bridge: { package: { code: "REGIONAL" } } });
    const global = await search(vc(...chain, ["/connection/zSide/accessPoint/bridge/package/code", "=", ["GLOBAL"]], ["/connection/bandwidth", "IN", [1000]]));
    expect(monthly(global.body.data[0])).toBeGreaterThan(monthly(ok.body.data[0]));
    expectProblem(await search(vc(...chain)), "EQ-3038010", "/connection/zSide/accessPoint/bridge/package/code");
    expectProblem(await search(vc(["/connection/zSide/accessPoint/bridge/package/code", "=", ["LOCAL"]])), "EQ-3038010", "/connection/zSide/accessPoint/bridge/package/code");
    expectProblem(await search(vc(...chain, ["/connection/zSide/accessPoint/bridge/package/code", "=", ["WORLD"]])), "EQ-3038022", "/connection/zSide/accessPoint/bridge/package/code");
  });

  it("prices cloud-router connections (IP_VC) from a CLOUD_ROUTER a-side only", async () => {
    const ok = await search(vc(["/connection/type", "=", ["IP_VC"]], ["/connection/bandwidth", "IN", [50]]));
    expect(ok.body.data[0].connection.aSide.accessPoint.type).toBe("CLOUD_ROUTER");
    expectProblem(await search(vc(["/connection/type", "=", ["IP_VC"]], ["/connection/aSide/accessPoint/type", "=", ["COLO"]])), "EQ-3038010", "/connection/aSide/accessPoint/type");
    expectProblem(
      await search(vc(["/connection/aSide/accessPoint/type", "=", ["VD"]], ["/connection/aSide/accessPoint/port/settings/buyout", "=", ["true"]])),
      "EQ-3038010",
      "/connection/aSide/accessPoint/port/settings/buyout",
    );
  });

  it("requires the a-side metro and refuses values outside the table", async () => {
    expectProblem(await search([["/type", "=", ["VIRTUAL_CONNECTION_PRODUCT"]]]), "EQ-3038010", "/connection/aSide/accessPoint/location/metroCode");
    expectProblem(await search(vc(["/connection/bandwidth", "IN", [100]])), "EQ-3038022", "/connection/bandwidth");
    expectProblem(await search(vc(["/connection/type", "=", ["EPL_VC"]])), "EQ-3038022", "/connection/type");
    expectProblem(await search(vc(["/connection/aSide/accessPoint/type", "=", ["SP"]])), "EQ-3038022", "/connection/aSide/accessPoint/type");
    expectProblem(await search(vc(["/connection/zSide/accessPoint/type", "=", ["VD"]])), "EQ-3038022", "/connection/zSide/accessPoint/type");
    expectProblem(await search(vc(["/connection/zSide/accessPoint/location/metroCode", "=", ["XX"]])), "EQ-3038022", "/connection/zSide/accessPoint/location/metroCode");
    expectProblem(await search(vc(["/connection/aSide/accessPoint/port/settings/buyout", "=", ["yes"]])), "EQ-3038022", "/connection/aSide/accessPoint/port/settings/buyout");
    expectProblem(await search(vc(["/connection/zSide/accessPoint/profile/uuid", "=", ["not-a-uuid"]])), "EQ-3038010", "/connection/zSide/accessPoint/profile/uuid");
  });
});

describe("price search: IP blocks, cloud routers, ports", () => {
  it("prices an IPv4 /29 per metro", async () => {
    const res = await search([
      ["/type", "=", ["IP_BLOCK_PRODUCT"]],
      ["/ipBlock/type", "=", ["IPv4"]],
      ["/ipBlock/prefixLength", "=", ["29"]],
      ["/ipBlock/location/metroCode", "IN", ["SV", "LD", "SG"]],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    expect(res.body.data[0]).toMatchObject({ type: "IP_BLOCK_PRODUCT", code: "ECX00005.PROD", ipBlock: { type: "IPv4", prefixLength: 29, location: { metroCode: "SV" } } });
    expect(new Set(res.body.data.map(monthly)).size).toBe(3);
    expectProblem(await search([["/type", "=", ["IP_BLOCK_PRODUCT"]], ["/ipBlock/prefixLength", "=", [28]]]), "EQ-3038022", "/ipBlock/prefixLength");
    expectProblem(await search([["/type", "=", ["IP_BLOCK_PRODUCT"]], ["/ipBlock/type", "=", ["IPv6"]]]), "EQ-3038022", "/ipBlock/type");
    expectProblem(await search([["/type", "=", ["IP_BLOCK_PRODUCT"]], ["/ipBlock/location/metroCode", "IN", ["SV", "ZZ"]]]), "EQ-3038022", "/ipBlock/location/metroCode");
  });

  it("prices the cloud router packages LAB and STANDARD", async () => {
    const res = await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/router/location/metroCode", "=", ["AM"]], ["/router/package/code", "IN", ["LAB", "STANDARD"]]]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { router: { package: { code: string } } }) => r.router.package.code)).toEqual(["LAB", "STANDARD"]);
    expect(res.body.data[0].description).toMatch(/50 IPv4 routes, 50 IPv6 routes, 10 Mbps per connection, 10 connections/);
    expect(res.body.data[1].description).toMatch(/1000 IPv4 routes, 100 IPv6 routes/);
    expect(res.body.data[0].router.location.metroCode).toBe("AM");
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/router/package/code", "IN", ["PREMIUM"]]]), "EQ-3038022", "/router/package/code");
  });

  it("prices ports for an account, with monthly and one-time charges", async () => {
    const port = (more: Expr[] = []): Expr[] => [
      ["/type", "=", ["VIRTUAL_PORT_PRODUCT"]],
      ["/account/accountNumber", "=", ["270848"]],
      ["/port/location/ibx", "=", ["DC1"]],
      ["/port/type", "=", ["XF_PORT"]],
      ...more,
    ];
    const res = await search(port([["/port/bandwidth", "=", ["10000"]], ["/port/serviceType", "=", ["EPL"]], ["/port/connectivitySource/type", "=", ["COLO"]], ["/port/lag/enabled", "=", ["false"]], ["/port/settings/buyout", "=", ["false"]]]));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      type: "VIRTUAL_PORT_PRODUCT",
      account: { accountNumber: 270848 },
      port: { type: "XF_PORT", location: { ibx: "DC1" }, bandwidth: 10000, serviceType: "EPL", connectivitySource: { type: "COLO" }, lag: { enabled: false }, settings: { buyout: false } },
    });
    expect(res.body.data[0].charges.map((c: { type: string }) => c.type)).toEqual(["MONTHLY_RECURRING", "NON_RECURRING"]);
    const all = await search(port());
    expect(all.body.data.map((r: { port: { bandwidth: number; serviceType: string } }) => r.port.bandwidth)).toEqual([1000, 10000, 100000]);
    expect(all.body.data[0].port.serviceType).toBe("MSP");
    const buyout = await search(port([["/port/bandwidth", "=", [1000]], ["/port/settings/buyout", "=", ["true"]]]));
    expect(monthly(buyout.body.data[0])).toBeGreaterThan(monthly(all.body.data[0]));
  });

  it("requires the account for port pricing and checks every port property", async () => {
    expectProblem(await search([["/type", "=", ["VIRTUAL_PORT_PRODUCT"]], ["/port/bandwidth", "=", [1000]]]), "EQ-3038010", "/account/accountNumber");
    const base: Expr[] = [["/type", "=", ["VIRTUAL_PORT_PRODUCT"]], ["/account/accountNumber", "=", [270848]]];
    expectProblem(await search([...base, ["/port/bandwidth", "=", [2000]]]), "EQ-3038022", "/port/bandwidth");
    expectProblem(await search([...base, ["/port/connectivitySource/type", "=", ["CLOUD"]]]), "EQ-3038022", "/port/connectivitySource/type");
    expectProblem(await search([...base, ["/port/serviceType", "=", ["EVPL"]]]), "EQ-3038022", "/port/serviceType");
    expectProblem(await search([...base, ["/port/lag/enabled", "=", ["maybe"]]]), "EQ-3038022", "/port/lag/enabled");
    expectProblem(await search([...base, ["/port/settings/buyout", "=", [1]]]), "EQ-3038022", "/port/settings/buyout");
    expectProblem(await search([...base, ["/port/type", "=", ["XF_ROUTER"]]]), "EQ-3038022", "/port/type");
    expectProblem(await search([...base, ["/port/location/ibx", "=", ["Q1"]]]), "EQ-3038010", "/port/location/ibx");
    expectProblem(await search([["/type", "=", ["VIRTUAL_PORT_PRODUCT"]], ["/account/accountNumber", "=", ["abc"]]]), "EQ-3038010", "/account/accountNumber");
  });

  it("quotes only the caller's own accounts", async () => {
    const res = await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/account/accountNumber", "=", [270848]]], "limited");
    expectProblem(res, "EQ-3038010", "/account/accountNumber");
    const own = await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]]], "limited");
    expect(own.body.data[0].account.accountNumber).toBe(270849);
  });
});

describe("price search: the filter itself", () => {
  it("requires the filter, its and-list and /type", async () => {
    const none = await t.call("POST", "/fabric/v4/prices/search", { body: {} });
    expectProblem(none, "EQ-3038010", "/filter");
    expectProblem(await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { and: [] } } }), "EQ-3038010", "/filter/and");
    expectProblem(await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { or: [] } } }), "EQ-3038010", "/filter/or");
    expectProblem(await t.call("POST", "/fabric/v4/prices/search", { body: { filter: [] } }), "EQ-3038010", "/filter");
    expectProblem(await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { and: [] }, sort: [] } }), "EQ-3038010", "/sort");
    expectProblem(await search([["/router/location/metroCode", "=", ["DC"]]]), "EQ-3038010", "/type");
    expectProblem(await search([["/type", "=", ["PRECISION_TIME_PRODUCT"]]]), "EQ-3038022", "/type");
  });

  it("checks each expression's property, operator and values", async () => {
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/router/name", "=", ["x"]]]), "EQ-3038010", "/router/name");
    expectProblem(await search([["/type", "IN", ["CLOUD_ROUTER_PRODUCT"]]]), "EQ-3038022", "/filter/and/0/operator");
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT", "IP_BLOCK_PRODUCT"]]]), "EQ-3038010", "/type");
    expectProblem(await search([["/type", "=", []]]), "EQ-3038010", "/type");
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/type", "=", ["CLOUD_ROUTER_PRODUCT"]]]), "EQ-3038010", "/type");
    expectProblem(await search([["/type", "=", [{ nested: true }]]]), "EQ-3038010", "/type");
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/router/package/code", "IN", ["LAB", "LAB"]]]), "EQ-3038010", "/router/package/code");
    const noProperty = await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { and: [{ operator: "=", values: ["x"] }] } } });
    expectProblem(noProperty, "EQ-3038010", "/filter/and/0/property");
    const notObject = await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { and: ["/type"] } } });
    expectProblem(notObject, "EQ-3038010", "/filter/and/0");
  });

  it("refuses properties of another product", async () => {
    expectProblem(await search([["/type", "=", ["CLOUD_ROUTER_PRODUCT"]], ["/ipBlock/prefixLength", "=", [29]]]), "EQ-3038010", "/ipBlock/prefixLength");
  });

  it("answers malformed bodies in the price API's own codes", async () => {
    const malformed = await t.call("POST", "/fabric/v4/prices/search", { raw: "{oops", contentType: "application/json" });
    expectProblem(malformed, "EQ-3038010", "body");
    const notJson = await t.call("POST", "/fabric/v4/prices/search", { raw: "filter", contentType: "text/plain" });
    expect(notJson.status).toBe(415);
  });
});
