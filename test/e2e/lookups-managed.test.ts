// A lookup never matches what the same configuration manages: a configuration that orders a port in a
// metro and looks up that metro's primary port plans clean after its own apply.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { ACCOUNT, CONFIG_HEADER, out, PORTS, runner } from "./service.js";

// A port order takes days on the real service: fast enough here to be built while the command polls.
const t = useSimulator({ speed: 100_000 });

const CONFIG = `${CONFIG_HEADER}lookups:
  dc-primary:
    kind: port
    where: { metroCode: DC, priority: PRIMARY }
ports:
  lab:
    name: lab-port
    physicalPortsSpeed: 10000
    physicalPortsType: 10GBASE_LR
    connectivitySourceType: COLO
    location: { metroCode: DC }
    demarcationPointIbx: DC6
    encapsulation: { type: DOT1Q }
    notifications: [{ type: TECHNICAL, registeredUsers: [noc-user] }]
    account: { accountNumber: ${ACCOUNT} }
routeFilters:
  tagged:
    type: BGP_IPv4_PREFIX_FILTER
    description: "port \${lookups.dc-primary.uuid}"
`;

describe("lookups and what the configuration manages", () => {
  it("leave out the objects the state records, so a port ordered in the looked-up metro does not make the lookup ambiguous", { timeout: 180_000 }, async () => {
    const ws = workspace(CONFIG);
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const ordered = ws.state().resources["ports.lab"]!.id!;
    const port = (await t.call("GET", `/fabric/v4/ports/${ordered}`)).body as { redundancy?: { priority?: string }; location?: { metroCode?: string } };
    // The ordered port matches the lookup's where, as a seeded one does.
    expect(port).toMatchObject({ location: { metroCode: "DC" }, redundancy: { priority: "PRIMARY" } });

    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);
    expect(again.stdout).toContain("No changes.");

    // Looked up by the ordered port's own name, the lookup says it manages it and how to refer to it.
    ws.write(CONFIG.replace("where: { metroCode: DC, priority: PRIMARY }", "where: { name: lab-port }"));
    const own = await run("plan");
    expect(own.code, out(own)).toBe(1);
    expect(own.stderr).toContain('lookups.dc-primary matches no port (where name: "lab-port") that this configuration does not manage');
    expect(own.stderr).toContain("refer to it by its address, e.g. ${ports.lab.uuid}");
    expect(PORTS.dcPrimary).not.toBe(ordered);
  });
});
