import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_TTL_MS, StateLock, StateStore, forceUnlock, lockPathFor } from "../../../src/state/index.js";

const dir = () => mkdtempSync(join(tmpdir(), "netform-state-"));

describe("StateStore", () => {
  it("starts empty with a lineage, and writes after every update with a rising serial", () => {
    const path = join(dir(), "netform.state.json");
    const store = StateStore.open(path, "netform test");
    expect(store.exists).toBe(false);
    expect(store.state).toMatchObject({ version: 1, serial: 0, resources: {} });
    store.setResource("routeFilters.a", { kind: "routeFilters", id: "u1", attributes: { name: "a" }, sensitiveHashes: {}, dependencies: [] });
    store.setResource("routeFilters.b", { kind: "routeFilters", id: "u2", attributes: {}, sensitiveHashes: {}, dependencies: [] });
    const onDisk = JSON.parse(readFileSync(path, "utf8"));
    expect(onDisk.serial).toBe(2);
    expect(Object.keys(onDisk.resources)).toEqual(["routeFilters.a", "routeFilters.b"]);
    expect(onDisk.lineage).toBe(store.state.lineage);
    const backup = JSON.parse(readFileSync(`${path}.backup`, "utf8"));
    expect(backup.serial).toBe(1);
  });

  it("reopens what it wrote", () => {
    const path = join(dir(), "s.json");
    const a = StateStore.open(path, "t");
    a.setResource("vpns.x", { kind: "vpns", attributes: {}, sensitiveHashes: {}, dependencies: [], pending: { operation: "create", startedAt: "2026-01-01T00:00:00Z", lookup: { configName: "x" } } });
    const b = StateStore.open(path, "t");
    expect(b.exists).toBe(true);
    expect(b.resource("vpns.x")?.pending?.lookup).toEqual({ configName: "x" });
    expect(b.state.lineage).toBe(a.state.lineage);
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

  it("takes over an expired lock", () => {
    const path = join(dir(), "s.json");
    StateLock.acquire(path, "apply", Date.now() - LOCK_TTL_MS - 1000);
    const second = StateLock.acquire(path, "apply");
    expect(second.info.operation).toBe("apply");
    second.release();
  });

  it("force-unlocks only with the right ID", () => {
    const path = join(dir(), "s.json");
    const lock = StateLock.acquire(path, "apply");
    expect(() => forceUnlock(path, "wrong")).toThrow(/has ID/);
    expect(forceUnlock(path, lock.info.id).operation).toBe("apply");
    expect(() => forceUnlock(path, lock.info.id)).toThrow(/not locked/);
  });
});
