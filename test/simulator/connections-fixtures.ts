// Request bodies and seeded identifiers shared by the connection tests.

import { PROJECTS } from "../../src/simulator/index.js";
import { SERVICE_PROFILES, seededUuid } from "../../src/simulator/core/seed.js";
import type { TestSim } from "../support/sim.js";

/** Seeded ports: three per metro in the order DC, SV, NY, LD, AM, FR, SG, TY (PRIMARY and SECONDARY DOT1Q, then QINQ). */
const METRO_ORDER = ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"];
export function seededPort(metro: string, which: "PRIMARY" | "SECONDARY" | "QINQ"): string {
  const n = METRO_ORDER.indexOf(metro) * 3 + { PRIMARY: 1, SECONDARY: 2, QINQ: 3 }[which];
  return n === 1 ? "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee" : seededUuid("c791f8cb", n);
}

export const DIRECT_PROFILE = SERVICE_PROFILES[0].uuid;
export const STORAGE_PROFILE = SERVICE_PROFILES[1].uuid;
export const PRODUCTION = PROJECTS.production.projectId;
export const SANDBOX = PROJECTS.sandbox.projectId;

export const coloSide = (port: string, vlanTag: number) => ({ accessPoint: { type: "COLO", port: { uuid: port }, linkProtocol: { type: "DOT1Q", vlanTag } } });
export const qinqSide = (port: string, vlanSTag: number, vlanCTag?: number) => ({
  accessPoint: { type: "COLO", port: { uuid: port }, linkProtocol: { type: "QINQ", vlanSTag, ...(vlanCTag === undefined ? {} : { vlanCTag }) } },
});
export const profileSide = (uuid: string, metroCode: string) => ({ accessPoint: { type: "SP", profile: { type: "L2_PROFILE", uuid }, location: { metroCode } } });
export const deviceSide = (uuid: string, extra: Record<string, unknown> = {}) => ({
  accessPoint: { type: "VD", virtualDevice: { type: "EDGE", uuid }, interface: { type: "NETWORK", id: 5 }, ...extra },
});

/** A valid port-to-service-profile request in DC; override any field. */
export function connectionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "EVPL_VC",
    name: "dc-to-direct",
    order: { purchaseOrderNumber: "PO-1" },
    bandwidth: 100,
    redundancy: { group: "g-1", priority: "PRIMARY" },
    aSide: coloSide(seededPort("DC", "PRIMARY"), 100),
    zSide: profileSide(DIRECT_PROFILE, "DC"),
    notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
    project: { projectId: PRODUCTION },
    ...overrides,
  };
}

/** Creates a connection and waits until it is provisioned; returns its uuid. */
export async function provisioned(t: TestSim, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call("POST", "/fabric/v4/connections", { body: connectionBody(overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  await t.waitFor(`/fabric/v4/connections/${res.body.uuid}`, "/state", "PROVISIONED");
  return res.body.uuid as string;
}

/** The first problem of a style A error body. */
export const problem = (body: unknown) => (body as Array<{ errorCode: string; additionalInfo?: Array<{ property: string; reason: string }> }>)[0]!;
