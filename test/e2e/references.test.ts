// References into lists and nested paths end to end, through the command line against the simulator: a
// service profile's lookup read through [0] and a field outside its kind's listed attributes, both feeding
// what apply makes, with no change planned afterwards; a path the object does not have, on a lookup and on an
// existing resource, a located error at plan time with nothing applied; and one on an object made in the
// same run, an error of the apply that names the reference.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, workspace } from "./cli.js";
import { CONFIG_HEADER, idOf, objects, out, PORTS, PROFILE, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

const LOOKUPS = `lookups:
  sv:
    kind: port
    where: { metroCode: SV, priority: PRIMARY }
  direct:
    kind: serviceProfile
    where: { name: CloudExchange Direct }
`;

/** A connection from the SV port to the profile, its bandwidth the profile's first offered one. */
const CONNECTION = `connections:
  to-cloud:
    type: EVPL_VC
    bandwidth: "\${lookups.direct.accessPointTypeConfigs[0].supportedBandwidths[0]}"
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.sv.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 2701 } } }
    zSide: { accessPoint: { type: SP, profile: { type: L2_PROFILE, uuid: "\${lookups.direct.uuid}" }, location: { metroCode: "\${lookups.sv.location.metroCode}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

/** Route filters whose descriptions read what the lookup and the connection have. */
const FILTERS = `routeFilters:
  from-profile:
    type: BGP_IPv4_PREFIX_FILTER
    description: "\${lookups.direct.description} over \${lookups.direct.accessPointTypeConfigs[0].type}"
  from-connection:
    type: BGP_IPv4_PREFIX_FILTER
    description: "vlan \${connections.to-cloud.aSide.accessPoint.linkProtocol.vlanTag}"
`;

/** The line of `text` that holds `needle` (1-based). */
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("references into lists and nested paths", () => {
  it("read a lookup through [0] and beyond its listed attributes, and a connection's nested field, into what apply makes", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}${LOOKUPS}${CONNECTION}${FILTERS}`);
    const run = runner(t, ws);
    const validated = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(validated.code, out(validated)).toBe(0);

    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toMatch(/\+ bandwidth\s+= 50/);
    expect(planned.stdout).toContain('+ description = "CloudExchange Direct (seeded) over COLO"');
    expect(planned.stdout).toContain("+ description = (known after apply)");

    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    const connection = (await t.call("GET", `/fabric/v4/connections/${idOf(ws, "connections.to-cloud")}`)).body as { bandwidth: number; aSide: { accessPoint: { port: { uuid: string } } }; zSide: { accessPoint: { profile: { uuid: string } } } };
    expect(connection).toMatchObject({ bandwidth: 50, aSide: { accessPoint: { port: { uuid: PORTS.svPrimary } } }, zSide: { accessPoint: { profile: { uuid: PROFILE } } } });
    const filters = new Map((await objects(t, "routeFilters")).map((f) => [f.name, f.description]));
    expect(filters.get("from-profile")).toBe("CloudExchange Direct (seeded) over COLO");
    expect(filters.get("from-connection")).toBe("vlan 2701");

    // The state keeps the profile's listed attributes and the one read besides them, not the whole object.
    const recorded = JSON.parse(ws.stateText()) as { lookups: Record<string, { attributes: Record<string, unknown> }> };
    const profile = recorded.lookups["lookups.direct"]?.attributes ?? {};
    expect(profile).toMatchObject({ uuid: PROFILE, description: "CloudExchange Direct (seeded)", accessPointTypeConfigs: [expect.objectContaining({ type: "COLO" })] });
    expect(profile).not.toHaveProperty("notifications");

    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);
    expect(again.stdout).toContain("No changes.");

    // A path the lookup's object does not have, then one the connection does not have: each a located error
    // at plan time, and nothing applied.
    const state = ws.stateText();
    const wrongLookup = `${CONFIG_HEADER}${LOOKUPS}${CONNECTION}${FILTERS}  wrong:
    type: BGP_IPv4_PREFIX_FILTER
    description: "\${lookups.direct.accessPointTypeConfigs[1].type}"
`;
    ws.write(wrongLookup);
    const lookupRefused = await run("plan");
    expect(lookupRefused.code, out(lookupRefused)).toBe(1);
    expect(lookupRefused.stderr).toContain(
      `netform.yaml:${lineOf(wrongLookup, "accessPointTypeConfigs[1]")}:18  routeFilters.wrong.description  \${lookups.direct.accessPointTypeConfigs[1].type}: the service profile lookups.direct found has no accessPointTypeConfigs[1].type: accessPointTypeConfigs holds 1 item ([0]), so [1] is out of range`,
    );
    const lookupNotApplied = await run("apply", "--auto-approve");
    expect(lookupNotApplied.code, out(lookupNotApplied)).toBe(1);

    const wrongConnection = `${CONFIG_HEADER}${LOOKUPS}${CONNECTION}${FILTERS}  wrong:
    type: BGP_IPv4_PREFIX_FILTER
    description: "\${connections.to-cloud.aSide.accessPoint.linkProtocol.vlanTg}"
`;
    ws.write(wrongConnection);
    const connectionRefused = await run("plan");
    expect(connectionRefused.code, out(connectionRefused)).toBe(1);
    expect(connectionRefused.stderr).toContain(
      `netform.yaml:${lineOf(wrongConnection, "vlanTg")}:18  routeFilters.wrong.description  \${connections.to-cloud.aSide.accessPoint.linkProtocol.vlanTg}: connections.to-cloud has no aSide.accessPoint.linkProtocol.vlanTg: aSide.accessPoint.linkProtocol has no field "vlanTg"; its fields are type, vlanTag`,
    );
    expect(connectionRefused.stderr).toContain("hint: did you mean aSide.accessPoint.linkProtocol.vlanTag?");
    const connectionNotApplied = await run("apply", "--auto-approve");
    expect(connectionNotApplied.code, out(connectionNotApplied)).toBe(1);

    expect((await objects(t, "routeFilters")).map((f) => f.name).sort()).toEqual(["from-connection", "from-profile"]);
    expect(ws.stateText()).toBe(state);
  });

  it("names the reference when the object it reads, made in the same run, lacks the path", { timeout: 120_000 }, async () => {
    const text = `${CONFIG_HEADER}cloudRouters:
  r:
    name: fcr-paths
    location: { metroCode: DC }
    package: { code: LAB }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
    description: "\${cloudRouters.r.location.metroCod}"
`;
    const ws = workspace(text);
    const run = runner(t, ws);
    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("+ description = (known after apply)");
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(1);
    expect(applied.stderr).toContain(
      `routeFilters.f: Error: routeFilters.f: description (netform.yaml:${lineOf(text, "metroCod}")}:18) reads \${cloudRouters.r.location.metroCod}, but cloudRouters.r as the service returned it has no location.metroCod: location has no field "metroCod"; its fields are `,
    );
    expect(applied.stderr).toContain("(did you mean location.metroCode?) (apply.reference-path)");
    expect(Object.keys(ws.state().resources)).toEqual(["cloudRouters.r"]);
    expect(await objects(t, "routeFilters")).toEqual([]);
  });
});
