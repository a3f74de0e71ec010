// The state journal: between two versions of the state, each step is a record appended to the journal
// (the local backend's `<state>.journal`); a store that opens the state replays what a stopped run left
// there, a cut-off last record is ignored, records already folded are passed over, and with a key no
// record holds anything in clear.

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalBackend } from "../../../src/backends/index.js";
import { FileJournal } from "../../../src/state/journal-file.js";
import { StateStore, stateKeys, type ResourceState, type StateKeys } from "../../../src/state/index.js";

const statePath = () => join(mkdtempSync(join(tmpdir(), "netform-journal-")), "netform.state.json");
const filter = (id: string, name = id): ResourceState => ({ kind: "routeFilters", id, attributes: { name }, sensitiveHashes: {}, dependencies: [] });
const open = (path: string, keys: StateKeys = stateKeys({})) => StateStore.load(new LocalBackend(path), "netform test", keys);
const onDisk = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { serial: number; resources: Record<string, ResourceState> };

/** A store whose state exists, with `count` steps journaled after it, left as a killed run leaves them (no fold). */
async function stoppedRun(path: string, count: number, keys?: StateKeys): Promise<void> {
  const store = await open(path, keys);
  await store.setResource("routeFilters.first", filter("u0"));
  for (let i = 1; i <= count; i++) await store.setResource(`routeFilters.f${i}`, filter(`u${i}`));
}

describe("the state journal", () => {
  it("appends a record per step, of the step's size, instead of rewriting the state", async () => {
    const path = statePath();
    await stoppedRun(path, 3);
    expect(onDisk(path).serial).toBe(1);
    expect(Object.keys(onDisk(path).resources)).toEqual(["routeFilters.first"]);
    const lines = readFileSync(`${path}.journal`, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => Object.keys(JSON.parse(l).record.set))).toEqual([["routeFilters.f1"], ["routeFilters.f2"], ["routeFilters.f3"]]);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(300);
  });

  it("replays what a stopped run journaled, and folds it into the state with the next write", async () => {
    const path = statePath();
    await stoppedRun(path, 3);
    const store = await open(path);
    expect(store.unfolded).toBe(true);
    expect(Object.keys(store.snapshot().resources).sort()).toEqual(["routeFilters.f1", "routeFilters.f2", "routeFilters.f3", "routeFilters.first"]);
    await store.removeResource("routeFilters.f2");
    expect(existsSync(`${path}.journal`)).toBe(false);
    expect(onDisk(path).serial).toBe(2);
    expect(Object.keys(onDisk(path).resources).sort()).toEqual(["routeFilters.f1", "routeFilters.f3", "routeFilters.first"]);
  });

  it("folds at the end of a run, and writes nothing when nothing was journaled", async () => {
    const path = statePath();
    await stoppedRun(path, 2);
    const store = await open(path);
    await store.fold();
    expect(onDisk(path).serial).toBe(2);
    expect(Object.keys(onDisk(path).resources)).toHaveLength(3);
    expect(existsSync(`${path}.journal`)).toBe(false);
    const after = statSync(path).mtimeMs;
    await (await open(path)).fold();
    expect(statSync(path).mtimeMs).toBe(after);
  });

  it("folds once the journal has grown as large as the state, so that a replay stays short", async () => {
    const path = statePath();
    const store = await open(path);
    await store.setResource("routeFilters.first", filter("u0"));
    const long = "x".repeat(1000);
    // 300 records of about 1.2 KB: more than the 256 KiB a journal may reach before it is folded.
    for (let i = 0; i < 300; i++) await store.setResource(`routeFilters.f${i}`, filter(`u${i}`, long));
    expect(onDisk(path).serial).toBe(2);
    expect(statSync(`${path}.journal`).size).toBeLessThan(256 * 1024);
    expect(Object.keys((await open(path)).view.resources)).toHaveLength(301);
  });

  it("records removals and the lookups, and the last value of a resource stepped on twice", async () => {
    const path = statePath();
    const store = await open(path);
    await store.setResource("routeFilters.a", filter("ua"));
    await store.setResource("routeFilters.b", filter("ub"));
    await store.setResource("routeFilters.a", filter("ua", "renamed"));
    await store.removeResource("routeFilters.b");
    await store.setLookups({ "ports.p": { kind: "ports", attributes: { uuid: "p-1" } } });
    const replayed = (await open(path)).snapshot();
    expect(replayed.resources).toEqual({ "routeFilters.a": filter("ua", "renamed") });
    expect(replayed.lookups).toEqual({ "ports.p": { kind: "ports", attributes: { uuid: "p-1" } } });
  });

  it("ignores a last record cut off by a crash, and starts a fresh journal rather than append to it", async () => {
    const path = statePath();
    await stoppedRun(path, 2);
    const journal = readFileSync(`${path}.journal`, "utf8");
    writeFileSync(`${path}.journal`, `${journal}{"lineage":"${onDisk(path).serial}","after":1,"seq":3,"rec`);
    const store = await open(path);
    expect(Object.keys(store.snapshot().resources).sort()).toEqual(["routeFilters.f1", "routeFilters.f2", "routeFilters.first"]);
    await store.setResource("routeFilters.late", filter("late"));
    expect(existsSync(`${path}.journal`)).toBe(false);
    expect(Object.keys(onDisk(path).resources)).toHaveLength(4);
  });

  it("passes over records already folded, when a run stopped between the fold and the journal's removal", async () => {
    const path = statePath();
    await stoppedRun(path, 2);
    const journal = readFileSync(`${path}.journal`, "utf8");
    await (await open(path)).fold();
    writeFileSync(`${path}.journal`, journal);
    const store = await open(path);
    expect(store.unfolded).toBe(false);
    expect(store.snapshot().serial).toBe(2);
    expect(Object.keys(store.snapshot().resources)).toHaveLength(3);
  });

  it("refuses records that follow a later version than the state holds (a state restored from .backup), and keeps the journal", async () => {
    const path = statePath();
    await (await open(path)).setResource("routeFilters.zero", filter("z0"));
    // An earlier version, as a user keeps (or finds in .backup) and puts back.
    const earlier = readFileSync(path, "utf8");
    await stoppedRun(path, 2);
    await (await open(path)).fold();
    await stoppedRun(path, 2);
    const journal = readFileSync(`${path}.journal`, "utf8");
    writeFileSync(path, earlier);
    await expect(open(path)).rejects.toMatchObject({
      code: "state.journal-stray",
      message: expect.stringMatching(/holds the steps of a run that followed a version the state does not hold \(\d+ records after version \d+ of lineage \S+\), and the state holds version 1 of lineage \S+: the state was restored to an earlier version since/),
      hint: expect.stringContaining("put back the version the journal follows"),
    });
    expect(readFileSync(`${path}.journal`, "utf8")).toBe(journal);
  });

  it("refuses records of another state, and a journal beside no state at all", async () => {
    const path = statePath();
    await stoppedRun(path, 2);
    const journal = readFileSync(`${path}.journal`, "utf8");
    const other = statePath();
    await (await open(other)).setResource("routeFilters.x", filter("ux"));
    writeFileSync(`${other}.journal`, journal);
    await expect(open(other)).rejects.toMatchObject({ code: "state.journal-stray", message: expect.stringContaining("the state was replaced or removed since") });
    const none = statePath();
    writeFileSync(`${none}.journal`, journal);
    await expect(open(none)).rejects.toMatchObject({ code: "state.journal-stray", message: expect.stringContaining("and no state is stored") });
    expect(readFileSync(`${none}.journal`, "utf8")).toBe(journal);
  });

  it("refuses a damaged record in the middle, saying where it is and what to do", async () => {
    const path = statePath();
    await stoppedRun(path, 3);
    const [one, , three] = readFileSync(`${path}.journal`, "utf8").split("\n");
    writeFileSync(`${path}.journal`, `${one}\n{not json\n${three}\n`);
    await expect(open(path)).rejects.toMatchObject({
      code: "state.journal",
      message: expect.stringContaining(`the journal ${path}.journal, record 2 is damaged: it is not valid JSON`),
      hint: expect.stringContaining("netform import"),
    });
  });

  it("seals each record with the state's key, so that no value is in clear, and binds it to its place", async () => {
    const path = statePath();
    const keys = stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: randomBytes(32).toString("base64") });
    await stoppedRun(path, 2, keys);
    const journal = readFileSync(`${path}.journal`, "utf8");
    expect(journal).not.toContain("routeFilters.f1");
    expect(journal).not.toContain('"u1"');
    expect(Object.keys((await open(path, keys)).view.resources)).toHaveLength(3);
    await expect(open(path, stateKeys({}))).rejects.toMatchObject({ code: "state.key" });
    // Records swapped: each one authenticates only at its own place.
    const [one, two] = journal.trimEnd().split("\n").map((l) => JSON.parse(l) as { sealed: unknown });
    writeFileSync(`${path}.journal`, `${JSON.stringify({ ...one, sealed: two!.sealed })}\n`);
    await expect(open(path, keys)).rejects.toMatchObject({ code: "state.tampered" });
  });
});

describe("the journal file", () => {
  it("opens its file again at the next append when an open failed, and after a close", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "netform-journal-")), "later");
    const journal = new FileJournal(join(folder, "netform.state.json.journal"));
    await expect(journal.append("one\n")).rejects.toMatchObject({ code: "state.write" });
    mkdirSync(folder);
    await journal.append("two\n");
    await journal.close();
    await journal.append("three\n");
    await journal.close();
    expect(await journal.read()).toBe("two\nthree\n");
  });
});
