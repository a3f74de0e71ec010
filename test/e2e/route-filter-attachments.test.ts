// Route filter attachments end to end through the command line against the simulator: attach (after both
// the filter and the connection exist), read back, no-op re-plan, replace by direction (a detach and a new
// attach of the same filter: the service refuses a second attachment of one filter while the first still
// binds it) and by another filter, detach, and the service's record of each step. An attachment has no
// field that changes in place, so its "update" is always a replace.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { PORTS, idOf, objects, out, runner, type Obj, portConnectionYaml, CONFIG_HEADER } from "./service.js";

const t = useSimulator({ speed: 500 });

const config = (attachment?: { filter: "primary-in" | "alternate-in"; direction: "INBOUND" | "OUTBOUND" }) => `${CONFIG_HEADER}routeFilters:
  primary-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: primary
  alternate-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: alternate
connections:
${portConnectionYaml("filtered", { aPort: PORTS.nyPrimary, vlanA: 2201, zPort: PORTS.nySecondary, vlanZ: 2202, bandwidth: 50 })}routeFilterAttachments:${
  attachment === undefined
    ? " {}"
    : `
  filtered-in:
    connection: \${connections.filtered.uuid}
    routeFilter: \${routeFilters.${attachment.filter}.uuid}
    direction: ${attachment.direction}`
}
`;

const ADDRESS = "routeFilterAttachments.filtered-in";

describe("route filter attachments end to end", () => {
  it("attaches, plans clean, replaces by direction and by filter, and detaches", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ filter: "primary-in", direction: "INBOUND" }));
    const run = runner(t, ws);

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain(`+ ${ADDRESS}`);
    expect(created.stdout).toContain("Apply complete! Resources: 4 added, 0 changed, 0 replaced, 0 destroyed.");
    const connection = idOf(ws, "connections.filtered");
    const primary = idOf(ws, "routeFilters.primary-in");
    const alternate = idOf(ws, "routeFilters.alternate-in");
    // The service names an attachment by its connection and its filter: the id is the filter's uuid.
    expect(idOf(ws, ADDRESS)).toBe(primary);
    const attachment = (await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters/${primary}`)).body;
    expect(attachment).toMatchObject({ uuid: primary, direction: "INBOUND", type: "BGP_IPv4_PREFIX_FILTER" });
    expect(["ATTACHED", "PENDING_BGP_CONFIGURATION"]).toContain(attachment.attachmentStatus);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${primary}`)).body.connectionsCount).toBe(1);

    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    // Direction has no update call: detach, then attach again the other way.
    ws.write(config({ filter: "primary-in", direction: "OUTBOUND" }));
    const directionPlan = await run("plan", "--detailed-exitcode");
    expect(directionPlan.code, out(directionPlan)).toBe(2);
    expect(directionPlan.stdout).toContain(`-/+ ${ADDRESS}`);
    expect(directionPlan.stdout).toContain("direction cannot change in place");
    expect(directionPlan.stdout).toMatch(/~ direction\s+= "INBOUND" -> "OUTBOUND"/);
    expect(directionPlan.stdout).toContain("0 to add, 0 to change, 1 to replace, 0 to destroy");
    const reattached = await run("apply", "--auto-approve");
    expect(reattached.code, out(reattached)).toBe(0);
    expect(reattached.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    const onService = (await objects(t, "routeFilterAttachments")).filter((a: Obj) => a.uuid === primary);
    // The detached INBOUND attachment made room for the new one: one attachment of this filter, outbound.
    expect(onService).toHaveLength(1);
    expect(onService[0]).toMatchObject({ direction: "OUTBOUND" });
    expect(["ATTACHED", "PENDING_BGP_CONFIGURATION"]).toContain(onService[0]!.attachmentStatus);
    expect(ws.state().resources[ADDRESS]!.attributes).toMatchObject({ direction: "OUTBOUND" });
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);

    // Another filter is another attachment: a new id, and the old filter detached.
    ws.write(config({ filter: "alternate-in", direction: "OUTBOUND" }));
    const filterPlan = await run("plan", "--detailed-exitcode");
    expect(filterPlan.code, out(filterPlan)).toBe(2);
    expect(filterPlan.stdout).toContain("routeFilter cannot change in place");
    const switched = await run("apply", "--auto-approve");
    expect(switched.code, out(switched)).toBe(0);
    expect(switched.stdout).toContain("0 added, 0 changed, 1 replaced, 0 destroyed");
    expect(idOf(ws, ADDRESS)).toBe(alternate);
    const old = await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters/${primary}`);
    expect(old.status === 404 || old.body.attachmentStatus === "DETACHED", JSON.stringify(old.body)).toBe(true);
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters/${alternate}`)).body).toMatchObject({ uuid: alternate, direction: "OUTBOUND" });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${primary}`)).body.connectionsCount).toBe(0);

    ws.write(config());
    const detached = await run("apply", "--auto-approve");
    expect(detached.code, out(detached)).toBe(0);
    expect(detached.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(Object.keys(ws.state().resources).sort()).toEqual(["connections.filtered", "routeFilters.alternate-in", "routeFilters.primary-in"]);
    const gone = await t.call("GET", `/fabric/v4/connections/${connection}/routeFilters/${alternate}`);
    expect(gone.status === 404 || gone.body.attachmentStatus === "DETACHED", JSON.stringify(gone.body)).toBe(true);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${alternate}`)).body.connectionsCount).toBe(0);
    const afterDetach = await run("plan", "--detailed-exitcode");
    expect(afterDetach.code, out(afterDetach)).toBe(0);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(ws.state().resources).toEqual({});
    expect((await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED")).toEqual([]);
    expect((await objects(t, "routeFilters")).filter((f) => f.state !== "DEPROVISIONED")).toEqual([]);
  });

  it("attaches after the filter and the connection, and detaches before either is deleted", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ filter: "primary-in", direction: "INBOUND" }));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);

    // Everything goes at once: the attachment must be detached before its filter and connection are deleted.
    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 4 destroyed.");
    const order = [...destroyed.stdout.matchAll(/ ((?:routeFilterAttachments|routeFilters|connections)\.[\w-]+): Destruction complete/g)].map((m) => m[1]);
    expect(order.indexOf(ADDRESS)).toBeLessThan(order.indexOf("connections.filtered"));
    expect(order.indexOf(ADDRESS)).toBeLessThan(order.indexOf("routeFilters.primary-in"));
    expect(order).toHaveLength(4);
    expect(ws.state().resources).toEqual({});
  });
});
