// What lookups read from the real service, netform reads as the service means it. A replay serves what each
// lookup kind reads, in the shapes the official Fabric description's examples show
// (test/fixtures/real-answers/fabric.ts) and those equinix/ne-go recorded for the network edge
// (network-edge-reads.ts): searches are answered by their filter, lists and single objects as recorded. A
// configuration whose outputs use each lookup's uuid (or what identifies it) and another attribute finds
// exactly the object meant, applies without a change to the service, and then plans clean.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplay, type Replay, type ReplayAnswer } from "../support/replay.js";
import * as fabric from "../fixtures/real-answers/fabric.js";
import { API, IDS, PROJECT, searched } from "../fixtures/real-answers/fabric.js";
import { ACCOUNT as EDGE_ACCOUNT, IDS as EDGE } from "../fixtures/real-answers/network-edge.js";
import { accounts, devicesListed, deviceTypes } from "../fixtures/real-answers/network-edge-reads.js";
import { netform, simEnv, workspace, type Workspace } from "./cli.js";
import { out } from "./service.js";

const V4 = "/fabric/v4";

/** What each lookup kind reads: the Fabric searches and the metro, the network edge's lists. */
const ANSWERS: ReplayAnswer[] = [
  { method: "POST", path: `${V4}/ports/search`, body: searched([fabric.port(), fabric.otherPort()]) },
  { method: "POST", path: `${V4}/serviceProfiles/search`, body: searched([fabric.serviceProfile(), fabric.otherProfile()]) },
  { method: "GET", path: `${V4}/metros/DA`, body: fabric.metro() },
  { method: "POST", path: `${V4}/routers/search`, body: searched([fabric.cloudRouter(), fabric.cloudRouter({ uuid: "0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b", name: "fcr-sv-1", location: { metroCode: "SV" } })]) },
  { method: "POST", path: `${V4}/networks/search`, body: searched([fabric.network()]) },
  { method: "POST", path: `${V4}/serviceTokens/search`, body: searched([fabric.tokenColo(), fabric.tokenNetwork()]) },
  { method: "POST", path: `${V4}/routeFilters/search`, body: searched([fabric.routeFilterV4(), fabric.routeFilterV6()]) },
  { method: "POST", path: `${V4}/connections/search`, body: searched([fabric.routerConnection(), fabric.spConnection(), fabric.networkConnection()]) },
  { method: "GET", path: "/ne/v1/deviceTypes", body: deviceTypes() },
  { method: "GET", path: "/ne/v1/devices", body: devicesListed() },
  { method: "GET", path: "/ne/v1/accounts/SV", body: accounts() },
];

/** Each lookup, the attribute its output reads besides the uuid, and the two values it must find. */
const LOOKUPS: Array<{ name: string; kind: string; where: string; id: string; attribute: string; values: [unknown, unknown] }> = [
  { name: "dc-port", kind: "port", where: "{ name: 201246-DA1-CX-PRI-01 }", id: "uuid", attribute: "bandwidth", values: [IDS.port, 10000] },
  { name: "secondary-port", kind: "port", where: "{ metroCode: DA, priority: SECONDARY }", id: "uuid", attribute: "name", values: [IDS.otherPort, "201246-DA1-CX-SEC-02"] },
  { name: "storage", kind: "serviceProfile", where: '{ name: "Secure Storage", metroCode: DA }', id: "uuid", attribute: "visibility", values: [IDS.profile, "PUBLIC"] },
  { name: "dallas", kind: "metro", where: "{ code: DA }", id: "code", attribute: "localVCBandwidthMax", values: ["DA", 50000] },
  { name: "csr", kind: "deviceType", where: "{ deviceTypeCode: CSR1000V, packageCode: IPBASE }", id: "deviceTypeCode", attribute: "stableVersion", values: ["CSR1000V", "16.09.05"] },
  { name: "sv-account", kind: "edgeAccount", where: "{ metroCode: SV, accountName: netops-account }", id: "accountNumber", attribute: "accountStatus", values: [EDGE_ACCOUNT, "Active"] },
  { name: "active-account", kind: "edgeAccount", where: "{ metroCode: SV, accountStatus: ACTIVE }", id: "accountNumber", attribute: "accountName", values: [EDGE_ACCOUNT, "netops-account"] },
  { name: "fcr", kind: "cloudRouter", where: "{ metroCode: DA }", id: "uuid", attribute: "name", values: [IDS.router, "fcr-da-1"] },
  { name: "lan", kind: "network", where: "{ name: branch-lan }", id: "uuid", attribute: "scope", values: [IDS.network, "REGIONAL"] },
  { name: "token", kind: "serviceToken", where: "{ name: partner-a }", id: "uuid", attribute: "expirationDateTime", values: [IDS.tokenColo, "2031-03-18T06:43:49.980Z"] },
  { name: "filter", kind: "routeFilter", where: "{ name: cloud-in-v4 }", id: "uuid", attribute: "type", values: [IDS.filterV4, "BGP_IPv4_PREFIX_FILTER"] },
  { name: "link", kind: "connection", where: "{ name: dc-to-storage }", id: "uuid", attribute: "bandwidth", values: [IDS.spConnection, 100] },
  { name: "edge", kind: "device", where: "{ name: edge-router-1 }", id: "uuid", attribute: "metroCode", values: [EDGE.device, "SV"] },
];

const configuration = `netform: 1
provider:
  endpoint: ${API}
  projectId: ${PROJECT}
lookups:
${LOOKUPS.map((l) => `  ${l.name}: { kind: ${l.kind}, where: ${l.where} }`).join("\n")}
outputs:
${LOOKUPS.map((l) => `  ${l.name}-id: \${lookups.${l.name}.${l.id}}\n  ${l.name}-${l.attribute.toLowerCase()}: \${lookups.${l.name}.${l.attribute}}`).join("\n")}
`;

let replay: Replay;
let ws: Workspace;
const run = (...args: string[]) => netform(args, { cwd: ws.dir, env: simEnv(replay.url) });

beforeAll(async () => {
  replay = await startReplay(ANSWERS);
  ws = workspace(configuration);
});

afterAll(async () => {
  await replay.close();
});

describe("lookups on the real service's answers", () => {
  it("find the object each means, apply without a change to the service, then plan clean", { timeout: 60_000 }, async () => {
    const applied = await run("apply", "--auto-approve", "--no-cost");
    expect(applied.code, out(applied)).toBe(0);
    const shown = await run("output", "--json");
    expect(shown.code, out(shown)).toBe(0);
    const outputs = JSON.parse(shown.stdout) as Record<string, { value: unknown }>;
    const valueOf = (name: string) => outputs[name]?.value;
    expect(LOOKUPS.map((l) => [l.name, valueOf(`${l.name}-id`), valueOf(`${l.name}-${l.attribute.toLowerCase()}`)])).toEqual(LOOKUPS.map((l) => [l.name, ...l.values]));

    replay.requests.length = 0;
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(0);
    expect(replay.changes()).toEqual([]);
    expect(replay.requests.filter((r) => r.status !== 200)).toEqual([]);
  });
});
