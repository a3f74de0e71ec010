// The http backend against servers started on loopback, in the shapes teams run: GitLab's (POST and
// DELETE on .../lock, 409) and the protocol's own (LOCK and UNLOCK, 423), over TLS with a client
// certificate too. Its settings from the block or the environment; requests that failed for the server's
// sake repeated only where that is safe, a write only after reading back that it was not stored; every
// write fenced by the lock's ID; and a state store that writes a version only where crash safety needs one.

import { describe, expect, it } from "vitest";
import { HttpBackend } from "../../../src/backends/index.js";
import { isHeld, StateStore, stateKeys, type HeldLock, type ResourceState, type StateBackend } from "../../../src/state/index.js";
import { HTTP_PASSWORD, HTTP_USER, testCertificates, useHttpStateServer, type HttpStateServer } from "../../support/http-state-server.js";

type HttpSettings = ConstructorParameters<typeof HttpBackend>[0];

const AUTH = { NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD };
/** Repeats a millisecond apart: the tests wait for no real second. */
const FAST = { retryWaitMinMs: 1, retryWaitMaxMs: 5 };
const filter = (id: string): ResourceState => ({ kind: "routeFilters", id, attributes: { name: id }, sensitiveHashes: {}, dependencies: [] });

async function locked(backend: StateBackend): Promise<HeldLock> {
  const attempt = await backend.tryLock("apply");
  if (!isHeld(attempt)) throw attempt.refusal;
  return attempt;
}

/** A store on the backend, under its lock, with a first version written. */
async function openStore(backend: StateBackend): Promise<{ store: StateStore; lock: HeldLock }> {
  const lock = await locked(backend);
  const store = await StateStore.load(backend, "netform test", stateKeys({}));
  await store.setResource("routeFilters.first", filter("u0"));
  return { store, lock };
}

const serialOf = (server: HttpStateServer) => (JSON.parse(server.stored!) as { serial: number }).serial;

describe("http backend, GitLab's shape", () => {
  const server = useHttpStateServer({ flavour: "gitlab" });
  const gitlab = (extra: HttpSettings = {}, env: NodeJS.ProcessEnv = AUTH) => new HttpBackend({ address: server.url, lockAddress: server.lockUrl, unlockAddress: server.lockUrl, lockMethod: "POST", unlockMethod: "DELETE", ...FAST, ...extra }, env);

  it("locks with POST and unlocks with DELETE on .../lock, names the lock on every write, and is refused while another holds it", async () => {
    const backend = gitlab();
    const { store, lock } = await openStore(backend);
    expect(server.lock?.ID).toBe(lock.info.id);
    expect(server.writes.map((w) => w.id)).toEqual([lock.info.id]);
    const other = await gitlab().tryLock("plan");
    expect(isHeld(other)).toBe(false);
    expect(!isHeld(other) && other.refusal.message).toContain(`lock ID ${lock.info.id}`);
    await store.fold();
    await lock.release();
    expect(server.lock).toBeUndefined();
    // Taken, asked for again to learn that the server refuses it to its holder, refused to the other, given back.
    expect(server.requests.filter((r) => r.path.endsWith("/lock")).map((r) => r.method)).toEqual(["POST", "POST", "POST", "DELETE"]);
  });

  it("refuses every write once another run took the lock over, naming it; the lost lock is not given back", async () => {
    const { store, lock } = await openStore(gitlab());
    await expect(lock.check()).resolves.toBeUndefined();
    expect((await gitlab().forceUnlock(lock.info.id)).id).toBe(lock.info.id);
    const next = await locked(gitlab());
    await expect(store.setResource("routeFilters.second", filter("u1"))).rejects.toMatchObject({
      code: "state.lock-lost",
      message: expect.stringContaining(`the state lock ${lock.info.id} on ${server.url} is no longer this run's: another run holds it now: ${next.info.who}`),
    });
    await expect(lock.check()).rejects.toMatchObject({ code: "state.lock-lost" });
    expect(server.writes.map((w) => w.id)).toEqual([lock.info.id]);
    expect(store.unsaved().map((u) => u.address)).toEqual(["routeFilters.second"]);
    await lock.release();
    expect(server.lock?.ID).toBe(next.info.id);
  });

  it("finds its lock gone when it asks, after force-unlock, and gives back what asking took", async () => {
    const { store, lock } = await openStore(gitlab());
    await gitlab().forceUnlock(lock.info.id);
    await expect(lock.check()).rejects.toMatchObject({ code: "state.lock-lost", message: expect.stringContaining("the server no longer holds it (netform force-unlock removed it)") });
    expect(server.lock).toBeUndefined();
    await expect(store.setResource("routeFilters.second", filter("u1"))).rejects.toMatchObject({ code: "state.lock-lost" });
    expect(server.writes).toHaveLength(1);
  });

  it("repeats a write that failed before it was stored, and not one that was stored: one version each", async () => {
    const backend = gitlab();
    const { store } = await openStore(backend);
    for (const how of ["500-before", "drop-before", "500-after", "drop-after"] as const) {
      const before = server.writes.length;
      server.fail("POST", how, 1, "/prod");
      await store.setResource(`routeFilters.${how}`, filter(how));
      expect(server.writes.length, how).toBe(before + 1);
      expect(Object.keys((JSON.parse(server.stored!) as { resources: object }).resources), how).toContain(`routeFilters.${how}`);
    }
  });

  it("repeats reads, a lock whose answer was lost and an unlock, and never blames another writer for its own failed write", async () => {
    const backend = gitlab();
    server.fail("POST", "drop-after", 1, "/lock");
    const { store, lock } = await openStore(backend);
    expect(server.lock?.ID).toBe(lock.info.id);
    server.fail("GET", "500-before", 2);
    await store.setResource("routeFilters.read", filter("r"));
    // Three failures with two repeats: the write is said not to be stored, and the next one follows the stored version.
    server.fail("POST", "500-before", 3, "/prod");
    const serial = serialOf(server);
    await expect(store.setResource("routeFilters.lost", filter("l"))).rejects.toThrow(`failed POST ${server.url}?ID=${lock.info.id} 3 times, the last time with 500`);
    expect(serialOf(server)).toBe(serial);
    await store.setResource("routeFilters.next", filter("n"));
    expect(serialOf(server)).toBe(serial + 1);
    expect(Object.keys((JSON.parse(server.stored!) as { resources: object }).resources)).toEqual(expect.arrayContaining(["routeFilters.lost", "routeFilters.next"]));
    server.fail("DELETE", "drop-after", 1, "/lock");
    await lock.release();
    expect(server.lock).toBeUndefined();
  });

  it("stores a step the next run can rebuild from the service with the next write crash safety needs", async () => {
    const backend = gitlab();
    const { store, lock } = await openStore(backend);
    await store.setResource("routeFilters.answer", filter("a"), "later");
    await store.removeResource("routeFilters.first", "later");
    expect(server.writes).toHaveLength(1);
    await store.setResource("routeFilters.pending", { ...filter("p"), pending: { operation: "create", startedAt: new Date().toISOString() } });
    expect(server.writes).toHaveLength(2);
    expect(Object.keys((JSON.parse(server.stored!) as { resources: object }).resources).sort()).toEqual(["routeFilters.answer", "routeFilters.pending"]);
    await store.setResource("routeFilters.settled", filter("s"), "later");
    await store.fold();
    expect(server.writes).toHaveLength(3);
    await lock.release();
  });
});

describe("http backend, the protocol's own shape", () => {
  const server = useHttpStateServer();

  it("takes every setting the block leaves out from NETFORM_HTTP_*, the block's first; the password never shows", async () => {
    const env = { ...AUTH, NETFORM_HTTP_ADDRESS: server.url, NETFORM_HTTP_RETRY_WAIT_MIN: "0.001", NETFORM_HTTP_RETRY_WAIT_MAX: "0.005" };
    const backend = new HttpBackend({}, env);
    expect(backend.location).toBe(server.url);
    const { store, lock } = await openStore(backend);
    expect(server.requests.map((r) => r.method)).toEqual(["LOCK", "LOCK", "GET", "GET", "POST"]);
    await store.fold();
    await lock.release();
    expect(server.lock).toBeUndefined();

    const wrong = (extra: Record<string, string>, settings: HttpSettings = {}) => {
      try {
        new HttpBackend(settings, { ...env, ...extra });
        return "";
      } catch (e) {
        return `${(e as Error).message} ${(e as { hint?: string }).hint ?? ""}`;
      }
    };
    expect(wrong({ NETFORM_HTTP_ADDRESS: "" })).toContain("set backend.http.address in the configuration, or NETFORM_HTTP_ADDRESS");
    expect(wrong({ NETFORM_HTTP_LOCK_METHOD: "post" })).toContain('NETFORM_HTTP_LOCK_METHOD must be an HTTP method in capitals, got "post"');
    expect(wrong({ NETFORM_HTTP_RETRY_MAX: "many" })).toContain('NETFORM_HTTP_RETRY_MAX must be a whole number from 0 to 20, got "many"');
    expect(wrong({ NETFORM_HTTP_USERNAME: "" })).toContain("NETFORM_HTTP_PASSWORD is set, and no user name");
    expect(wrong({ NETFORM_HTTP_CLIENT_CERTIFICATE_FILE: testCertificates().clientCertificate })).toContain("needs its private key");
    expect(wrong({ NETFORM_HTTP_CA_CERTIFICATE_FILE: "missing.pem" })).toContain("cannot read missing.pem (NETFORM_HTTP_CA_CERTIFICATE_FILE): no such file or directory");
    expect(wrong({}, { address: "ftp://state" })).toContain("backend.http.address must be an http:// or https:// URL");
    const withUser = new HttpBackend({ address: `http://someone:${HTTP_PASSWORD}@127.0.0.1:1/state` }, env);
    expect(withUser.location).not.toContain(HTTP_PASSWORD);
    const refused = await new HttpBackend({}, { ...env, NETFORM_HTTP_PASSWORD: "wrong-password-7x" }).tryLock("plan").catch((e: Error) => e);
    expect(refused).toMatchObject({ message: `the http backend refused LOCK ${server.url}: 401 Unauthorized` });
    expect(JSON.stringify(refused)).not.toContain("wrong-password-7x");
  });

  it("refuses a write that names no lock the server holds, as 423 with the holder", async () => {
    const backend = new HttpBackend({ address: server.url, ...FAST }, AUTH);
    const { store, lock } = await openStore(backend);
    server.lock = { ID: "runner-9", Who: "ci@runner-9", Operation: "apply", Created: "2026-11-24T10:00:00Z" };
    await expect(store.setResource("routeFilters.second", filter("u1"))).rejects.toMatchObject({
      code: "state.lock-lost",
      message: expect.stringContaining("another run holds it now: ci@runner-9 for apply since 2026-11-24T10:00:00Z (lock ID runner-9)"),
    });
    await expect(lock.check()).rejects.toMatchObject({ code: "state.lock-lost" });
  });
});

describe("http backend, a server that grants the lock to its holder again", () => {
  const server = useHttpStateServer({ regrantsHolder: true });

  it("learns so when it locks, asks it nothing more, and is still fenced by its writes", async () => {
    const { store, lock } = await openStore(new HttpBackend({ address: server.url, ...FAST }, AUTH));
    const asked = server.requests.length;
    await expect(lock.check()).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(asked);
    server.lock = undefined;
    await expect(store.setResource("routeFilters.second", filter("u1"))).rejects.toMatchObject({ code: "state.lock-lost", message: expect.stringContaining("the server no longer holds it") });
    await expect(lock.check()).rejects.toMatchObject({ code: "state.lock-lost" });
  });
});

describe("http backend, a server that refuses a held lock without naming its holder", () => {
  const server = useHttpStateServer({ namelessRefusal: true });

  it("takes the lock, keeps it, asks nothing more, and gives it back", async () => {
    const backend = new HttpBackend({ address: server.url, ...FAST }, AUTH);
    const { store, lock } = await openStore(backend);
    expect(server.lock?.ID).toBe(lock.info.id);
    const asked = server.requests.length;
    await expect(lock.check()).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(asked);
    const other = await new HttpBackend({ address: server.url, ...FAST }, AUTH).tryLock("plan");
    expect(isHeld(other)).toBe(false);
    await store.fold();
    await lock.release();
    expect(server.lock).toBeUndefined();
    expect(server.writes).toHaveLength(1);
  });
});

describe("http backend over TLS", () => {
  const server = useHttpStateServer({ tls: true });

  it("presents the client certificate and checks the server's against the given authority", async () => {
    const backend = new HttpBackend({ address: server.url, clientCertificateFile: testCertificates().clientCertificate, clientPrivateKeyFile: testCertificates().clientKey, caCertificateFile: testCertificates().ca, ...FAST }, AUTH);
    const { store, lock } = await openStore(backend);
    await store.fold();
    await lock.release();
    await backend.close();
    expect(server.writes).toHaveLength(1);

    const without = new HttpBackend({ address: server.url, caCertificateFile: testCertificates().ca, retryMax: 0 }, AUTH);
    await expect(without.read()).rejects.toMatchObject({ code: "backend.http", message: expect.stringContaining(`the http backend did not answer GET ${server.url}`) });
    await without.close();
    const untrusted = new HttpBackend({ address: server.url, clientCertificateFile: testCertificates().clientCertificate, clientPrivateKeyFile: testCertificates().clientKey, retryMax: 0 }, AUTH);
    await expect(untrusted.read()).rejects.toThrow(/certificate/);
    await untrusted.close();
  });
});
