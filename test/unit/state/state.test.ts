import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { WRITE_SLICE } from "../../../src/state/atomic.js";
import { LOCK_TTL_MS, StateLock, StateStore, forceUnlock, lockPathFor, writeFileAtomic, writeFileAtomicAsync } from "../../../src/state/index.js";

const dir = () => mkdtempSync(join(tmpdir(), "netform-state-"));

describe("StateStore", () => {
  it("starts empty with a lineage, and is on disk when an update resolves, with a rising serial", async () => {
    const path = join(dir(), "netform.state.json");
    const store = StateStore.open(path, "netform test");
    expect(store.exists).toBe(false);
    expect(store.snapshot()).toMatchObject({ version: 1, serial: 0, resources: {} });
    await store.setResource("routeFilters.a", { kind: "routeFilters", id: "u1", attributes: { name: "a" }, sensitiveHashes: {}, dependencies: [] });
    expect(JSON.parse(readFileSync(path, "utf8")).serial).toBe(1);
    await store.setResource("routeFilters.b", { kind: "routeFilters", id: "u2", attributes: {}, sensitiveHashes: {}, dependencies: [] });
    const onDisk = JSON.parse(readFileSync(path, "utf8"));
    expect(onDisk.serial).toBe(2);
    expect(Object.keys(onDisk.resources)).toEqual(["routeFilters.a", "routeFilters.b"]);
    expect(onDisk.lineage).toBe(store.snapshot().lineage);
  });

  it("saves changes made during a write together, and keeps the file it opened as .backup", async () => {
    const path = join(dir(), "s.json");
    const first = StateStore.open(path, "t");
    await first.setResource("routeFilters.a", { kind: "routeFilters", id: "u1", attributes: {}, sensitiveHashes: {}, dependencies: [] });
    const store = StateStore.open(path, "t");
    const writes = Array.from({ length: 20 }, (_, i) => store.setResource(`routeFilters.f${i}`, { kind: "routeFilters", id: `x${i}`, attributes: {}, sensitiveHashes: {}, dependencies: [] }));
    await Promise.all(writes);
    const onDisk = JSON.parse(readFileSync(path, "utf8"));
    expect(Object.keys(onDisk.resources)).toHaveLength(21);
    expect(onDisk.serial).toBeLessThan(21); // 20 changes, fewer writes
    expect(JSON.parse(readFileSync(`${path}.backup`, "utf8")).serial).toBe(1);
  });

  it("reopens what it wrote", async () => {
    const path = join(dir(), "s.json");
    const a = StateStore.open(path, "t");
    await a.setResource("vpns.x", { kind: "vpns", attributes: {}, sensitiveHashes: {}, dependencies: [], pending: { operation: "create", startedAt: "2026-01-01T00:00:00Z", lookup: { configName: "x" } } });
    const b = StateStore.open(path, "t");
    expect(b.exists).toBe(true);
    expect(b.resource("vpns.x")?.pending?.lookup).toEqual({ configName: "x" });
    expect(b.view.lineage).toBe(a.view.lineage);
  });

  it("explains a corrupt or foreign state file", () => {
    const path = join(dir(), "s.json");
    writeFileSync(path, "{ not json");
    expect(() => StateStore.open(path, "t")).toThrow(/not valid JSON/);
    writeFileSync(path, JSON.stringify({ version: 1, lineage: "l", serial: "x", generator: "g", resources: {} }));
    expect(() => StateStore.open(path, "t")).toThrow(/serial/);
    writeFileSync(path, JSON.stringify({ version: 9 }));
    expect(() => StateStore.open(path, "t")).toThrow(/newer than this netform/);
  });
});

describe("StateLock", () => {
  it("refuses a second holder with the first one's details, and frees on release", () => {
    const path = join(dir(), "s.json");
    const lock = StateLock.acquire(path, "apply");
    expect(() => StateLock.acquire(path, "plan")).toThrow(new RegExp(`locked by .* for apply .*lock ID ${lock.info.id}`));
    lock.release();
    expect(existsSync(lockPathFor(path))).toBe(false);
    StateLock.acquire(path, "plan").release();
  });

  it("takes over an expired lock whose holder ran on another machine, but never one whose holder is alive here", () => {
    const path = join(dir(), "s.json");
    const expired = new Date(Date.now() - 1000).toISOString();
    writeFileSync(lockPathFor(path), JSON.stringify({ id: "remote", operation: "apply", who: "x", created: expired, expires: expired, host: "elsewhere.invalid", pid: 1 }));
    const second = StateLock.acquire(path, "apply");
    expect(second.info.id).not.toBe("remote");
    second.release();
    writeFileSync(lockPathFor(path), JSON.stringify({ id: "alive", operation: "apply", who: "x", created: expired, expires: expired, host: hostname(), pid: process.ppid }));
    expect(() => StateLock.acquire(path, "apply")).toThrow(/lock ID alive/);
  });

  it.each([
    ["empty", ""],
    ["torn", '{ "id": "half-writ'],
    ["foreign", "[1, 2]"],
  ])("treats an %s lock file as held, and leaves it for force-unlock", (_, content) => {
    const path = join(dir(), "s.json");
    writeFileSync(lockPathFor(path), content);
    expect(() => StateLock.acquire(path, "apply")).toThrow(/locked by a lock file that cannot be read/);
    expect(readFileSync(lockPathFor(path), "utf8")).toBe(content);
    forceUnlock(path, "unknown");
    StateLock.acquire(path, "apply").release();
  });

  it("renews its lock while its run goes on, so that a long apply does not expire it", () => {
    vi.useFakeTimers();
    try {
      const path = join(dir(), "s.json");
      const lock = StateLock.acquire(path, "apply");
      vi.advanceTimersByTime(3 * LOCK_TTL_MS);
      const onDisk = JSON.parse(readFileSync(lockPathFor(path), "utf8"));
      expect(Date.parse(onDisk.expires)).toBeGreaterThan(Date.now());
      expect(onDisk.id).toBe(lock.info.id);
      lock.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it("notices at once that its lock file was removed, replaced or rewritten in place, though asked before every change", () => {
    const path = join(dir(), "s.json");
    const lock = StateLock.acquire(path, "apply");
    const file = lockPathFor(path);
    expect([lock.held(), lock.held()]).toEqual([true, true]);
    // Another run's lock of the same length, written over this one's in place: same inode, new times.
    const other = readFileSync(file, "utf8").replace(lock.info.id, lock.info.id.replace(/[0-9a-f]/g, "0"));
    writeFileSync(file, other);
    expect(lock.held()).toBe(false);
    writeFileSync(file, `${JSON.stringify(lock.info, null, 2)}\n`);
    expect(lock.held()).toBe(true);
    forceUnlock(path, lock.info.id);
    expect(lock.held()).toBe(false);
    // Taken over: a new file in its place.
    writeFileAtomic(file, other);
    expect(lock.held()).toBe(false);
  });

  it("force-unlocks only with the right ID", () => {
    const path = join(dir(), "s.json");
    const lock = StateLock.acquire(path, "apply");
    expect(() => forceUnlock(path, "wrong")).toThrow(/has ID/);
    expect(forceUnlock(path, lock.info.id).operation).toBe("apply");
    expect(() => forceUnlock(path, lock.info.id)).toThrow(/not locked/);
  });
});

describe("a lock left by a process that died", () => {
  it("is taken over when its holder ran on this machine and is gone", async () => {
    const { spawnSync } = await import("node:child_process");
    const { hostname } = await import("node:os");
    const { writeFileSync } = await import("node:fs");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const path = join(dir(), "s.json");
    const expires = new Date(Date.now() + LOCK_TTL_MS).toISOString();
    writeFileSync(lockPathFor(path), JSON.stringify({ id: "old", operation: "apply", who: "x", created: new Date().toISOString(), expires, host: hostname(), pid: dead }));
    const lock = StateLock.acquire(path, "apply");
    expect(lock.info.id).not.toBe("old");
    lock.release();
    writeFileSync(lockPathFor(path), JSON.stringify({ id: "alive", operation: "apply", who: "x", created: new Date().toISOString(), expires, host: hostname(), pid: process.ppid }));
    expect(() => StateLock.acquire(path, "apply")).toThrow(/lock ID alive/);
  });
});

describe("leaving nothing behind", () => {
  it("writes a text longer than one slice whole, a character of two code units astride the slices' border included", async () => {
    const d = dir();
    // The emoji's first half is the last code unit of the first slice; "é" takes two bytes, "€" three.
    const content = `${"a".repeat(WRITE_SLICE - 1)}\u{1F600}${"é€".repeat(WRITE_SLICE)}end\n`;
    writeFileAtomic(join(d, "sync.json"), content);
    await writeFileAtomicAsync(join(d, "async.json"), content);
    expect(readFileSync(join(d, "sync.json"), "utf8")).toBe(content);
    expect(readFileSync(join(d, "async.json"), "utf8")).toBe(content);
    writeFileAtomic(join(d, "empty"), "");
    expect(readFileSync(join(d, "empty"), "utf8")).toBe("");
  });

  it("removes the temporary file of a write that failed", async () => {
    const d = dir();
    mkdirSync(join(d, "in-the-way"));
    expect(() => writeFileAtomic(join(d, "in-the-way"), "{}")).toThrow();
    await expect(writeFileAtomicAsync(join(d, "in-the-way"), "{}")).rejects.toThrow();
    expect(readdirSync(d)).toEqual(["in-the-way"]);
  });
});
