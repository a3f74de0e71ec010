import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const PATH = "/internetAccess/v1/signaturePolicies";

describe("GET /internetAccess/v1/signaturePolicies", () => {
  it("lists the seeded policies with the default page of 50", async () => {
    const res = await t.call("GET", PATH);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 50 });
    expect(res.body.pagination.total).toBeGreaterThanOrEqual(30);
    expect(res.body.data).toHaveLength(Math.min(50, res.body.pagination.total));
    for (const policy of res.body.data) {
      expect(policy.location.countryCode).toMatch(/^[A-Z]{2}$/);
      expect(typeof policy.clickThroughAllowed).toBe("boolean");
      expect(policy.signature.types.length).toBeGreaterThan(0);
      for (const type of policy.signature.types) expect(["DIGITAL", "WET"]).toContain(type);
    }
  });

  it("pages with offset and limit and links the neighbouring pages", async () => {
    const res = await t.call("GET", `${PATH}?offset=5&limit=10`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.pagination).toMatchObject({ offset: 5, limit: 10 });
    expect(res.body.pagination.next).toContain("offset=15");
    expect(res.body.pagination.previous).toContain("offset=0");
    const all = (await t.call("GET", PATH)).body.data;
    expect(res.body.data).toEqual(all.slice(5, 15));
  });

  it("filters by location.countryCode, in either case", async () => {
    const us = await t.call("GET", `${PATH}?location.countryCode=US`);
    expect(us.body.data).toEqual([{ signature: { types: ["DIGITAL"] }, clickThroughAllowed: true, location: { countryCode: "US" } }]);
    expect(us.body.pagination.total).toBe(1);
    const cn = await t.call("GET", `${PATH}?location.countryCode=cn`);
    expect(cn.body.data[0]).toMatchObject({ signature: { types: ["WET"] }, clickThroughAllowed: false, location: { countryCode: "CN" } });
    const none = await t.call("GET", `${PATH}?location.countryCode=XX`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ pagination: { total: 0 }, data: [] });
  });

  it("refuses bad paging values in problem style A, naming the property", async () => {
    const zero = await t.call("GET", `${PATH}?limit=0`);
    expect(zero.status).toBe(400);
    expect(zero.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "limit" }] });
    const negative = await t.call("GET", `${PATH}?offset=-1`);
    expect(negative.status).toBe(400);
    expect(negative.body[0]).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "offset" }] });
    const text = await t.call("GET", `${PATH}?limit=many`);
    expect(text.status).toBe(400);
    expect(text.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "limit" }] });
  });

  it("refuses unknown query parameters and malformed country codes", async () => {
    const unknown = await t.call("GET", `${PATH}?countryCode=US`);
    expect(unknown.status).toBe(400);
    expect(unknown.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "countryCode" }] });
    const malformed = await t.call("GET", `${PATH}?location.countryCode=USA`);
    expect(malformed.status).toBe(400);
    expect(malformed.body[0]).toMatchObject({ errorCode: "EQ-2014010", additionalInfo: [{ property: "location.countryCode", value: "USA" }] });
  });

  it("requires a bearer token", async () => {
    const res = await t.call("GET", PATH, { client: "none" });
    expect(res.status).toBe(401);
    expect(res.body[0].errorCode).toBe("EQ-3000039");
  });
});
