// Shared by the per-kind end-to-end tests: the seeded objects of the simulator's world, reading what the
// service holds through its control API, and running the command line in one workspace.

import type { TestSim } from "../support/sim.js";
import { netform, simEnv, type CliResult, type Workspace } from "./cli.js";

export const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
export const ACCOUNT = 270848;
export const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";
export const PORTS = {
  dcPrimary: "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee",
  dcSecondary: "c791f8cb-0000-4000-8000-000000000002",
  svPrimary: "c791f8cb-0000-4000-8000-000000000004",
  svSecondary: "c791f8cb-0000-4000-8000-000000000005",
  nyPrimary: "c791f8cb-0000-4000-8000-000000000007",
  nySecondary: "c791f8cb-0000-4000-8000-000000000008",
} as const;

export type Obj = Record<string, unknown>;

/** Every object of a kind the simulator holds, with its computed state. */
export async function objects(t: TestSim, kind: string): Promise<Obj[]> {
  return (await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data as Obj[];
}

/** One request of the simulator's log. */
export interface Logged {
  method: string;
  path: string;
  /** The query string, when there was one. */
  query?: string;
  status: number;
}

/** The simulator's request log. */
export const requestLog = async (t: TestSim): Promise<Logged[]> => (await t.call("GET", "/__sim/requests")).body as Logged[];

/** A request that changes nothing: a dry run, which the service checks and does not act on. */
export const isDryRun = (r: { query?: unknown }): boolean => /(^|&)dryRun=true(&|$)/.test(typeof r.query === "string" ? r.query : "");

/** A request that could change the service: not a read, a search, a dry run or a token request. */
export const isChangeSent = (r: { method?: unknown; path?: unknown; query?: unknown }): boolean =>
  r.method !== "GET" && !String(r.path).startsWith("/oauth2") && !String(r.path).endsWith("/search") && !isDryRun(r);

/** The requests that could change the service (isChangeSent). */
export const changesSent = <T extends { method?: unknown; path?: unknown; query?: unknown }>(log: readonly T[]): T[] => log.filter(isChangeSent);

/** Runs netform in the workspace against the test simulator. */
export function runner(t: TestSim, ws: Workspace, extra: Record<string, string> = {}): (...args: string[]) => Promise<CliResult> {
  return (...args) => netform(args, { cwd: ws.dir, env: simEnv(t.url, extra) });
}

/** The id the state file records for an address. */
export function idOf(ws: Workspace, address: string): string {
  const id = ws.state().resources[address]?.id;
  if (id === undefined) throw new Error(`${address} has no id in the state: ${ws.stateText()}`);
  return id;
}

/** A result's output, for assertion messages. */
export const out = (r: CliResult): string => `exit ${String(r.code)}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

/** The top of a configuration for the seeded production project (NETFORM_ENDPOINT points it at the test simulator). */
export const CONFIG_HEADER = `netform: 1
provider:
  endpoint: embedded
  projectId: ${PROJECT}
`;

/** A connection from a port (its aSide), as YAML under `connections:`; `zSide` is its access point's lines. */
const connectionYaml = (name: string, c: { bandwidth: number | string; aPort: string; vlanA: number | string; zSide: string }): string => `  ${name}:
    type: EVPL_VC
    bandwidth: ${c.bandwidth}
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: ${c.aPort} }
        linkProtocol: { type: DOT1Q, vlanTag: ${c.vlanA} }
    zSide:
      accessPoint:
${c.zSide}    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

/** A connection from a port to a service profile (`profile`: its uuid, or a reference to one), as YAML under `connections:`. */
export const profileConnectionYaml = (name: string, c: { port: string; vlanTag: number; profile: string; metroCode: string }): string =>
  connectionYaml(name, {
    bandwidth: 50,
    aPort: c.port,
    vlanA: c.vlanTag,
    zSide: `        type: SP\n        profile: { type: L2_PROFILE, uuid: "${c.profile}" }\n        location: { metroCode: ${c.metroCode} }\n`,
  });

/** A port-to-port connection, as YAML under `connections:`. */
export const portConnectionYaml = (name: string, c: { aPort: string; vlanA: number | string; zPort: string; vlanZ: number | string; bandwidth?: number | string }): string =>
  connectionYaml(name, {
    bandwidth: c.bandwidth ?? 50,
    aPort: c.aPort,
    vlanA: c.vlanA,
    zSide: `        type: COLO\n        port: { uuid: ${c.zPort} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${c.vlanZ} }\n`,
  });

/** A port-to-port connection between the two DC ports. */
export const dcConnectionYaml = (name: string, vlanA: number, vlanZ: number, bandwidth = 50): string =>
  portConnectionYaml(name, { aPort: PORTS.dcPrimary, vlanA, zPort: PORTS.dcSecondary, vlanZ, bandwidth });

/** A DIRECT routing protocol and a BGP session over it, named direct and bgp, on `connection` (a connections address), as YAML under `routingProtocols:`; `net` is a /30's first three octets. */
export const directAndBgpYaml = (connection: string, net: string): string => `  direct:
    connection: \${connections.${connection}.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: ${net}.1/30 }
  bgp:
    connection: \${connections.${connection}.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: ${net}.2 }
`;

/** The fields of a small C8000V device in DC, as YAML under a device's name (no line break after the last). */
export const C8000V_DC_FIELDS = `    deviceTypeCode: C8000V
    metroCode: DC
    packageCode: network-essentials
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    termlength: 12
    notifications: [netops@example.com]`;
