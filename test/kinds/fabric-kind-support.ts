// What the tests of the fabric kinds (route filters, attachments, connections) share beyond the generic
// kind harness: the seeded identifiers, endpoint builders, changed paths between specs, request counting
// and fault injection.

import { expect } from "vitest";
import { readPath } from "../../src/config/index.js";
import type { Body, KindHandler } from "../../src/kinds/index.js";
import { leaves, sameValue } from "../../src/plan/index.js";
import type { TestSim } from "../support/sim.js";
import { PROJECT_ID, describeDifferences } from "./kind-harness.js";

export { describeDifferences, settle, useKindContext, withRequests } from "./kind-harness.js";

export const PRODUCTION = PROJECT_ID;
export const SANDBOX = "9d8e7f60-1b2c-4d3e-8f4a-5b6c7d8e9f02";
export const DC_PRIMARY = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
export const DC_SECONDARY = "c791f8cb-0000-4000-8000-000000000002";
export const DC_QINQ = "c791f8cb-0000-4000-8000-000000000003";
export const SV_PRIMARY = "c791f8cb-0000-4000-8000-000000000004";
export const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";

/** The changed paths that no updatable entry covers: what would make the engine replace. */
export function replaceReasons(kind: KindHandler, changed: string[]): string[] {
  return changed.filter((path) => !Object.keys(kind.updatable).some((f) => path === f || path.startsWith(`${f}.`)));
}

/** The changed leaf paths between two specs' desired forms. */
export function changedPaths(kind: KindHandler, before: Body, after: Body): string[] {
  const old = kind.desired(before);
  return [...leaves(kind.desired(after))].filter(([path, want]) => !sameValue(readPath(old, path), want)).map(([path]) => path);
}

export function expectNoDiff(kind: KindHandler, spec: Body, body: Body | undefined): void {
  expect(body, `${kind.noun} is gone`).toBeDefined();
  expect(describeDifferences(kind, spec, body!)).toEqual([]);
}

export async function failNextTransition(t: TestSim, kind: string): Promise<void> {
  const res = await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind, count: 1 } } });
  expect(res.status).toBe(200);
}

export const colo = (port: string, vlanTag: number) => ({ accessPoint: { type: "COLO", port: { uuid: port }, linkProtocol: { type: "DOT1Q", vlanTag } } });
export const serviceProfile = (metroCode: string) => ({ accessPoint: { type: "SP", profile: { type: "L2_PROFILE", uuid: PROFILE }, location: { metroCode } } });

/** A port-to-service-profile connection spec in DC as the engine hands it over (defaults applied); override any field. */
export function connectionSpec(overrides: Body = {}): Body {
  return {
    type: "EVPL_VC",
    name: "dc-to-cloud",
    bandwidth: 100,
    order: {},
    aSide: colo(DC_PRIMARY, 1001),
    zSide: serviceProfile("DC"),
    notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
    project: { projectId: PRODUCTION },
    ...overrides,
  };
}
