// Device shapes the service accepts, end to end through the command line against the simulator: a
// secondary added to and removed from a running device is an update of that device, never a new one.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, idOf, out, runner, CONFIG_HEADER } from "./service.js";

// Devices take minutes of simulated time: a fast clock.
const t = useSimulator({ speed: 2000 });

const ADDRESS = "devices.edge-1";

const device = (secondary: boolean) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  edge-1:
    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: network-essentials
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    termlength: 12
    notifications: [netops@example.com]${
      secondary
        ? `
    secondary:
      virtualDeviceName: edge-1-standby
      metroCode: DC
      notifications: [netops@example.com]`
        : ""
    }
`;

const live = (status: unknown) => status !== "DEPROVISIONED" && status !== "DEPROVISIONING";

describe("device shapes end to end", () => {
  it("adds a secondary to a running device and removes it again, each as an update that keeps the primary", { timeout: 180_000 }, async () => {
    const ws = workspace(device(false));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const id = idOf(ws, ADDRESS);

    ws.write(device(true));
    const addPlan = await run("plan", "--detailed-exitcode");
    expect(addPlan.code, out(addPlan)).toBe(2);
    expect(addPlan.stdout).toContain("# devices.edge-1 will be updated in place");
    expect(addPlan.stdout).toMatch(/\+ secondary\.virtualDeviceName\s+= "edge-1-standby"/);
    expect(addPlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    const added = await run("apply", "--auto-approve");
    expect(added.code, out(added)).toBe(0);
    expect(added.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(id);
    const primary = (await t.call("GET", `/ne/v1/devices/${id}`)).body;
    expect(primary).toMatchObject({ status: "PROVISIONED", redundancyType: "PRIMARY" });
    const secondaryId = primary.redundantUuid as string;
    expect((await t.call("GET", `/ne/v1/devices/${secondaryId}`)).body).toMatchObject({ name: "edge-1-standby", status: "PROVISIONED", redundancyType: "SECONDARY", redundantUuid: id });
    const cleanPair = await run("plan", "--detailed-exitcode");
    expect(cleanPair.code, out(cleanPair)).toBe(0);

    ws.write(device(false));
    const removePlan = await run("plan", "--detailed-exitcode");
    expect(removePlan.code, out(removePlan)).toBe(2);
    expect(removePlan.stdout).toContain("# devices.edge-1 will be updated in place");
    expect(removePlan.stdout).toMatch(/- secondary\.metroCode\s+= "DC"/);
    expect(removePlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    const removed = await run("apply", "--auto-approve");
    expect(removed.code, out(removed)).toBe(0);
    expect(removed.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(id);
    const single = (await t.call("GET", `/ne/v1/devices/${id}`)).body;
    expect(single.status).toBe("PROVISIONED");
    expect(single.redundantUuid).toBeUndefined();
    expect(live((await t.call("GET", `/ne/v1/devices/${secondaryId}`)).body.status)).toBe(false);
    const cleanSingle = await run("plan", "--detailed-exitcode");
    expect(cleanSingle.code, out(cleanSingle)).toBe(0);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(live((await t.call("GET", `/ne/v1/devices/${id}`)).body.status)).toBe(false);
  });
});
