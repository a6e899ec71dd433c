// The database port (db/port.ts) on a PostgreSQL server, through a pool of postgres.js connections.
//
// The stores speak one SQL: drizzle's SQLite builder and fixed statements with `?` placeholders,
// over the tables of db/tables. On PostgreSQL the same text runs with the placeholders numbered
// (placeholders.ts) on tables made from the same description (schema.ts), whose types answer what
// SQLite's do: bigint and numeric as numbers, JSON as its text (drizzle's JSON columns parse it),
// 0/1 integers for booleans. The few statements whose SQL differs ask `db.engine`.
//
// Write transactions keep SQLite's semantics: one at a time. Each takes a transaction-scoped
// advisory lock first, so writers of every process on the database run one after another as on
// SQLite (reads never wait: they see the last commit); in this process they queue at the gate, so
// only the head of the queue holds a pooled connection while it waits for that lock.
import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import postgres from "postgres";
import { HttpError } from "../../core/errors";
import { connectionOf } from "../../core/postgres-tls";
import { createGate } from "../gate";
import { databaseBusy, DatabaseUnreachable, WRITE_WAIT_MS, type Binding, type DatabasePort, type Db, type Statements } from "../port";
import { migrate, schemaVersion } from "./migrate";
import { numberedPlaceholders } from "./placeholders";

type Sql = postgres.Sql;
type Params = readonly Binding[];

const POSTGRES = Symbol("postgres client");

/** The advisory lock every write transaction takes (any fixed number; "cairn" in ASCII). */
const WRITE_LOCK = 0x636169726e;

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/** TLS refused: the server's certificate not trusted, expired or for another name, or the handshake failed (Node's codes). */
const TLS_REFUSAL = /CERT|TLS|SSL|UNABLE_TO_(GET|VERIFY)/;

/** A lost or refused connection (or a server shutting down, SQLSTATE 57P0x, class 08): the database is away, not the request wrong. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return CONNECTION_CODES.has(code) || code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || TLS_REFUSAL.test(code);
}

/**
 * PostgreSQL's text holds no NUL character (SQLite's does): a value with one is refused by the
 * server (SQLSTATE 22021), before anything is written. It came from the client, so a 400.
 */
const NUL_IN_TEXT = "22021";
const nulRefused = () => new HttpError(400, "Text holding a NUL character (U+0000) cannot be stored or looked up: remove it and send again.");

/** A server error that is the client's (a 4xx), the database being away (503), or the error itself. */
const translated = (error: unknown) => (isConnectionError(error) ? unavailable() : (error as { code?: unknown } | null)?.code === NUL_IN_TEXT ? nulRefused() : error);

/**
 * The write lock, waited for at most `waitMs` as SQLite's busy timeout bounds its wait: past it the
 * wait is cancelled and the write is a 503. (Cancelled from here rather than by PostgreSQL's
 * lock_timeout, whose timer a server under a shifted clock, as in the year-ahead test run, never fires.)
 */
async function takeWriteLock(txSql: postgres.TransactionSql, waitMs: number) {
  const lock = txSql.unsafe(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`).execute();
  let waited = false;
  const timer = setTimeout(() => {
    waited = true;
    lock.cancel();
  }, waitMs);
  try {
    await lock;
  } catch (error) {
    throw waited ? databaseBusy() : error;
  } finally {
    clearTimeout(timer);
  }
}

const unavailable = () => new HttpError(503, "The database is not reachable just now; nothing was changed. Try again shortly.", undefined, { "Retry-After": "5" });

/** The database's address without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ""}${u.host}${u.pathname}`;
  } catch {
    return "the configured database";
  }
}

/** A client with the types the stores expect (see above). */
export function openClient(url: string, max = 10): Sql {
  const asNumber = (x: string) => Number(x);
  const connection = connectionOf(url);
  return postgres(connection.url, {
    max,
    ssl: connection.ssl,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: "cairn" },
    types: {
      // int8 (counts, epoch ms, ids) and numeric (sum(), avg()) as numbers, as SQLite answers them.
      int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: asNumber },
      numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: asNumber },
      // JSON as its text: drizzle's JSON columns and the stores parse it, as they do SQLite's text.
      jsonText: { to: 114, from: [114, 3802], serialize: (x: string) => x, parse: (x: string) => x },
    },
  });
}

/** A bound value as PostgreSQL takes it: booleans as the 0/1 the integer columns hold. */
const bind = (params: Params | unknown[]): postgres.ParameterOrJSON<never>[] => params.map((p) => (p === true ? 1 : p === false ? 0 : p)) as postgres.ParameterOrJSON<never>[];

interface Transaction {
  open: boolean;
  sql: postgres.TransactionSql;
  db: Db;
  savepoints: number;
}

/** How a statement reaches a connection: the pool, or the transaction's own. */
type Runner = () => Sql | postgres.TransactionSql;

function session(runner: Runner, ready: () => Promise<void>, write: Db["write"], database: object): Db {
  const query = async <T>(work: (sql: Sql | postgres.TransactionSql) => Promise<T>): Promise<T> => {
    await ready();
    try {
      return await work(runner());
    } catch (error) {
      throw translated(error);
    }
  };
  const orm = drizzle(async (text, params, method) =>
    query(async (sql) => {
      const q = numberedPlaceholders(text);
      if (method === "run") {
        const result = await sql.unsafe(q, bind(params), { prepare: true });
        return { rows: [], changes: result.count ?? 0 };
      }
      const rows = (await sql.unsafe(q, bind(params), { prepare: true }).values()) as unknown[][];
      return { rows: method === "get" ? (rows[0] as unknown[]) : rows };
    }),
  );
  const statements: Statements = {
    all: <R>(text: string, params: Params = []) => query(async (sql) => (await sql.unsafe(numberedPlaceholders(text), bind(params), { prepare: true })) as unknown as R[]),
    get: <R>(text: string, params: Params = []) =>
      query(async (sql) => ((await sql.unsafe(numberedPlaceholders(text), bind(params), { prepare: true }))[0] as R | undefined) ?? null),
    run: (text: string, params: Params = []) => query(async (sql) => ({ changes: (await sql.unsafe(numberedPlaceholders(text), bind(params), { prepare: true })).count ?? 0 })),
  };
  return Object.assign(orm, { statements, write, database, engine: "postgres" as const }) as unknown as Db;
}

export interface PostgresPortOptions {
  /** Applies the missing migrations before the first statement runs (at this time, ms). */
  migrateAt?: number;
  /** Pooled connections (default 10). */
  max?: number;
  /** How long a write waits for other processes' writes before its 503 (default WRITE_WAIT_MS; tests wait less). */
  writeWaitMs?: number;
}

export function createPostgresPort(url: string, options: PostgresPortOptions = {}): DatabasePort {
  const sql = openClient(url, options.max);
  const writeWaitMs = Math.round(options.writeWaitMs ?? WRITE_WAIT_MS);
  const gate = createGate();
  const database = {};
  const flow = new AsyncLocalStorage<Transaction>();

  // Connected (and migrated) once, before the first statement: createServices stays synchronous.
  let starting: Promise<void> | null = null;
  let started = false;
  const start = async () => {
    try {
      await sql.unsafe("SELECT 1");
      if (options.migrateAt !== undefined) await migrate(sql, options.migrateAt);
      started = true;
    } catch (error) {
      starting = null;
      if (isConnectionError(error) || (error as { code?: string }).code === "28P01" || (error as { code?: string }).code === "3D000") {
        throw new DatabaseUnreachable(`cannot reach the database ${describeUrl(url)}: ${(error as Error).message}`);
      }
      throw error;
    }
  };
  const ready = (): Promise<void> => (started ? Promise.resolve() : (starting ??= start()));

  const outside: Runner = () => {
    const current = flow.getStore();
    return current?.open ? current.sql : sql;
  };

  async function write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const current = flow.getStore();
    if (current?.open) return savepoint(current, work);
    await ready();
    return gate.exclusive(async () => {
      try {
        return (await sql.begin(async (txSql) => {
          const transaction: Transaction = { open: true, sql: txSql, db: undefined as unknown as Db, savepoints: 0 };
          transaction.db = session(
            () => {
              if (!transaction.open) throw new Error("This transaction has ended: its statements can no longer run.");
              return txSql;
            },
            ready,
            write,
            database,
          );
          try {
            await takeWriteLock(txSql, writeWaitMs);
            return await flow.run(transaction, () => work(transaction.db));
          } finally {
            transaction.open = false;
          }
        })) as T;
      } catch (error) {
        throw translated(error);
      }
    });
  }

  /** A write inside a write: a savepoint, so its throw undoes only its own writes. */
  async function savepoint<T>(transaction: Transaction, work: (tx: Db) => Promise<T>): Promise<T> {
    const name = `nested_${++transaction.savepoints}`;
    await transaction.sql.unsafe(`SAVEPOINT ${name}`);
    try {
      const result = await work(transaction.db);
      await transaction.sql.unsafe(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await transaction.sql.unsafe(`ROLLBACK TO SAVEPOINT ${name}`);
      await transaction.sql.unsafe(`RELEASE SAVEPOINT ${name}`);
      throw error;
    }
  }

  const db = session(outside, ready, write, database);
  return Object.assign(db, {
    ready,
    migrate: async (now: number) => {
      await ready();
      return migrate(sql, now);
    },
    schemaVersion: async () => {
      await ready();
      return schemaVersion(sql);
    },
    // The write-ahead log's position: it moves with every commit of any process (and with some
    // housekeeping, so a cache may refresh when nothing it holds changed, never the reverse).
    changeCounter: async () => {
      await ready();
      const row = (await sql.unsafe("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS n"))[0] as unknown as { n: number };
      return row.n;
    },
    sizeBytes: async () => {
      await ready();
      return ((await sql.unsafe("SELECT pg_database_size(current_database()) AS n"))[0] as unknown as { n: number }).n;
    },
    // Fresh planner statistics (after a copy or a restore the tables have none until autovacuum
    // comes round), the GIN indexes' pending entries merged; the rest autovacuum does.
    optimize: async () => {
      await ready();
      await sql.unsafe("ANALYZE");
      // The full-text (GIN) indexes' pending lists merged in, which searches read through sequentially.
      await sql.unsafe(
        "SELECT gin_clean_pending_list(c.oid::regclass) FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace WHERE a.amname = 'gin' AND n.nspname = current_schema()",
      );
      return null;
    },
    close: () => {
      void sql.end({ timeout: 5 });
    },
    [POSTGRES]: sql,
  });
}

/** The client a PostgreSQL port runs on, for the engine's own code (backups, the copy command): outside any transaction. */
export function postgresOf(db: Db): Sql {
  const sql = (db as unknown as { [POSTGRES]?: Sql })[POSTGRES];
  if (!sql) throw new Error("postgresOf: not a PostgreSQL database port");
  return sql;
}
