// The simulated world: every object the service holds, keyed by uuid, with its asynchronous
// transitions stored as timed phases. An object's state is computed when it is read (due phases are
// applied to a copy of its body), so transitions progress without timers and survive a restart of a
// persisted world. Every phase also produces a cloud event (section 6) stamped with the phase's time;
// events become visible once their time has passed.

import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync, fchmodSync } from "node:fs";
import { dirname } from "node:path";
import { Clock, iso } from "./clock.js";
import { Random } from "./random.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A change to an object's body that takes effect at `at` (epoch ms): JSON pointer -> value. */
export interface Phase {
  at: number;
  set: Record<string, Json>;
  /** The object disappears (reads give 404) once this phase is due. */
  gone?: boolean;
}

export interface SimObject {
  kind: string;
  uuid: string;
  /** The project that owns the object, for permission checks; absent for global catalogue objects. */
  projectId?: string;
  body: JsonObject;
  phases: Phase[];
  /** Simulator-private data that the API never returns (secrets, parent ids, counters). */
  meta: JsonObject;
  /** Hard-deleted at this time (reads give 404 from then on). */
  goneAt?: number;
}

export interface CloudEventRecord {
  id: string;
  time: number;
  type: string;
  subject: string;
  source: string;
  assetKind: string;
  assetUuid: string;
  projectId?: string;
  name?: string;
  state?: string;
  message: string;
  actor: string;
}

/** How a kind presents itself; registered by the area that owns the kind. */
export interface KindDef {
  /** Field that carries the lifecycle state, as a JSON pointer (e.g. "/state", "/status"). */
  statePath?: string;
  /** Cloud event type prefix, e.g. "equinix.fabric.connection". */
  eventType?: string;
  /** Resource path used as the cloud event subject, e.g. "/fabric/v4/connections/{uuid}". */
  subject?: (obj: SimObject) => string;
  /** Adds derived fields to the rendered body (counts, computed links). */
  render?: (body: JsonObject, obj: SimObject, world: World) => JsonObject;
}

export interface FaultSettings {
  errorRate?: number;
  errorStatuses?: number[];
  rateLimit?: { every: number; retryAfterS: number };
  latencyMs?: number;
  failTransitions?: { kind: string; count: number };
  /** Mutating requests that the service carries out and then answers 502 or never answers (the connection is reset). */
  afterActed?: AfterActedFault;
  seed?: number;
}

export interface AfterActedFault {
  answer: 502 | "reset";
  /** Requests hit: the next `count` matching ones, else each matching one with probability `rate`. */
  count?: number;
  rate?: number;
  /** Methods hit (default POST, PUT, PATCH, DELETE). */
  methods?: string[];
  /** Paths hit, `*` standing for one segment (default every path). */
  path?: string;
}

interface PersistedWorld {
  version: 1;
  randomState: number;
  objects: SimObject[];
  events: CloudEventRecord[];
}

export interface WorldOptions {
  speed?: number;
  seed?: number;
  dataFile?: string;
}

/** Reads a value at a JSON pointer ("/a/b/0"); undefined when absent. */
export function getPointer(doc: Json | undefined, pointer: string): Json | undefined {
  if (pointer === "" || pointer === "/") return doc;
  let cur: Json | undefined = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Array.isArray(cur) ? cur[Number(key)] : cur[key];
  }
  return cur;
}

/** Sets a value at a JSON pointer, creating intermediate objects. */
export function setPointer(doc: JsonObject, pointer: string, value: Json): void {
  const keys = pointer.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
  let cur: JsonObject | Json[] = doc;
  for (const [i, key] of keys.entries()) {
    const last = i === keys.length - 1;
    const container = cur as Record<string, Json>;
    if (last) {
      container[key] = value;
      return;
    }
    const next = container[key];
    if (next === null || typeof next !== "object") container[key] = {};
    cur = container[key] as JsonObject;
  }
}

/** Whether a JSON value nests deeper than `max` objects and arrays; without recursion, as it may be deep enough to overflow the stack. */
export function nestsDeeperThan(value: Json, max: number): boolean {
  const stack: Array<[Json, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return structuredClone(patch);
  const out: JsonObject = target !== null && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

export class World {
  readonly clock: Clock;
  readonly random: Random;
  readonly dataFile: string | undefined;
  private objects = new Map<string, SimObject>();
  private events: CloudEventRecord[] = [];
  private kinds = new Map<string, KindDef>();
  /** Transition failures still to inject, per kind (set through the faults control call). */
  pendingFailures = new Map<string, number>();
  private actors = new AsyncLocalStorage<string>();

  constructor(options: WorldOptions = {}) {
    this.clock = new Clock(options.speed ?? 1);
    this.random = new Random(options.seed ?? 1);
    this.dataFile = options.dataFile;
  }

  now(): number {
    return this.clock.now();
  }

  /** Who the current request acts as, for event attribution. */
  get actor(): string {
    return this.actors.getStore() ?? "system";
  }

  /** Runs `fn` (and everything it awaits) on behalf of `actor`. */
  runAs<T>(actor: string, fn: () => T): T {
    return this.actors.run(actor, fn);
  }

  nowIso(): string {
    return iso(this.now());
  }

  uuid(): string {
    return this.random.uuid();
  }

  defineKind(kind: string, def: KindDef): void {
    this.kinds.set(kind, def);
  }

  kindDef(kind: string): KindDef {
    return this.kinds.get(kind) ?? {};
  }

  // ── objects ──────────────────────────────────────────────────────────────────────────────

  create(kind: string, body: JsonObject, options: { uuid?: string; projectId?: string; meta?: JsonObject } = {}): SimObject {
    const uuid = options.uuid ?? (typeof body.uuid === "string" ? body.uuid : this.uuid());
    const obj: SimObject = {
      kind,
      uuid,
      ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
      body: structuredClone(body),
      phases: [],
      meta: options.meta ?? {},
    };
    this.objects.set(uuid, obj);
    return obj;
  }

  private alive(obj: SimObject, now: number): boolean {
    if (obj.goneAt !== undefined && obj.goneAt <= now) return false;
    return !obj.phases.some((p) => p.gone && p.at <= now);
  }

  /** The object with this uuid (of this kind, when given), or undefined when it does not exist (any more). */
  get(uuid: string, kind?: string): SimObject | undefined {
    const obj = this.objects.get(uuid);
    if (!obj || (kind && obj.kind !== kind) || !this.alive(obj, this.now())) return undefined;
    return obj;
  }

  list(kind: string): SimObject[] {
    const now = this.now();
    return [...this.objects.values()].filter((o) => o.kind === kind && this.alive(o, now));
  }

  /** The body as the API returns it now: due phases applied and derived fields added. */
  view(obj: SimObject): JsonObject {
    const now = this.now();
    const body = structuredClone(obj.body);
    for (const phase of obj.phases) {
      if (phase.at > now) break;
      for (const [pointer, value] of Object.entries(phase.set)) setPointer(body, pointer, structuredClone(value));
    }
    const def = this.kinds.get(obj.kind);
    return def?.render ? def.render(body, obj, this) : body;
  }

  /** The current value of the kind's state field. */
  stateOf(obj: SimObject): string | undefined {
    const pointer = this.kindDef(obj.kind).statePath;
    if (!pointer) return undefined;
    const value = getPointer(this.view(obj), pointer);
    return typeof value === "string" ? value : undefined;
  }

  /** Folds due phases into the stored body and drops them. */
  settle(obj: SimObject): void {
    const now = this.now();
    const due = obj.phases.filter((p) => p.at <= now);
    for (const phase of due) {
      for (const [pointer, value] of Object.entries(phase.set)) setPointer(obj.body, pointer, value);
      if (phase.gone) obj.goneAt = phase.at;
    }
    obj.phases = obj.phases.filter((p) => p.at > now);
  }

  /**
   * Starts an asynchronous transition: `immediate` applies now, each step after its (simulated) delay
   * from now. When a transition failure is pending for this kind, the last step is replaced by `failure`.
   * Any transition still in flight is superseded, as a new operation on the real service supersedes it.
   */
  transition(
    obj: SimObject,
    immediate: Record<string, Json>,
    steps: Array<{ afterMs: number; set: Record<string, Json>; gone?: boolean }>,
    failure?: Record<string, Json>,
  ): void {
    this.settle(obj);
    obj.phases = [];
    const now = this.now();
    this.apply(obj, { at: now, set: immediate });
    let planned = steps;
    const failuresLeft = this.pendingFailures.get(obj.kind) ?? 0;
    if (failure && failuresLeft > 0 && steps.length > 0) {
      this.pendingFailures.set(obj.kind, failuresLeft - 1);
      const last = steps[steps.length - 1]!;
      planned = [...steps.slice(0, -1), { afterMs: last.afterMs, set: failure }];
    }
    for (const step of planned) {
      const phase: Phase = { at: now + this.clock.scale(step.afterMs), set: step.set, ...(step.gone ? { gone: true } : {}) };
      obj.phases.push(phase);
      this.recordStateEvent(obj, phase);
    }
    obj.phases.sort((a, b) => a.at - b.at);
  }

  /** Changes the body at once (an accepted update), recording the state event if the state moved. */
  apply(obj: SimObject, phase: Phase): void {
    for (const [pointer, value] of Object.entries(phase.set)) setPointer(obj.body, pointer, value);
    if (phase.gone) obj.goneAt = phase.at;
    this.recordStateEvent(obj, phase);
  }

  /** Removes an object at once (an out-of-band deletion, or a kind that the service drops on delete). */
  remove(obj: SimObject): void {
    obj.goneAt = this.now();
    this.recordEvent(obj, "deleted", this.now(), "removed");
  }

  // ── cloud events ─────────────────────────────────────────────────────────────────────────

  private recordStateEvent(obj: SimObject, phase: Phase): void {
    const statePath = this.kindDef(obj.kind).statePath;
    const state = statePath ? phase.set[statePath] : undefined;
    if (typeof state === "string") this.recordEvent(obj, "state", phase.at, `state changed to ${state}`, state);
    else if (phase.gone) this.recordEvent(obj, "deleted", phase.at, "removed");
  }

  recordEvent(obj: SimObject, action: string, at: number, message: string, state?: string): CloudEventRecord {
    const def = this.kindDef(obj.kind);
    const name = obj.body.name ?? obj.body.virtualDeviceName ?? obj.body.configName;
    const event: CloudEventRecord = {
      id: this.uuid(),
      time: at,
      type: `${def.eventType ?? `equinix.simulator.${obj.kind}`}.${action}`,
      subject: def.subject ? def.subject(obj) : `/${obj.kind}/${obj.uuid}`,
      source: "https://api.equinix.com",
      assetKind: obj.kind,
      assetUuid: obj.uuid,
      ...(obj.projectId === undefined ? {} : { projectId: obj.projectId }),
      ...(typeof name === "string" ? { name } : {}),
      ...(state === undefined ? {} : { state }),
      message,
      actor: this.actor,
    };
    this.events.push(event);
    return event;
  }

  /** Events whose time has come, oldest first. */
  visibleEvents(): CloudEventRecord[] {
    const now = this.now();
    return this.events.filter((e) => e.time <= now).sort((a, b) => a.time - b.time);
  }

  // ── persistence ──────────────────────────────────────────────────────────────────────────

  /** Writes the world to its data file atomically (temporary file, fsync, rename). */
  save(): void {
    if (!this.dataFile) return;
    const data: PersistedWorld = {
      version: 1,
      randomState: this.random.snapshot(),
      objects: [...this.objects.values()],
      events: this.events,
    };
    mkdirSync(dirname(this.dataFile), { recursive: true, mode: 0o700 });
    const tmp = `${this.dataFile}.${process.pid}.tmp`;
    // The world holds what clients sent, secrets included (BGP keys, VPN keys): only its owner reads it.
    const fd = openSync(tmp, "w", 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeFileSync(fd, JSON.stringify(data));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.dataFile);
  }

  /** Loads a persisted world; false when the file does not exist. */
  load(): boolean {
    if (!this.dataFile) return false;
    let text: string;
    try {
      text = readFileSync(this.dataFile, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw e;
    }
    const data = JSON.parse(text) as PersistedWorld;
    if (data.version !== 1) throw new Error(`${this.dataFile}: unsupported simulator world version ${String(data.version)}`);
    this.objects = new Map(data.objects.map((o) => [o.uuid, o]));
    this.events = data.events;
    this.random.restore(data.randomState);
    return true;
  }

  /** Forgets everything (before re-seeding). */
  clear(): void {
    this.objects.clear();
    this.events = [];
    this.pendingFailures.clear();
  }

  /** Every object, alive or not, for the control API's listing. */
  allObjects(): SimObject[] {
    return [...this.objects.values()];
  }
}
