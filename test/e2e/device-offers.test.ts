// A device's core and term the service would refuse are refused by plan first, at their place in the
// configuration: the term against the terms the service offers every device (at validate), the core and
// package against what the device-type catalogue offers for the type, management type and licence (one read
// of the catalogue per plan). Nothing is ordered. The simulator refuses the same orders (ne-devices.test.ts).

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, changesSent, CONFIG_HEADER, out, requestLog, runner } from "./service.js";

const t = useSimulator();

const device = (name: string, fields: { management?: string; core?: number; packageCode?: string; termlength?: number }) => `  ${name}:
    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: ${fields.packageCode ?? "network-advantage"}
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: ${fields.management ?? "PROVIDER-CONFIGURED"}
    core: ${fields.core ?? 4}
    termlength: ${fields.termlength ?? 12}
    notifications: [netops@example.com]
`;

const config = (...devices: string[]) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}\ndevices:\n${devices.join("")}`;


const requests = () => requestLog(t);
const sent = changesSent;

describe("a device the catalogue does not offer", () => {
  it("is refused by plan at its core and package, naming what the type offers, with one read of the catalogue and no order", async () => {
    // C8000V offers 16 cores only self-configured, and network-essentials only up to 8 cores.
    const ws = workspace(config(device("big", { core: 16 }), device("premier", { core: 2, packageCode: "network-premier" }), device("fine", {})));
    const run = runner(t, ws);
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain("netform.yaml:14:11  devices.big.core  C8000V PROVIDER-CONFIGURED SUB offers 2, 4, 8 cores, not 16; the service refuses the order");
    expect(refused.stderr).toContain("hint: set core to one of 2, 4, 8");
    expect(refused.stderr).toContain("netform.yaml:20:18  devices.premier.packageCode  C8000V does not offer package network-premier with 2 cores; the service refuses the order");
    expect(refused.stderr).toContain("hint: with 2 cores, use network-essentials, network-advantage");
    expect(refused.stderr).not.toContain("devices.fine");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const log = await requests();
    expect(log.filter((r) => r.method === "GET" && r.path === "/ne/v1/deviceTypes")).toHaveLength(1);
    expect(sent(log)).toEqual([]);

    // What the type offers plans: 16 cores self-configured.
    ws.write(config(device("big", { core: 16, management: "SELF-CONFIGURED" }), device("fine", {})));
    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy.");
  });

  it("is refused at validate for a term the service offers no device, with nothing sent", async () => {
    const ws = workspace(config(device("edge", { termlength: 6 })));
    const run = runner(t, ws);
    const validated = await run("validate");
    expect(validated.code, out(validated)).toBe(1);
    expect(validated.stdout).toContain("netform.yaml:15:17  devices.edge.termlength  termlength must be one of 1, 12, 24, 36 (months)");
    await t.call("DELETE", "/__sim/requests");
    const refused = await run("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("netform.yaml:15:17  devices.edge.termlength  termlength must be one of 1, 12, 24, 36 (months)");
    expect(sent(await requests())).toEqual([]);
  });
});
