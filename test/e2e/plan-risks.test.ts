// Downtime and maintenance the service announces are risks in the plan, in text and JSON, and apply
// refuses through them unless --ignore-downtime: the network-edge downtime notification when the plan
// changes a network-edge object, and the maintenance notices of provider.maintenanceNotices in progress in
// a metro the plan changes something in. The windows are moved onto now through the control API.

import { describe, expect, it } from "vitest";
import { seededUuid } from "../../src/simulator/core/seed.js";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, out, requestLog, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

const DOWNTIME = seededUuid("d0a71e00", 1);
/** The seeded IBX maintenance in LD1 and LD8, two days ahead. */
const LONDON_NOTICE = seededUuid("1b0c0e11", 2);

const KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC5kHcagDZ7utPan4DHWUvoJxwz/DISRFwZdpMhslhZRI+6dGOC8mJn42SlSUAUtkt8Qyl4HipPK7Xh6oGj70Iba1a9pDcURYTYcqWFBEhcdDsMnH1CICmvVdsILehFtiS3X0J1JhwmWQI/7ll3QOk8fLgWCz3idlYJqtMs8Gz/6Q== ops@example.com";
const sshKeyConfig = `${CONFIG_HEADER}sshKeys:\n  ops:\n    keyValue: ${KEY}\n`;

const HOUR = 3_600_000;
const around = (now = Date.now()) => ({ start: new Date(now - HOUR).toISOString(), end: new Date(now + HOUR).toISOString() });

const requests = () => requestLog(t);
const sent = changesSent;

async function downtimeNow(): Promise<void> {
  const { start, end } = around();
  await t.call("PATCH", `/__sim/objects/${DOWNTIME}`, { body: { notificationType: "unplanned_downtime", startTime: start, endTime: end, additionalMessage: "Device APIs are recovering from an outage." } });
}

describe("the network-edge downtime notification", () => {
  it("is a risk in a plan that changes a network-edge object, and apply refuses it unless --ignore-downtime", { timeout: 60_000 }, async () => {
    await downtimeNow();
    const ws = workspace(sshKeyConfig);
    const run = runner(t, ws);
    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("Risks: apply refuses while it lasts, unless --ignore-downtime");
    expect(planned.stdout).toMatch(/! downtime, \S+ to \S+: network-edge unplanned downtime: Device APIs are recovering from an outage\./);
    expect(planned.stdout).toContain("Device (delay): Create and update device requests are queued");

    const json = await run("plan", "--format", "json");
    expect(json.code, out(json)).toBe(0);
    expect(JSON.parse(json.stdout).risks).toEqual([expect.objectContaining({ kind: "downtime", severity: "warning", impacts: expect.arrayContaining([expect.stringMatching(/^VPN \(down\)/)]) })]);

    await t.call("DELETE", "/__sim/requests");
    const refused = await run("apply", "--auto-approve");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toMatch(/apply refused: the service announces network-edge downtime until \S+, where this plan changes something/);
    expect(refused.stderr).toContain("add --ignore-downtime to apply anyway");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(sent(await requests())).toEqual([]);

    const applied = await run("apply", "--auto-approve", "--ignore-downtime");
    expect(applied.code, out(applied)).toBe(0);
    expect(ws.state().resources["sshKeys.ops"]?.id).toBeDefined();
  });

  it("is refused again when a saved plan is applied during a downtime that began after it was made", { timeout: 60_000 }, async () => {
    const ws = workspace(sshKeyConfig);
    const run = runner(t, ws);
    const planned = await run("plan", "--out", "tfplan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).not.toContain("Risks:");
    await downtimeNow();
    const refused = await run("apply", "tfplan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain("apply refused: the service announces network-edge downtime");
    expect((await run("apply", "tfplan", "--ignore-downtime")).code).toBe(0);
  });

  it("is not read for a plan of Fabric objects alone, and a downtime still ahead is no risk", async () => {
    await downtimeNow();
    const fabric = workspace(`${CONFIG_HEADER}cloudRouters:\n  edge:\n    location: { metroCode: DC }\n    package: { code: LAB }\n`);
    await t.call("DELETE", "/__sim/requests");
    const planned = await runner(t, fabric)("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).not.toContain("Risks:");
    expect((await requests()).filter((r) => r.path === "/ne/v1/notifications")).toEqual([]);

    await t.call("POST", "/__sim/reset");
    const ahead = await runner(t, workspace(sshKeyConfig))("plan");
    expect(ahead.code, out(ahead)).toBe(0);
    expect(ahead.stdout).not.toContain("Risks:");
  });
});

describe("maintenance notices the configuration lists", () => {
  const config = (metro: string, notices: string[]) =>
    `${CONFIG_HEADER}  maintenanceNotices: [${notices.join(", ")}]\ncloudRouters:\n  edge:\n    location: { metroCode: ${metro} }\n    package: { code: LAB }\n`;

  it("are a risk when one is in progress in a metro the plan changes something in, and apply refuses it", { timeout: 60_000 }, async () => {
    const { start, end } = around();
    await t.call("PATCH", `/__sim/objects/${LONDON_NOTICE}`, { body: { startTimestamp: start, endTimestamp: end, status: "IN_PROGRESS" } });
    const ws = workspace(config("LD", [LONDON_NOTICE]));
    const run = runner(t, ws);
    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toMatch(/! maintenance, \S+ to \S+: IBX_MAINTENANCE 5-210000002: Chiller plant replacement/);
    expect(planned.stdout).toContain("      LD1 (metro LD)");

    const refused = await run("apply", "--auto-approve");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toMatch(/apply refused: the service announces maintenance 5-210000002 until \S+/);

    // The same notice is no risk to a plan that changes nothing in its metros.
    const elsewhere = await runner(t, workspace(config("DC", [LONDON_NOTICE])))("plan");
    expect(elsewhere.code, out(elsewhere)).toBe(0);
    expect(elsewhere.stdout).not.toContain("Risks:");
  });

  it("name at its place in the configuration a notice the service does not have", async () => {
    const ws = workspace(config("LD", [LONDON_NOTICE, "no-such-notice"]));
    const refused = await runner(t, ws)("plan");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain(
      "netform.yaml:5:62  provider.maintenanceNotices[1]  maintenance notice no-such-notice does not exist: the service has neither an IBX nor a network maintenance notification with this id",
    );
    expect(refused.stderr).toContain("hint: copy the id from the notification (its id, not its number), or remove it from provider.maintenanceNotices");
  });
});
