// Route filter attachments end to end through the command line against the simulator, beyond the
// lifecycle that lifecycle.test.ts runs for every kind: a new direction is a replace that keeps the id (a
// detach and a new attach of the same filter: the service refuses a second attachment of one filter
// while the first still binds it), and an attachment is made after its filter and its connection and
// removed before either.

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
  it("replaces by direction with a detach and a new attach of the same filter", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ filter: "primary-in", direction: "INBOUND" }));
    const run = runner(t, ws);
    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    const primary = idOf(ws, "routeFilters.primary-in");

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
    // The same filter on the same connection: the same id.
    expect(idOf(ws, ADDRESS)).toBe(primary);
    const onService = (await objects(t, "routeFilterAttachments")).filter((a: Obj) => a.uuid === primary);
    // The detached INBOUND attachment made room for the new one: one attachment of this filter, outbound.
    expect(onService).toHaveLength(1);
    expect(onService[0]).toMatchObject({ direction: "OUTBOUND" });
    expect(["ATTACHED", "PENDING_BGP_CONFIGURATION"]).toContain(onService[0]!.attachmentStatus);
    expect(ws.state().resources[ADDRESS]!.attributes).toMatchObject({ direction: "OUTBOUND" });
    const settled = await run("plan", "--detailed-exitcode");
    expect(settled.code, out(settled)).toBe(0);
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
