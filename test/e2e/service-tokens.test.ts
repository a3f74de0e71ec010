// Service tokens end to end through the command line against the simulator: a z-side token on a DC port
// and a partner's connection made with it, created token first, read back, re-planned without changes,
// changed in place (expiry, description, bandwidths: one PATCH), replaced for another VLAN (the connection
// with it), imported, drifted in the portal, and deleted after the connection, which the service requires.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, idOf, objects, out, PORTS, PROJECT, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

interface TokenOptions {
  description?: string;
  expiry?: string;
  bandwidths?: string;
  vlanTag?: number;
}

const token = (o: TokenOptions = {}) => `serviceTokens:
  partner:
    description: ${o.description ?? "for the partner"}
    expirationDateTime: ${o.expiry ?? "2099-06-30T00:00:00Z"}
    connection:
      type: EVPL_VC
      allowRemoteConnection: true
      supportedBandwidths: [${o.bandwidths ?? "50, 100"}]
      zSide:
        accessPointSelectors:
          - type: COLO
            port: { uuid: ${PORTS.dcSecondary} }
            linkProtocol: { type: DOT1Q, vlanTag: ${o.vlanTag ?? 2501} }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

const connection = `connections:
  partner-to-dc:
    type: EVPL_VC
    bandwidth: 50
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.svPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: 2502 }
    zSide:
      serviceToken: { uuid: "\${serviceTokens.partner.uuid}" }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

const config = (o: TokenOptions = {}, withConnection = true) => `${CONFIG_HEADER}${token(o)}${withConnection ? connection : ""}`;

async function mutations(): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
  return changesSent(log).map((r) => `${r.method} ${r.path}`);
}

describe("service tokens end to end", () => {
  it("issues a token before the connection made with it, changes it in place, replaces it with the connection, and deletes it after", { timeout: 120_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("+ serviceTokens.partner");
    expect(created.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = idOf(ws, "serviceTokens.partner");
    const conn = idOf(ws, "connections.partner-to-dc");
    expect((await t.call("GET", `/fabric/v4/serviceTokens/${id}`)).body).toMatchObject({ name: "partner", state: "ACTIVE", connection: { uuid: conn, supportedBandwidths: [50, 100] } });
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body).toMatchObject({ state: "PROVISIONED", zSide: { serviceToken: { uuid: id }, accessPoint: { port: { uuid: PORTS.dcSecondary } } } });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config({ description: "for the partner, renewed", expiry: "2099-12-31T00:00:00Z", bandwidths: "50, 100, 200" }));
    const updatePlan = await run("plan", "--detailed-exitcode");
    expect(updatePlan.code, out(updatePlan)).toBe(2);
    expect(updatePlan.stdout).toMatch(/~ expirationDateTime\s+= "2099-06-30T00:00:00.000Z" -> "2099-12-31T00:00:00.000Z"/);
    expect(updatePlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(await mutations()).toEqual([`PATCH /fabric/v4/serviceTokens/${id}`]);
    expect(idOf(ws, "serviceTokens.partner")).toBe(id);
    expect((await t.call("GET", `/fabric/v4/serviceTokens/${id}`)).body).toMatchObject({ description: "for the partner, renewed", expirationDateTime: "2099-12-31T00:00:00.000Z", connection: { supportedBandwidths: [50, 100, 200] } });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(config({ description: "for the partner, renewed", expiry: "2099-12-31T00:00:00Z", bandwidths: "50, 100, 200", vlanTag: 2503 }));
    const replacePlan = await run("plan", "--detailed-exitcode");
    expect(replacePlan.code, out(replacePlan)).toBe(2);
    expect(replacePlan.stdout).toContain("serviceTokens.partner must be replaced (connection.zSide.accessPointSelectors cannot change in place)");
    expect(replacePlan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(await mutations()).toEqual([`DELETE /fabric/v4/connections/${conn}`, `DELETE /fabric/v4/serviceTokens/${id}`, "POST /fabric/v4/serviceTokens", "POST /fabric/v4/connections"]);
    const newId = idOf(ws, "serviceTokens.partner");
    expect((await t.call("GET", `/fabric/v4/serviceTokens/${id}`)).body.state).toBe("DELETED");
    expect((await t.call("GET", `/fabric/v4/serviceTokens/${newId}`)).body).toMatchObject({ state: "ACTIVE", connection: { zSide: { accessPointSelectors: [{ linkProtocol: { vlanTag: 2503 } }] } } });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(CONFIG_HEADER);
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 2 destroyed");
    const steps = [...deleted.stdout.matchAll(/ ((?:serviceTokens|connections)\.[\w-]+): (Destroying\.\.\.|Destruction complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(steps.indexOf("connections.partner-to-dc Destruction complete")).toBeLessThan(steps.indexOf("serviceTokens.partner Destroying..."));
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "serviceTokens")).filter((x) => x.uuid === newId).map((x) => x.state)).toEqual(["DELETED"]);
  });

  it("imports a token issued elsewhere, and reports a description changed in the portal as drift", { timeout: 60_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/serviceTokens", {
      body: {
        type: "VC_TOKEN",
        name: "partner",
        description: "for the partner",
        expirationDateTime: "2099-06-30T00:00:00Z",
        connection: { type: "EVPL_VC", allowRemoteConnection: true, supportedBandwidths: [100, 50], zSide: { accessPointSelectors: [{ type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { type: "DOT1Q", vlanTag: 2501 } }] } },
        project: { projectId: PROJECT },
        notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      },
    });
    expect(made.status, made.text).toBe(201);
    const ws = workspace(config({}, false));
    const run = runner(t, ws);
    const imported = await run("import", "serviceTokens.partner", made.body.uuid);
    expect(imported.code, out(imported)).toBe(0);
    expect(imported.stdout).toContain(`Imported serviceTokens.partner (${made.body.uuid})`);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    await t.call("PATCH", `/__sim/objects/${made.body.uuid}`, { body: { description: "changed in the portal" } });
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    expect(JSON.parse(drift.stdout).entries).toEqual([
      expect.objectContaining({ address: "serviceTokens.partner", status: "changed", changedBy: "portal-user", fields: [{ path: "description", before: "for the partner", after: "changed in the portal" }] }),
    ]);
  });

  it("refuses before any API call a token for both sides of a connection", async () => {
    const both = config({}, false).replace("      zSide:\n", "      aSide:\n        accessPointSelectors:\n          - type: COLO\n            port: { uuid: " + PORTS.dcPrimary + " }\n            linkProtocol: { type: DOT1Q, vlanTag: 2504 }\n      zSide:\n");
    const validated = await runner(t, workspace(both))("validate");
    expect(validated.code, out(validated)).toBe(1);
    expect(validated.stdout + validated.stderr).toContain("a token is for one side of a connection");
  });
});
