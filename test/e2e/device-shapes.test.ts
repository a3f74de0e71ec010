// Device shapes the service accepts, end to end through the command line against the simulator: a
// secondary added to and removed from a running device is an update of that device, never a new one; a
// cluster whose nodes are managed by FMC; and the settings the service never returns, which are compared
// with what was last applied instead of passing unseen.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, idOf, out, runner } from "./service.js";

// Devices take minutes of simulated time: a fast clock.
const t = useSimulator({ speed: 2000 });

const ADDRESS = "devices.edge-1";

const device = (secondary: boolean) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  edge-1:
${C8000V_DC_FIELDS}${
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
    // A device without a secondary is planned without one: the mark that it must have none is not shown.
    expect(created.stdout).not.toContain("secondary");
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

  it("orders a cluster whose nodes FMC manages, re-plans clean, and replaces it when a node's settings or a licence token change", { timeout: 180_000 }, async () => {
    const cluster = (hostname: string, licenseToken = "AB12CD34") => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  fw-1:
    deviceTypeCode: PA-VM
    metroCode: DC
    version: 10.2.4
    licenseMode: BYOL
    deviceManagementType: SELF-CONFIGURED
    core: 2
    notifications: [sec@example.com]
    clusterDetails:
      clusterName: fw-cluster
      clusterNodeDetails:
        node0:
          licenseToken: ${licenseToken}
          vendorConfig: { managementType: FMC, ipAddressType: STATIC, ipAddress: 10.0.0.10, subnetMaskIp: 255.255.255.0, gatewayIp: 10.0.0.1, managementInterfaceId: "1", token: reg-0, hostname: ${hostname}, restApiSupportRequirement: true }
        node1:
          licenseToken: EF56GH78
          vendorConfig: { managementType: FMC, ipAddressType: DHCP, token: reg-1, hostname: fw-b }
`;
    const ws = workspace(cluster("fw-a"));
    const run = runner(t, ws);
    const valid = await run("validate");
    expect(valid.code, out(valid)).toBe(0);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(JSON.stringify(ws.state())).not.toContain("reg-0");
    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);

    ws.write(cluster("fw-a2"));
    const renamed = await run("plan", "--detailed-exitcode");
    expect(renamed.code, out(renamed)).toBe(2);
    expect(renamed.stdout).toContain("clusterDetails.clusterNodeDetails.node0.vendorConfig.hostname cannot change in place");
    expect(renamed.stdout).toContain("0 to add, 0 to change, 1 to replace, 0 to destroy");

    ws.write(cluster("fw-a", "ZZ98YY76"));
    const relicensed = await run("plan", "--detailed-exitcode");
    expect(relicensed.code, out(relicensed)).toBe(2);
    expect(relicensed.stdout).toContain("clusterDetails.clusterNodeDetails.node0.licenseToken cannot change in place");
    expect(relicensed.stdout).not.toContain("ZZ98YY76");

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
  });

  it("orders a self-configured SD-WAN pair sharing one identity with its own purchase orders, and a provider-configured router by throughput", { timeout: 180_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  sdwan-ha:
    deviceTypeCode: VERSA_SDWAN
    metroCode: DC
    packageCode: FLEX_VNF_2
    version: "21.2.3"
    licenseMode: BYOL
    deviceManagementType: SELF-CONFIGURED
    core: 2
    notifications: [netops@example.com]
    generateDefaultPassword: true
    purchaseOrderNumber: PO-1
    orderReference: ref-1
    vendorConfig: { localId: branch@example.com, remoteId: director@example.com, controller1: 54.219.248.29, controller2: 54.177.220.115 }
    secondary:
      metroCode: SV
      notifications: [netops@example.com]
      purchaseOrderNumber: PO-2
      orderReference: ref-2
      vendorConfig: { localId: branch@example.com, remoteId: director@example.com, controller1: 54.219.248.29, controller2: 54.177.220.115 }
  edge-tput:
    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: network-essentials
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    throughput: 100
    throughputUnit: Mbps
    notifications: [netops@example.com]
`);
    const run = runner(t, ws);
    const valid = await run("validate");
    expect(valid.code, out(valid)).toBe(0);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const primary = (await t.call("GET", `/ne/v1/devices/${idOf(ws, "devices.sdwan-ha")}`)).body;
    expect(primary).toMatchObject({ localId: "branch@example.com", purchaseOrderNumber: "PO-1", orderReference: "ref-1" });
    expect((await t.call("GET", `/ne/v1/devices/${String(primary.redundantUuid)}`)).body).toMatchObject({ localId: "branch@example.com", purchaseOrderNumber: "PO-2", orderReference: "ref-2" });
    expect((await t.call("GET", `/ne/v1/devices/${idOf(ws, "devices.edge-tput")}`)).body).toMatchObject({ throughput: 100, throughputUnit: "Mbps", core: { tier: 1 } });
    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stderr).not.toContain("generateDefaultPassword");

    // A field the service reads only at order time: a change is no change the apply could make, and says so.
    ws.write(readFileSync(join(ws.dir, "netform.yaml"), "utf8").replace("generateDefaultPassword: true", "generateDefaultPassword: false"));
    const writeOnly = await run("plan", "--detailed-exitcode");
    expect(writeOnly.code, out(writeOnly)).toBe(0);
    expect(writeOnly.stderr).toMatch(/netform\.yaml:\d+:\d+ {2}devices\.sdwan-ha\.generateDefaultPassword {2}warning: generateDefaultPassword changed, but the service reads it only when the object is made/);
    expect(writeOnly.stderr).toContain("--replace devices.sdwan-ha");

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
  });
});
