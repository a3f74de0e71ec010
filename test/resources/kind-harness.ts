// Drives one resource kind directly against the test simulator, the way the engine does: a client and
// context, polling `observe` until `readiness` settles, the engine's leaf-by-leaf compare, and the
// simulator's request log for counting refresh requests.

import { ApiClient } from "../../src/api/index.js";
import { KINDS } from "../../src/config/index.js";
import type { Body, KindContext, ObjectRef, Operation, Readiness, ResourceKind, UpdateMethod } from "../../src/resources/types.js";
import type { TestSim } from "../support/sim.js";

export const PROJECT_ID = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
export const ACCOUNT_NUMBER = "270848";

export function kindContext(t: TestSim): KindContext {
  const api = new ApiClient({ baseUrl: t.url, credentials: { clientId: "demo-client", clientSecret: "demo-secret" }, sleep: () => Promise.resolve() });
  return {
    api,
    provider: { parallelism: 10, timeouts: Object.fromEntries(KINDS.map((k) => [k, 60_000])) as KindContext["provider"]["timeouts"], projectId: PROJECT_ID, accountNumber: ACCOUNT_NUMBER },
  };
}

/** Leaf paths of a comparable form: objects are walked, arrays are compared whole (as the engine does). */
export function flatten(value: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(prefix, value);
  }
  return out;
}

/** The paths where `desired` and `observed` differ; paths only `observed` has are ignored. */
export function differences(kind: ResourceKind, spec: Body, body: Body): string[] {
  const want = flatten(kind.desired(spec));
  const have = flatten(kind.observed(body));
  return [...want].filter(([path, v]) => JSON.stringify(v) !== JSON.stringify(have.get(path))).map(([path]) => path);
}

/** How the engine would change a path: the longest updatable prefix; undefined forces a replace. */
export function methodFor(kind: ResourceKind, path: string): UpdateMethod | undefined {
  const keys = Object.keys(kind.updatable).filter((k) => path === k || path.startsWith(`${k}.`));
  const best = keys.sort((a, b) => b.length - a.length)[0];
  return best === undefined ? undefined : kind.updatable[best];
}

export interface Settled {
  body: Body | undefined;
  readiness: Readiness;
}

/** Polls `observe` until the operation is ready or failed (a gone object is a finished delete). */
export async function settle(kind: ResourceKind, ctx: KindContext, ref: ObjectRef, operation: Operation): Promise<Settled> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const body = await kind.observe(ctx, ref);
    if (body === undefined) {
      if (operation === "delete") return { body, readiness: "ready" };
      throw new Error(`${kind.noun} ${ref.id} disappeared while waiting for ${operation}`);
    }
    const readiness = kind.readiness(body, operation);
    if (readiness !== "pending") return { body, readiness };
    if (Date.now() > deadline) throw new Error(`${kind.noun} ${ref.id} still pending (${kind.stateOf(body)}) after ${operation}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Settles and insists on "ready", returning the body. */
export async function ready(kind: ResourceKind, ctx: KindContext, ref: ObjectRef, operation: Operation): Promise<Body> {
  const { body, readiness } = await settle(kind, ctx, ref, operation);
  if (readiness !== "ready") throw new Error(`${kind.noun} ${ref.id} ${operation} failed: ${JSON.stringify(readiness)}`);
  return body ?? {};
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** Runs `work` and returns the API requests the simulator saw meanwhile (token requests left out). */
export async function requestsDuring(t: TestSim, work: () => Promise<unknown>): Promise<LoggedRequest[]> {
  await t.call("DELETE", "/__sim/requests");
  await work();
  const log = (await t.call("GET", "/__sim/requests")).body as LoggedRequest[];
  return log.filter((r) => !r.path.startsWith("/oauth2/"));
}
