// What the network-edge kinds around a device do together, beyond each kind's lifecycle row: a device
// moves to another ACL template in place, and an edited cloud-init file is a new upload that replaces the
// device made from it, its content never shown.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, idOf, objects, out, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

const ROUTER = `
${C8000V_DC_FIELDS}`;

const withTemplate = (template: "office" | "partner", subnet: string) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
aclTemplates:
  ${template}:
    inboundRules: [{ protocol: TCP, subnet: ${subnet}, dstPort: 22 }]
devices:
  edge-1:${ROUTER}
    aclDetails: [{ interfaceType: WAN, uuid: "\${aclTemplates.${template}.uuid}" }]
`;

describe("a device's ACL template", () => {
  it("changes in place: the same device, the new template read back, the old one deleted once the device has left it", { timeout: 120_000 }, async () => {
    const ws = workspace(withTemplate("office", "198.51.100.0/24"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const device = idOf(ws, "devices.edge-1");
    const office = idOf(ws, "aclTemplates.office");

    ws.write(withTemplate("partner", "203.0.113.0/24"));
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain("# devices.edge-1 will be updated in place");
    expect(plan.stdout).toMatch(/~ aclDetails/);
    expect(plan.stdout).toContain("1 to add, 1 to change, 0 to replace, 1 to destroy");

    await t.call("DELETE", "/__sim/requests");
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const partner = idOf(ws, "aclTemplates.partner");
    const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string; status: number }>;
    const mutations = log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2")).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(mutations).toEqual(["POST /ne/v1/aclTemplates 201", `PATCH /ne/v1/devices/${device}/acl 204`, `DELETE /ne/v1/aclTemplates/${office} 204`]);

    expect(idOf(ws, "devices.edge-1")).toBe(device);
    expect((await t.call("GET", `/ne/v1/devices/${device}`)).body).toMatchObject({ aclTemplateUuid: partner, status: "PROVISIONED" });
    expect((await t.call("GET", `/ne/v1/aclTemplates/${partner}`)).body).toMatchObject({ virtualDeviceDetails: [{ uuid: device, interfaceType: "WAN" }] });
    expect((await t.call("GET", `/ne/v1/aclTemplates/${office}`)).status).toBe(404);
    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);
  });
});

const CLOUD_INIT = "#cloud-config\nhostname: edge-first-b81d\n";
const EDITED = "#cloud-config\nhostname: edge-edited-4f0e\n";

const bootstrapped = (path: string) => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
files:
  init:
    path: ${path}
    deviceTypeCode: C8000V
    metroCode: DC
    processType: CLOUD_INIT
devices:
  edge-1:${ROUTER}
    cloudInitFileId: \${files.init.fileUuid}
`;

describe("a cloud-init file", () => {
  it("is uploaded from a path beside the configuration; an edit is a new upload that replaces the device made from it, the content never shown", { timeout: 120_000 }, async () => {
    const ws = workspace(bootstrapped("cloud-init.cfg"));
    ws.write(CLOUD_INIT, "cloud-init.cfg");
    const run = async (...args: string[]) => {
      const result = await runner(t, ws)(...args);
      for (const content of [CLOUD_INIT, EDITED]) {
        expect(result.stdout + result.stderr, "the content in the output").not.toContain(content.trim().split("\n")[1]);
        expect(ws.stateText(), "the content in the state").not.toContain(content.trim().split("\n")[1]);
      }
      return result;
    };
    // The service lists no uploads, so one whose answer a stopped run lost is made again: the plan says so.
    const first = await run("plan");
    expect(first.code, out(first)).toBe(0);
    expect(first.stdout).toMatch(/files\.init will be created[\s\S]*if this run stops before the service's answer arrives, the next run uploads the file again/);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const [file, device] = [idOf(ws, "files.init"), idOf(ws, "devices.edge-1")];
    expect(await objects(t, "files")).toEqual([expect.objectContaining({ uuid: file, processType: "CLOUD_INIT", metroCode: "DC" })]);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(EDITED, "cloud-init.cfg");
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain("# files.init must be replaced");
    expect(plan.stdout).toContain("content cannot change in place");
    expect(plan.stdout).toContain("the next run uploads the file again");
    expect(plan.stdout).toContain("# devices.edge-1 must be replaced");
    expect(plan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(idOf(ws, "files.init")).not.toBe(file);
    expect(idOf(ws, "devices.edge-1")).not.toBe(device);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("names the file it cannot read, where the configuration names it", async () => {
    const ws = workspace(bootstrapped("missing.cfg"));
    const result = await runner(t, ws)("validate");
    expect(result.code, out(result)).toBe(1);
    expect(result.stderr + result.stdout).toContain("netform.yaml:8:11  files.init.path  cannot read missing.cfg: ENOENT");
    expect(result.stderr + result.stdout).toContain("path is relative to the configuration file");
  });
});
