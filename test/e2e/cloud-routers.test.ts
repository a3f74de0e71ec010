// Cloud routers end to end through the command line against the simulator: a LAB router and an IP_VC from
// it, created in order, read back, re-planned without changes, changed in place (name, package,
// notifications: one PATCH), replaced by a move to another metro (its connection with it), imported,
// drifted in the portal, and deleted after its connection.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, idOf, objects, out, PORTS, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

interface RouterOptions {
  name?: string;
  metroCode?: string;
  packageCode?: string;
  emails?: string;
}

const router = (o: RouterOptions = {}) => `cloudRouters:
  edge:
    name: ${o.name ?? "fcr-edge"}
    location: { metroCode: ${o.metroCode ?? "DC"} }
    package: { code: ${o.packageCode ?? "LAB"} }
    notifications: [{ type: ALL, emails: [${o.emails ?? "noc@example.com"}] }]
`;

const connection = `connections:
  edge-to-dc:
    type: IP_VC
    bandwidth: 10
    aSide:
      accessPoint:
        type: CLOUD_ROUTER
        router: { uuid: "\${cloudRouters.edge.uuid}" }
    zSide:
      accessPoint:
        type: COLO
        port: { uuid: ${PORTS.dcPrimary} }
        linkProtocol: { type: DOT1Q, vlanTag: 2301 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

const config = (o: RouterOptions = {}, withConnection = true) => `${CONFIG_HEADER}${router(o)}${withConnection ? connection : ""}`;

interface Logged {
  method: string;
  path: string;
}

async function mutations(): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Logged[];
  return changesSent(log).map((r) => `${r.method} ${r.path}`);
}

describe("cloud routers end to end", () => {
  it("creates a router before its connection, changes it in place, replaces it with its connection, and deletes it after", { timeout: 120_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("+ cloudRouters.edge");
    expect(created.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 replaced, 0 destroyed.");
    const id = idOf(ws, "cloudRouters.edge");
    expect((await t.call("GET", `/fabric/v4/routers/${id}`)).body).toMatchObject({ name: "fcr-edge", state: "PROVISIONED", package: { code: "LAB" }, location: { metroCode: "DC" }, connectionsCount: 1 });
    const conn = idOf(ws, "connections.edge-to-dc");
    expect((await t.call("GET", `/fabric/v4/connections/${conn}`)).body).toMatchObject({ state: "PROVISIONED", aSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: id } } } });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config({ name: "fcr-edge-2", packageCode: "STANDARD", emails: "ops@example.com" }));
    const updatePlan = await run("plan", "--detailed-exitcode");
    expect(updatePlan.code, out(updatePlan)).toBe(2);
    expect(updatePlan.stdout).toContain("~ cloudRouters.edge");
    expect(updatePlan.stdout).toMatch(/~ package\.code\s+= "LAB" -> "STANDARD"/);
    expect(updatePlan.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(updated.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect(await mutations()).toEqual([`PATCH /fabric/v4/routers/${id}`]);
    expect(idOf(ws, "cloudRouters.edge")).toBe(id);
    expect((await t.call("GET", `/fabric/v4/routers/${id}`)).body).toMatchObject({ name: "fcr-edge-2", package: { code: "STANDARD" }, notifications: [{ emails: ["ops@example.com"] }] });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    // A router cannot move: a new one in SV, and its connection with it, the old ones gone first.
    ws.write(config({ name: "fcr-edge-2", packageCode: "STANDARD", emails: "ops@example.com", metroCode: "SV" }));
    const movePlan = await run("plan", "--detailed-exitcode");
    expect(movePlan.code, out(movePlan)).toBe(2);
    expect(movePlan.stdout).toContain("-/+ cloudRouters.edge");
    expect(movePlan.stdout).toContain("location.metroCode cannot change in place");
    expect(movePlan.stdout).toContain("0 to add, 0 to change, 2 to replace, 0 to destroy");
    await t.call("DELETE", "/__sim/requests");
    const moved = await run("apply", "--auto-approve");
    expect(moved.code, out(moved)).toBe(0);
    expect(moved.stdout).toContain("0 added, 0 changed, 2 replaced, 0 destroyed");
    const newId = idOf(ws, "cloudRouters.edge");
    expect(newId).not.toBe(id);
    expect(await mutations()).toEqual([`DELETE /fabric/v4/connections/${conn}`, `DELETE /fabric/v4/routers/${id}`, "POST /fabric/v4/routers", "POST /fabric/v4/connections"]);
    expect((await t.call("GET", `/fabric/v4/routers/${id}`)).body.state).toBe("DEPROVISIONED");
    expect((await t.call("GET", `/fabric/v4/routers/${newId}`)).body).toMatchObject({ state: "PROVISIONED", location: { metroCode: "SV" } });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    // Removing both: the connection is deleted, and gone, before the router.
    ws.write(CONFIG_HEADER);
    const deleted = await run("apply", "--auto-approve");
    expect(deleted.code, out(deleted)).toBe(0);
    expect(deleted.stdout).toContain("0 added, 0 changed, 0 replaced, 2 destroyed");
    const steps = [...deleted.stdout.matchAll(/ ((?:cloudRouters|connections)\.[\w-]+): (Destroying\.\.\.|Destruction complete)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(steps.indexOf("connections.edge-to-dc Destruction complete")).toBeLessThan(steps.indexOf("cloudRouters.edge Destroying..."));
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "routers")).filter((r) => r.uuid === newId).map((r) => r.state)).toEqual(["DEPROVISIONED"]);
  });

  it("imports a router made elsewhere, then plans clean", { timeout: 60_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/routers", {
      body: { type: "XF_ROUTER", name: "fcr-edge", location: { metroCode: "DC" }, package: { code: "LAB" }, project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" }, notifications: [{ type: "ALL", emails: ["noc@example.com"] }] },
    });
    await t.waitFor(`/fabric/v4/routers/${made.body.uuid}`, "/state", "PROVISIONED");
    const ws = workspace(config({}, false));
    const run = runner(t, ws);
    const imported = await run("import", "cloudRouters.edge", made.body.uuid);
    expect(imported.code, out(imported)).toBe(0);
    expect(imported.stdout).toContain(`Imported cloudRouters.edge (${made.body.uuid})`);
    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
  });

  it("reports a router renamed in the portal as drift, naming who did it", { timeout: 60_000 }, async () => {
    const ws = workspace(config({}, false));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const id = idOf(ws, "cloudRouters.edge");
    expect((await run("drift")).code).toBe(0);
    await t.call("PATCH", `/__sim/objects/${id}`, { body: { name: "renamed-in-portal" } });
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    expect(JSON.parse(drift.stdout).entries).toEqual([
      expect.objectContaining({ address: "cloudRouters.edge", status: "changed", changedBy: "portal-user", fields: [{ path: "name", before: "fcr-edge", after: "renamed-in-portal" }] }),
    ]);
  });

  it("refuses before any API call a LAB router more IPv4 routes than its package holds, at the attachment that exceeds it", async () => {
    const rules = Array.from({ length: 51 }, (_, i) => `  r${i}: { routeFilter: "\${routeFilters.learned.uuid}", prefix: 10.${i}.0.0/16 }`).join("\n");
    const ws = workspace(`${config()}routeFilters:
  learned: { type: BGP_IPv4_PREFIX_FILTER }
routeFilterRules:
${rules}
routeFilterAttachments:
  learned-on-edge: { connection: "\${connections.edge-to-dc.uuid}", routeFilter: "\${routeFilters.learned.uuid}", direction: INBOUND }
`);
    const validated = await runner(t, ws)("validate");
    expect(validated.code, out(validated)).toBe(1);
    expect(validated.stdout + validated.stderr).toMatch(/netform\.yaml:\d+:\d+\s+routeFilterAttachments\.learned-on-edge\.routeFilter\s+cloudRouters\.edge would hold 51 IPv4 routes .*; its LAB package holds 50/);
    expect(await objects(t, "routers")).toHaveLength(1);
  });

  it("refuses before any API call a LAB router's connection above its package's bandwidth", async () => {
    const ws = workspace(config().replace("bandwidth: 10", "bandwidth: 50"));
    const validated = await runner(t, ws)("validate");
    expect(validated.code, out(validated)).toBe(1);
    expect(validated.stdout + validated.stderr).toContain("cloudRouters.edge is a LAB router: its connections take up to 10 Mbps");
    expect(await objects(t, "routers")).toHaveLength(1);
  });
});
