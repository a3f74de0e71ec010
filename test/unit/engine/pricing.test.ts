// Plan-time pricing (issue 19) against a stand-in for the service: each distinct product asked once, the
// questions differing only in a listable property sharing one search, totals per currency, and a failed
// price call turned into an unknown price with why rather than a failed plan.

import { describe, expect, it } from "vitest";
import type { ApiClient, RequestOptions } from "../../../src/api/index.js";
import { planCost, PriceBook } from "../../../src/engine/index.js";
import { change, plan } from "../views/plans.js";

interface Call {
  method: string;
  path: string;
  opts: RequestOptions;
}

type Filter = { and: Array<{ property: string; operator: string; values: string[] }> };

/** Answers price searches with a record per listed bandwidth (USD 1 per Mbps), devices at 500 in their metro's currency. */
function fakeService(options: { failSearches?: boolean } = {}) {
  const calls: Call[] = [];
  const api = {
    requestCount: 0,
    async call(method: string, path: string, opts: RequestOptions = {}) {
      api.requestCount++;
      calls.push({ method, path, opts });
      if (path === "/fabric/v4/ports/search") return { data: [{ uuid: "port-dc", location: { metroCode: "DC" } }] };
      if (path === "/ne/v1/prices") return { primary: { currency: opts.query?.metro === "LD" ? "EUR" : "USD", charges: [{ description: "VIRTUAL_DEVICE", monthlyRecurringCharges: "500.00" }] } };
      if (options.failSearches) throw new Error("POST /fabric/v4/prices/search was refused: HTTP 503");
      const filter = (opts.body as { filter: Filter }).filter;
      const bandwidths = filter.and.find((e) => e.property === "/connection/bandwidth")?.values ?? [];
      return { data: bandwidths.map((b) => ({ currency: "USD", charges: [{ type: "MONTHLY_RECURRING", price: Number(b) }, { type: "NON_RECURRING", price: 99 }], connection: { bandwidth: Number(b) } })) };
    },
  };
  return { api: api as unknown as ApiClient, calls };
}

const connection = (bandwidth: number) => ({
  type: "EVPL_VC",
  bandwidth,
  aSide: { accessPoint: { type: "COLO", port: { uuid: "port-dc" } } },
  zSide: { accessPoint: { type: "COLO", location: { metroCode: "SV" } } },
});
const device = (metroCode: string) => ({ metroCode, deviceTypeCode: "C8000V", packageCode: "network-essentials" });

describe("planCost", () => {
  it("asks each distinct product once, one search for the bandwidths of one route, and totals per currency", async () => {
    const { api, calls } = fakeService();
    const cost = await planCost(
      api,
      plan([
        change("connections.a", "create", { after: connection(50) }),
        change("connections.b", "create", { after: connection(50) }),
        change("connections.c", "update", { before: connection(200), after: connection(1000) }),
        change("devices.us", "create", { after: device("DC") }),
        change("devices.eu", "create", { after: device("LD") }),
        change("routeFilters.x", "create", { after: { type: "BGP_IPv4_PREFIX_FILTER" } }),
      ]),
    );
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(["GET /ne/v1/prices", "GET /ne/v1/prices", "POST /fabric/v4/ports/search", "POST /fabric/v4/prices/search"]);
    const search = calls.find((c) => c.path === "/fabric/v4/prices/search")!;
    expect((search.opts.body as { filter: Filter }).filter.and).toContainEqual({ property: "/connection/bandwidth", operator: "IN", values: ["50", "200", "1000"] });
    expect(cost.requests).toBe(4);
    expect(cost.resources.find((r) => r.address === "connections.c")).toMatchObject({ product: "EVPL_VC 1000 Mbps, DC to SV", before: [{ currency: "USD", monthly: 200 }], after: [{ currency: "USD", monthly: 1000 }] });
    expect(cost.totals).toEqual([
      { currency: "USD", monthlyBefore: 200, monthlyAfter: 1600, delta: 1400 },
      { currency: "EUR", monthlyBefore: 0, monthlyAfter: 500, delta: 500 },
    ]);
    expect(cost.unknown).toEqual([]);
  });

  it("leaves out an update that keeps its product, and prices a delete from the state's record", async () => {
    const { api } = fakeService();
    const renamed = change("connections.a", "update", { before: { ...connection(50), name: "old" }, after: { ...connection(50), name: "new" } });
    const deleted = change("devices.old", "delete", { before: { ...device("DC"), core: { core: 2 } } });
    const cost = await planCost(api, plan([renamed, deleted]));
    expect(cost.resources.map((r) => r.address)).toEqual(["devices.old"]);
    expect(cost.totals).toEqual([{ currency: "USD", monthlyBefore: 500, monthlyAfter: 0, delta: -500 }]);
  });

  it("turns a failed price call and a value known only after apply into unknown prices with why, never zero", async () => {
    const { api } = fakeService({ failSearches: true });
    const cost = await planCost(
      api,
      plan([
        change("connections.a", "create", { after: connection(50) }),
        change("connections.later", "create", { after: { ...connection(50), bandwidth: "(known after apply)" } }),
      ]),
    );
    expect(cost.unknown).toEqual([
      { address: "connections.a", side: "after", why: "the price search failed: POST /fabric/v4/prices/search was refused: HTTP 503" },
      { address: "connections.later", side: "after", why: "the bandwidth is known only after apply" },
    ]);
    expect(cost.resources.every((r) => r.after === undefined)).toBe(true);
    expect(cost.totals).toEqual([]);
  });
});

describe("PriceBook", () => {
  it("asks a question once per run, however often it is asked", async () => {
    const { api, calls } = fakeService();
    const book = new PriceBook(api);
    const query = { api: "device" as const, query: { metro: "DC", vendorPackage: "C8000V", softwarePackage: "network-essentials" } };
    await book.ask([query, { ...query, query: { softwarePackage: "network-essentials", metro: "DC", vendorPackage: "C8000V" } }]);
    await book.ask([query]);
    expect(calls).toHaveLength(1);
    expect(await book.answer(query)).toEqual({ money: [{ currency: "USD", monthly: 500 }] });
  });
});
