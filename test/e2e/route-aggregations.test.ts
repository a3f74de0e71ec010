// Route aggregations end to end through the command line against the simulator, with their rules and
// their attachment to a connection together, beyond what each kind's row of the lifecycle table covers
// (lifecycle.test.ts): the rules in one bulk request and the attachment once the aggregation and the
// connection exist, read back, a clean re-plan, a destroy that detaches first and lets the rules go with
// their aggregation, drift made in the portal, and an import.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, idOf, objects, out, runner, portConnectionYaml, type Obj } from "./service.js";

const t = useSimulator({ speed: 500 });

/** Two aggregations, the rules of one, and that one applied to a connection unless `attached` is false. */
const config = (attached = true) => `${CONFIG_HEADER}connections:
${portConnectionYaml("edge", { aPort: PORTS.svPrimary, vlanA: 2301, zPort: PORTS.svSecondary, vlanZ: 2302 })}routeAggregations:
  summary:
    type: BGP_IPv4_PREFIX_AGGREGATION
  backup:
    type: BGP_IPv4_PREFIX_AGGREGATION
routeAggregationRules:
  private-10:
    routeAggregation: \${routeAggregations.summary.uuid}
    prefix: 10.0.0.0/8
  private-172:
    routeAggregation: \${routeAggregations.summary.uuid}
    prefix: 172.16.0.0/12
routeAggregationAttachments:${
  attached
    ? `
  edge-summary:
    connection: \${connections.edge.uuid}
    routeAggregation: \${routeAggregations.summary.uuid}`
    : " {}"
}
`;

/** The mutating calls the service receives during the work, as "METHOD path": no reads, searches or token requests. */
async function callsDuring(work: () => Promise<unknown>): Promise<string[]> {
  await t.call("DELETE", "/__sim/requests");
  await work();
  const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
  return log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}`);
}

const ATTACHMENT = "routeAggregationAttachments.edge-summary";

describe("route aggregations end to end", () => {
  it("creates an aggregation with its rules and its attachment, plans clean, and destroys them together", { timeout: 120_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);

    let created!: Awaited<ReturnType<typeof run>>;
    const createCalls = await callsDuring(async () => (created = await run("apply", "--auto-approve")));
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Apply complete! Resources: 6 added, 0 changed, 0 replaced, 0 destroyed.");
    const summary = idOf(ws, "routeAggregations.summary");
    const connection = idOf(ws, "connections.edge");
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${summary}`)).body).toMatchObject({ name: "summary", state: "PROVISIONED", rulesCount: 2, connectionsCount: 1 });
    // The attachment is named by its connection and its aggregation: the id is the aggregation's uuid.
    expect(ws.state().resources[ATTACHMENT]).toMatchObject({ id: summary, parent: connection });
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routeAggregations/${summary}`)).body.attachmentStatus).toBe("ATTACHED");
    // The two rules of one aggregation are one request.
    expect(createCalls.filter((c) => c.includes("/routeAggregationRules"))).toEqual([`POST /fabric/v4/routeAggregations/${summary}/routeAggregationRules/bulk`]);
    expect(ws.state().resources["routeAggregationRules.private-10"]).toMatchObject({ parent: summary, attributes: { prefix: "10.0.0.0/8", type: "BGP_IPv4_PREFIX_AGGREGATION_RULE" } });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    const backup = idOf(ws, "routeAggregations.backup");
    let destroyed!: Awaited<ReturnType<typeof run>>;
    const destroyCalls = await callsDuring(async () => (destroyed = await run("destroy", "--auto-approve")));
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 6 destroyed.");
    // The rules go with their aggregation, without a call of their own; the service deletes neither an
    // attached aggregation nor a connection with an aggregation applied, so the detach comes first.
    const detach = `DELETE /fabric/v4/connections/${connection}/routeAggregations/${summary}`;
    const deleteSummary = `DELETE /fabric/v4/routeAggregations/${summary}`;
    const deleteConnection = `DELETE /fabric/v4/connections/${connection}`;
    expect([...destroyCalls].sort()).toEqual([detach, deleteSummary, `DELETE /fabric/v4/routeAggregations/${backup}`, deleteConnection].sort());
    expect(destroyCalls.indexOf(detach)).toBeLessThan(destroyCalls.indexOf(deleteSummary));
    expect(destroyCalls.indexOf(detach)).toBeLessThan(destroyCalls.indexOf(deleteConnection));
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "routeAggregations")).filter((a: Obj) => a.state !== "DEPROVISIONED")).toEqual([]);
    expect((await objects(t, "routeAggregationRules")).filter((r: Obj) => r.state !== "DEPROVISIONED")).toEqual([]);
  });

  it("finds a rename made in the portal, imports an aggregation made outside netform, and plans clean", { timeout: 120_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/routeAggregations", { body: { type: "BGP_IPv4_PREFIX_AGGREGATION", name: "backup", project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" } } });
    await t.waitFor(`/fabric/v4/routeAggregations/${made.body.uuid}`, "/state", "PROVISIONED");
    const ws = workspace(config(false).replace("  backup:\n    type: BGP_IPv4_PREFIX_AGGREGATION\n", `  backup:\n    type: BGP_IPv4_PREFIX_AGGREGATION\n    import: ${String(made.body.uuid)}\n`));
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(idOf(ws, "routeAggregations.backup")).toBe(made.body.uuid);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    const summary = idOf(ws, "routeAggregations.summary");
    await t.call("PATCH", `/__sim/objects/${summary}`, { body: { name: "renamed-in-portal" } });
    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    expect(JSON.parse(drift.stdout).entries).toEqual([
      expect.objectContaining({ address: "routeAggregations.summary", status: "changed", changedBy: "portal-user", fields: [{ path: "name", before: "summary", after: "renamed-in-portal" }] }),
    ]);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${summary}`)).body.name).toBe("summary");
  });
});
