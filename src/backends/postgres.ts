// The postgres backend: one row per state name in `<schema>.states` (content, lineage, serial), every
// version ever written in `<schema>.state_history`, and the lock as a PostgreSQL advisory lock taken on
// a connection of its own and held for the whole run. The database ends that lock with the session, so a
// runner that crashes or is killed frees it without anyone's help; the row in `<schema>.state_locks` says
// who holds it (and which database session), for the refusal and for `force-unlock` from any machine.
// A write is one transaction that updates the row only if it still holds the version the run read: two
// writers can never interleave, whatever happens to the locks. Between two versions, a run's steps are
// rows of `<schema>.state_journal` (one insert each, committed before the step goes on); the write of the
// next version deletes them in its own transaction.
//
// Every write is fenced: in its own transaction it finds the lock row still naming this run's lock ID
// and the database session that took it, alive, and holds that row until it commits, so force-unlock and
// a takeover wait for the write, and a write after either is refused (state.lock-lost).

import { hostname, userInfo } from "node:os";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { NetformError } from "../diag/index.js";
import { conflict, lockLost, type HeldLock, type LockInfo, type LockRefusal, type StateBackend, type StateJournal, type StateVersion, type StoredVersion } from "../state/index.js";

export interface PostgresSettings {
  url: string;
  schema: string;
  name: string;
}

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

/** The lock this process holds: its ID, and the database session that took it; `lost` once a write or a check found it gone. */
interface Holding {
  id: string;
  session: number;
  lost?: NetformError;
}

/**
 * How long a holder may sit idle inside a write's transaction before the server ends its session: a
 * runner paused there (a stalled CI machine) would otherwise keep force-unlock waiting for the lock row.
 */
const PAUSED_WRITER_MS = 10_000;

export class PostgresBackend implements StateBackend {
  readonly type = "postgres";
  readonly location: string;
  private readonly t: { states: string; history: string; locks: string; journal: string };
  private client: pg.Client | undefined;
  private ready: Promise<pg.Client> | undefined;
  private holding: Holding | undefined;

  constructor(private readonly settings: PostgresSettings) {
    // The schema is checked as an identifier by the configuration's schema: it can be quoted as is.
    const q = `"${settings.schema}"`;
    this.t = { states: `${q}.states`, history: `${q}.state_history`, locks: `${q}.state_locks`, journal: `${q}.state_journal` };
    this.location = `"${settings.name}" in postgres ${safeUrl(settings.url)} (schema ${settings.schema})`;
  }

  private async connect(): Promise<pg.Client> {
    // Loaded here, not at the top: only runs whose state is in PostgreSQL need the driver.
    const { default: driver } = await import("pg");
    const client = new driver.Client({ connectionString: this.settings.url, application_name: "netform" });
    // A connection lost later (the server restarted) fails the query in flight; it must not crash the process.
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      throw unreachable(this.settings.url, error);
    }
    return client;
  }

  /** The connection for reads and writes, with the tables made on first use. */
  private db(): Promise<pg.Client> {
    this.ready ??= (async () => {
      const client = await this.connect();
      this.client = client;
      // Two runners starting on an empty database would race to create the tables: one at a time.
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('netform schema setup', 0))");
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.settings.schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.t.states} (name text PRIMARY KEY, lineage text NOT NULL, serial integer NOT NULL, content text NOT NULL, written_at timestamptz NOT NULL DEFAULT now(), written_by text)`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.t.history} (name text NOT NULL, lineage text NOT NULL, serial integer NOT NULL, content text NOT NULL, written_at timestamptz NOT NULL DEFAULT now(), written_by text, PRIMARY KEY (name, lineage, serial))`,
      );
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.t.locks} (name text PRIMARY KEY, id text NOT NULL, operation text NOT NULL, who text NOT NULL, created timestamptz NOT NULL, session integer NOT NULL)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.t.journal} (position bigserial PRIMARY KEY, name text NOT NULL, line text NOT NULL)`);
      await client.query("COMMIT");
      return client;
    })();
    return this.ready;
  }

  async read(): Promise<string | undefined> {
    return this.guard("read the state", async () => {
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
      this.guard("read the state journal", async () => {
        const db = await this.db();
        const { rows } = await db.query<{ line: string }>(`SELECT line FROM ${this.t.journal} WHERE name = $1 ORDER BY position`, [this.settings.name]);
        return rows.map((r) => r.line).join("");
      }),
    append: (line) =>
      this.guard("journal a step of the run", async () => {
        const db = await this.db();
        const held = this.held();
        // One statement, the fence inside it: no transaction is left open between the check and the insert.
        const { rowCount } = await db.query(`INSERT INTO ${this.t.journal} (name, line) SELECT $1, $4 WHERE EXISTS (${this.heldRow})`, [this.settings.name, held.id, held.session, line]);
        if (rowCount !== 1) throw await this.lost(held);
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
    return this.guard("take the lock", async () => {
      await this.db();
      // The lock's own session: it lives exactly as long as this process holds the lock.
      const session = await this.connect();
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
        const held: Holding = { id: info.id, session: rows[0]!.pid };
        this.holding = held;
        return {
          info,
          check: async () => {
            if (held.lost) throw held.lost;
            // Asked on the lock's own session: once force-unlock has ended it, the question fails too.
            const alive = await session
              .query<{ held: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${this.t.locks} WHERE name = $1 AND id = $2 AND session = pg_backend_pid()) AS held`, [this.settings.name, held.id])
              .then((r) => r.rows[0]!.held)
              .catch(() => false);
            if (!alive) throw await this.lost(held);
          },
          release: async () => {
            if (this.holding === held) this.holding = undefined;
            // A lost lock is someone else's row now, or nobody's, and its session is gone: nothing to give back.
            if (held.lost) {
              await session.end().catch(() => {});
              return;
            }
            try {
              await session.query(`DELETE FROM ${this.t.locks} WHERE name = $1 AND id = $2`, [this.settings.name, info.id]);
            } finally {
              // Ending the session ends the advisory lock with it.
              await session.end();
            }
          },
        };
      } catch (error) {
        await session.end().catch(() => {});
        throw error;
      }
    });
  }

  /** The lock this process holds, which every write names. */
  private held(): Holding {
    // Every writer takes the lock first (engine/run.ts, the state commands): a write without it is a defect.
    if (!this.holding) throw new NetformError({ code: "internal", source: "internal", message: `a write to ${this.location} without its lock` });
    if (this.holding.lost) throw this.holding.lost;
    return this.holding;
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
    const held = this.held();
    await db.query(`SET LOCAL idle_in_transaction_session_timeout = ${PAUSED_WRITER_MS}`);
    const { rowCount } = await db.query(this.heldRow, [this.settings.name, held.id, held.session]);
    if (rowCount !== 1) throw await this.lost(held);
  }

  /** The refusal of a lock found gone, saying what became of it; every later write is refused alike. */
  private async lost(held: Holding): Promise<NetformError> {
    const ended = "the database session that held it ended (netform force-unlock ends it; so does a lost connection, or a restart of the database)";
    let why: string;
    try {
      const { rows } = await (await this.db()).query<LockRow & { alive: boolean }>(
        `SELECT l.id, l.operation, l.who, l.created, l.session, a.pid IS NOT NULL AS alive FROM ${this.t.locks} l LEFT JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1`,
        [this.settings.name],
      );
      const row = rows[0];
      why = !row
        ? "it was removed (netform force-unlock removes it and ends the database session that held it)"
        : row.id !== held.id
          ? `another run took it over: ${row.who} for ${row.operation} since ${row.created.toISOString()} (lock ID ${row.id})${row.alive ? "" : ", since ended"}`
          : ended;
    } catch {
      why = ended;
    }
    held.lost ??= lockLost(this.location, held.id, why);
    return held.lost;
  }

  /** Who holds the lock, when that holder's session is still alive. */
  private async holder(): Promise<LockInfo | undefined> {
    const db = await this.db();
    const { rows } = await db.query<LockRow>(`SELECT l.id, l.operation, l.who, l.created, l.session FROM ${this.t.locks} l JOIN pg_stat_activity a ON a.pid = l.session WHERE l.name = $1`, [this.settings.name]);
    return rows[0] && lockInfo(rows[0]);
  }

  async forceUnlock(id: string): Promise<LockInfo> {
    return this.guard("remove the lock", async () => {
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
    return this.guard("read the history", async () => {
      const db = await this.db();
      const { rows } = await db.query<{ lineage: string; serial: number; written_at: Date; written_by: string | null }>(
        `SELECT lineage, serial, written_at, written_by FROM ${this.t.history} WHERE name = $1 ORDER BY written_at DESC, serial DESC`,
        [this.settings.name],
      );
      return rows.map((r) => ({ lineage: r.lineage, serial: r.serial, writtenAt: r.written_at.toISOString(), ...(r.written_by ? { writtenBy: r.written_by } : {}) }));
    });
  }

  async readVersion(serial: number): Promise<string | undefined> {
    return this.guard("read an earlier version", async () => {
      const db = await this.db();
      const { rows } = await db.query<{ content: string }>(`SELECT content FROM ${this.t.history} WHERE name = $1 AND serial = $2 ORDER BY written_at DESC LIMIT 1`, [this.settings.name, serial]);
      return rows[0]?.content;
    });
  }

  /** Runs `body`, telling a database's refusal (no privilege, a full disk) as what it is. */
  private async guard<T>(action: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof NetformError) throw error;
      throw new NetformError({
        code: "backend.postgres",
        message: `the postgres backend could not ${action} (${this.location}): ${(error as Error).message}`,
        hint: "check that the database user may create and write tables in the schema, and the server's log",
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => {});
  }
}
