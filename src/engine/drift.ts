// Drift detection: refresh everything the state records and report, per address, the fields that
// changed outside netform (old and new values, and who changed them and when, from the object's change
// log or its cloud events), the objects deleted outside netform, and the objects the configuration
// declares that do not exist. Known noise is silenced by lifecycle.ignoreChanges and by patterns in a
// `.netformignore` file beside the configuration.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expandBlockAddresses, readPath, resourceAt, secretsAt, SENSITIVE_TEXT } from "../config/index.js";
import { compareFields, withOmissionsFilled } from "../plan/diff.js";
import type { DriftEntry, DriftReport, DriftedField } from "../plan/drift.js";
import { lookupFrom, resolveSpec, type AttributeLookup } from "../plan/resolve.js";
import { UNKNOWN_TEXT } from "../plan/types.js";
import { leaves, sameValue } from "../plan/values.js";
import type { Body, ObjectRef } from "../kinds/index.js";
import type { ResourceState } from "../state/index.js";
import type { EventSink } from "./events.js";
import { unlessInterrupted } from "./interrupt.js";
import { NEVER_APPLIED } from "./records.js";
import { refresh } from "./refresh.js";
import type { Run } from "./run.js";
import { isDefaultWorkspace } from "./workspaces.js";

export const IGNORE_FILE = ".netformignore";

/**
 * Patterns of `.netformignore`, one per line: `KIND.NAME` silences an object, `KIND.NAME.FIELD.PATH` one
 * field of it (and everything under it); `*` stands for any kind or name. `#` starts a comment.
 */
export class IgnoreRules {
  constructor(private readonly patterns: ReadonlyArray<{ address: RegExp; field?: string }>) {}

  static read(directory: string): IgnoreRules {
    const file = join(directory, IGNORE_FILE);
    if (!existsSync(file)) return new IgnoreRules([]);
    return IgnoreRules.parse(readFileSync(file, "utf8"));
  }

  static parse(text: string): IgnoreRules {
    const patterns = text
      .split("\n")
      .map((l) => l.replace(/#.*/, "").trim())
      .filter(Boolean)
      .map((line) => {
        const [kind = "*", name = "*", ...field] = line.split(".");
        const part = (p: string) => (p === "*" ? "[^.]+" : p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^.]*"));
        return { address: new RegExp(`^${part(kind)}\\.${part(name)}$`), ...(field.length ? { field: field.join(".") } : {}) };
      });
    return new IgnoreRules(patterns);
  }

  ignoresObject(address: string): boolean {
    return this.patterns.some((p) => !p.field && p.address.test(address));
  }

  ignoresField(address: string, path: string): boolean {
    return this.patterns.some((p) => p.field !== undefined && p.address.test(address) && (path === p.field || path.startsWith(`${p.field}.`)));
  }
}

interface Changer {
  by?: string;
  at?: string;
}

/** Who last changed an object, from its own audit fields (Fabric changeLog, or the device service's). */
function changerFromBody(body: Body): Changer | undefined {
  const log = (body.changeLog ?? body.changelog) as Body | undefined;
  const by = (log?.updatedBy ?? body.lastUpdatedBy) as string | undefined;
  const at = (log?.updatedDateTime ?? body.lastUpdatedDate) as string | undefined;
  return by || at ? { ...(by ? { by } : {}), ...(at ? { at } : {}) } : undefined;
}

/** Who last acted on an object, from its most recent cloud event (the only record of a deletion). */
async function changerFromEvents(run: Run, kind: string, ref: ObjectRef): Promise<Changer | undefined> {
  const subject = run.session.kinds.get(kind)?.eventSubject(ref);
  if (!subject) return undefined;
  try {
    const found = await run.session.api.call<{ data?: Array<{ time?: string; authid?: string; data?: { auth?: { name?: string } } }> }>("POST", "/fabric/v4/cloudevents/search", {
      body: { filter: { and: [{ property: "/subject", operator: "IN", values: [`${subject}*`] }] }, pagination: { offset: 0, limit: 100 } },
      readOnly: true,
    });
    const latest = [...(found.data ?? [])].sort((a, b) => String(b.time).localeCompare(String(a.time)))[0];
    if (!latest) return undefined;
    const by = latest.authid ?? latest.data?.auth?.name;
    return { ...(by ? { by } : {}), ...(latest.time ? { at: latest.time } : {}) };
  } catch {
    // Events are an extra: a service (or a caller) without access to them still gets the drift itself.
    return undefined;
  }
}

function changedFields(run: Run, address: string, recorded: ResourceState, body: Body, ignore: IgnoreRules): DriftedField[] {
  const kind = run.session.kinds.get(recorded.kind);
  if (!kind) return [];
  const resource = resourceAt(run.config, address);
  const secrets = secretsAt(run.config, address, recorded.kind);
  const ignoredByLifecycle = resource?.lifecycle.ignoreChanges ?? [];
  const silenced = (path: string) => ignoredByLifecycle.some((i) => path === i || path.startsWith(`${i}.`)) || ignore.ignoresField(address, path);
  const before = kind.observed(recorded.attributes);
  // A field real answers may leave out (a device's ACL template in the list's answer) is no change when
  // an answer leaves it out: that answer says nothing of it.
  const after = withOmissionsFilled(kind.mayOmit ?? [], before, kind.observed(body)).filled;
  const paths = new Set([...leaves(before).keys(), ...leaves(after).keys()]);
  const fields: DriftedField[] = [];
  for (const path of [...paths].sort()) {
    // The state holds no secret, only its hash: secrets are compared below, by hash.
    if (silenced(path) || secrets.holdsSecret(path)) continue;
    const was = readPath(before, path);
    const now = readPath(after, path);
    if (!sameValue(was, now)) fields.push({ path, before: was, after: now });
  }
  for (const [path, hash] of Object.entries(recorded.sensitiveHashes)) {
    if (silenced(path) || hash === NEVER_APPLIED) continue;
    // A returned secret that an answer leaves out is not read as removed: the answer says nothing of it.
    const answered = readPath(body, path);
    const returned = kind.returnedSecrets?.covers(path)
      ? answered === undefined || answered === null
        ? undefined
        : { value: answered }
      : readPath(before, path) !== undefined
        ? { value: readPath(after, path) }
        : undefined;
    if (returned && !run.hash.matches(hash, returned.value)) fields.push({ path, before: SENSITIVE_TEXT, after: returned.value === undefined || returned.value === null ? undefined : SENSITIVE_TEXT, sensitive: true });
  }
  return fields.sort((a, b) => a.path.localeCompare(b.path));
}

/** The fields where the service differs from the configuration, service -> configuration; undefined when not configured. */
function unappliedFields(run: Run, lookup: AttributeLookup, address: string, recorded: ResourceState, body: Body, ignore: IgnoreRules): DriftedField[] | undefined {
  const resource = resourceAt(run.config, address);
  if (!resource) return undefined;
  const { spec } = resolveSpec(resource.spec, lookup);
  const { changes } = compareFields(resource, run.session.kinds.get(resource.kind)!, spec, body, recorded, run.hash);
  return changes
    .filter((c) => !ignore.ignoresField(address, c.path))
    .map((c) => (c.sensitive ? { path: c.path, before: "(sensitive)", after: "(sensitive)", sensitive: true } : { path: c.path, before: c.before, after: c.unknown ? UNKNOWN_TEXT : c.after }));
}

/** `only`: the addresses to check (--target); all when absent. */
export async function detectDrift(run: Run, emit: EventSink, ignore: IgnoreRules, only?: ReadonlySet<string>): Promise<DriftReport> {
  const state = run.store.snapshot();
  // References resolve against the state as recorded: one lookup for every resource, not a copy of the state each.
  const lookup = lookupFrom(state);
  const checked = only && new Set(expandBlockAddresses([...only], Object.keys(state.resources)));
  const { refreshed, requests } = await refresh(run.session, state, run.config, emit, run.signal);
  const before = run.session.api.requestCount;
  const entries: DriftEntry[] = [];
  await unlessInterrupted(
    Promise.all(
      Object.entries(state.resources).map(async ([address, recorded]) => {
        if (ignore.ignoresObject(address) || !recorded.id || (checked && !checked.has(address))) return;
        const ref: ObjectRef = { id: recorded.id, ...(recorded.parent ? { parent: recorded.parent } : {}) };
        const fresh = refreshed.get(address);
        if (fresh?.status !== "present") {
          const changer = await changerFromEvents(run, recorded.kind, ref);
          entries.push({ address, kind: recorded.kind, id: recorded.id, status: "deleted", fields: [], ...(changer?.by ? { changedBy: changer.by } : {}), ...(changer?.at ? { changedAt: changer.at } : {}), differsFromConfiguration: resourceAt(run.config, address) !== undefined });
          return;
        }
        const fields = changedFields(run, address, recorded, fresh.body, ignore);
        const unapplied = unappliedFields(run, lookup, address, recorded, fresh.body, ignore);
        if (fields.length === 0) {
          // The state already records the change (a refresh-only run did): the service still differs from the configuration.
          if (unapplied?.length) entries.push({ address, kind: recorded.kind, id: recorded.id, status: "unapplied", fields: unapplied, differsFromConfiguration: true });
          return;
        }
        const changer = changerFromBody(fresh.body) ?? (await changerFromEvents(run, recorded.kind, ref));
        entries.push({
          address,
          kind: recorded.kind,
          id: recorded.id,
          status: "changed",
          fields,
          ...(changer?.by ? { changedBy: changer.by } : {}),
          ...(changer?.at ? { changedAt: changer.at } : {}),
          differsFromConfiguration: unapplied === undefined || unapplied.length > 0,
        });
      }),
    ),
    run.signal,
  );
  for (const resource of run.config.resources.values()) {
    if (state.resources[resource.address] || ignore.ignoresObject(resource.address) || (only && !only.has(resource.address))) continue;
    entries.push({ address: resource.address, kind: resource.kind, status: "missing", fields: [], differsFromConfiguration: true });
  }
  entries.sort((a, b) => a.address.localeCompare(b.address));
  const count = (s: DriftEntry["status"]) => entries.filter((e) => e.status === s).length;
  return {
    formatVersion: 1,
    checkedAt: new Date().toISOString(),
    ...(isDefaultWorkspace(run.workspace) ? {} : { workspace: run.workspace.name }),
    entries,
    summary: { changed: count("changed"), deleted: count("deleted"), missing: count("missing"), unapplied: count("unapplied") },
    requestCount: requests + run.session.api.requestCount - before,
  };
}
