// The world's storage: indexes, tallies and orders that stand in for scans, frozen snapshots that reads
// share, the data file's change log (replay, compaction, a save cut short), and the bounded request log.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSimulator } from "../../src/simulator/index.js";
import { cloneJson, deepFreeze, logFileOf, setPointer, withSets, World, type Json, type JsonObject } from "../../src/simulator/core/world.js";
import { PRODUCTION, coloSide, connectionBody, seededPort } from "./connections-fixtures.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "netform-world-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A world with an index of things by colour. */
function colouredWorld(dataFile?: string): World {
  const world = new World({ seed: 3, ...(dataFile ? { dataFile } : {}) });
  world.defineIndex("things", "colour", (body) => (typeof body.colour === "string" ? [body.colour] : []));
  return world;
}
const colours = (world: World, colour: string) => world.lookup("things", "colour", colour).map((o) => o.uuid).sort();

describe("world indexes", () => {
  it("follow updates, replacements and removals", () => {
    const world = colouredWorld();
    const a = world.create("things", { colour: "red" }, { uuid: "a" });
    world.create("things", { colour: "red" }, { uuid: "b" });
    expect(colours(world, "red")).toEqual(["a", "b"]);
    world.apply(a, { at: world.now(), set: { "/colour": "blue" } });
    expect(colours(world, "red")).toEqual(["b"]);
    expect(colours(world, "blue")).toEqual(["a"]);
    world.edit(a, (body) => delete body.colour);
    expect(colours(world, "blue")).toEqual([]);
    world.replace(a, { colour: "green" });
    expect(colours(world, "green")).toEqual(["a"]);
    world.remove(world.get("b")!);
    expect(colours(world, "red")).toEqual([]);
  });

  it("file an object under what its pending phases will make it, and forget it once it is gone", () => {
    const world = colouredWorld();
    const a = world.create("things", { colour: "red" }, { uuid: "a" });
    world.transition(a, {}, [{ afterMs: 60_000, set: { "/colour": "blue" } }, { afterMs: 120_000, set: {}, gone: true }]);
    // A lookup may return more than matches now: callers check the view.
    expect(colours(world, "red")).toEqual(["a"]);
    expect(colours(world, "blue")).toEqual(["a"]);
    world.transition(a, { "/colour": "green" }, [], undefined);
    expect(colours(world, "red")).toEqual([]);
    expect(colours(world, "green")).toEqual(["a"]);
    world.transition(a, {}, [{ afterMs: 0, set: {}, gone: true }]);
    expect(colours(world, "green")).toEqual([]);
    expect(world.list("things")).toEqual([]);
  });

  it("do not read an object in transition again when none of its phases changes what it adds", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let reads = 0;
    const world = new World({ seed: 3 });
    world.defineTally("things", "weight", (body) => {
      reads++;
      return typeof body.colour === "string" && typeof body.weight === "number" ? [[body.colour, body.weight]] : [];
    });
    const a = world.create("things", { colour: "red", weight: 3, state: "PROVISIONING" }, { uuid: "a" });
    world.transition(a, {}, [{ afterMs: 60_000, set: { "/state": "PROVISIONED" } }]);
    reads = 0;
    expect(world.tally("things", "weight", "red")).toBe(3);
    vi.setSystemTime(Date.now() + 60_000);
    expect(world.tally("things", "weight", "red")).toBe(3);
    expect(reads).toBe(0);
    // A phase that changes the amount still counts from the moment it comes.
    world.transition(a, {}, [{ afterMs: 60_000, set: { "/weight": 8 } }]);
    expect(world.tally("things", "weight", "red")).toBe(3);
    vi.setSystemTime(Date.now() + 60_000);
    expect(world.tally("things", "weight", "red")).toBe(8);
  });

  it("are rebuilt when a world is loaded, and emptied when it is cleared", () => {
    const file = join(dir, "world.json");
    const world = colouredWorld(file);
    world.clear();
    world.create("things", { colour: "red" }, { uuid: "a" });
    world.save();
    world.create("things", { colour: "red" }, { uuid: "b" });
    world.save();
    const again = colouredWorld(file);
    expect(again.load()).toBe(true);
    expect(colours(again, "red")).toEqual(["a", "b"]);
    world.clear();
    expect(colours(world, "red")).toEqual([]);
  });
});

/** A world that tallies the weight of things per colour and keeps them in the order of their stamp. */
function weighedWorld(dataFile?: string): World {
  const world = new World({ seed: 3, ...(dataFile ? { dataFile } : {}) });
  world.defineTally("things", "weight", (body) => (typeof body.colour === "string" && typeof body.weight === "number" ? [[body.colour, body.weight]] : []));
  world.defineOrder("things", "stamp", (body) => (typeof body.stamp === "number" ? undefined : String(body.stamp ?? "")));
  return world;
}
const inOrder = (world: World, direction: "ASC" | "DESC") => {
  const ordered = world.inOrder("things", "stamp", direction);
  return ordered && [...ordered].map((o) => o.uuid);
};

describe("world tallies", () => {
  afterEach(() => vi.useRealTimers());

  it("add up what live objects give, following updates, replacements and removals", () => {
    const world = weighedWorld();
    const a = world.create("things", { colour: "red", weight: 3 }, { uuid: "a" });
    world.create("things", { colour: "red", weight: 4 }, { uuid: "b" });
    expect(world.tally("things", "weight", "red")).toBe(7);
    world.apply(a, { at: world.now(), set: { "/colour": "blue" } });
    expect([world.tally("things", "weight", "red"), world.tally("things", "weight", "blue")]).toEqual([4, 3]);
    world.replace(a, { colour: "blue", weight: 5 });
    expect(world.tally("things", "weight", "blue")).toBe(5);
    world.create("things", { colour: "red", weight: 1 }, { uuid: "b" });
    expect(world.tally("things", "weight", "red")).toBe(1);
    world.remove(a);
    expect(world.tally("things", "weight", "blue")).toBe(0);
  });

  it("count an object in transition as it is when read, and as it ends once its phases have come", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const world = weighedWorld();
    const a = world.create("things", { colour: "red", weight: 3 }, { uuid: "a" });
    world.transition(a, {}, [{ afterMs: 60_000, set: { "/weight": 10 } }, { afterMs: 120_000, set: { "/colour": "blue" } }, { afterMs: 180_000, set: {}, gone: true }]);
    expect(world.tally("things", "weight", "red")).toBe(3);
    vi.setSystemTime(Date.now() + 60_000);
    expect([world.tally("things", "weight", "red"), world.tally("things", "weight", "blue")]).toEqual([10, 0]);
    vi.setSystemTime(Date.now() + 60_000);
    expect([world.tally("things", "weight", "red"), world.tally("things", "weight", "blue")]).toEqual([0, 10]);
    vi.setSystemTime(Date.now() + 60_000);
    expect(world.tally("things", "weight", "blue")).toBe(0);
  });

  it("count an object under a key that only a phase between its first and its last gives", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const world = weighedWorld();
    const a = world.create("things", { colour: "red", weight: 3 }, { uuid: "a" });
    world.transition(a, {}, [{ afterMs: 60_000, set: { "/colour": "green" } }, { afterMs: 120_000, set: { "/colour": "blue" } }]);
    expect(world.tally("things", "weight", "green")).toBe(0);
    vi.setSystemTime(Date.now() + 60_000);
    expect(world.tally("things", "weight", "green")).toBe(3);
    vi.setSystemTime(Date.now() + 60_000);
    expect([world.tally("things", "weight", "green"), world.tally("things", "weight", "blue")]).toEqual([0, 3]);
  });

  it("are rebuilt when a world is loaded, and emptied when it is cleared", () => {
    const file = join(dir, "world.json");
    const world = weighedWorld(file);
    world.clear();
    world.create("things", { colour: "red", weight: 3 }, { uuid: "a" });
    world.save();
    world.create("things", { colour: "red", weight: 4 }, { uuid: "b" });
    world.save();
    const again = weighedWorld(file);
    expect(again.load()).toBe(true);
    expect(again.tally("things", "weight", "red")).toBe(7);
    world.clear();
    expect(world.tally("things", "weight", "red")).toBe(0);
  });
});

describe("world orders", () => {
  afterEach(() => vi.useRealTimers());

  it("keep objects by their text, ties in the order they are listed, both ways, following changes", () => {
    const world = weighedWorld();
    for (const [uuid, stamp] of [["a", "2"], ["b", "1"], ["c", "2"], ["d", "3"]] as const) world.create("things", { stamp }, { uuid });
    expect(inOrder(world, "ASC")).toEqual(["b", "a", "c", "d"]);
    expect(inOrder(world, "DESC")).toEqual(["d", "a", "c", "b"]);
    world.apply(world.get("a")!, { at: world.now(), set: { "/stamp": "0" } });
    world.remove(world.get("d")!);
    expect(inOrder(world, "ASC")).toEqual(["a", "b", "c"]);
    // Replaced, an object comes last in the listing, so last among its ties.
    world.create("things", { stamp: "1" }, { uuid: "b" });
    world.create("things", { stamp: "1" }, { uuid: "e" });
    world.create("things", { stamp: "1" }, { uuid: "b" });
    expect(inOrder(world, "DESC")).toEqual(["c", "e", "b", "a"]);
    expect(world.list("things").map((o) => o.uuid)).toEqual(["a", "c", "e", "b"]);
  });

  it("place an object in transition where it is when read", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const world = weighedWorld();
    for (const [uuid, stamp] of [["a", "2"], ["b", "4"]] as const) world.create("things", { stamp }, { uuid });
    const c = world.create("things", { stamp: "1" }, { uuid: "c" });
    world.transition(c, {}, [{ afterMs: 60_000, set: { "/stamp": "3" } }, { afterMs: 120_000, set: { "/stamp": "5" } }]);
    expect(inOrder(world, "ASC")).toEqual(["c", "a", "b"]);
    vi.setSystemTime(Date.now() + 60_000);
    expect(inOrder(world, "ASC")).toEqual(["a", "c", "b"]);
    vi.setSystemTime(Date.now() + 60_000);
    expect(inOrder(world, "DESC")).toEqual(["c", "b", "a"]);
  });

  it("are not offered while a value would be ordered as a number, and are rebuilt when a world is loaded", () => {
    const file = join(dir, "world.json");
    const world = weighedWorld(file);
    world.clear();
    world.create("things", { stamp: "b" }, { uuid: "a" });
    const numbered = world.create("things", { stamp: 7 }, { uuid: "n" });
    world.create("things", {}, { uuid: "none" });
    expect(inOrder(world, "ASC")).toBeUndefined();
    world.remove(numbered);
    expect(inOrder(world, "ASC")).toEqual(["none", "a"]);
    world.save();
    const again = weighedWorld(file);
    expect(again.load()).toBe(true);
    expect(inOrder(again, "DESC")).toEqual(["a", "none"]);
  });
});

describe("world snapshots", () => {
  it("cannot be changed by whoever reads them", () => {
    const world = colouredWorld();
    const a = world.create("things", { colour: "red", nested: { size: 1 } }, { uuid: "a", meta: { secret: "s" } });
    const view = world.view(a);
    expect(() => ((view.nested as JsonObject).size = 2)).toThrow(TypeError);
    expect(() => (a.body.colour = "blue")).toThrow(TypeError);
    expect(() => (a.meta.secret = "t")).toThrow(TypeError);
    world.setMeta(a, "secret", "t");
    expect(a.meta.secret).toBe("t");
  });

  it("are shared between reads until the object or the time changes", () => {
    const world = colouredWorld();
    const a = world.create("things", { colour: "red" }, { uuid: "a" });
    world.transition(a, { "/colour": "blue" }, [{ afterMs: 60_000, set: { "/colour": "green" } }]);
    expect(world.view(a)).toBe(world.view(a));
    const before = world.view(a);
    world.apply(a, { at: world.now(), set: { "/size": 3 } });
    expect(world.view(a)).not.toBe(before);
    expect(world.view(a)).toEqual({ colour: "blue", size: 3 });
  });
});

describe("the connection indexes", () => {
  it("keep a VLAN taken after a refused create, and free it once its connection is deleted", async () => {
    const sim = createSimulator({ speed: 100_000, seed: 5 });
    const call = await caller(sim);
    const port = seededPort("DC", "PRIMARY");
    const first = await call("POST", "/fabric/v4/connections", connectionBody({ name: "first", aSide: coloSide(port, 300) }));
    expect(first.status).toBe(201);
    const clash = await call("POST", "/fabric/v4/connections", connectionBody({ name: "clash", aSide: coloSide(port, 300) }));
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.body)).toContain(`VLAN 300 is already used on port ${port}`);
    await until(async () => (await call("GET", `/fabric/v4/connections/${first.body.uuid}`)).body.state === "PROVISIONED");
    // Moved to another port with its tag: the tag is free on the old port and taken on the new one.
    const other = seededPort("DC", "SECONDARY");
    const moved = await call("PATCH", `/fabric/v4/connections/${first.body.uuid}`, [{ op: "replace", path: "/aSide/accessPoint/port/uuid", value: other }]);
    expect(moved.status).toBe(202);
    expect((await call("POST", "/fabric/v4/connections", connectionBody({ name: "on-other", aSide: coloSide(other, 300) }))).status).toBe(400);
    const reused = await call("POST", "/fabric/v4/connections", connectionBody({ name: "on-300", aSide: coloSide(port, 300) }));
    expect(reused.status).toBe(201);
    await until(async () => (await call("GET", `/fabric/v4/connections/${reused.body.uuid}`)).body.state === "PROVISIONED");
    expect((await call("DELETE", `/fabric/v4/connections/${reused.body.uuid}`)).status).toBe(200);
    await until(async () => (await call("GET", `/fabric/v4/connections/${reused.body.uuid}`)).body.state === "DEPROVISIONED");
    expect((await call("POST", "/fabric/v4/connections", connectionBody({ name: "after-delete", aSide: coloSide(port, 300) }))).status).toBe(201);
  });
});

describe("the port bandwidth tally", () => {
  it("counts what the connections of a world restored from its data file use", async () => {
    const file = join(dir, "world.json");
    const port = seededPort("DC", "PRIMARY");
    const onPort = (vlanTag: number, bandwidth: number) => connectionBody({ aSide: coloSide(port, vlanTag), zSide: coloSide(seededPort("DC", "SECONDARY"), vlanTag), bandwidth });
    const sim = createSimulator({ dataFile: file, seed: 5 });
    expect((await (await caller(sim))("POST", "/fabric/v4/connections", onPort(30, 6000))).status).toBe(201);
    const restored = await caller(createSimulator({ dataFile: file, seed: 5 }));
    const refused = await restored("POST", "/fabric/v4/connections", onPort(31, 5000));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(`4000 Mbps available on port ${port}`);
    expect((await restored("POST", "/fabric/v4/connections", onPort(31, 4000))).status).toBe(201);
  });
});

describe("the data file's change log", () => {
  it("writes what a request changed, not the world, and replays it on the next start", async () => {
    const file = join(dir, "world.json");
    const sim = createSimulator({ dataFile: file, seed: 5 });
    const snapshot = statSync(file);
    const call = await caller(sim);
    const created = await call("POST", "/fabric/v4/routeFilters", { type: "BGP_IPv4_PREFIX_FILTER", name: "logged", project: { projectId: PRODUCTION } });
    expect(created.status).toBe(202);
    expect(statSync(file).mtimeMs).toBe(snapshot.mtimeMs);
    const log = readFileSync(logFileOf(file), "utf8");
    expect(log.split("\n")).toHaveLength(2);
    expect(log.length).toBeLessThan(snapshot.size / 10);

    const reloaded = createSimulator({ dataFile: file, seed: 5 });
    expect(reloaded.world.view(reloaded.world.get(created.body.uuid)!)).toEqual(sim.world.view(sim.world.get(created.body.uuid)!));
    // The identifier generator continues where it was, so the next identifiers do not repeat.
    expect(reloaded.world.uuid()).toBe(sim.world.uuid());
  });

  it("ignores a record that a crash cut short, and appends after what it kept", async () => {
    const file = join(dir, "world.json");
    const sim = createSimulator({ dataFile: file, seed: 5 });
    const call = await caller(sim);
    const kept = await call("POST", "/fabric/v4/routeFilters", { type: "BGP_IPv4_PREFIX_FILTER", name: "kept", project: { projectId: PRODUCTION } });
    const whole = readFileSync(logFileOf(file), "utf8");
    appendFileSync(logFileOf(file), whole.slice(0, Math.floor(whole.length / 2)));

    const reloaded = createSimulator({ dataFile: file, seed: 5 });
    expect(reloaded.world.get(kept.body.uuid)).toBeDefined();
    expect(readFileSync(logFileOf(file), "utf8")).toBe(whole);
    const next = await (await caller(reloaded))("POST", "/fabric/v4/routeFilters", { type: "BGP_IPv4_PREFIX_FILTER", name: "next", project: { projectId: PRODUCTION } });
    const third = createSimulator({ dataFile: file, seed: 5 });
    expect(third.world.get(kept.body.uuid)).toBeDefined();
    expect(third.world.get(next.body.uuid)).toBeDefined();
  });

  it("folds the log into a new snapshot once it outgrows it, without replaying it twice", async () => {
    const file = join(dir, "world.json");
    const sim = createSimulator({ dataFile: file, seed: 5 });
    const call = await caller(sim);
    const names: string[] = [];
    const body = (name: string) => ({ type: "BGP_IPv4_PREFIX_FILTER", name, description: "x".repeat(2000), project: { projectId: PRODUCTION } });
    const snapshotBefore = statSync(file);
    let logBefore = "";
    for (let i = 0; i < 400 && statSync(file).mtimeMs === snapshotBefore.mtimeMs; i++) {
      logBefore = readFileSync(logFileOf(file), "utf8");
      names.push(`filter-${i}`);
      expect((await call("POST", "/fabric/v4/routeFilters", body(`filter-${i}`))).status).toBe(202);
    }
    expect(statSync(file).mtimeMs).not.toBe(snapshotBefore.mtimeMs);
    expect(readFileSync(logFileOf(file), "utf8")).toBe("");
    expect(logBefore.length).toBeGreaterThan(snapshotBefore.size);
    const eventsOf = (world: World) => world.visibleEvents().filter((e) => e.time <= cutoff).map((e) => e.id);
    const cutoff = sim.world.now();
    // A crash between the new snapshot and the emptied log: the log's records are in the snapshot already.
    writeFileSync(logFileOf(file), logBefore);
    const replayed = createSimulator({ dataFile: file, seed: 5 });
    expect(replayed.world.list("routeFilters").map((o) => o.body.name).sort()).toEqual(names.sort());
    expect(eventsOf(replayed.world)).toEqual(eventsOf(sim.world));
  });

  it("replays records the snapshot already holds only once", async () => {
    const file = join(dir, "world.json");
    const sim = createSimulator({ dataFile: file, seed: 5 });
    const call = await caller(sim);
    await call("POST", "/fabric/v4/routeFilters", { type: "BGP_IPv4_PREFIX_FILTER", name: "once", project: { projectId: PRODUCTION } });
    const log = readFileSync(logFileOf(file), "utf8");
    sim.reset();
    // The crash came after the snapshot was renamed into place but before the log was emptied.
    const reset = createSimulator({ dataFile: file, seed: 5 });
    expect(reset.world.list("routeFilters")).toEqual([]);
    writeFileSync(logFileOf(file), log);
    // Records numbered at or below the snapshot's are skipped: the reset world stays reset.
    const replayed = createSimulator({ dataFile: file, seed: 5 });
    expect(replayed.world.list("routeFilters")).toEqual([]);
  });
});

describe("the request log", () => {
  it("keeps the latest requests only", async () => {
    const sim = createSimulator({ requestLogSize: 8 });
    const call = await caller(sim);
    for (let i = 0; i < 30; i++) await call("GET", `/fabric/v4/connections/missing-${i}`);
    expect(sim.requests.length).toBeLessThanOrEqual(10);
    const shown = (await (await sim.app.request("/__sim/requests")).json()) as Array<{ path: string }>;
    expect(shown.map((r) => r.path)).toEqual(Array.from({ length: 8 }, (_, i) => `/fabric/v4/connections/missing-${22 + i}`));
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => createSimulator({ requestLogSize: 0 })).toThrow(/requestLogSize must be a positive integer/);
  });
});

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field

/** Calls the simulator in process as the demo client. */
async function caller(sim: ReturnType<typeof createSimulator>): Promise<Call> {
  const res = await sim.app.request("/oauth2/v1/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return async (method, path, body) => {
    const answer = await sim.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Polls until `probe` holds; the simulator runs fast enough that this takes a few rounds. */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error("the condition never held");
}

describe("phases applied to a stored body", () => {
  const stored = (): JsonObject =>
    deepFreeze({ name: "c1", operation: { equinixStatus: "PROVISIONING", errors: [] }, sides: [{ port: "a" }, { port: "z" }], notifications: [{ emails: ["noc@example.com"] }] });

  it("give what setting each pointer on a copy gives, later sets over earlier ones", () => {
    const sets: Array<Record<string, Json>> = [{ "/operation/equinixStatus": "PROVISIONED", "/sides/1/port": "y", "/change/status": "COMPLETED" }, { "/state": "PROVISIONED", "/sides/1/vlan": 7, "/name": 5 }];
    const copy = cloneJson(stored());
    for (const set of sets) for (const [pointer, value] of Object.entries(set)) setPointer(copy, pointer, value);
    const applied = withSets(stored(), sets);
    expect(applied).toEqual(copy);
    expect(JSON.stringify(applied)).toBe(JSON.stringify(copy));
  });

  it("copy only what lies along the pointers and leave the stored body as it was", () => {
    const body = stored();
    const applied = withSets(body, [{ "/operation/equinixStatus": "PROVISIONED", "/sides/0/port": "b" }]);
    expect(body).toEqual(stored());
    expect(applied.notifications).toBe(body.notifications);
    expect((applied.sides as JsonObject[])[1]).toBe((body.sides as JsonObject[])[1]);
    expect(applied.operation).not.toBe(body.operation);
    expect((applied.operation as JsonObject).errors).toBe((body.operation as JsonObject).errors);
  });
});
