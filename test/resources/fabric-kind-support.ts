// Driving the fabric resource kinds (route filters, attachments, connections) straight against a test
// simulator: a KindContext with a real ApiClient, polling observe until readiness settles (no real-second
// sleeps; the simulator runs fast), the engine's leaf-by-leaf compare, and request counting.

import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, expect } from "vitest";
import { ApiClient } from "../../src/api/index.js";
import { DEFAULT_TIMEOUTS_MS } from "../../src/config/index.js";
import { getPath } from "../../src/resources/common.js";
import type { Body, KindContext, ObjectRef, Operation, Readiness, ResourceKind } from "../../src/resources/types.js";
import type { TestSim } from "../support/sim.js";

export const PRODUCTION = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
export const SANDBOX = "9d8e7f60-1b2c-4d3e-8f4a-5b6c7d8e9f02";
export const DC_PRIMARY = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
export const DC_SECONDARY = "c791f8cb-0000-4000-8000-000000000002";
export const DC_QINQ = "c791f8cb-0000-4000-8000-000000000003";
export const SV_PRIMARY = "c791f8cb-0000-4000-8000-000000000004";
export const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";

/** A KindContext on the test simulator, built once it is listening and closed after the file. */
export function useKindContext(t: TestSim): { readonly ctx: KindContext } {
  let ctx: KindContext | undefined;
  beforeAll(() => {
    ctx = {
      api: new ApiClient({
        baseUrl: t.url,
        credentials: { clientId: "demo-client", clientSecret: "demo-secret" },
        sleep: () => new Promise((resolve) => setTimeout(resolve, 1)),
      }),
      provider: { parallelism: 10, timeouts: { ...DEFAULT_TIMEOUTS_MS }, projectId: PRODUCTION, accountNumber: "270848" },
    };
  });
  afterAll(async () => {
    await ctx?.api.close();
  });
  return {
    get ctx() {
      return ctx!;
    },
  };
}

export interface Settled {
  /** The last body observed; undefined when the object is gone. */
  body: Body | undefined;
  readiness: Readiness;
  /** Every state shown while waiting, in order, without repeats. */
  states: string[];
}

/** Polls observe until readiness is no longer pending, as the engine does (a gone object is a finished delete). */
export async function settle(kind: ResourceKind, ctx: KindContext, ref: ObjectRef, operation: Operation): Promise<Settled> {
  const deadline = Date.now() + 10_000;
  const states: string[] = [];
  for (;;) {
    const body = await kind.observe(ctx, ref);
    if (body === undefined) {
      if (operation === "delete") return { body, readiness: "ready", states };
      throw new Error(`${kind.noun} ${ref.id} is gone while waiting for ${operation}`);
    }
    const state = kind.stateOf(body);
    if (state !== undefined && states[states.length - 1] !== state) states.push(state);
    const readiness = kind.readiness(body, operation);
    if (readiness !== "pending") return { body, readiness, states };
    if (Date.now() > deadline) throw new Error(`${kind.noun} ${ref.id} still pending ${operation} (${state})`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Leaf paths of a comparable form: objects walked, arrays whole (as the engine compares). */
export function leaves(value: unknown, prefix = ""): Array<[string, unknown]> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
  }
  return [[prefix, value]];
}

/** The leaves of desired(spec) that differ from observed(body) at the same path. */
export function differences(kind: ResourceKind, spec: Body, body: Body): string[] {
  const observed = kind.observed(body);
  return leaves(kind.desired(spec))
    .filter(([path, want]) => !isDeepStrictEqual(getPath(observed, path), want))
    .map(([path, want]) => `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(getPath(observed, path))}`);
}

/** The changed paths that no updatable entry covers: what would make the engine replace. */
export function replaceReasons(kind: ResourceKind, changed: string[]): string[] {
  return changed.filter((path) => !Object.keys(kind.updatable).some((f) => path === f || path.startsWith(`${f}.`)));
}

/** The changed leaf paths between two specs' desired forms. */
export function changedPaths(kind: ResourceKind, before: Body, after: Body): string[] {
  const old = kind.desired(before);
  return leaves(kind.desired(after))
    .filter(([path, want]) => !isDeepStrictEqual(getPath(old, path), want))
    .map(([path]) => path);
}

export function expectNoDiff(kind: ResourceKind, spec: Body, body: Body | undefined): void {
  expect(body, `${kind.noun} is gone`).toBeDefined();
  expect(differences(kind, spec, body!)).toEqual([]);
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** Runs `work` and returns what it returned with the service requests it made (the token and control API left out). */
export async function withRequests<T>(t: TestSim, work: () => Promise<T>): Promise<{ result: T; requests: LoggedRequest[] }> {
  await t.call("DELETE", "/__sim/requests");
  const result = await work();
  const log = (await t.call("GET", "/__sim/requests")).body as LoggedRequest[];
  return { result, requests: log.filter((r) => !r.path.startsWith("/__sim") && !r.path.startsWith("/oauth2")) };
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
