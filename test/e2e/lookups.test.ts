// Lookups end to end through the command line against the simulator: every lookup kind finding exactly
// one object, none and several (each a located error naming what was searched, or the candidates); a
// lookup feeding a connection; a lookup whose object changed since the last apply shown in the plan; and
// `validate` treating lookups as unknown values without calling the service.

import { beforeAll, describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, workspace, type CliResult } from "./cli.js";
import { C8000V_DC_FIELDS, CONFIG_HEADER, dcConnectionYaml, idOf, out, PORTS, PROFILE, runner } from "./service.js";

const t = useSimulator({ speed: 2000 });

/** Objects the seeded world lacks, so that every kind has one object to find by name and two that share a field. */
const WORLD = `${CONFIG_HEADER}  accountNumber: 270848
cloudRouters:
  second:
    name: fcr-dc-2
    location: { metroCode: DC }
    package: { code: LAB }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
networks:
  second:
    type: EVPLAN
    name: branch-lan
    scope: GLOBAL
    notifications: [{ type: ALL, emails: [noc@example.com] }]
serviceTokens:
  second:
    name: partner-2
    expirationDateTime: 2099-06-30T00:00:00Z
    connection:
      type: EVPL_VC
      supportedBandwidths: [50]
      zSide:
        accessPointSelectors:
          - type: COLO
            port: { uuid: ${PORTS.dcSecondary} }
            linkProtocol: { type: DOT1Q, vlanTag: 2601 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routeFilters:
  in-a: { type: BGP_IPv4_PREFIX_FILTER, name: shared-in-a }
  in-b: { type: BGP_IPv4_PREFIX_FILTER, name: shared-in-b }
connections:
${dcConnectionYaml("link-a", 2611, 2612)}${dcConnectionYaml("link-b", 2613, 2614)}devices:
  edge:
    virtualDeviceName: edge-a
${C8000V_DC_FIELDS}
    secondary:
      virtualDeviceName: edge-b
      metroCode: DC
      notifications: [netops@example.com]
`;

interface Row {
  kind: string;
  /** A where that finds one object, and the attribute and value that prove which. */
  one: string;
  attribute: string;
  value: unknown;
  none: string;
  several: string;
  /** The names the several-match error lists. */
  candidates: string[];
}

const ROWS: Row[] = [
  { kind: "port", one: "{ name: 216504-DC1-CX-PRI-01 }", attribute: "uuid", value: PORTS.dcPrimary, none: "{ name: 216504-XX1-CX-PRI-01 }", several: "{ metroCode: DC }", candidates: ["216504-DC1-CX-PRI-01", "216504-DC1-CX-SEC-02"] },
  { kind: "serviceProfile", one: '{ name: "CloudExchange Direct" }', attribute: "uuid", value: PROFILE, none: "{ name: Nowhere }", several: "{ metroCode: NY }", candidates: ["CloudExchange Direct", "Secure Storage Network"] },
  { kind: "metro", one: "{ code: SV }", attribute: "name", value: "Silicon Valley", none: "{ code: ZZ }", several: "{ region: EMEA }", candidates: ["Abu Dhabi", "Amsterdam"] },
  { kind: "deviceType", one: "{ deviceTypeCode: C8000V, packageCode: network-essentials }", attribute: "stableVersion", value: "17.11.01a", none: "{ deviceTypeCode: NOPE }", several: "{ category: FIREWALL }", candidates: ["Palo Alto Networks VM-Series Firewall (PA-VM)"] },
  { kind: "edgeAccount", one: '{ metroCode: DC, accountName: "Example Networks Inc" }', attribute: "accountNumber", value: 270848, none: "{ metroCode: DC, accountNumber: 1 }", several: "{ metroCode: DC }", candidates: ["Example Networks Inc", "Example Networks Lab"] },
  { kind: "cloudRouter", one: "{ name: fcr-dc-2 }", attribute: "name", value: "fcr-dc-2", none: "{ name: fcr-none }", several: "{ metroCode: DC }", candidates: ["fcr-dc", "fcr-dc-2"] },
  { kind: "network", one: "{ name: branch-lan }", attribute: "scope", value: "GLOBAL", none: "{ name: no-lan }", several: "{ type: EVPLAN }", candidates: ["global-lan", "branch-lan"] },
  { kind: "serviceToken", one: "{ name: partner-2 }", attribute: "type", value: "VC_TOKEN", none: "{ name: partner-none }", several: "{ state: INACTIVE }", candidates: ["partner-to-dc", "partner-2"] },
  { kind: "routeFilter", one: "{ name: shared-in-a }", attribute: "type", value: "BGP_IPv4_PREFIX_FILTER", none: "{ name: shared-in-z }", several: "{ type: BGP_IPv4_PREFIX_FILTER }", candidates: ["shared-in-a", "shared-in-b"] },
  { kind: "connection", one: "{ name: link-a }", attribute: "type", value: "EVPL_VC", none: "{ name: link-z }", several: "{ metroCode: DC, type: EVPL_VC }", candidates: ["link-a", "link-b"] },
  { kind: "device", one: "{ name: edge-a }", attribute: "metroCode", value: "DC", none: "{ name: edge-z }", several: "{ metroCode: DC }", candidates: ["edge-a", "edge-b"] },
];

/** A flow mapping of the table as the error message quotes it: `{ name: x }` as `name: "x"`. */
const whereText = (flow: string): string =>
  flow
    .replace(/^\{\s*|\s*\}$/g, "")
    .split(/,\s*/)
    .map((pair) => {
      const [key = "", raw = ""] = pair.split(/:\s*/);
      const value = raw.replace(/^"|"$/g, "");
      return `${key}: ${/^\d+$/.test(value) ? value : JSON.stringify(value)}`;
    })
    .join(", ");

const lookupsYaml = (entries: Array<[string, string, string]>) => `lookups:\n${entries.map(([name, kind, where]) => `  ${name}:\n    kind: ${kind}\n    where: ${where}\n`).join("")}`;

interface PlanDocument {
  lookups?: Array<{ address: string; kind: string; value: Record<string, unknown>; changes: Array<{ path: string; before: unknown; after: unknown }> }>;
}

describe("lookups end to end", () => {
  let found: CliResult;
  let failed: CliResult;
  let failedConfig: string;

  beforeAll(async () => {
    const world = workspace(WORLD);
    const made = await runner(t, world)("apply", "--auto-approve");
    expect(made.code, out(made)).toBe(0);

    const ones = workspace(`${CONFIG_HEADER}${lookupsYaml(ROWS.map((r) => [`one-${r.kind.toLowerCase()}`, r.kind, r.one]))}`);
    found = await runner(t, ones)("plan", "--format", "json");
    failedConfig = `${CONFIG_HEADER}${lookupsYaml(ROWS.flatMap((r) => [[`none-${r.kind.toLowerCase()}`, r.kind, r.none] as [string, string, string], [`several-${r.kind.toLowerCase()}`, r.kind, r.several] as [string, string, string]]))}`;
    const failing = workspace(failedConfig);
    failed = await runner(t, failing)("plan");
  }, 240_000);

  /** The line of the configuration that declares a lookup: where its error must point. */
  const lineOf = (name: string) => failedConfig.split("\n").indexOf(`  ${name}:`) + 1;

  it.each(ROWS)("a $kind lookup that finds exactly one object gives its attributes", (row) => {
    expect(found.code, out(found)).toBe(0);
    const document = JSON.parse(found.stdout) as PlanDocument;
    const lookup = document.lookups?.find((l) => l.address === `lookups.one-${row.kind.toLowerCase()}`);
    expect(lookup?.kind).toBe(row.kind);
    expect(lookup?.value[row.attribute]).toEqual(row.value);
  });

  it.each(ROWS)("a $kind lookup that finds nothing is an error at the lookup, naming what was searched", (row) => {
    expect(failed.code, out(failed)).toBe(1);
    const name = `none-${row.kind.toLowerCase()}`;
    const line = failed.stderr.split("\n").find((l) => l.includes(`lookups.${name} matches no`));
    expect(line, out(failed)).toBeDefined();
    expect(line).toMatch(new RegExp(`^netform\\.yaml:${lineOf(name) + 2}:\\d+  lookups\\.${name}\\.where  `));
    expect(line).toContain(`(where ${whereText(row.none)})`);
  });

  it.each(ROWS)("a $kind lookup that finds several objects is an error listing the candidates", (row) => {
    const name = `several-${row.kind.toLowerCase()}`;
    const line = failed.stderr.split("\n").find((l) => l.includes(`lookups.${name} matches`));
    expect(line, out(failed)).toBeDefined();
    expect(line).toMatch(new RegExp(`^netform\\.yaml:${lineOf(name) + 2}:\\d+  lookups\\.${name}\\.where  lookups\\.${name} matches \\d+ .+ and needs exactly one: `));
    for (const candidate of row.candidates) expect(line).toContain(candidate);
    expect(failed.stderr).toContain("hint: narrow where with more of its fields");
  });

  it("reads several lookups of one kind in one search, paged through, filtered by the service", { timeout: 60_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}${lookupsYaml([
      ["dc-pri", "port", "{ name: 216504-DC1-CX-PRI-01 }"],
      ["dc-sec", "port", "{ name: 216504-DC1-CX-SEC-02 }"],
      ["sv-pri", "port", "{ name: 216504-SV1-CX-PRI-04 }"],
      ["ny-pri", "port", "{ metroCode: NY, priority: PRIMARY }"],
      ["ld-pri", "port", "{ metroCode: LD, priority: PRIMARY }"],
      ["direct", "serviceProfile", '{ name: "CloudExchange Direct" }'],
      ["storage", "serviceProfile", '{ name: "Secure Storage Network" }'],
    ])}`);
    await t.call("DELETE", "/__sim/requests");
    const planned = await runner(t, ws)("plan", "--format", "json");
    expect(planned.code, out(planned)).toBe(0);
    const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
    const searches = log.filter((r) => r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}`);
    // One search for the ports named, one for those found by metro; one for both profiles.
    expect(searches.sort()).toEqual(["POST /fabric/v4/ports/search", "POST /fabric/v4/ports/search", "POST /fabric/v4/serviceProfiles/search"]);
    const values = new Map((JSON.parse(planned.stdout) as PlanDocument).lookups?.map((l) => [l.address, l.value.uuid]));
    expect(values.get("lookups.dc-sec")).toBe(PORTS.dcSecondary);
    expect(values.get("lookups.sv-pri")).toBe(PORTS.svPrimary);
    expect(values.get("lookups.ny-pri")).toBe(PORTS.nyPrimary);
  });

  it("feeds a connection the port and profile it finds, and records the lookups in the state", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}${lookupsYaml([
      ["sv-primary", "port", "{ metroCode: SV, priority: PRIMARY }"],
      ["direct", "serviceProfile", '{ name: "CloudExchange Direct" }'],
    ])}connections:
  to-cloud:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: "\${lookups.sv-primary.uuid}" }, linkProtocol: { type: DOT1Q, vlanTag: 2621 } } }
    zSide: { accessPoint: { type: SP, profile: { type: L2_PROFILE, uuid: "\${lookups.direct.uuid}" }, location: { metroCode: "\${lookups.sv-primary.location.metroCode}" } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`);
    const run = runner(t, ws);
    const validated = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
    expect(validated.code, out(validated)).toBe(0);

    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain(`+ uuid = "${PORTS.svPrimary}"`);
    expect(applied.stdout).toContain(`+ uuid = "${PROFILE}"`);
    const connection = (await t.call("GET", `/fabric/v4/connections/${idOf(ws, "connections.to-cloud")}`)).body as { aSide: { accessPoint: { port: { uuid: string } } }; zSide: { accessPoint: { profile: { uuid: string } } } };
    expect(connection.aSide.accessPoint.port.uuid).toBe(PORTS.svPrimary);
    expect(connection.zSide.accessPoint.profile.uuid).toBe(PROFILE);
    const state = JSON.parse(ws.stateText()) as { lookups: Record<string, { kind: string; attributes: Record<string, unknown> }> };
    expect(state.lookups["lookups.sv-primary"]).toMatchObject({ kind: "port", attributes: { uuid: PORTS.svPrimary } });

    const again = await run("plan", "--detailed-exitcode");
    expect(again.code, out(again)).toBe(0);
    expect(again.stdout).toContain("No changes.");
  });

  it("shows a lookup whose object changed since the last apply, and records the new value when applied", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}${lookupsYaml([["lab", "edgeAccount", '{ metroCode: SV, accountName: "Example Networks Lab" }'], ["ny", "port", "{ metroCode: NY, priority: SECONDARY }"]])}`);
    const run = runner(t, ws);
    const first = await run("apply", "--auto-approve");
    expect(first.code, out(first)).toBe(0);
    const saved = await run("plan", "--out", "plan.bin");
    expect(saved.code, out(saved)).toBe(0);

    // The port is upgraded in the portal: the lookup finds the same port, changed.
    const patched = await t.call("PATCH", `/__sim/objects/${PORTS.nySecondary}`, { body: { bandwidth: 100000 } });
    expect(patched.status).toBe(200);
    const changed = await run("plan", "--detailed-exitcode");
    expect(changed.code, out(changed)).toBe(2);
    expect(changed.stdout).toContain("# lookups.ny (port) found a changed value since the last apply");
    expect(changed.stdout).toMatch(/~ bandwidth\s+= 10000 -> 100000/);
    // The unchanged lookup is listed among the reads, and not as a change.
    expect(changed.stdout).not.toContain("# lookups.lab");
    expect(changed.stdout).toMatch(/^ {2}lookups\.lab \(edgeAccount, where .*\): found .+$/m);
    expect(changed.stdout).toMatch(/^ {2}lookups\.ny \(port, where .*\): found .+ \(changed since the last apply\)$/m);
    const document = JSON.parse((await run("plan", "--format", "json")).stdout) as PlanDocument;
    expect(document.lookups?.find((l) => l.address === "lookups.ny")?.changes).toEqual([{ path: "bandwidth", before: 10000, after: 100000 }]);
    expect(document.lookups?.find((l) => l.address === "lookups.lab")?.changes).toEqual([]);

    // A plan saved before the port changed no longer says what the apply would work from.
    const stale = await run("apply", "plan.bin");
    expect(stale.code, out(stale)).toBe(1);
    expect(stale.stderr).toContain("the saved plan is stale: lookups.ny finds another value than when it was made");

    const markdown = await run("plan", "--format", "markdown");
    expect(markdown.stdout).toContain("> [!IMPORTANT]");
    expect(markdown.stdout).toContain("`lookups.ny` (port): `bandwidth`");

    const recorded = await run("apply", "--auto-approve");
    expect(recorded.code, out(recorded)).toBe(0);
    const after = await run("plan", "--detailed-exitcode");
    expect(after.code, out(after)).toBe(0);
  });
});
