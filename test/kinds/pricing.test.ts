// Each priced kind's product (issue 19): the question its pricing asks is one the service's price calls
// answer, with a monthly price; what the service cannot price is unknown with why.

import { describe, expect, it } from "vitest";
import { PriceBook } from "../../src/engine/index.js";
import { KIND_DEFINITIONS, type Body, type KindPricing, type PricedProduct } from "../../src/kinds/index.js";
import { portPricing } from "../../src/kinds/ports-pricing.js";
import { useSimulator } from "../support/sim.js";
import { ACCOUNT_NUMBER, useKindContext } from "./kind-harness.js";

const t = useSimulator();
const k = useKindContext(t);

const pricingOf = (kind: "connections" | "cloudRouters" | "devices"): KindPricing => KIND_DEFINITIONS.get(kind)!.pricing!;
const noPorts = () => undefined;

/** Asks the service the product's question; its monthly price. */
async function priced(product: PricedProduct) {
  if (!("query" in product)) throw new Error(`unpriced: ${product.unknown}`);
  const book = new PriceBook(k.ctx.api);
  await book.ask([product.query]);
  return book.answer(product.query);
}

const connection = (bandwidth: unknown, zSide: Body = { accessPoint: { type: "COLO", location: { metroCode: "SV" } } }): Body => ({
  type: "EVPL_VC",
  bandwidth,
  aSide: { accessPoint: { type: "COLO", port: { uuid: "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee" } } },
  zSide,
});

describe("connections' pricing", () => {
  const pricing = pricingOf("connections");

  it("asks for the product of its type and bandwidth between the a-side port's metro and the z-side's", async () => {
    expect(pricing.portsNamed!(connection(1000))).toEqual(["c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee"]);
    const product = pricing.product(connection(1000), (uuid) => (uuid.startsWith("c791f8cb-5cc8") ? "DC" : undefined));
    expect(product).toMatchObject({ product: "EVPL_VC 1000 Mbps, DC to SV", metro: "DC" });
    expect(await priced(product)).toEqual({ money: [{ currency: "USD", monthly: expect.any(Number) }] });
  });

  it("says why it cannot be priced: a bandwidth the search does not quote, a port whose metro is unknown, a service token", () => {
    expect(pricing.product(connection(100), () => "DC")).toEqual({ unknown: "the service's price search quotes 50, 200, 500, 1000, 2000, 5000, 10000 Mbps, not 100" });
    expect(pricing.product(connection(50), noPorts)).toEqual({ unknown: "the a-side port's metro is known only after apply" });
    expect(pricing.product({ ...connection(50), aSide: { serviceToken: { uuid: "x" } } }, noPorts)).toEqual({ unknown: "a connection from a service token is billed to the token's issuer" });
    expect(pricing.product({ type: "EVPL_VC" }, noPorts)).toEqual({ unknown: "the bandwidth is known only after apply" });
  });
});

describe("cloud routers' pricing", () => {
  it("asks for its package in its metro, batched by package", async () => {
    const product = pricingOf("cloudRouters").product({ location: { metroCode: "DC" }, package: { code: "STANDARD" } }, noPorts);
    expect(product).toMatchObject({ product: "STANDARD package, DC", query: { batchBy: "/router/package/code" } });
    expect(await priced(product)).toEqual({ money: [{ currency: "USD", monthly: 750 }] });
    expect(pricingOf("cloudRouters").product({ package: { code: "LAB" } }, noPorts)).toEqual({ unknown: "the metro is known only after apply" });
  });
});

describe("devices' pricing", () => {
  const device: Body = { metroCode: "DC", deviceTypeCode: "C8000V", packageCode: "network-essentials", licenseMode: "SUB", deviceManagementType: "PROVIDER-CONFIGURED", core: 2, termlength: 12, additionalBandwidth: 15, accountNumber: Number(ACCOUNT_NUMBER) };

  it("asks the device price call, with a pair's secondary in the same question", async () => {
    const single = pricingOf("devices").product({ ...device, secondary: { metroCode: null } }, noPorts);
    expect(single).toMatchObject({ product: "C8000V network-essentials, 2 cores, DC", query: { api: "device" } });
    expect(await priced(single)).toEqual({ money: [{ currency: "USD", monthly: 488.7 }] });
    const pair = pricingOf("devices").product({ ...device, secondary: { metroCode: "SV", additionalBandwidth: 15 } }, noPorts);
    expect(pair).toMatchObject({ product: "C8000V network-essentials, 2 cores, DC + SV", query: { query: { secondaryMetro: "SV" } } });
    expect(await priced(pair)).toEqual({ money: [{ currency: "USD", monthly: 977.4 }] });
  });
});

describe("ports' pricing", () => {
  const order: Body = { physicalPortsSpeed: 10000, connectivitySourceType: "COLO", lagEnabled: false, location: { metroCode: "DC" }, account: { accountNumber: Number(ACCOUNT_NUMBER) }, settings: { buyout: false } };

  it("asks for the port product of its speed, source, LAG and buyout for its account", async () => {
    const product = portPricing.product(order, noPorts);
    expect(product).toMatchObject({ product: "10 Gbps port, DC", metro: "DC" });
    expect(await priced(product)).toEqual({ money: [{ currency: "USD", monthly: 1500 }] });
    expect(await priced(portPricing.product({ ...order, lagEnabled: true, demarcationPointIbx: "DC6", settings: { buyout: true } }, noPorts))).toEqual({ money: [{ currency: "USD", monthly: 4500 }] });
  });

  it("says why it cannot be priced", () => {
    expect(portPricing.product({ ...order, physicalPortsSpeed: 25000 }, noPorts)).toEqual({ unknown: "the service's price search quotes ports of 1000, 10000, 100000 Mbps, not 25000" });
    expect(portPricing.product({ ...order, account: undefined }, noPorts)).toEqual({ unknown: "the price search needs the port's account number, known only after apply" });
  });
});
