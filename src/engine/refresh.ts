// Refresh: reads from the service everything the state records (through list and search endpoints
// where a kind has them), resolves creates an earlier run left with an unknown outcome, and reads the
// objects that `import:` keys name. Read-only: what it learns is written by apply. Also the one rule of
// the configuration only the service can check: a BGP instance on a connection netform does not manage.

import { positionOf, type Configuration } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { resourceAt, type Refreshed } from "../plan/diff.js";
import type { Plan } from "../plan/types.js";
import { resolveSpec } from "../plan/resolve.js";
import { isUnknownValue } from "../plan/values.js";
import { refKey } from "../resources/common.js";
import type { ObjectRef } from "../resources/types.js";
import type { StateFile } from "../state/index.js";
import type { EventSink } from "./events.js";
import type { Session } from "./session.js";

export interface RefreshResult {
  refreshed: Map<string, Refreshed>;
  imports: Map<string, Refreshed>;
  requests: number;
}

export async function refresh(session: Session, state: StateFile, config: Configuration, emit: EventSink): Promise<RefreshResult> {
  const startCount = session.api.requestCount;
  const refreshed = new Map<string, Refreshed>();
  const entries = Object.entries(state.resources);
  emit({ type: "refresh_start", resources: entries.length });

  const byKind = new Map<string, Array<{ address: string; ref: ObjectRef }>>();
  for (const [address, recorded] of entries) {
    if (!recorded.id) continue;
    const list = byKind.get(recorded.kind) ?? [];
    list.push({ address, ref: { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) } });
    byKind.set(recorded.kind, list);
  }
  await Promise.all(
    [...byKind].map(async ([kindName, items]) => {
      const kind = session.kinds[kindName as keyof typeof session.kinds];
      if (!kind) throw new Error(`the state holds an object of unknown kind ${kindName}`);
      if (kind.observeMany) {
        const found = await kind.observeMany(session.ctx, items.map((i) => i.ref));
        for (const { address, ref } of items) {
          const body = found.get(refKey(ref));
          refreshed.set(address, body ? { status: "present", ...ref, body } : { status: "gone" });
        }
        return;
      }
      await Promise.all(
        items.map(async ({ address, ref }) => {
          const body = await kind.observe(session.ctx, ref);
          refreshed.set(address, body ? { status: "present", ...ref, body } : { status: "gone" });
        }),
      );
    }),
  );

  // Creates whose outcome is unknown (a crash, a timeout): find the object, or learn that there is none.
  await Promise.all(
    entries
      .filter(([, recorded]) => !recorded.id && recorded.pending?.operation === "create")
      .map(async ([address, recorded]) => {
        const kind = session.kinds[recorded.kind as keyof typeof session.kinds];
        const spec = recorded.pending?.lookup;
        const found = spec ? await kind.lookup(session.ctx, spec) : undefined;
        refreshed.set(address, found ? { status: "present", id: found.id, ...(found.parent ? { parent: found.parent } : {}), body: found.body } : { status: "absent" });
      }),
  );

  const imports = new Map<string, Refreshed>();
  await Promise.all(
    [...config.resources.values()]
      .filter((r) => r.import && !state.resources[r.address])
      .map(async (resource) => {
        const kind = session.kinds[resource.kind];
        const attribute = (address: string, attr: string) => {
          const body = refreshed.get(address);
          const value = body?.status === "present" ? body.body[attr] : state.resources[address]?.attributes[attr];
          return value === undefined ? undefined : { value };
        };
        const parent = kind.parentField ? resolveSpec(resource.spec, attribute).spec[kind.parentField] : undefined;
        const ref: ObjectRef = { id: resource.import!, ...(typeof parent === "string" && !isUnknownValue(parent) ? { parent } : {}) };
        const body = await kind.observe(session.ctx, ref);
        imports.set(resource.address, body ? { status: "present", ...ref, body } : { status: "gone" });
      }),
  );

  const requests = session.api.requestCount - startCount;
  emit({ type: "refresh_complete", resources: entries.length, requests });
  return { refreshed, imports, requests };
}

/**
 * The service refuses a BGP instance on a connection without a PROVISIONED DIRECT one (4.6). Validation
 * checks that for connections the configuration declares; a BGP instance to be created on an existing
 * connection named by its uuid, with no DIRECT instance declared beside it, is checked here against what
 * the connection has: one read per such connection, before anything is applied.
 */
export async function bgpWithoutDirect(session: Session, config: Configuration, plan: Plan): Promise<Diagnostic[]> {
  const literal = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : undefined);
  const protocols = [...config.resources.values()].filter((r) => r.kind === "routingProtocols");
  const declaredDirect = new Set(protocols.filter((r) => r.spec.type === "DIRECT").map((r) => literal(r.spec.connection)));
  const byConnection = new Map<string, typeof protocols>();
  for (const change of plan.changes) {
    const resource = resourceAt(config, change.address);
    if (change.action !== "create" || resource?.kind !== "routingProtocols" || resource.spec.type !== "BGP") continue;
    const connection = literal(resource.spec.connection);
    if (connection === undefined || declaredDirect.has(connection)) continue;
    byConnection.set(connection, [...(byConnection.get(connection) ?? []), resource]);
  }
  const diagnostics: Diagnostic[] = [];
  await Promise.all(
    [...byConnection].map(async ([connection, bgps]) => {
      const direct = await session.kinds.routingProtocols.lookup(session.ctx, { connection, type: "DIRECT" });
      const state = direct?.body.state;
      if (state === "PROVISIONED") return;
      for (const bgp of bgps) {
        const where = positionOf(bgp, ["connection"]);
        diagnostics.push({
          severity: "error",
          code: "plan.bgp-needs-direct",
          address: bgp.address,
          path: "connection",
          file: where.file,
          line: where.line,
          column: where.column,
          message: direct
            ? `the DIRECT routing protocol of connection ${connection} is ${String(state)}, and the service accepts ${bgp.address} (BGP) only over a PROVISIONED one`
            : `connection ${connection} has no DIRECT routing protocol, and the service refuses ${bgp.address} (BGP) without one`,
          hint: direct
            ? "plan again once it is PROVISIONED"
            : `declare a DIRECT instance on the same connection (type: DIRECT, connection: ${connection}, directIpv4.equinixIfaceIp in the BGP peer's subnet), or create it on the service first`,
        });
      }
    }),
  );
  return diagnostics;
}
