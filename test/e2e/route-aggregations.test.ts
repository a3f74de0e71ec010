// Route aggregations end to end through the command line against the simulator, with their rules and
// their attachment to a connection: create (the rules in one bulk request, the attachment once the
// aggregation and the connection exist), read back, clean re-plan, rename and a new prefix in place, a
// replace of the attachment for another aggregation, drift made in the portal, an import, and a destroy
// that detaches first and lets the rules go with their aggregation.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, idOf, objects, out, runner, portConnectionYaml, type Obj } from "./service.js";

const t = useSimulator({ speed: 500 });

interface Setup {
  summaryName?: string;
  rulePrefix?: string;
  attach?: "summary" | "backup" | undefined;
}

const config = ({ summaryName = "summary", rulePrefix = "10.0.0.0/8", attach = "summary" }: Setup = {}) => `${CONFIG_HEADER}connections:
${portConnectionYaml("edge", { aPort: PORTS.svPrimary, vlanA: 2301, zPort: PORTS.svSecondary, vlanZ: 2302 })}routeAggregations:
  summary:
    type: BGP_IPv4_PREFIX_AGGREGATION
    name: ${summaryName}
  backup:
    type: BGP_IPv4_PREFIX_AGGREGATION
routeAggregationRules:
  private-10:
    routeAggregation: \${routeAggregations.summary.uuid}
    prefix: ${rulePrefix}
  private-172:
    routeAggregation: \${routeAggregations.summary.uuid}
    prefix: 172.16.0.0/12
routeAggregationAttachments:${
  attach === undefined
    ? " {}"
    : `
  edge-summary:
    connection: \${connections.edge.uuid}
    routeAggregation: \${routeAggregations.${attach}.uuid}`
}
`;

const ATTACHMENT = "routeAggregationAttachments.edge-summary";

describe("route aggregations end to end", () => {
  it("creates with rules and attachment, plans clean, updates in place, replaces the attachment, and destroys", { timeout: 120_000 }, async () => {
    const ws = workspace(config());
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Apply complete! Resources: 6 added, 0 changed, 0 replaced, 0 destroyed.");
    const summary = idOf(ws, "routeAggregations.summary");
    const connection = idOf(ws, "connections.edge");
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${summary}`)).body).toMatchObject({ name: "summary", state: "PROVISIONED", rulesCount: 2, connectionsCount: 1 });
    // The attachment is named by its connection and its aggregation: the id is the aggregation's uuid.
    expect(ws.state().resources[ATTACHMENT]).toMatchObject({ id: summary, parent: connection });
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routeAggregations/${summary}`)).body.attachmentStatus).toBe("ATTACHED");
    const rule = idOf(ws, "routeAggregationRules.private-10");
    expect(ws.state().resources["routeAggregationRules.private-10"]).toMatchObject({ parent: summary, attributes: { prefix: "10.0.0.0/8", type: "BGP_IPv4_PREFIX_AGGREGATION_RULE" } });

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    ws.write(config({ summaryName: "summary-v2", rulePrefix: "10.0.0.0/9" }));
    const planned = await run("plan", "--detailed-exitcode");
    expect(planned.code, out(planned)).toBe(2);
    expect(planned.stdout).toMatch(/~ name\s+= "summary" -> "summary-v2"/);
    expect(planned.stdout).toMatch(/~ prefix\s+= "10\.0\.0\.0\/8" -> "10\.0\.0\.0\/9"/);
    expect(planned.stdout).toContain("0 to add, 2 to change, 0 to replace, 0 to destroy");
    const updated = await run("apply", "--auto-approve");
    expect(updated.code, out(updated)).toBe(0);
    expect(idOf(ws, "routeAggregations.summary")).toBe(summary);
    expect(idOf(ws, "routeAggregationRules.private-10")).toBe(rule);
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${summary}/routeAggregationRules/${rule}`)).body.prefix).toBe("10.0.0.0/9");

    // Another aggregation on the connection is a detach and a new attach.
    ws.write(config({ summaryName: "summary-v2", rulePrefix: "10.0.0.0/9", attach: "backup" }));
    const replacePlan = await run("plan", "--detailed-exitcode");
    expect(replacePlan.code, out(replacePlan)).toBe(2);
    expect(replacePlan.stdout).toContain(`-/+ ${ATTACHMENT}`);
    expect(replacePlan.stdout).toContain("routeAggregation cannot change in place");
    const replaced = await run("apply", "--auto-approve");
    expect(replaced.code, out(replaced)).toBe(0);
    expect(replaced.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const backup = idOf(ws, "routeAggregations.backup");
    expect(idOf(ws, ATTACHMENT)).toBe(backup);
    expect((await t.call("GET", `/fabric/v4/routeAggregations/${summary}`)).body.connectionsCount).toBe(0);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 6 destroyed.");
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "routeAggregations")).filter((a: Obj) => a.state !== "DEPROVISIONED")).toEqual([]);
    expect((await objects(t, "routeAggregationRules")).filter((r: Obj) => r.state !== "DEPROVISIONED")).toEqual([]);
  });

  it("finds a rename made in the portal, imports an aggregation made outside netform, and plans clean", { timeout: 120_000 }, async () => {
    const made = await t.call("POST", "/fabric/v4/routeAggregations", { body: { type: "BGP_IPv4_PREFIX_AGGREGATION", name: "backup", project: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01" } } });
    await t.waitFor(`/fabric/v4/routeAggregations/${made.body.uuid}`, "/state", "PROVISIONED");
    const ws = workspace(config({ attach: undefined }).replace("  backup:\n    type: BGP_IPv4_PREFIX_AGGREGATION\n", `  backup:\n    type: BGP_IPv4_PREFIX_AGGREGATION\n    import: ${String(made.body.uuid)}\n`));
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
