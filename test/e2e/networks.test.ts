// Networks end to end through the command line against the simulator: an EVPLAN network joined by two
// connections (DC and SV), created network first, read back, re-planned without changes, renamed and
// re-notified in place (one PATCH), replaced for a new scope (its connections with it), imported, drifted
// in the portal, and deleted after its connections.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, idOf, objects, out, PORTS, PROJECT, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

interface NetworkOptions {
  name?: string;
  scope?: string;
  emails?: string;
}

const network = (o: NetworkOptions = {}) => `networks:
  lan:
    type: EVPLAN
    name: ${o.name ?? "branch-lan"}
    scope: ${o.scope ?? "GLOBAL"}${o.scope === "REGIONAL" ? "\n    location: { region: AMER }" : ""}
    notifications: [{ type: ALL, emails: [${o.emails ?? "noc@example.com"}] }]
`;

const join = (name: string, port: string, vlanTag: number) => `  ${name}:
    type: EVPLAN_VC
    bandwidth: 100
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: ${port} }
        linkProtocol: { type: DOT1Q, vlanTag: ${vlanTag} }
    zSide:
      accessPoint:
        type: NETWORK
        network: { uuid: "\${networks.lan.uuid}" }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

const config = (o: NetworkOptions = {}, withConnections = true) =>
  `${CONFIG_HEADER}${network(o)}${withConnections ? `connections:\n${join("dc-to-lan", PORTS.dcPrimary, 2401)}${join("sv-to-lan", PORTS.svPrimary, 2402)}` : ""}`;

async function mutations(): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
  return changesSent(log).map((r) => `${r.method} ${r.path}`);
}

describe("networks end to end", () => {
  it("creates a network before the connections joining it, changes it in place, replaces it with them, and deletes it after", { timeout: 120_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("+ networks.lan");
    expect(created.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = idOf(ws, "networks.lan");
    expect((await t.call("GET", `/fabric/v4/networks/${id}`)).body).toMatchObject({ name: "branch-lan", type: "EVPLAN", scope: "GLOBAL", state: "ACTIVE", connectionsCount: 2 });
    const joined = (await t.call("GET", `/fabric/v4/networks/${id}/connections`)).body.data.map((c: { uuid: string }) => c.uuid).sort();
    expect(joined).toEqual([idOf(ws, "connections.dc-to-lan"), idOf(ws, "connections.sv-to-lan")].sort());

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config({ name: "branch-lan-2", emails: "ops@example.com" }));
    const updatePlan = await run("plan", "--detailed-exitcode");
    expect(updatePlan.code, out(updatePlan)).toBe(2);
    expect(updatePlan.stdout).toMatch(/~ name\s+= "branch-lan" -> "branch-lan-2"/);
    expect(updatePlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(await mutations()).toEqual([`PATCH /fabric/v4/networks/${id}`]);
    expect(idOf(ws, "networks.lan")).toBe(id);
    expect((await t.call("GET", `/fabric/v4/networks/${id}`)).body).toMatchObject({ name: "branch-lan-2", notifications: [{ emails: ["ops@example.com"] }] });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(config({ name: "branch-lan-2", emails: "ops@example.com", scope: "REGIONAL" }));
    const replacePlan = await run("plan", "--detailed-exitcode");
    expect(replacePlan.code, out(replacePlan)).toBe(2);
    expect(replacePlan.stdout).toContain("-/+ networks.lan");
    expect(replacePlan.stdout).toContain("networks.lan must be replaced (scope cannot change in place)");
    expect(replacePlan.stdout).toContain("0 to add, 0 to change, 3 to replace, 0 to destroy");
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 3 replaced, 0 destroyed");
    const newId = idOf(ws, "networks.lan");
    expect(newId).not.toBe(id);
    expect((await t.call("GET", `/fabric/v4/networks/${id}`)).body.state).toBe("DELETED");
    expect((await t.call("GET", `/fabric/v4/networks/${newId}`)).body).toMatchObject({ scope: "REGIONAL", location: { region: "AMER" }, connectionsCount: 2 });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(CONFIG_HEADER);
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 3 destroyed");
    const steps = [...deleted.stdout.matchAll(/ ((?:networks|connections)\.[\w-]+): (Destroying\.\.\.|Destruction complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    const networkGoes = steps.indexOf("networks.lan Destroying...");
    expect(steps.indexOf("connections.dc-to-lan Destruction complete")).toBeLessThan(networkGoes);
    expect(steps.indexOf("connections.sv-to-lan Destruction complete")).toBeLessThan(networkGoes);
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "networks")).filter((n) => n.uuid === newId).map((n) => n.state)).toEqual(["DELETED"]);
  });

  it("imports a network made elsewhere, and reports its renaming in the portal as drift", { timeout: 60_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/networks", {
      body: { type: "EVPLAN", name: "branch-lan", scope: "GLOBAL", project: { projectId: PROJECT }, notifications: [{ type: "ALL", emails: ["noc@example.com"] }] },
    });
    await t.waitFor(`/fabric/v4/networks/${made.body.uuid}`, "/state", "ACTIVE");
    const ws = workspace(config({}, false));
    const run = runner(t, ws);
    const imported = await run("import", "networks.lan", made.body.uuid);
    expect(imported.code, out(imported)).toBe(0);
    expect(imported.stdout).toContain(`Imported networks.lan (${made.body.uuid})`);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    await t.call("PATCH", `/__sim/objects/${made.body.uuid}`, { body: { name: "renamed-in-portal" } });
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    expect(JSON.parse(drift.stdout).entries).toEqual([
      expect.objectContaining({ address: "networks.lan", status: "changed", changedBy: "portal-user", fields: [{ path: "name", before: "branch-lan", after: "renamed-in-portal" }] }),
    ]);
  });
});
