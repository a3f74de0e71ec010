import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const ALL_CODES = {
  EMEA: "AD AM BA DX DB DU EN FR GV HH HE IL LS LD MD MA ML MU MC PA SA SO SK WA ZH ZW".split(" "),
  AMER: "AT BG BO CH CU DA DE HO LA MX MI MO MT NY PH RJ SP SE SV TR DC".split(" "),
  APAC: "AE BR CA HK JK ME OS PE SL SH SG SY TY".split(" "),
};
const TOTAL = ALL_CODES.EMEA.length + ALL_CODES.AMER.length + ALL_CODES.APAC.length;

async function allMetros(query = "") {
  const res = await t.call("GET", `/fabric/v4/metros?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body.data as Array<{ code: string; region: string }>;
}

describe("GET /fabric/v4/metros", () => {
  it("serves the first page of 10 by default, with a next link", async () => {
    const res = await t.call("GET", "/fabric/v4/metros");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 10, total: TOTAL });
    expect(res.body.pagination.next).toBe("/fabric/v4/metros?offset=10&limit=10");
    expect(res.body.pagination).not.toHaveProperty("previous");
    expect(res.body.data).toHaveLength(10);
  });

  it("lists every code of section 2.4 in its region, with its city name", async () => {
    const metros = await allMetros();
    for (const [region, codes] of Object.entries(ALL_CODES)) {
      for (const code of codes) expect(metros).toContainEqual(expect.objectContaining({ code, region }));
    }
    expect(metros.find((m) => m.code === "SV")).toMatchObject({ name: "Silicon Valley", type: "XF_METRO", href: "/fabric/v4/metros/SV" });
  });

  it("pages with offset and previous links", async () => {
    const res = await t.call("GET", "/fabric/v4/metros?offset=55&limit=5");
    expect(res.body.pagination).toMatchObject({ offset: 55, limit: 5, total: TOTAL, previous: "/fabric/v4/metros?offset=50&limit=5" });
    expect(res.body.pagination).not.toHaveProperty("next");
    expect(res.body.data).toHaveLength(TOTAL - 55);
    const past = await t.call("GET", "/fabric/v4/metros?offset=500");
    expect(past.body.data).toEqual([]);
  });

  it("carries latency and bandwidth data, deterministic and symmetric", async () => {
    const dc = (await t.call("GET", "/fabric/v4/metros/DC")).body;
    const ny = (await t.call("GET", "/fabric/v4/metros/NY")).body;
    const toNy = dc.connectedMetros.find((m: { code: string }) => m.code === "NY");
    const toDc = ny.connectedMetros.find((m: { code: string }) => m.code === "DC");
    expect(toNy).toMatchObject({ href: "/fabric/v4/metros/NY", remoteVCBandwidthMax: 50000 });
    expect(toNy.avgLatency).toBeGreaterThan(0);
    expect(toNy.avgLatency).toBe(toDc.avgLatency);
    const toTy = dc.connectedMetros.find((m: { code: string }) => m.code === "TY");
    expect(toTy.avgLatency).toBeGreaterThan(toNy.avgLatency);
    expect(toTy.remoteVCBandwidthMax).toBeLessThan(toNy.remoteVCBandwidthMax);
    expect(dc.connectedMetros.map((m: { code: string }) => m.code)).not.toContain("DC");
    expect(dc).toMatchObject({ localVCBandwidthMax: 50000, geoScopes: ["CONUS"], equinixAsn: expect.any(Number) });
    expect((await t.call("GET", "/fabric/v4/metros/DC")).body).toEqual(dc);
  });

  it("connects each metro to its region and to the other regions' hubs", async () => {
    const am = (await t.call("GET", "/fabric/v4/metros/AM")).body;
    const codes = am.connectedMetros.map((m: { code: string }) => m.code);
    for (const code of ALL_CODES.EMEA.filter((c) => c !== "AM")) expect(codes).toContain(code);
    expect(codes).toEqual(expect.arrayContaining(["DC", "NY", "SV", "SG", "TY"]));
    expect(codes).not.toContain("PE");
    expect(am.geoScopes).toEqual(["EU"]);
  });

  it("limits presence=MY_PORTS to the metros where the caller has ports", async () => {
    const mine = await allMetros("&presence=MY_PORTS");
    expect(mine.map((m) => m.code).sort()).toEqual(["AM", "DC", "FR", "LD", "NY", "SG", "SV", "TY"]);
    expect(mine[0]).toHaveProperty("connectedMetros");
  });

  it("follows the caller's visible ports (the limited client sees the sandbox only)", async () => {
    const ports = (await t.call("GET", "/__sim/objects?kind=ports")).body.data as Array<{ uuid: string; location: { metroCode: string }; project: { projectId: string } }>;
    for (const port of ports.filter((p) => p.location.metroCode === "TY" && p.project.projectId === PROJECTS.sandbox.projectId)) {
      await t.call("DELETE", `/__sim/objects/${port.uuid}`);
    }
    const limited = await t.call("GET", "/fabric/v4/metros?presence=MY_PORTS&limit=100", { client: "limited" });
    expect(limited.body.data.map((m: { code: string }) => m.code)).not.toContain("TY");
    expect(limited.body.pagination.total).toBe(7);
    const demo = await allMetros("&presence=MY_PORTS");
    expect(demo.map((m) => m.code)).toContain("TY");
  });

  it("refuses other presence values with the metros' EQ-3036013 naming presence", async () => {
    const res = await t.call("GET", "/fabric/v4/metros?presence=ALL");
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({
      errorCode: "EQ-3036013",
      errorMessage: "Invalid Query Parameter",
      additionalInfo: [expect.objectContaining({ property: "presence", reason: "Allowed value for presence is MY_PORTS" })],
    });
  });

  it("refuses unknown query parameters and out-of-range pages", async () => {
    const unknown = await t.call("GET", "/fabric/v4/metros?metro=DC");
    expect(unknown.status).toBe(400);
    expect(unknown.body[0].additionalInfo[0].property).toBe("metro");
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=ten"]) {
      const res = await t.call("GET", `/fabric/v4/metros?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body[0].errorCode, query).toBe("EQ-3036013");
      expect(res.body[0].additionalInfo[0].property, query).toBe(query.split("=")[0]);
    }
    expect((await t.call("GET", "/fabric/v4/metros?limit=100")).status).toBe(200);
    expect((await t.call("GET", "/fabric/v4/metros?limit=1")).body.data).toHaveLength(1);
  });

  it("needs a bearer token", async () => {
    expect((await t.call("GET", "/fabric/v4/metros/DC", { client: "none" })).status).toBe(401);
  });
});

describe("GET /fabric/v4/metros/{metroCode}", () => {
  it("returns one metro", async () => {
    const res = await t.call("GET", "/fabric/v4/metros/SG");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "SG", name: "Singapore", region: "APAC", type: "XF_METRO", href: "/fabric/v4/metros/SG" });
  });

  it("answers 400 Metro Not Found for a well-formed code outside the catalogue, as the description documents", async () => {
    const res = await t.call("GET", "/fabric/v4/metros/XX");
    expect(res.status).toBe(400);
    expect(res.body[0]).toMatchObject({ errorCode: "EQ-3036100", errorMessage: "Metro Not Found", additionalInfo: [expect.objectContaining({ property: "metroCode" })] });
  });

  it("answers 400 for a malformed code", async () => {
    for (const code of ["dc", "D1", "DCA"]) {
      const res = await t.call("GET", `/fabric/v4/metros/${code}`);
      expect(res.status, code).toBe(400);
      expect(res.body[0]).toMatchObject({ errorCode: "EQ-3036013", additionalInfo: [expect.objectContaining({ property: "metroCode" })] });
    }
  });

  it("refuses query parameters", async () => {
    const res = await t.call("GET", "/fabric/v4/metros/DC?presence=MY_PORTS");
    expect(res.status).toBe(400);
    expect(res.body[0].additionalInfo[0].property).toBe("presence");
  });
});
