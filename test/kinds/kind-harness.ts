// Drives one resource kind directly against the test simulator, the way the engine does: a client and
// context (one per test file), polling `observe` until `readiness` settles, the engine's leaf-by-leaf compare, and the
// simulator's request log for counting refresh requests.

import { afterAll, beforeAll } from "vitest";
import { ApiClient } from "../../src/api/index.js";
import { readPath, SecretPaths } from "../../src/config/index.js";
import { KINDS, type Body, type KindContext, type KindHandler, type ObjectRef, type Operation, type Readiness, type UpdateMethod } from "../../src/kinds/index.js";
import { compareFields } from "../../src/plan/index.js";
import type { TestSim } from "../support/sim.js";

export const PROJECT_ID = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
export const ACCOUNT_NUMBER = "270848";

/** A KindContext on the test simulator, built once it is listening and closed after the file. */
export function useKindContext(t: TestSim): { readonly ctx: KindContext } {
  let ctx: KindContext | undefined;
  beforeAll(() => {
    ctx = {
      api: new ApiClient({ baseUrl: t.url, credentials: { clientId: "demo-client", clientSecret: "demo-secret" }, sleep: () => new Promise((resolve) => setTimeout(resolve, 1)) }),
      provider: { parallelism: 10, timeouts: Object.fromEntries(KINDS.map((k) => [k, 60_000])) as KindContext["provider"]["timeouts"], projectId: PROJECT_ID, accountNumber: ACCOUNT_NUMBER },
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

/** The leaves of desired(spec) that differ from observed(body), by the engine's own compare. */
export function differences(kind: KindHandler, spec: Body, body: Body): string[] {
  const resource = { secrets: SecretPaths.NONE, lifecycle: { ignoreChanges: [], preventDestroy: false, createBeforeDestroy: false } };
  const hash = Object.assign(String, { matches: (recorded: string | undefined, value: unknown) => recorded === String(value) });
  return compareFields(resource, kind, spec, body, undefined, hash).changes.map((c) => c.path);
}

/** The same differences, each with what was wanted and what was found, for readable failures. */
export function describeDifferences(kind: KindHandler, spec: Body, body: Body): string[] {
  const desired = kind.desired(spec);
  const observed = kind.observed(body);
  return differences(kind, spec, body).map((path) => `${path}: want ${JSON.stringify(readPath(desired, path))}, got ${JSON.stringify(readPath(observed, path))}`);
}

/** How the engine would change a path: the longest updatable prefix; undefined forces a replace. */
export function methodFor(kind: KindHandler, path: string): UpdateMethod | undefined {
  const keys = Object.keys(kind.updatable).filter((k) => path === k || path.startsWith(`${k}.`));
  const best = keys.sort((a, b) => b.length - a.length)[0];
  return best === undefined ? undefined : kind.updatable[best];
}

export interface Settled {
  /** The last body observed; undefined when the object is gone. */
  body: Body | undefined;
  readiness: Readiness;
  /** Every state shown while waiting, in order, without repeats. */
  states: string[];
}

/** Polls `observe` until the operation is ready or failed, as the engine does (a gone object is a finished delete). */
export async function settle(kind: KindHandler, ctx: KindContext, ref: ObjectRef, operation: Operation): Promise<Settled> {
  const deadline = Date.now() + 20_000;
  const states: string[] = [];
  for (;;) {
    const body = await kind.observe(ctx, ref);
    if (body === undefined) {
      if (operation === "delete") return { body, readiness: "ready", states };
      throw new Error(`${kind.noun} ${ref.id} disappeared while waiting for ${operation}`);
    }
    const state = kind.stateOf(body);
    if (state !== undefined && states[states.length - 1] !== state) states.push(state);
    const readiness = kind.readiness(body, operation);
    if (readiness !== "pending") return { body, readiness, states };
    if (Date.now() > deadline) throw new Error(`${kind.noun} ${ref.id} still pending (${state}) after ${operation}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Settles and insists on "ready", returning the body. */
export async function ready(kind: KindHandler, ctx: KindContext, ref: ObjectRef, operation: Operation): Promise<Body> {
  const { body, readiness } = await settle(kind, ctx, ref, operation);
  if (readiness !== "ready") throw new Error(`${kind.noun} ${ref.id} ${operation} failed: ${JSON.stringify(readiness)}`);
  return body ?? {};
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** Runs `work` and returns what it returned with the API requests the simulator saw meanwhile (token requests left out). */
export async function withRequests<T>(t: TestSim, work: () => Promise<T>): Promise<{ result: T; requests: LoggedRequest[] }> {
  await t.call("DELETE", "/__sim/requests");
  const result = await work();
  const log = (await t.call("GET", "/__sim/requests")).body as LoggedRequest[];
  return { result, requests: log.filter((r) => !r.path.startsWith("/oauth2/")) };
}

/** The API requests `work` made. */
export const requestsDuring = async (t: TestSim, work: () => Promise<unknown>): Promise<LoggedRequest[]> => (await withRequests(t, work)).requests;
