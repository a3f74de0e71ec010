// Refresh: reads from the service everything the state records (through list and search endpoints
// where a kind has them), resolves creates an earlier run left with an unknown outcome, and reads the
// objects that `import:` keys name. Read-only: what it learns is written by apply, so an interrupt
// abandons it at once.

import { resourceAt, type Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import type { Refreshed } from "../plan/diff.js";
import { lookupFrom, resolveSpec } from "../plan/resolve.js";
import { isUnknownValue } from "../plan/values.js";
import { refKey } from "../kinds/common.js";
import type { ObjectRef } from "../kinds/index.js";
import type { ResourceState, StateFile } from "../state/index.js";
import { describeFound, whyNotOurs } from "./adoption.js";
import type { EventSink } from "./events.js";
import { throwIfInterrupted, unlessInterrupted } from "./interrupt.js";
import type { Session } from "./session.js";

export interface RefreshResult {
  refreshed: Map<string, Refreshed>;
  imports: Map<string, Refreshed>;
  requests: number;
}

export async function refresh(session: Session, state: StateFile, config: Configuration, emit: EventSink, signal?: AbortSignal): Promise<RefreshResult> {
  const startCount = session.api.requestCount;
  const entries = Object.entries(state.resources);
  emit({ type: "refresh_start", resources: entries.length });
  const { refreshed, imports } = await unlessInterrupted(readAll(session, state, config, signal), signal);
  const requests = session.api.requestCount - startCount;
  emit({ type: "refresh_complete", resources: entries.length, requests });
  return { refreshed, imports, requests };
}

/**
 * The objects the state's other addresses hold, by `refKey` (the id, within its parent for nested kinds: an
 * attachment's id is its policy's): a lookup for `address` must not adopt one of them. Without `address`,
 * every object the state records: what a lookup for an address with no id recorded must not adopt.
 */
export function ownedByOthers(resources: Readonly<Record<string, ResourceState>>, address?: string): ReadonlySet<string> {
  return new Set(Object.entries(resources).flatMap(([other, recorded]) => (other !== address && recorded.id ? [refKey({ id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) })] : [])));
}

async function readAll(session: Session, state: StateFile, config: Configuration, signal: AbortSignal | undefined): Promise<Omit<RefreshResult, "requests">> {
  const refreshed = new Map<string, Refreshed>();
  const entries = Object.entries(state.resources);

  const byKind = new Map<string, Array<{ address: string; ref: ObjectRef }>>();
  for (const [address, recorded] of entries) {
    if (!recorded.id) continue;
    const list = byKind.get(recorded.kind) ?? [];
    list.push({ address, ref: { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) } });
    byKind.set(recorded.kind, list);
  }
  await Promise.all(
    [...byKind].map(async ([kindName, items]) => {
      const kind = session.kinds.get(kindName);
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

  // Once abandoned, the reads stop at the next phase rather than run on for no one.
  throwIfInterrupted(signal);

  // Creates whose outcome is unknown (a crash, a timeout): find the object, or learn that there is none.
  const unresolved = entries.filter(([, recorded]) => !recorded.id && recorded.pending?.operation === "create");
  const identity = unresolved.length > 0 ? await session.api.identity() : undefined;
  // None of them has an id recorded, so what the others own is the same for each: made once (a run stopped
  // in a wave of creates leaves thousands).
  const owned = unresolved.length > 0 ? ownedByOthers(state.resources) : new Set<string>();
  await Promise.all(
    unresolved.map(async ([address, recorded]) => {
      const kind = session.kinds.get(recorded.kind);
      const spec = recorded.pending?.lookup;
      if (!kind) return;
      const found = spec ? await kind.lookup(session.ctx, spec, owned) : undefined;
      if (!found) {
        refreshed.set(address, { status: "absent" });
        return;
      }
      const resource = resourceAt(config, address);
      const why = spec ? whyNotOurs(kind, resource, spec, found, { since: recorded.pending!.startedAt, identity, owned }) : undefined;
      refreshed.set(address, why ? { status: "foreign", id: found.id, description: describeFound(kind, found), why } : { status: "present", id: found.id, ...(found.parent ? { parent: found.parent } : {}), body: found.body });
    }),
  );

  throwIfInterrupted(signal);
  return { refreshed, imports: await readImports(session, state, config, refreshed) };
}

/**
 * --refresh=false: the objects as the state last recorded them, with no read of any of them. Only the
 * objects `import:` keys name are read, as they are not managed yet and the state knows nothing of them.
 */
export async function fromState(session: Session, state: StateFile, config: Configuration, signal?: AbortSignal): Promise<RefreshResult> {
  const startCount = session.api.requestCount;
  const refreshed = new Map<string, Refreshed>();
  for (const [address, recorded] of Object.entries(state.resources)) {
    if (!recorded.id && recorded.pending?.operation === "create") {
      throw new NetformError({
        code: "plan.refresh-needed",
        message: `--refresh=false cannot plan ${address}: an earlier run's create of it has an unknown outcome, and only a read of the service can tell whether the object exists`,
        hint: "run once without --refresh=false (netform plan) so that the object is found or known to be missing",
      });
    }
    if (recorded.id) refreshed.set(address, { status: "present", id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}), body: recorded.attributes });
  }
  const imports = await unlessInterrupted(readImports(session, state, config, refreshed), signal);
  return { refreshed, imports, requests: session.api.requestCount - startCount };
}

async function readImports(session: Session, state: StateFile, config: Configuration, refreshed: ReadonlyMap<string, Refreshed>): Promise<Map<string, Refreshed>> {
  const imports = new Map<string, Refreshed>();
  await Promise.all(
    [...config.resources.values()]
      .filter((r) => r.import && !state.resources[r.address])
      .map(async (resource) => {
        const kind = session.kinds.get(resource.kind)!;
        const parent = kind.parentField ? resolveSpec(resource.spec, lookupFrom(state, refreshed)).spec[kind.parentField] : undefined;
        const ref: ObjectRef = { id: resource.import!, ...(typeof parent === "string" && !isUnknownValue(parent) ? { parent } : {}) };
        const body = await kind.observe(session.ctx, ref);
        imports.set(resource.address, body ? { status: "present", ...ref, body } : { status: "gone" });
      }),
  );
  return imports;
}
