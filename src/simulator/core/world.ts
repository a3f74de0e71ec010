// The simulated world: every object the service holds, keyed by uuid, with its asynchronous
// transitions stored as timed phases. An object's state is computed when it is read (due phases are
// applied over its body), so transitions progress without timers and survive a restart of a persisted
// world. Every phase also produces a cloud event (section 6) stamped with the phase's time; events
// become visible once their time has passed.
//
// Each request must cost the same in a world of ten objects or ten thousand: bodies and metadata are
// stored deep-frozen and replaced on change (copy-on-write), so a read shares them instead of copying;
// objects are kept per kind, and areas declare indexes for the lookups their rules make (a VLAN per
// port, a parent's children) instead of scanning a kind, tallies for the sums and counts they need (the
// bandwidth a port's connections use) instead of adding them up on each request, and orders for the
// sorts that searches read a page of.

import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync } from "node:fs";
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
  /** Paths the errors hit, `*` standing for one segment and a final `**` for the rest (default every path). */
  errorPath?: string;
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

type PersistedWorld = { version: 1; randomState: number; objects: SimObject[]; events: CloudEventRecord[] } | {
  version: 2;
  /** The last log record the snapshot holds. */
  seq: number;
  randomState: number;
  objects: SimObject[];
  events: CloudEventRecord[];
};

/** One save in the data file's log: what one request changed. */
interface LogRecord {
  seq: number;
  randomState: number;
  objects: SimObject[];
  events: CloudEventRecord[];
}

/** The log is folded into a new snapshot once it is larger than the snapshot times this... */
const LOG_TO_SNAPSHOT_RATIO = 1;
/** ...and larger than this, so that a small world is not rewritten every few requests. */
const MIN_LOG_BYTES_BEFORE_SNAPSHOT = 256 * 1024;

export const logFileOf = (dataFile: string): string => `${dataFile}.log`;

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** Writes and fsyncs a file only its owner may read: the world holds what clients sent, secrets included (BGP keys, VPN keys). */
function writePrivateFile(path: string, text: string): void {
  const fd = openSync(path, "w", 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface WorldOptions {
  speed?: number;
  seed?: number;
  dataFile?: string;
}

/**
 * A copy of a JSON value that shares nothing with it. The simulator copies a body on every change and
 * for every phase to come; structuredClone, built for any value, takes about ten times as long.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/** Freezes a JSON value and everything in it, so that a shared snapshot cannot be changed by whoever reads it. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) stack.push(child);
  }
  return value;
}

/** Keys under which an index files an object, computed from a body (with or without its pending phases). */
export type IndexKeys = (body: JsonObject, obj: SimObject) => Iterable<string>;

/** What an object adds to a tally, per key, computed from its body as the API shows it (due phases applied). */
export type TallyAmounts = (body: JsonObject, obj: SimObject) => Iterable<readonly [string, number]>;

/** Reads a value at a JSON pointer ("/a/b/0"); undefined when absent. */
export function getPointer(doc: Json | undefined, pointer: string): Json | undefined {
  if (pointer === "" || pointer === "/") return doc;
  let cur: Json | undefined = doc;
  for (const key of pointerKeys(pointer)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Array.isArray(cur) ? cur[Number(key)] : cur[key];
  }
  return cur;
}

/** A reader of one JSON pointer, parsed once: for reading the same pointer from many objects. */
export function pointerReader(pointer: string): (doc: Json | undefined) => Json | undefined {
  if (pointer === "" || pointer === "/") return (doc) => doc;
  const keys = parsePointer(pointer);
  return (doc) => {
    let cur: Json | undefined = doc;
    for (const key of keys) {
      if (cur === null || typeof cur !== "object") return undefined;
      cur = Array.isArray(cur) ? cur[Number(key)] : cur[key];
    }
    return cur;
  };
}

function parsePointer(pointer: string): string[] {
  return pointer.split("/").slice(1).map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Searches and sorts read the same few pointers from thousands of objects: each is parsed once. */
const parsedPointers = new Map<string, string[]>();
const MAX_PARSED_POINTERS = 10_000;

function pointerKeys(pointer: string): string[] {
  let keys = parsedPointers.get(pointer);
  if (!keys) {
    keys = parsePointer(pointer);
    // Pointers come from requests too: the cache must not grow with what clients send.
    if (parsedPointers.size >= MAX_PARSED_POINTERS) parsedPointers.clear();
    parsedPointers.set(pointer, keys);
  }
  return keys;
}

/** Sets a value at a JSON pointer, creating intermediate objects. */
export function setPointer(doc: JsonObject, pointer: string, value: Json): void {
  const keys = parsePointer(pointer);
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

/**
 * `body` with each of `sets` (pointer -> value) applied in turn, as `setPointer` on a copy of it gives,
 * copying only the objects and arrays along the pointers: the rest is shared with `body`, which therefore
 * must not change afterwards (stored bodies are frozen). A transition sets a few fields of a large body.
 */
export function withSets(body: JsonObject, sets: Iterable<Record<string, Json>>): JsonObject {
  const root: JsonObject = { ...body };
  const copies = new Set<Json>([root]);
  for (const set of sets) {
    for (const [pointer, value] of Object.entries(set)) {
      const keys = pointerKeys(pointer);
      if (keys.length === 0) continue;
      let container = root as Record<string, Json>;
      for (const key of keys.slice(0, -1)) {
        const next = container[key];
        let own: Json;
        if (next === null || next === undefined || typeof next !== "object") own = {};
        else if (copies.has(next)) own = next;
        else own = Array.isArray(next) ? next.slice() : { ...next };
        if (own !== next) {
          container[key] = own;
          copies.add(own);
        }
        container = own as Record<string, Json>;
      }
      container[keys[keys.length - 1]!] = value;
    }
  }
  return root;
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
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return cloneJson(patch);
  const out: JsonObject = target !== null && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

interface Index {
  keysOf: IndexKeys;
  entries: Map<string, Set<SimObject>>;
}

/**
 * A running sum per key. An object whose phases are all due adds a fixed amount, kept in `totals` until the
 * object changes; one with phases to come adds what its body says at the time of reading, so it is only
 * filed in `moving` and its amount is worked out then (there are as many as transitions in flight).
 */
interface Tally {
  amountsOf: TallyAmounts;
  totals: Map<string, number>;
  moving: Map<string, Set<SimObject>>;
}

/** An object's place in an order: the text it is ordered by, then where `list` puts it. */
interface OrderEntry {
  obj: SimObject;
  text: string;
  listed: number;
}

/**
 * The live objects of a kind kept in the order of a text of their bodies. As in a tally, objects with phases
 * to come are kept apart and placed when the order is read; so are those whose value cannot be ordered as
 * text, whose presence makes the order unusable.
 */
interface Order {
  textOf: (body: JsonObject) => string | undefined;
  entries: OrderEntry[];
  /** Under the key "": objects with phases to come, and objects whose value is not text. */
  moving: Map<string, Set<SimObject>>;
  unordered: Map<string, Set<SimObject>>;
}

/** Where an object is filed: a set of an index (or of a tally or order), an amount in a tally's total, or a place in an order. */
type Filing =
  | { sets: Map<string, Set<SimObject>>; key: string }
  | { totals: Map<string, number>; key: string; amount: number }
  | { order: Order; entry: OrderEntry };

/** Entries before `entry` (by text, then listing) in an order's entries. */
function entriesBefore(entries: OrderEntry[], entry: { text: string; listed: number }): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const e = entries[mid]!;
    if (e.text < entry.text || (e.text === entry.text && e.listed < entry.listed)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Entries whose text is before `text`. */
function textsBefore(entries: OrderEntry[], text: string, end: number): number {
  let low = 0;
  let high = end;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (entries[mid]!.text < text) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** An order's entries by text descending, those of one text in listing order (as a stable sort puts them). */
function* descending(entries: OrderEntry[]): Generator<OrderEntry> {
  for (let end = entries.length; end > 0; ) {
    const start = textsBefore(entries, entries[end - 1]!.text, end);
    for (let i = start; i < end; i++) yield entries[i]!;
    end = start;
  }
}

/** Two sequences, each in order, merged. */
function* merged(a: Iterator<OrderEntry>, b: Iterator<OrderEntry>, before: (x: OrderEntry, y: OrderEntry) => boolean): Generator<OrderEntry> {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && before(x.value, y.value))) {
      yield x.value;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}

/** A body with its due phases applied, kept while neither the body nor the phases change. */
interface PhasedView {
  body: JsonObject;
  phases: Phase[];
  due: number;
  view: JsonObject;
}

export class World {
  readonly clock: Clock;
  readonly random: Random;
  readonly dataFile: string | undefined;
  private objects = new Map<string, SimObject>();
  /** The objects of each kind not yet seen gone: what `list` walks. */
  private byKind = new Map<string, Map<string, SimObject>>();
  /** Per kind, per index name. */
  private indexes = new Map<string, Map<string, Index>>();
  /** Per kind, per tally name. */
  private tallies = new Map<string, Map<string, Tally>>();
  /** Where in which index, tally or order each object is filed, to take it out when it changes. */
  private filed = new WeakMap<SimObject, Filing[]>();
  private phased = new WeakMap<SimObject, PhasedView>();
  /** Creation order, so that a lookup lists what it finds in the order `list` would. */
  private ordinals = new WeakMap<SimObject, number>();
  private created = 0;
  /** Per kind, per order name. */
  private orders = new Map<string, Map<string, Order>>();
  /** Where each object comes in `list` (a replaced object comes last), which breaks ties in an order. */
  private listings = new WeakMap<SimObject, number>();
  private listed = 0;
  /** Objects changed since the world was last written to its data file. */
  private unsaved = new Set<SimObject>();
  /** How many of `events` the data file holds. */
  private savedEvents = 0;
  /** The last log record written or replayed. */
  private seq = 0;
  private snapshotBytes = 0;
  private logBytes = 0;
  /** The world was cleared: the next save writes it whole. */
  private snapshotDue = false;
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

  /**
   * Keeps the objects of `kind` filed under `keysOf` of their body, so that `lookup` finds them without a
   * scan. An object with pending phases is also filed under the keys of its body as each is applied, so
   * a lookup may return objects that no longer (or do not yet) match: callers check what they find.
   */
  defineIndex(kind: string, name: string, keysOf: IndexKeys): void {
    let ofKind = this.indexes.get(kind);
    if (!ofKind) this.indexes.set(kind, (ofKind = new Map()));
    ofKind.set(name, { keysOf, entries: new Map() });
    for (const obj of this.byKind.get(kind)?.values() ?? []) this.refile(obj);
  }

  /**
   * Keeps, for each key, the sum of what `amountsOf` gives for the live objects of `kind`, so that `tally`
   * reads it without a scan. An object with pending phases is filed under the keys of its body as each is
   * applied, and what it adds is read from its body when the tally is.
   */
  defineTally(kind: string, name: string, amountsOf: TallyAmounts): void {
    let ofKind = this.tallies.get(kind);
    if (!ofKind) this.tallies.set(kind, (ofKind = new Map()));
    ofKind.set(name, { amountsOf, totals: new Map(), moving: new Map() });
    for (const obj of this.byKind.get(kind)?.values() ?? []) this.refile(obj);
  }

  /** What the live objects of `kind` add to `key` of tally `name` now. */
  tally(kind: string, name: string, key: string): number {
    const tally = this.tallies.get(kind)?.get(name);
    if (!tally) throw new Error(`no tally ${name} on ${kind}`);
    const now = this.now();
    const moving = tally.moving.get(key);
    // Those whose phases have all come since they were filed have a fixed amount now: into the totals.
    if (moving) for (const obj of [...moving]) if (!this.pending(obj, now)) this.refile(obj);
    let sum = tally.totals.get(key) ?? 0;
    for (const obj of tally.moving.get(key) ?? []) {
      if (!this.alive(obj, now)) continue;
      for (const [at, amount] of tally.amountsOf(this.phasedBody(obj, now), obj)) if (at === key) sum += amount;
    }
    return sum;
  }

  /**
   * Keeps the live objects of `kind` in the order of `textOf` their body, so that a search sorted that way
   * reads the first ones without a scan. `textOf` gives undefined for a value that does not order as text
   * (a number is ordered as one): the order is not offered while an object has one.
   */
  defineOrder(kind: string, name: string, textOf: (body: JsonObject) => string | undefined): void {
    let ofKind = this.orders.get(kind);
    if (!ofKind) this.orders.set(kind, (ofKind = new Map()));
    ofKind.set(name, { textOf, entries: [], moving: new Map(), unordered: new Map() });
    for (const obj of this.byKind.get(kind)?.values() ?? []) this.refile(obj);
  }

  /**
   * The live objects of `kind` in order `name` (ties in the order of `list`), read as far as the caller goes
   * and before anything changes; undefined while a value cannot be ordered as text.
   */
  inOrder(kind: string, name: string, direction: "ASC" | "DESC"): Iterable<SimObject> | undefined {
    const order = this.orders.get(kind)?.get(name);
    if (!order) throw new Error(`no order ${name} on ${kind}`);
    const now = this.now();
    for (const obj of [...(order.moving.get("") ?? [])]) if (!this.pending(obj, now)) this.refile(obj);
    if (order.unordered.size > 0) return undefined;
    const placed: OrderEntry[] = [];
    for (const obj of order.moving.get("") ?? []) {
      if (!this.alive(obj, now)) continue;
      const text = order.textOf(this.phasedBody(obj, now));
      if (text === undefined) return undefined;
      placed.push({ obj, text, listed: this.listings.get(obj)! });
    }
    const sign = direction === "ASC" ? 1 : -1;
    const before = (x: OrderEntry, y: OrderEntry) => (x.text === y.text ? x.listed < y.listed : (x.text < y.text ? -1 : 1) * sign < 0);
    placed.sort((x, y) => (before(x, y) ? -1 : 1));
    const settled = direction === "ASC" ? order.entries.values() : descending(order.entries);
    return (function* () {
      for (const entry of merged(settled, placed.values(), before)) yield entry.obj;
    })();
  }

  /** The live objects of `kind` that index `name` files under `key`, in creation order. */
  lookup(kind: string, name: string, key: string): SimObject[] {
    const index = this.indexes.get(kind)?.get(name);
    if (!index) throw new Error(`no index ${name} on ${kind}`);
    const now = this.now();
    const found: SimObject[] = [];
    for (const obj of index.entries.get(key) ?? []) {
      if (this.alive(obj, now)) found.push(obj);
      else this.forget(obj);
    }
    // An object moves to the end of its index entries when it changes: put them back in creation order.
    const ordered = found.map((obj) => ({ obj, ordinal: this.ordinals.get(obj)! }));
    if (ordered.some((entry, i) => i > 0 && entry.ordinal < ordered[i - 1]!.ordinal)) ordered.sort((a, b) => a.ordinal - b.ordinal);
    return ordered.map((entry) => entry.obj);
  }

  // ── objects ──────────────────────────────────────────────────────────────────────────────

  /** Stores a new object; its metadata is frozen in place, so hand over a fresh object. */
  create(kind: string, body: JsonObject, options: { uuid?: string; projectId?: string; meta?: JsonObject } = {}): SimObject {
    const uuid = options.uuid ?? (typeof body.uuid === "string" ? body.uuid : this.uuid());
    const obj: SimObject = {
      kind,
      uuid,
      ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
      body: deepFreeze(cloneJson(body)),
      phases: [],
      meta: deepFreeze(options.meta ?? {}),
    };
    const replaced = this.objects.get(uuid);
    if (replaced) this.forget(replaced);
    this.admit(obj, replaced);
    this.changed(obj);
    return obj;
  }

  private admit(obj: SimObject, replaced?: SimObject): void {
    this.ordinals.set(obj, (replaced && this.ordinals.get(replaced)) ?? this.created++);
    this.listings.set(obj, this.listed++);
    this.objects.set(obj.uuid, obj);
    let ofKind = this.byKind.get(obj.kind);
    if (!ofKind) this.byKind.set(obj.kind, (ofKind = new Map()));
    ofKind.set(obj.uuid, obj);
  }

  /** Takes a gone object out of the per-kind listing and the indexes (it stays for the control API and events). */
  private forget(obj: SimObject): void {
    const ofKind = this.byKind.get(obj.kind);
    if (ofKind?.get(obj.uuid) === obj) ofKind.delete(obj.uuid);
    this.unfile(obj);
  }

  private unfile(obj: SimObject): void {
    for (const filing of this.filed.get(obj) ?? []) {
      if ("order" in filing) {
        const { entries } = filing.order;
        entries.splice(entriesBefore(entries, filing.entry), 1);
      } else if ("sets" in filing) {
        const set = filing.sets.get(filing.key);
        set?.delete(obj);
        if (set?.size === 0) filing.sets.delete(filing.key);
      } else {
        const left = (filing.totals.get(filing.key) ?? 0) - filing.amount;
        if (left === 0) filing.totals.delete(filing.key);
        else filing.totals.set(filing.key, left);
      }
    }
    this.filed.delete(obj);
  }

  private refile(obj: SimObject): void {
    this.unfile(obj);
    const indexes = this.indexes.get(obj.kind);
    const tallies = this.tallies.get(obj.kind);
    const orders = this.orders.get(obj.kind);
    const now = this.now();
    if ((!indexes && !tallies && !orders) || !this.alive(obj, now)) return;
    // The body before and after each pending phase: an index or a tally files the object under the keys of every one.
    const bodies = [obj.body];
    for (const phase of obj.phases) bodies.push(withSets(bodies[bodies.length - 1]!, [phase.set]));
    const settled = bodies[bodies.length - 1]!;
    const filed: Filing[] = [];
    const fileIn = (sets: Map<string, Set<SimObject>>, keys: Set<string>) => {
      for (const key of keys) {
        let set = sets.get(key);
        if (!set) sets.set(key, (set = new Set()));
        set.add(obj);
        filed.push({ sets, key });
      }
    };
    for (const index of indexes?.values() ?? []) {
      const keys = new Set<string>();
      for (const body of bodies) for (const key of index.keysOf(body, obj)) keys.add(key);
      fileIn(index.entries, keys);
    }
    const pending = this.pending(obj, now);
    const staying = obj.goneAt === undefined && !obj.phases.some((p) => p.gone);
    for (const tally of tallies?.values() ?? []) {
      // What the object adds is fixed once every phase is due, or when none to come changes it (a connection
      // being provisioned uses its bandwidth throughout): then it goes into the totals, and `tally` does not
      // read it again on each call. Otherwise it is read at the time the tally is asked for.
      const amounts = (pending ? bodies : [settled]).map((body) => [...tally.amountsOf(body, obj)]);
      const fixed = !pending || (staying && new Set(amounts.map((a) => JSON.stringify(a))).size === 1);
      if (!fixed) {
        fileIn(tally.moving, new Set(amounts.flatMap((a) => a.map(([key]) => key))));
        continue;
      }
      for (const [key, amount] of amounts.at(-1)!) {
        tally.totals.set(key, (tally.totals.get(key) ?? 0) + amount);
        filed.push({ totals: tally.totals, key, amount });
      }
    }
    for (const order of orders?.values() ?? []) {
      const text = pending ? undefined : order.textOf(settled);
      if (text === undefined) {
        fileIn(pending ? order.moving : order.unordered, new Set([""]));
        continue;
      }
      const entry: OrderEntry = { obj, text, listed: this.listings.get(obj)! };
      order.entries.splice(entriesBefore(order.entries, entry), 0, entry);
      filed.push({ order, entry });
    }
    this.filed.set(obj, filed);
  }

  /** Whether the object will still change on the clock: a phase or its removal is yet to come. */
  private pending(obj: SimObject, now: number): boolean {
    return obj.phases.some((p) => p.at > now) || (obj.goneAt !== undefined && obj.goneAt > now);
  }

  /** After any change to an object: its index entries follow, and the data file will take it. */
  private changed(obj: SimObject): void {
    this.unsaved.add(obj);
    this.refile(obj);
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
    const found: SimObject[] = [];
    for (const obj of this.byKind.get(kind)?.values() ?? []) {
      if (this.alive(obj, now)) found.push(obj);
      else this.forget(obj);
    }
    return found;
  }

  /**
   * The body as the API returns it now: due phases applied and derived fields added. It is frozen and may
   * be shared with other readers: copy it to change it.
   */
  view(obj: SimObject): JsonObject {
    return this.viewAsOf(obj, this.now());
  }

  /**
   * The object as it was at `at`: a create answers what it made, in its first phase, however fast the clock
   * of a test has moved on while the request was answered.
   */
  viewAsOf(obj: SimObject, at: number): JsonObject {
    const body = this.phasedBody(obj, at);
    const def = this.kinds.get(obj.kind);
    return def?.render ? def.render(body, obj, this) : body;
  }

  /** The stored body with the phases due at `now` applied (frozen, cached while the object does not change). */
  private phasedBody(obj: SimObject, now: number): JsonObject {
    let due = 0;
    while (due < obj.phases.length && obj.phases[due]!.at <= now) due++;
    let body = obj.body;
    if (due > 0) {
      const cached = this.phased.get(obj);
      if (cached && cached.body === obj.body && cached.phases === obj.phases && cached.due === due) body = cached.view;
      else {
        body = deepFreeze(withSets(obj.body, obj.phases.slice(0, due).map((phase) => phase.set)));
        this.phased.set(obj, { body: obj.body, phases: obj.phases, due, view: body });
      }
    }
    return body;
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
    if (due.length === 0) return;
    for (const phase of due) if (phase.gone) obj.goneAt = phase.at;
    obj.body = deepFreeze(withSets(obj.body, due.map((phase) => phase.set)));
    obj.phases = obj.phases.filter((p) => p.at > now);
    this.changed(obj);
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
    const now = this.now();
    const phases: Phase[] = [];
    obj.phases = phases;
    // Filed once, below, with the phases to come.
    this.applyUnfiled(obj, { at: now, set: immediate });
    let planned = steps;
    const failuresLeft = this.pendingFailures.get(obj.kind) ?? 0;
    if (failure && failuresLeft > 0 && steps.length > 0) {
      this.pendingFailures.set(obj.kind, failuresLeft - 1);
      const last = steps[steps.length - 1]!;
      planned = [...steps.slice(0, -1), { afterMs: last.afterMs, set: failure }];
    }
    for (const step of planned) {
      const phase: Phase = { at: now + this.clock.scale(step.afterMs), set: step.set, ...(step.gone ? { gone: true } : {}) };
      phases.push(phase);
      this.recordStateEvent(obj, phase);
    }
    phases.sort((a, b) => a.at - b.at);
    this.changed(obj);
  }

  /** Changes the body at once (an accepted update), recording the state event if the state moved. */
  apply(obj: SimObject, phase: Phase): void {
    this.applyUnfiled(obj, phase);
    this.changed(obj);
  }

  /** `apply`, leaving the indexes, tallies and orders to the caller's `changed`. */
  private applyUnfiled(obj: SimObject, phase: Phase): void {
    if (phase.gone) obj.goneAt = phase.at;
    obj.body = deepFreeze(withSets(obj.body, [phase.set]));
    this.recordStateEvent(obj, phase);
  }

  /** Changes the stored body through `change`, which gets a copy to change (the stored body is frozen). */
  edit(obj: SimObject, change: (body: JsonObject) => void): void {
    const body = cloneJson(obj.body);
    change(body);
    obj.body = deepFreeze(body);
    this.changed(obj);
  }

  /** Replaces the stored body (and the owning project, when given) outright. */
  replace(obj: SimObject, body: JsonObject, projectId?: string): void {
    obj.body = deepFreeze(cloneJson(body));
    if (projectId !== undefined) obj.projectId = projectId;
    this.changed(obj);
  }

  /** Sets one field of the object's private metadata (frozen like its body). */
  setMeta(obj: SimObject, key: string, value: Json): void {
    obj.meta = deepFreeze({ ...obj.meta, [key]: value });
    this.changed(obj);
  }

  /** Removes an object at once (an out-of-band deletion, or a kind that the service drops on delete). */
  remove(obj: SimObject): void {
    obj.goneAt = this.now();
    this.changed(obj);
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
  //
  // The data file holds a snapshot of the world; `<data file>.log` beside it, one JSON line per saved
  // request: the objects it changed, the events it recorded and the identifier generator's state. A
  // save appends a line (and fsyncs it), so it writes what changed rather than the whole world; once the
  // log outgrows the snapshot, the snapshot is rewritten (temporary file, fsync, rename) and the log
  // emptied. Lines carry a sequence number and the snapshot the last one it holds, so a crash between
  // the two steps replays nothing twice; a line cut short by a crash is ignored.

  /** Writes what changed since the last save to the data file's log (or a new snapshot when due). */
  save(): void {
    if (!this.dataFile) return;
    if (this.snapshotDue || this.logBytes > Math.max(this.snapshotBytes * LOG_TO_SNAPSHOT_RATIO, MIN_LOG_BYTES_BEFORE_SNAPSHOT)) {
      this.writeSnapshot();
      return;
    }
    if (this.unsaved.size === 0 && this.savedEvents === this.events.length) return;
    const record: LogRecord = {
      seq: this.seq + 1,
      randomState: this.random.snapshot(),
      objects: [...this.unsaved],
      events: this.events.slice(this.savedEvents),
    };
    const line = `${JSON.stringify(record)}\n`;
    const fd = openSync(logFileOf(this.dataFile), "a", 0o600);
    try {
      writeFileSync(fd, line);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.seq = record.seq;
    this.logBytes += Buffer.byteLength(line);
    this.markSaved();
  }

  /** Writes the whole world to the data file atomically and empties the log. */
  private writeSnapshot(): void {
    const dataFile = this.dataFile!;
    const data: PersistedWorld = {
      version: 2,
      seq: this.seq,
      randomState: this.random.snapshot(),
      objects: [...this.objects.values()],
      events: this.events,
    };
    const text = JSON.stringify(data);
    mkdirSync(dirname(dataFile), { recursive: true, mode: 0o700 });
    writePrivateFile(`${dataFile}.${process.pid}.tmp`, text);
    renameSync(`${dataFile}.${process.pid}.tmp`, dataFile);
    // Only after the rename: until then the old snapshot and the log still make the world.
    writePrivateFile(logFileOf(dataFile), "");
    this.snapshotBytes = Buffer.byteLength(text);
    this.logBytes = 0;
    this.snapshotDue = false;
    this.markSaved();
  }

  private markSaved(): void {
    this.unsaved.clear();
    this.savedEvents = this.events.length;
  }

  /** Loads a persisted world (its snapshot, then its log); false when there is no snapshot. */
  load(): boolean {
    if (!this.dataFile) return false;
    const text = readIfExists(this.dataFile);
    if (text === undefined) return false;
    const data = JSON.parse(text) as PersistedWorld;
    const version = (data as { version: unknown }).version;
    if (version !== 1 && version !== 2) throw new Error(`${this.dataFile}: unsupported simulator world version ${String(version)}`);
    const objects = new Map(data.objects.map((o) => [o.uuid, o]));
    this.events = data.events;
    this.random.restore(data.randomState);
    this.seq = data.version === 2 ? data.seq : 0;
    this.snapshotBytes = Buffer.byteLength(text);
    this.logBytes = 0;
    const logFile = logFileOf(this.dataFile);
    const log = readIfExists(logFile) ?? "";
    let offset = 0;
    for (let end = log.indexOf("\n"); end !== -1; end = log.indexOf("\n", offset)) {
      let record: LogRecord;
      try {
        record = JSON.parse(log.slice(offset, end)) as LogRecord;
      } catch {
        break;
      }
      offset = end + 1;
      if (record.seq <= this.seq) continue;
      for (const obj of record.objects) objects.set(obj.uuid, obj);
      this.events.push(...record.events);
      this.random.restore(record.randomState);
      this.seq = record.seq;
    }
    // What follows the last whole line is a save that a crash cut short: dropped, so that the next save does not append to it.
    const kept = Buffer.byteLength(log.slice(0, offset));
    if (kept < Buffer.byteLength(log)) truncateSync(logFile, kept);
    this.logBytes = kept;
    this.objects.clear();
    this.byKind.clear();
    this.clearFilings();
    for (const obj of objects.values()) {
      deepFreeze(obj.body);
      deepFreeze(obj.meta);
      this.admit(obj);
      this.refile(obj);
    }
    this.markSaved();
    return true;
  }

  /** Forgets everything (before re-seeding); the next save writes a new snapshot. */
  clear(): void {
    this.objects.clear();
    this.byKind.clear();
    this.clearFilings();
    this.events = [];
    this.pendingFailures.clear();
    this.unsaved.clear();
    this.savedEvents = 0;
    this.snapshotDue = true;
  }

  private clearFilings(): void {
    // An object dropped here must not take its amounts out of the totals of those that replace it.
    this.filed = new WeakMap();
    for (const ofKind of this.indexes.values()) for (const index of ofKind.values()) index.entries.clear();
    for (const ofKind of this.tallies.values()) {
      for (const tally of ofKind.values()) {
        tally.totals.clear();
        tally.moving.clear();
      }
    }
    for (const ofKind of this.orders.values()) {
      for (const order of ofKind.values()) {
        order.entries.length = 0;
        order.moving.clear();
        order.unordered.clear();
      }
    }
  }

  /** Every object, alive or not, for the control API's listing. */
  allObjects(): SimObject[] {
    return [...this.objects.values()];
  }
}
