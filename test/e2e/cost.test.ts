// Cost in every plan (issue 19), end to end against the simulator: each created, resized or deleted
// connection, cloud router and device priced before and after from the service's own price calls, one
// request per distinct product at most, a total per currency; `plan --no-cost` asks for no price; and
// `netform cost` prices the whole state by kind and by metro.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, dcConnectionYaml, out, portConnectionYaml, PORTS, runner } from "./service.js";

// Devices take minutes of simulated time: a fast clock.
const t = useSimulator({ speed: 2000 });

const DEVICE = `devices:
  edge-1:
${C8000V_DC_FIELDS}
`;

const ROUTER = `cloudRouters:
  core:
    name: fcr-core
    location: { metroCode: DC }
    package: { code: STANDARD }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

/** Two connections of one product, a third of another bandwidth on the same route, one to SV. */
const config = (resized = 50) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
${ROUTER}${DEVICE}connections:
${dcConnectionYaml("a", 3101, 3102, resized)}${dcConnectionYaml("b", 3103, 3104)}${dcConnectionYaml("c", 3105, 3106, 1000)}${portConnectionYaml("to-sv", { aPort: PORTS.dcPrimary, vlanA: 3107, zPort: PORTS.svPrimary, vlanZ: 3108, bandwidth: 200 })}`;

interface Logged {
  method: string;
  path: string;
}

/** The price requests the simulator received since the last call. */
async function priceRequests(): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Logged[];
  await t.call("DELETE", "/__sim/requests");
  return log.filter((r) => r.path.startsWith("/fabric/v4/prices") || r.path.startsWith("/ne/v1/prices")).map((r) => `${r.method} ${r.path}`);
}

/** What the service's price search says a product costs each month. */
async function searched(filter: Record<string, string | number>): Promise<number> {
  const and = Object.entries(filter).map(([property, value]) => ({ property, operator: property.endsWith("bandwidth") || property.endsWith("package/code") ? "IN" : "=", values: [String(value)] }));
  const res = await t.call("POST", "/fabric/v4/prices/search", { body: { filter: { and } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data[0].charges as Array<{ type: string; price: number }>).filter((c) => c.type === "MONTHLY_RECURRING").reduce((s, c) => s + c.price, 0);
}

const dcConnection = (bandwidth: number, zMetro = "DC") =>
  searched({
    "/type": "VIRTUAL_CONNECTION_PRODUCT",
    "/connection/type": "EVPL_VC",
    "/connection/bandwidth": bandwidth,
    "/connection/aSide/accessPoint/type": "COLO",
    "/connection/aSide/accessPoint/location/metroCode": "DC",
    "/connection/zSide/accessPoint/type": "COLO",
    "/connection/zSide/accessPoint/location/metroCode": zMetro,
  });

const usd = (n: number) => `USD ${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe("cost in the plan", () => {
  it("prices each change from the service once per distinct product, shows the total, a resize before and after, and the state's running cost", { timeout: 180_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);
    await t.call("DELETE", "/__sim/requests");

    const device = await t.call("GET", `/ne/v1/prices?accountNumber=${ACCOUNT}&metro=DC&vendorPackage=C8000V&softwarePackage=network-essentials&licenseType=SUB&deviceManagementType=PROVIDER-CONFIGURED&core=2&termLength=12&additionalBandwidth=15`);
    const deviceMonthly = (device.body.primary.charges as Array<{ monthlyRecurringCharges: string }>).reduce((s, c) => s + Number(c.monthlyRecurringCharges), 0);
    const [c50, c200sv, c1000, router] = [await dcConnection(50), await dcConnection(200, "SV"), await dcConnection(1000), await searched({ "/type": "CLOUD_ROUTER_PRODUCT", "/router/location/metroCode": "DC", "/router/package/code": "STANDARD" })];
    await t.call("DELETE", "/__sim/requests");

    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    const total = c50 * 2 + c1000 + c200sv + router + deviceMonthly;
    expect(planned.stdout).toContain("Cost (monthly recurring, from the service's prices):");
    expect(planned.stdout).toMatch(new RegExp(`\\+ connections\\.a +none -> ${usd(c50)} +\\(EVPL_VC 50 Mbps, DC to DC\\)`));
    expect(planned.stdout).toContain(`-> ${usd(c200sv)}  (EVPL_VC 200 Mbps, DC to SV)`);
    expect(planned.stdout).toContain(`-> ${usd(router)}  (STANDARD package, DC)`);
    expect(planned.stdout).toContain(`-> ${usd(deviceMonthly)}  (C8000V network-essentials, 2 cores, DC)`);
    expect(planned.stdout).toContain(`Total: + ${usd(total)} / month (USD 0.00 -> ${usd(total)})`);
    // Six priced resources, five products: the DC route's two bandwidths share one search, the SV route
    // has its own, the router its own, the device one price call; the ports' metros one port search.
    expect(await priceRequests()).toEqual(expect.arrayContaining(["POST /fabric/v4/prices/search", "GET /ne/v1/prices"]));
    const json = await run("plan", "--format", "json");
    const requests = await priceRequests();
    expect(requests.filter((r) => r === "POST /fabric/v4/prices/search")).toHaveLength(3);
    expect(requests.filter((r) => r === "GET /ne/v1/prices")).toHaveLength(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.cost.totals).toEqual([{ currency: "USD", monthlyBefore: 0, monthlyAfter: total, delta: total }]);
    expect(doc.cost.unknown).toEqual([]);
    expect(doc.cost.resources).toHaveLength(6);

    const markdown = await run("plan", "--format", "markdown");
    expect(markdown.stdout).toContain("#### Cost (monthly recurring)");
    expect(markdown.stdout).toContain(`| \`connections.c\` | EVPL\\_VC 1000 Mbps, DC to DC | none | ${usd(c1000)} |`);

    await priceRequests();
    const withoutCost = await run("plan", "--no-cost");
    expect(withoutCost.stdout).not.toContain("Cost");
    expect(await priceRequests()).toEqual([]);

    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    ws.write(config(200));
    const resized = await run("plan");
    expect(resized.code, out(resized)).toBe(0);
    const c200 = await dcConnection(200);
    expect(resized.stdout).toMatch(new RegExp(`~ connections\\.a +${usd(c50)} -> ${usd(c200)} +\\(EVPL_VC 200 Mbps, DC to DC\\)`));
    expect(resized.stdout).toContain(`Total: + ${usd(c200 - c50)} / month`);
    // Nothing else changes price: the other objects are not listed.
    expect(resized.stdout).not.toContain("connections.b ");

    await t.call("DELETE", "/__sim/requests");
    const running = await run("cost");
    expect(running.code, out(running)).toBe(0);
    expect(running.stdout).toContain(`connections: ${usd(c50 * 2 + c1000 + c200sv)}`);
    expect(running.stdout).toContain(`cloudRouters: ${usd(router)}`);
    expect(running.stdout).toContain(`devices: ${usd(deviceMonthly)}`);
    expect(running.stdout).toContain(`DC: ${usd(total)}`);
    expect(running.stdout).toContain(`Total: ${usd(total)} / month`);
    expect((await priceRequests()).length).toBeLessThanOrEqual(4);
    const runningJson = JSON.parse((await run("cost", "--json")).stdout);
    expect(runningJson.totals).toEqual([{ currency: "USD", monthly: total }]);
    expect(runningJson.byMetro).toEqual([{ metro: "DC", currency: "USD", monthly: total }]);
  });

  it("shows a price the service cannot give as unknown with why, and the plan still succeeds", { timeout: 60_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("odd", 3201, 3202, 100)}`);
    const planned = await runner(t, ws)("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("connections.odd: the price after apply is unknown: the service's price search quotes 50, 200, 500, 1000, 2000, 5000, 10000 Mbps, not 100");
    expect(planned.stdout).toContain("Total: unknown (no price of these changes is known)");
    expect(planned.stdout).not.toContain("USD 0.00");
  });
});
