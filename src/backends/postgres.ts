// The postgres backend: one row per state name in `<schema>.states` (content, lineage, serial), every
// version ever written in `<schema>.state_history`, and the lock as a PostgreSQL advisory lock taken on
// a connection of its own and held for the whole run. The database ends that lock with the session, so a
// runner that crashes or is killed frees it without anyone's help; the row in `<schema>.state_locks` says
// who holds it (and which database session), for the refusal and for `force-unlock` from any machine.
// A write is one transaction that updates the row only if it still holds the version the run read: two
// writers can never interleave, whatever happens to the locks. Between two versions, a run's steps are
// rows of `<schema>.state_journal` (one insert each, committed before the step goes on); the write of the
// next version deletes them in its own transaction. A workspace other than the default is the state name
// `NAME/WORKSPACE`: the rows that were there before workspaces are the default workspace's, as they are.
//
// Databases restart and fail over. A run that does not hold the lock (one waiting under --lock-timeout, a
// read) reconnects with back-off and goes on; a run that holds it never does: the server ended the
// advisory lock with the session, so another run may hold it by now, and the holder fails closed with a
// message that says so. Only the first connection fails at once: a wrong URL is not a restart.
//
// The tables are created on first use, unless they exist already (a user with only data rights on tables
// a DBA made needs nothing more) or `createTables` is false (then a missing table is named, with the SQL
// to make it: `netform state ddl`).
//
// Every write is fenced: in its own statement or transaction it finds the lock row still naming this run's
// lock ID and the database session that took it, alive, and holds that row until it commits, so
// force-unlock and a takeover wait for the write, and a write after either is refused (state.lock-lost).

import { hostname, userInfo } from "node:os";
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type pg from "pg";
import { NetformError } from "../diag/index.js";
import { conflict, lockLost, type HeldLock, type LockInfo, type LockRefusal, type StateBackend, type StateJournal, type StateVersion, type StoredVersion } from "../state/index.js";

export interface PostgresSettings {
  url: string;
  schema: string;
  name: string;
  /** False: never create the schema or the tables (a DBA made them); absent or true: create what is missing. */
  createTables?: boolean;
}

const TABLES = ["states", "state_history", "state_locks", "state_journal"] as const;

/** The statements that make netform's schema and tables: run by netform on first use, or by a DBA. */
export function postgresDdl(schema: string): string[] {
  const q = `"${schema}"`;
  return [
    `CREATE SCHEMA IF NOT EXISTS ${q}`,
    `CREATE TABLE IF NOT EXISTS ${q}.states (name text PRIMARY KEY, lineage text NOT NULL, serial integer NOT NULL, content text NOT NULL, written_at timestamptz NOT NULL DEFAULT now(), written_by text)`,
    `CREATE TABLE IF NOT EXISTS ${q}.state_history (name text NOT NULL, lineage text NOT NULL, serial integer NOT NULL, content text NOT NULL, written_at timestamptz NOT NULL DEFAULT now(), written_by text, PRIMARY KEY (name, lineage, serial))`,
    `CREATE TABLE IF NOT EXISTS ${q}.state_locks (name text PRIMARY KEY, id text NOT NULL, operation text NOT NULL, who text NOT NULL, created timestamptz NOT NULL, session integer NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${q}.state_journal (position bigserial PRIMARY KEY, name text NOT NULL, line text NOT NULL)`,
  ];
}

/** The rights a database user needs to run netform on tables it may not create: data rights, nothing more. */
export function postgresGrants(schema: string, role: string): string[] {
  const q = `"${schema}"`;
  const who = `"${role}"`;
  return [
    `GRANT USAGE ON SCHEMA ${q} TO ${who}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${TABLES.map((t) => `${q}.${t}`).join(", ")} TO ${who}`,
    `GRANT USAGE ON SEQUENCE ${q}.state_journal_position_seq TO ${who}`,
  ];
}

/** How long a run that was connected keeps trying to reach the database again (a restart, a fail-over). */
const RECONNECT_WITHIN_MS = 120_000;

/** SQLSTATE classes and codes, and driver errors, that mean the connection is gone rather than the statement refused. */
const CONNECTION_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const CONNECTION_SQLSTATES = new Set(["57P01", "57P02", "57P03"]); // admin_shutdown, crash_shutdown, cannot_connect_now
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout expired|Connection ended)/;

function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && (CONNECTION_ERRNOS.has(code) || CONNECTION_SQLSTATES.has(code) || code.startsWith("08"))) return true;
  return error instanceof Error && CONNECTION_MESSAGES.test(error.message);
}

const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
};

/** The URL without its password, for messages. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(an unparsable URL)";
  }
}

function unreachable(url: string, error: unknown): NetformError {
  return new NetformError({
    code: "backend.postgres",
    message: `cannot reach the postgres backend at ${safeUrl(url)}: ${(error as Error).message}`,
    hint: "check backend.postgres.url (host, port, user, password, database) and that the server accepts connections from here",
    cause: error,
  });
}

interface LockRow {
  id: string;
  operation: string;
  who: string;
  created: Date;
  session: number;
}

const lockInfo = (row: LockRow): LockInfo => ({ id: row.id, operation: row.operation, who: row.who, created: row.created.toISOString(), expires: "when its database session ends" });

/**
 * The lock this process holds: its ID and the database session that took it; `lost` when that session's
 * connection ended without a release, `taken` when a write or a check found the lock row gone or another's.
 */
interface LockSession {
  id: string;
  session: number;
  lost?: Error;
  taken?: NetformError;
}

/**
 * How long a holder may sit idle inside a write's transaction before the server ends its session: a
 * runner paused there (a stalled CI machine) would otherwise keep force-unlock waiting for the lock row.
 */
const PAUSED_WRITER_MS = 10_000;

const ENDED = "the database session that held it ended (netform force-unlock ends it; so does a lost connection, or a restart of the database)";

export class PostgresBackend implements StateBackend {
  readonly type = "postgres";
  readonly location: string;
  private readonly t: { states: string; history: string; locks: string; journal: string };
  private client: pg.Client | undefined;
  private ready: Promise<pg.Client> | undefined;
  /** Whether this run ever reached the server: from then on a lost connection is a restart to wait for. */
  private reached = false;
  private held: LockSession | undefined;

  constructor(private readonly settings: PostgresSettings) {
    // The schema is checked as an identifier by the configuration's schema: it can be quoted as is.
    const q = `"${settings.schema}"`;
    this.t = { states: `${q}.states`, history: `${q}.state_history`, locks: `${q}.state_locks`, journal: `${q}.state_journal` };
    this.location = `"${settings.name}" in postgres ${safeUrl(settings.url)} (schema ${settings.schema})`;
  }

  /** A new session; its errors are those of its queries, or (idle) told to `onLost`. */
  private async connect(onLost: (client: pg.Client, error: Error) => void): Promise<pg.Client> {
    // Loaded here, not at the top: only runs whose state is in PostgreSQL need the driver.
    const { default: driver } = await import("pg");
    // Keep-alive: a server that vanished without closing the connection is found out, not waited on forever.
    const client = new driver.Client({ connectionString: this.settings.url, application_name: "netform", keepAlive: true, connectionTimeoutMillis: 30_000 });
    client.on("error", (error) => onLost(client, error));
    client.on("end", () => onLost(client, new Error("Connection ended")));
    await client.connect();
    this.reached = true;
    return client;
  }

  /** The connection for reads and writes, with the tables checked (and made, when allowed) on first use. */
  private db(): Promise<pg.Client> {
    this.ready ??= (async () => {
      const client = await this.connect((lost) => this.forget(lost));
      this.client = client;
      await this.setUp(client);
      return client;
    })().catch((error: unknown) => {
      this.ready = undefined;
      this.forget(this.client);
      throw error;
    });
    return this.ready;
  }

  /** Drops a connection that failed: the next operation opens another. */
  private forget(client: pg.Client | undefined): void {
    if (!client || client !== this.client) return;
    this.client = undefined;
    this.ready = undefined;
    client.end().catch(() => {});
  }

  private async setUp(client: pg.Client): Promise<void> {
    const missing = await this.missingTables(client);
    if (missing.length === 0) return;
    if (this.settings.createTables === false) {
      throw new NetformError({
        code: "backend.postgres.tables",
        message: `the postgres backend has no table ${missing.map((t) => `${this.settings.schema}.${t}`).join(", ")} (${this.location}), and createTables is false`,
        hint: `have the database's owner create them: netform state ddl --grant ROLE prints the SQL (see "Least privilege" under backends in docs/configuration.md); or let netform create them (createTables: true) with a user that may`,
      });
    }
    try {
      // Two runners starting on an empty database would race to create the tables: one at a time.
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('netform schema setup', 0))");
      for (const statement of postgresDdl(this.settings.schema)) await client.query(statement);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if (sqlState(error) !== "42501") throw error;
      throw new NetformError({
        code: "backend.postgres.tables",
        message: `the postgres backend has no table ${missing.map((t) => `${this.settings.schema}.${t}`).join(", ")} (${this.location}), and its user may not create it: ${(error as Error).message}`,
        hint: "have the database's owner create the tables (netform state ddl --grant ROLE prints the SQL) and set createTables: false (or NETFORM_PG_CREATE_TABLES=false); or grant this user CREATE on the database",
        cause: error,
      });
    }
  }

  /** netform's tables that the schema lacks, read from the catalog (which every user may read). */
  private async missingTables(client: pg.Client): Promise<string[]> {
    const { rows } = await client.query<{ name: string }>(
      "SELECT t AS name FROM unnest($2::text[]) AS t WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = t)",
      [this.settings.schema, [...TABLES]],
    );
    return rows.map((r) => r.name);
  }

  async read(): Promise<string | undefined> {
    return this.reading("read the state", async () => {
      const db = await this.db();
      const { rows } = await db.query<{ content: string }>(`SELECT content FROM ${this.t.states} WHERE name = $1`, [this.settings.name]);
      return rows[0]?.content;
    });
  }

  async write(content: string, version: StateVersion, after: StateVersion | undefined): Promise<void> {
    return this.guard("write the state", async () => {
      const db = await this.db();
      const who = `${userInfo().username}@${hostname()}`;
      await db.query("BEGIN");
      try {
        await this.fence(db);
        const changed = after
          ? await db.query(`UPDATE ${this.t.states} SET content = $2, lineage = $3, serial = $4, written_at = now(), written_by = $5 WHERE name = $1 AND lineage = $6 AND serial = $7`, [
              this.settings.name,
              content,
              version.lineage,
              version.serial,
              who,
              after.lineage,
              after.serial,
            ])
          : await db.query(`INSERT INTO ${this.t.states} (name, content, lineage, serial, written_by) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING`, [this.settings.name, content, version.lineage, version.serial, who]);
        if (changed.rowCount !== 1) {
          const { rows } = await db.query<StateVersion>(`SELECT lineage, serial FROM ${this.t.states} WHERE name = $1`, [this.settings.name]);
          throw conflict(this.location, after, rows[0]);
        }
        await db.query(`INSERT INTO ${this.t.history} (name, lineage, serial, content, written_by) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name, lineage, serial) DO UPDATE SET content = EXCLUDED.content, written_at = now(), written_by = EXCLUDED.written_by`, [
          this.settings.name,
          version.lineage,
          version.serial,
          content,
          who,
        ]);
        // Every journaled step is in the version just written (StateStore writes one only after its records).
        await db.query(`DELETE FROM ${this.t.journal} WHERE name = $1`, [this.settings.name]);
        await db.query("COMMIT");
      } catch (error) {
        await db.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  readonly journal: StateJournal = {
    read: () =>
      this.reading("read the state journal", async () => {
        const db = await this.db();
        const { rows } = await db.query<{ line: string }>(`SELECT line FROM ${this.t.journal} WHERE name = $1 ORDER BY position`, [this.settings.name]);
        return rows.map((r) => r.line).join("");
      }),
    append: (line) =>
      this.guard("journal a step of the run", async () => {
        const db = await this.db();
        const held = this.holding();
        // One statement, the fence inside it: no transaction is left open between the check and the insert.
        const { rowCount } = await db.query(`INSERT INTO ${this.t.journal} (name, line) SELECT $1, $4 WHERE EXISTS (${this.heldRow})`, [this.settings.name, held.id, held.session, line]);
        if (rowCount !== 1) throw await this.lockTaken(held);
      }),
    clear: () =>
      this.guard("clear the state journal", async () => {
        const db = await this.db();
        await db.query("BEGIN");
        try {
          await this.fence(db);
          await db.query(`DELETE FROM ${this.t.journal} WHERE name = $1`, [this.settings.name]);
          await db.query("COMMIT");
        } catch (error) {
          await db.query("ROLLBACK").catch(() => {});
          throw error;
        }
      }),
    close: async () => {},
  };

  async tryLock(operation: string): Promise<HeldLock | LockRefusal> {
    return this.reading("take the lock", async () => {
      await this.db();
      // The lock's own session: it lives exactly as long as this process holds the lock.
      const held: LockSession = { id: "", session: 0 };
      const session = await this.connect((_, error) => (held.lost ??= error));
      const key = `${this.settings.schema}.${this.settings.name}`;
      try {
        const { rows } = await session.query<{ locked: boolean; pid: number }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked, pg_backend_pid() AS pid", [key]);
        if (!rows[0]!.locked) {
          await session.end();
          const holder = await this.holder();
          return {
            ...(holder ? { holder } : {}),
            refusal: new NetformError({
              code: "state.locked",
              message: holder
                ? `the state ${this.location} is locked by ${holder.who} for ${holder.operation} since ${holder.created} (lock ID ${holder.id})`
                : `the state ${this.location} is locked by a run that has not said who it is yet`,
              hint: holder ? `wait for that run to finish; if it is stuck, run: netform force-unlock ${holder.id}` : "wait for that run to finish",
            }),
          };
        }
        const info: LockInfo = {
          id: randomUUID(),
          operation,
          who: `${userInfo().username}@${hostname()} (pid ${process.pid})`,
          created: new Date().toISOString(),
          expires: "when its database session ends",
        };
        await session.query(
          `INSERT INTO ${this.t.locks} (name, id, operation, who, created, session) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO UPDATE SET id = EXCLUDED.id, operation = EXCLUDED.operation, who = EXCLUDED.who, created = EXCLUDED.created, session = EXCLUDED.session`,
          [this.settings.name, info.id, operation, info.who, info.created, rows[0]!.pid],
        );
        held.id = info.id;
        held.session = rows[0]!.pid;
        this.held = held;
        return {
          info,
          // The run's fence asks one question at a time (engine/fence.ts): the session answers one query at a time.
          check: async () => {
            await this.failIfLockLost("go on");
            // Asked on the lock's own session: once force-unlock has ended it, the question fails too.
            const alive = await session
              .query<{ held: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${this.t.locks} WHERE name = $1 AND id = $2 AND session = pg_backend_pid()) AS held`, [this.settings.name, held.id])
              .then((r) => r.rows[0]!.held)
              .catch(() => false);
            if (!alive) throw await this.lockTaken(held);
          },
          release: async () => {
            if (this.held === held) this.held = undefined;
            try {
              // A lock taken is someone else's row now, or nobody's: nothing to give back but the session.
              if (!held.lost && !held.taken) await session.query(`DELETE FROM ${this.t.locks} WHERE name = $1 AND id = $2`, [this.settings.name, info.id]);
            } catch {
              // The session died on the way: the server ended the advisory lock with it, and a row naming
              // a session that is gone counts for no one (holder()).
            } finally {
              // Ending the session ends the advisory lock with it.
              await session.end().catch(() => {});
            }
          },
        };
      } catch (error) {
        await session.end().catch(() => {});
        throw error;
      }
    });
  }

  /** Who holds the lock, when that holder's session is still alive. */
  private async holder(): Promise<LockInfo | undefined> {
    const db = await this.db();
    const { rows } = await db.query<LockRow>(`SELECT l.id, l.operation, l.who, l.created, l.session FROM ${this.t.locks} l JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1`, [this.settings.name]);
    return rows[0] && lockInfo(rows[0]);
  }

  async forceUnlock(id: string): Promise<LockInfo> {
    return this.reading("remove the lock", async () => {
      const db = await this.db();
      const { rows } = await db.query<LockRow>(`SELECT id, operation, who, created, session FROM ${this.t.locks} WHERE name = $1`, [this.settings.name]);
      const row = rows[0];
      if (!row) throw new NetformError({ code: "state.not_locked", message: `the state ${this.location} is not locked` });
      if (row.id !== id) {
        throw new NetformError({ code: "state.lock_mismatch", message: `the lock on ${this.location} has ID ${row.id}, not ${id}`, hint: `held by ${row.who} for ${row.operation}` });
      }
      // The row first: the delete waits for a write of the holder's under way (its fence holds the row),
      // and every write after it is refused. Then ending the holder's lock session frees the advisory lock,
      // wherever that holder runs.
      await db.query(`DELETE FROM ${this.t.locks} WHERE name = $1 AND id = $2`, [this.settings.name, id]);
      await db.query("SELECT pg_terminate_backend($1)", [row.session]);
      return lockInfo(row);
    });
  }

  async history(): Promise<StoredVersion[]> {
    return this.reading("read the history", async () => {
      const db = await this.db();
      const { rows } = await db.query<{ lineage: string; serial: number; written_at: Date; written_by: string | null }>(
        `SELECT lineage, serial, written_at, written_by FROM ${this.t.history} WHERE name = $1 ORDER BY written_at DESC, serial DESC`,
        [this.settings.name],
      );
      return rows.map((r) => ({ lineage: r.lineage, serial: r.serial, writtenAt: r.written_at.toISOString(), ...(r.written_by ? { writtenBy: r.written_by } : {}) }));
    });
  }

  async readVersion(serial: number): Promise<string | undefined> {
    return this.reading("read an earlier version", async () => {
      const db = await this.db();
      const { rows } = await db.query<{ content: string }>(`SELECT content FROM ${this.t.history} WHERE name = $1 AND serial = $2 ORDER BY written_at DESC LIMIT 1`, [this.settings.name, serial]);
      return rows[0]?.content;
    });
  }

  async resealHistory(reseal: (content: string) => string): Promise<number> {
    return this.guard("reseal the history", async () => {
      const db = await this.db();
      // One transaction: every version resealed, or none (a version reseal cannot open stops it).
      await db.query("BEGIN");
      try {
        let changed = 0;
        // In pages, in order: a long history of a large state need not fit in memory at once.
        let after = { lineage: "", serial: -1 };
        for (;;) {
          const { rows } = await db.query<{ lineage: string; serial: number; content: string }>(
            `SELECT lineage, serial, content FROM ${this.t.history} WHERE name = $1 AND (lineage, serial) > ($2::text, $3::integer) ORDER BY lineage, serial LIMIT 50`,
            [this.settings.name, after.lineage, after.serial],
          );
          if (rows.length === 0) break;
          for (const row of rows) {
            const content = reseal(row.content);
            if (content === row.content) continue;
            await db.query(`UPDATE ${this.t.history} SET content = $4 WHERE name = $1 AND lineage = $2 AND serial = $3`, [this.settings.name, row.lineage, row.serial, content]);
            changed += 1;
          }
          after = rows[rows.length - 1]!;
        }
        await db.query("COMMIT");
        return changed;
      } catch (error) {
        await db.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  async pruneHistory(keep: StateVersion): Promise<number> {
    return this.guard("prune the history", async () => {
      const db = await this.db();
      const { rowCount } = await db.query(`DELETE FROM ${this.t.history} WHERE name = $1 AND NOT (lineage = $2 AND serial = $3)`, [this.settings.name, keep.lineage, keep.serial]);
      return rowCount ?? 0;
    });
  }

  /**
   * Runs `body`, which changes the state: never repeated, as the outcome of a write whose connection
   * broke is unknown (the next run reads what was stored). A database's refusal is told as what it is.
   */
  private async guard<T>(action: string, body: () => Promise<T>): Promise<T> {
    await this.failIfLockLost(action);
    try {
      return await body();
    } catch (error) {
      throw this.failure(action, error);
    }
  }

  /**
   * Runs `body`, which only reads (or takes the lock, which a lost session gives back): when the
   * connection was lost, it is opened again with back-off and `body` repeated, for as long as a restart
   * takes. Not while this run holds the lock: that session went with the connection.
   */
  private async reading<T>(action: string, body: () => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + RECONNECT_WITHIN_MS;
    for (let attempt = 0; ; attempt++) {
      await this.failIfLockLost(action);
      try {
        return await body();
      } catch (error) {
        const restarting = this.reached || sqlState(error) === "57P03";
        if (this.held || !restarting || !isConnectionLoss(error) || Date.now() >= giveUpAt) throw this.failure(action, error);
        this.forget(this.client);
        // Jittered, so that the runners of a team do not all knock at the same moment.
        await delay(Math.min(2_000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2));
      }
    }
  }

  /**
   * A run whose lock session ended stops before it touches the state again: another run may hold the lock.
   * When the database still answers, what became of the lock (force-unlocked, taken over) says why.
   */
  private async failIfLockLost(action: string): Promise<void> {
    const held = this.held;
    if (held?.taken) throw held.taken;
    if (!held?.lost) return;
    let why: string;
    try {
      why = await this.whatBecameOf(held);
    } catch {
      throw this.lockLost(action, held.lost);
    }
    held.taken ??= lockLost(this.location, held.id, why);
    throw held.taken;
  }

  /** The lock this process holds, which every write names. */
  private holding(): LockSession {
    // Every writer takes the lock first (engine/run.ts, the state commands): a write without it is a defect.
    if (!this.held) throw new NetformError({ code: "internal", source: "internal", message: `a write to ${this.location} without its lock` });
    return this.held;
  }

  /**
   * The lock row, when it still names the lock ($2) and the session that took it ($3), alive; locked until
   * the statement's transaction ends, so that force-unlock and a takeover wait for the write.
   */
  private get heldRow(): string {
    return `SELECT 1 FROM ${this.t.locks} l JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1 AND l.id = $2 AND l.session = $3 FOR SHARE OF l`;
  }

  /** Inside a write's transaction: refused unless this process still holds the lock. */
  private async fence(db: pg.Client): Promise<void> {
    const held = this.holding();
    await db.query(`SET LOCAL idle_in_transaction_session_timeout = ${PAUSED_WRITER_MS}`);
    const { rowCount } = await db.query(this.heldRow, [this.settings.name, held.id, held.session]);
    if (rowCount !== 1) throw await this.lockTaken(held);
  }

  /** The refusal of a lock found gone, saying what became of it; every later write is refused alike. */
  private async lockTaken(held: LockSession): Promise<NetformError> {
    const why = await this.whatBecameOf(held).catch(() => ENDED);
    held.taken ??= lockLost(this.location, held.id, why);
    return held.taken;
  }

  /** What the lock row says became of this run's lock; throws when the database cannot be asked. */
  private async whatBecameOf(held: LockSession): Promise<string> {
    const { rows } = await (await this.db()).query<LockRow & { alive: boolean }>(
      `SELECT l.id, l.operation, l.who, l.created, l.session, a.pid IS NOT NULL AS alive FROM ${this.t.locks} l LEFT JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1`,
      [this.settings.name],
    );
    const row = rows[0];
    if (!row) return "it was removed (netform force-unlock removes it and ends the database session that held it)";
    if (row.id !== held.id) return `another run took it over: ${row.who} for ${row.operation} since ${row.created.toISOString()} (lock ID ${row.id})${row.alive ? "" : ", since ended"}`;
    return ENDED;
  }

  private lockLost(action: string, cause: Error): NetformError {
    return new NetformError({
      code: "state.lock-lost",
      message: `this run lost its connection to the postgres backend while it held the state lock (${cause.message}), and stopped rather than ${action} (${this.location})`,
      hint:
        "the database releases an advisory lock with the session that held it, so another run may hold the lock now: this run makes no further change. " +
        "Once the database answers again, run the command again: every step this run saved is kept, and a change it had in flight is found and adopted, not made twice",
      cause,
    });
  }

  /** The error a failed operation ends with: what happened, and what to check for that kind of failure. */
  private failure(action: string, error: unknown): NetformError {
    if (error instanceof NetformError) return error;
    if (isConnectionLoss(error)) {
      this.forget(this.client);
      if (this.held) return this.lockLost(action, error as Error);
      if (!this.reached) return unreachable(this.settings.url, error);
      return new NetformError({
        code: "backend.postgres.connection",
        message: `the postgres backend at ${safeUrl(this.settings.url)} stopped answering and did not come back within ${RECONNECT_WITHIN_MS / 1000}s, so this run could not ${action}: ${(error as Error).message}`,
        hint: "check that the database is up and reachable from here (a restart or a fail-over that takes longer), then run again: nothing was written since",
        cause: error,
      });
    }
    const state = sqlState(error);
    return new NetformError({
      code: "backend.postgres",
      message: `the postgres backend refused to ${action} (${this.location}): ${(error as Error).message}`,
      hint:
        state === "42501"
          ? `the database user lacks a right on netform's tables: it needs USAGE on schema ${this.settings.schema} and SELECT, INSERT, UPDATE, DELETE on its tables (netform state ddl --grant ROLE prints the grants)`
          : state === "42P01"
            ? `a table of netform's is missing in schema ${this.settings.schema}: netform state ddl prints the SQL that makes them`
            : "the server's log says more",
      cause: error,
    });
  }

  /** The workspaces other than the default beside this state (opened as the default workspace's). */
  async workspaces(): Promise<string[]> {
    return this.guard("list the workspaces", async () => {
      const db = await this.db();
      const prefix = postgresWorkspaceName(this.settings.name, "");
      const { rows } = await db.query<{ name: string }>(`SELECT name FROM ${this.t.states} WHERE left(name, char_length($1)) = $1 ORDER BY name`, [prefix]);
      return rows.map((r) => r.name.slice(prefix.length));
    });
  }

  /** Removes the state with its history and journal, in one transaction; the lock's row goes with its release. */
  async delete(): Promise<void> {
    return this.guard("delete the state", async () => {
      const db = await this.db();
      await db.query("BEGIN");
      try {
        await this.fence(db);
        for (const table of [this.t.states, this.t.history, this.t.journal]) await db.query(`DELETE FROM ${table} WHERE name = $1`, [this.settings.name]);
        await db.query("COMMIT");
      } catch (error) {
        await db.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => {});
  }
}

/**
 * A workspace's state name: the backend block's name, a slash, the workspace's. A name never holds a slash
 * of its own (backend.postgres.name), so no workspace's state is ever another state's.
 */
export const postgresWorkspaceName = (name: string, workspace: string): string => `${name}/${workspace}`;
