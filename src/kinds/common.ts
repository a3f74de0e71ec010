// Helpers every kind uses: 404 as "gone", readiness from a state table, and normalising values for
// comparison (numbers sent as strings, lists without order, absent versus default).

import { ApiError, searchAll } from "../api/index.js";
import { readPath } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import type { Body, KindContext, KindHandler, ObjectRef, Operation, Readiness, UpdateMethod } from "./types.js";

/** The key observeMany files an object under: its id, within its parent for nested kinds. */
export const refKey = (ref: ObjectRef): string => (ref.parent ? `${ref.parent}/${ref.id}` : ref.id);

export const isNotFound = (e: unknown): boolean => e instanceof ApiError && e.status === 404;

/** Runs a read; a 404 means the object is gone. */
export async function orGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Reads the object at `path`: undefined when the service no longer has it, by a 404 or by a state that means gone. */
export async function readUnlessGone(ctx: KindContext, path: string, isGone: (body: Body) => boolean): Promise<Body | undefined> {
  const body = await orGone(() => ctx.api.call<Body>("GET", path));
  return body === undefined || isGone(body) ? undefined : body;
}

/** The project a new top-level object goes in: the spec's, or the provider's. */
export const projectFor = (ctx: KindContext, spec: Body): unknown => spec.project ?? (ctx.provider.projectId ? { projectId: ctx.provider.projectId } : undefined);

/**
 * Sends a delete, idempotently. A 404 means the object is already gone. A 400 is how the service refuses
 * to delete what is already being deleted (a delete retried after a crash): when a fresh read finds the
 * object gone or `leaving`, that refusal is the outcome wanted too.
 */
export async function deleteIdempotently(remove: () => Promise<unknown>, reread: () => Promise<Body | undefined>, leaving: (body: Body) => boolean): Promise<void> {
  try {
    await remove();
  } catch (e) {
    if (isNotFound(e)) return;
    if (e instanceof ApiError && e.status === 400) {
      const now = await reread();
      if (now === undefined || leaving(now)) return;
    }
    throw e;
  }
}

/** A project id as a string: sample responses show it as a number, requests send a string. */
export function projectIdOf(project: unknown): string | undefined {
  if (project === null || typeof project !== "object") return undefined;
  const id = (project as Body).projectId;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** The uuid of an object the service answered with; its absence is a defect of the service's answer. */
export function uuidOf(body: Body, what: string): string {
  if (typeof body.uuid !== "string") throw new NetformError({ code: "api.unexpected_body", source: "internal", message: `${what}: the service's answer has no uuid` });
  return body.uuid;
}

export interface StateTable {
  /** States in which each operation is done. */
  done: Readonly<Record<Operation, readonly string[]>>;
  /** States that mean the operation failed. */
  failed: readonly string[];
}

/** Readiness from a state table; a state the table does not know is waited on, never a crash. */
export function readinessFrom(table: StateTable, state: string | undefined, operation: Operation, reason?: string): Readiness {
  if (state === undefined) return "pending";
  if (table.done[operation].includes(state)) return "ready";
  if (table.failed.includes(state)) return { failed: reason ? `${state}: ${reason}` : state };
  return "pending";
}

/** A number the API may send as a string ("200" for bfd.interval, remoteAsn). */
export function asNumber(v: unknown): unknown {
  if (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v))) return Number(v);
  return v;
}

/** A copy of `body` with only these top-level fields, leaving out those absent. */
export function pick(body: Body, fields: readonly string[]): Body {
  const out: Body = {};
  for (const f of fields) if (body[f] !== undefined && body[f] !== null) out[f] = body[f];
  return out;
}


/** Sorts a list of strings, for lists whose order the service does not keep. */
export const sortedStrings = (v: unknown): unknown => (Array.isArray(v) && v.every((x) => typeof x === "string") ? [...v].sort() : v);

/** Removes undefined and null members, deeply: an absent field and a null one compare equal. */
export function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== "object") return v;
  const out: Body = {};
  for (const k of Object.keys(v)) {
    const x = (v as Body)[k];
    if (x !== undefined && x !== null) out[k] = compact(x);
  }
  return out;
}

/** The largest page the Fabric searches allow: a search by uuid reads this many objects a request. */
export const SEARCH_PAGE = 100;

/**
 * Reads objects by uuid through a Fabric search endpoint (`/uuid IN [...]`, 100 uuids a request, and the
 * expressions `also` adds where the endpoint requires more), leaving out those `isGone` says are deleted.
 */
export async function searchByUuid(ctx: KindContext, searchPath: string, refs: readonly ObjectRef[], isGone: (body: Body) => boolean, also: readonly Body[] = []): Promise<Map<string, Body>> {
  const found = new Map<string, Body>();
  const ids = [...new Set(refs.map((r) => r.id))];
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += SEARCH_PAGE) batches.push(ids.slice(i, i + SEARCH_PAGE));
  await Promise.all(
    batches.map(async (values) => {
      const filter = { and: [{ property: "/uuid", operator: "IN", values }, ...also] };
      for await (const body of searchAll<Body>(ctx.api, searchPath, { filter }, { pageSize: SEARCH_PAGE })) {
        if (typeof body.uuid === "string" && !isGone(body)) found.set(body.uuid, body);
      }
    }),
  );
  return found;
}

/** The search condition for a project's objects. */
export const inProject = (projectId: string): Body => ({ property: "/project/projectId", operator: "=", values: [projectId] });

/**
 * The objects a Fabric search finds with the spec's name and type in its project (the provider's when the
 * spec names none), most recently updated first: where the object a create just made is found.
 */
export async function* sameNameAndType(ctx: KindContext, searchPath: string, spec: Body): AsyncGenerator<Body> {
  if (typeof spec.name !== "string") return;
  const projectId = projectIdOf(spec.project) ?? ctx.provider.projectId;
  const and = [
    { property: "/name", operator: "=", values: [spec.name] },
    { property: "/type", operator: "=", values: [String(spec.type)] },
    ...(projectId === undefined ? [] : [inProject(projectId)]),
  ];
  for await (const body of searchAll<Body>(ctx.api, searchPath, { filter: { and } }, { pageSize: SEARCH_PAGE })) {
    if (body.name !== spec.name || body.type !== spec.type) continue;
    if (projectId !== undefined && projectIdOf(body.project) !== projectId) continue;
    yield body;
  }
}

/**
 * The objects a Fabric search finds with the spec's name in its project (the provider's when the spec
 * names none); none when no project is known. The caller compares the rest of what identifies its kind.
 */
export async function* sameNameInProject(ctx: KindContext, searchPath: string, spec: Body): AsyncGenerator<Body> {
  const projectId = projectIdOf(spec.project) ?? ctx.provider.projectId;
  if (typeof spec.name !== "string" || projectId === undefined) return;
  const filter = { and: [inProject(projectId), { property: "/name", operator: "=", values: [spec.name] }] };
  yield* searchAll<Body>(ctx.api, searchPath, { filter }, { pageSize: SEARCH_PAGE });
}

/** A field the service's JSON patch replaces in place, and the patch path it replaces it at. */
export interface PatchPath {
  field: string;
  path: string;
}

/** Whether a changed leaf path lies in `field` (the field itself or below it). */
const covers = (field: string, path: string): boolean => path === field || path.startsWith(`${field}.`);

/** The `updatable` table of a kind whose in-place changes are exactly these patch paths. */
export const patchUpdatable = (patches: readonly PatchPath[]): Record<string, UpdateMethod> => Object.fromEntries(patches.map((p) => [p.field, { via: "patch", path: p.path }]));

/**
 * Sends one JSON patch replacing every changed field with its value in `wanted` (the desired form). A change
 * outside `patches` is a defect of the plan, which makes such a change a replace. With `dryRun`, the service
 * only checks the patch (where the operation takes dryRun=true), and nothing changes.
 */
export async function patchChanged(ctx: KindContext, url: string, what: string, patches: readonly PatchPath[], wanted: Body, changed: readonly string[], dryRun = false): Promise<void> {
  const uncovered = changed.filter((path) => !patches.some((p) => covers(p.field, path)));
  if (uncovered.length > 0) {
    throw new NetformError({ code: "internal.not_updatable", source: "internal", message: `${what}: ${uncovered.join(", ")} cannot change in place` });
  }
  const operations = patches.filter((p) => changed.some((path) => covers(p.field, path))).map((p) => ({ op: "replace", path: p.path, value: readPath(wanted, p.field) }));
  if (operations.length === 0) return;
  await ctx.api.call("PATCH", url, dryRun ? { query: { dryRun: true }, body: operations, readOnly: true } : { body: operations });
}

/**
 * When and by whom the service says an object was created: Fabric objects carry it in their change log,
 * network edge objects at the top level. Either is undefined where the object does not say.
 */
export function provenanceOf(body: Body): { createdAt?: string; createdBy?: string } {
  const log = body.changeLog !== null && typeof body.changeLog === "object" ? (body.changeLog as Body) : body;
  const createdAt = log.createdDateTime ?? log.createdDate;
  const createdBy = log.createdBy;
  return { ...(typeof createdAt === "string" ? { createdAt } : {}), ...(typeof createdBy === "string" ? { createdBy } : {}) };
}

/** Whether an object is being deleted, or is deleted but still readable: its state says so, whatever the kind. */
export const isLeaving = (kind: Pick<KindHandler, "stateOf">, body: Body): boolean => /DEPROVISION|DELET|DETACH/.test(kind.stateOf(body) ?? "");
