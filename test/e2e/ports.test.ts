// Port orders at plan (issue 19): each port the plan would order is sent to the service with dryRun first,
// and an order the service refuses is an error at the field it names, before anything is ordered; a port
// the plan orders is priced from the service's price search like every other billed object.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, CONFIG_HEADER, out, requestLog, runner } from "./service.js";

const t = useSimulator();

const port = (name: string, fields: { speed?: number; optics?: string; count?: number } = {}) => `  ${name}:
    physicalPortsSpeed: ${fields.speed ?? 10000}
    physicalPortsType: ${fields.optics ?? "10GBASE_LR"}
    physicalPortsCount: ${fields.count ?? 1}
    connectivitySourceType: COLO
    location: { metroCode: DC }
    demarcationPointIbx: DC6
    encapsulation: { type: DOT1Q }
`;

const config = (...ports: string[]) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}\nports:\n${ports.join("")}`;

/** The requests that could change the service (no reads, searches or token requests), as "METHOD path status". */
const sent = async (): Promise<string[]> =>
  (await requestLog(t)).filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""} ${r.status}`);
const portCount = async (): Promise<number> => (await t.call("GET", "/__sim/objects?kind=ports")).body.data.length;

describe("a port order at plan", () => {
  it("is refused at the field the service's dry run names, with nothing ordered", async () => {
    // 1000BASE_LX optics run at 1 Gbps, not 10; two physical ports need a link aggregation group.
    const ws = workspace(config(port("wrong-optics", { optics: "1000BASE_LX" }), port("two-links", { count: 2 }), port("fine")));
    const run = runner(t, ws);
    const portsBefore = await portCount();
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toMatch(/netform\.yaml:9:24 {2}ports\.wrong-optics\.physicalPortsType {2}the service refuses this port \(EQ-\d+\): 1000BASE_LX does not run at 10000 Mbps/);
    expect(refused.stderr).toMatch(/netform\.yaml:15:3 {2}ports\.two-links\.lagEnabled {2}the service refuses this port \(EQ-\d+\): more than one physical port needs lagEnabled: true/);
    expect(refused.stderr).toContain("hint: nothing was changed; correct the field and plan again");
    expect(refused.stderr).not.toContain("ports.fine");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // Three dry runs (two refused, one accepted with 200, not the 202 of a placed order), and no port more.
    expect((await sent()).sort()).toEqual(["POST /fabric/v4/ports?dryRun=true 200", "POST /fabric/v4/ports?dryRun=true 400", "POST /fabric/v4/ports?dryRun=true 400"]);
    expect(await portCount()).toBe(portsBefore);
  });

  it("shows the port's monthly price from the service's price search", async () => {
    const search = await t.call("POST", "/fabric/v4/prices/search", {
      body: {
        filter: {
          and: [
            { property: "/type", operator: "=", values: ["VIRTUAL_PORT_PRODUCT"] },
            { property: "/account/accountNumber", operator: "=", values: [String(ACCOUNT)] },
            { property: "/port/type", operator: "=", values: ["XF_PORT"] },
            { property: "/port/bandwidth", operator: "=", values: ["10000"] },
            { property: "/port/location/ibx", operator: "=", values: ["DC6"] },
          ],
        },
      },
    });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    const monthly = (search.body.data[0].charges as Array<{ type: string; price: number }>).filter((c) => c.type === "MONTHLY_RECURRING").reduce((s, c) => s + c.price, 0);
    const usd = `USD ${monthly.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

    const ws = workspace(config(port("lab")));
    const planned = await runner(t, ws)("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toMatch(new RegExp(`\\+ ports\\.lab +none -> ${usd} +\\(10 Gbps port, DC6\\)`));
    expect(planned.stdout).toContain(`Total: + ${usd} / month`);
  });
});
