// The database port (db/port.ts) on one bun:sqlite connection: drizzle's asynchronous builder and
// the cached statements run on it, and asynchronous write transactions are serialised behind a
// gate that every other statement on the connection waits at while one is open.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database, Statement } from "bun:sqlite";
import { statSync } from "node:fs";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { databaseBusy, WRITE_WAIT_MS, type Binding, type DatabasePort, type Db, type Statements } from "../port";
import { setBounded } from "../../core/bounded";
import { createGate } from "../gate";
import { migrate, schemaVersion } from "./migrate";

type Params = readonly Binding[];

/** An open (or ended) transaction, known to the statements of its asynchronous flow. */
interface Transaction {
  open: boolean;
  db: Db;
  savepoints: number;
}

/** How a statement reaches the connection: at once, after the gate, or refused. */
type Access = <T>(statement: () => T) => T | Promise<T>;

const SQLITE = Symbol("sqlite connection");

/** Another process held the write lock past the wait (busy_timeout for a statement alone, the port's own wait for a transaction). */
const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code ?? ""));

/** Runs a statement, SQLite's busy answer turned into the 503 above. */
function guarded<T>(statement: () => T): T {
  try {
    return statement();
  } catch (error) {
    throw isBusy(error) ? databaseBusy() : error;
  }
}

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Fixed statements kept prepared beyond this many are let go, the oldest first (an IN list's length varies its text). */
const STATEMENTS_KEPT = 512;

/**
 * The connection's prepared fixed statements by their text. bun:sqlite's own cache (`query()`)
 * finds a statement by scanning its list, ~0.45 µs a lookup when full, which a statement's run
 * (~0.25 µs for a point read) does not need: a request's path runs tens of them.
 */
function statementCache(sqlite: Database) {
  const kept = new Map<string, Statement<unknown, Binding[]>>();
  const prepared = (sql: string): Statement<unknown, Binding[]> => {
    let statement = kept.get(sql);
    if (statement) return statement;
    statement = sqlite.prepare<unknown, Binding[]>(sql);
    setBounded(kept, sql, statement, STATEMENTS_KEPT, (oldest) => oldest.finalize());
    return statement;
  };
  /** Finalizes them all: SQLite closes a connection (checkpointing its log) only once none is left. */
  const clear = () => {
    for (const statement of kept.values()) statement.finalize();
    kept.clear();
  };
  return Object.assign(prepared, { clear });
}
type Prepared = (sql: string) => Statement<unknown, Binding[]>;

/** Drizzle's asynchronous builder and the cached statements, both reaching SQLite through `access`. */
function session(sqlite: Database, prepared: Prepared, access: Access, write: Db["write"], database: object): Db {
  // The builder's SQL varies (IN lists, search filters): prepared per call as drizzle's own
  // bun:sqlite driver does, so it never evicts the fixed statements from the statement cache.
  const orm = drizzle(async (sql, params, method) =>
    access(() => {
      const statement = sqlite.prepare(sql);
      try {
        if (method === "run") return { rows: [], changes: statement.run(...(params as Binding[])).changes };
        const rows = statement.values(...(params as Binding[]));
        // drizzle reads a missing first row as "no row".
        return { rows: (method === "get" ? rows[0] : rows) as unknown[] };
      } finally {
        statement.finalize();
      }
    }),
  );
  const statements: Statements = {
    all: async <R>(sql: string, params: Params = []) => access(() => prepared(sql).all(...(params as Binding[])) as R[]),
    get: async <R>(sql: string, params: Params = []) => access(() => (prepared(sql).get(...(params as Binding[])) as R | null) ?? null),
    run: async (sql: string, params: Params = []) => access(() => ({ changes: prepared(sql).run(...(params as Binding[])).changes })),
  };
  return Object.assign(orm, { statements, write, database, engine: "sqlite" as const, [SQLITE]: { sqlite, access } }) as unknown as Db;
}

export interface SqlitePortOptions {
  /** How long a write waits for other processes' writes before its 503 (default WRITE_WAIT_MS; tests wait less). */
  writeWaitMs?: number;
}

export function createSqlitePort(sqlite: Database, options: SqlitePortOptions = {}): DatabasePort {
  const writeWaitMs = Math.round(options.writeWaitMs ?? WRITE_WAIT_MS);
  // A statement alone (outside a transaction) waits in SQLite's busy handler; the write lock of a
  // transaction is waited for below, off the thread.
  sqlite.exec(`PRAGMA busy_timeout = ${writeWaitMs}`);
  // Run anew each time: SQLite applies a pragma when it compiles it, so a prepared one set it once.
  const noWait = () => sqlite.exec("PRAGMA busy_timeout = 0");
  const wait = () => sqlite.exec(`PRAGMA busy_timeout = ${writeWaitMs}`);
  const gate = createGate();
  const prepared = statementCache(sqlite);
  const database = {};
  const flow = new AsyncLocalStorage<Transaction>();

  /** Outside a transaction: at once when nothing is queued, inside the caller's own transaction, else once the queue has drained. */
  const outside: Access = (statement) => {
    if (!gate.busy()) return guarded(statement);
    const current = flow.getStore();
    if (current?.open) return statement();
    return gate.idle().then(() => guarded(statement));
  };

  async function write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const current = flow.getStore();
    if (current?.open) return savepoint(current, work);
    return gate.exclusive(async () => {
      const transaction: Transaction = { open: true, db: undefined as unknown as Db, savepoints: 0 };
      // A transaction object kept past its end would run statements outside any transaction.
      transaction.db = session(
        sqlite,
        prepared,
        (statement) => {
          if (!transaction.open) throw new Error("This transaction has ended: its statements can no longer run.");
          return statement();
        },
        write,
        database,
      );
      // IMMEDIATE takes the write lock up front: a deferred transaction that reads first and writes
      // later fails with SQLITE_BUSY when another connection wrote in between, instead of waiting.
      const waiting = beginImmediate();
      if (waiting) await waiting;
      try {
        const result = await flow.run(transaction, () => work(transaction.db));
        sqlite.exec("COMMIT");
        return result;
      } catch (error) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw error;
      } finally {
        transaction.open = false;
      }
    });
  }

  /**
   * BEGIN IMMEDIATE without waiting on the thread: SQLite's busy handler sleeps on the calling
   * thread, so a write meeting another process's lock (another worker or server, the CLI) would stop
   * every request of this process until the lock came free. Tried at once, then again after pauses
   * growing to 32 ms, until the wait is spent (then the 503). Meanwhile the event loop runs: this
   * process's other statements wait at the gate, but /ping, timers and connections do not.
   */
  function beginImmediate(): Promise<void> | undefined {
    // Taken at once (nearly always): no await on the common path.
    return tryBegin() ? undefined : waitForLock();
  }

  function tryBegin(): boolean {
    noWait();
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      return true;
    } catch (error) {
      if (!isBusy(error)) throw error;
      return false;
    } finally {
      wait();
    }
  }

  async function waitForLock(): Promise<void> {
    const deadline = performance.now() + writeWaitMs;
    for (let pause = 1; ; pause = Math.min(2 * pause, 32)) {
      const left = deadline - performance.now();
      if (left <= 0) throw databaseBusy();
      await Bun.sleep(Math.min(pause, left));
      if (tryBegin()) return;
    }
  }

  /** A write inside a write: a savepoint, so its throw undoes only its own writes. */
  async function savepoint<T>(transaction: Transaction, work: (tx: Db) => Promise<T>): Promise<T> {
    const name = `nested_${++transaction.savepoints}`;
    sqlite.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work(transaction.db);
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      sqlite.exec(`ROLLBACK TO ${name}`);
      sqlite.exec(`RELEASE ${name}`);
      throw error;
    }
  }

  const db = session(sqlite, prepared, outside, write, database);
  return Object.assign(db, {
    ready: () => Promise.resolve(),
    migrate: (now: number) => gate.exclusive(async () => migrate(sqlite, now)),
    schemaVersion: async () => outside(() => schemaVersion(sqlite)),
    changeCounter: async () => outside(() => sqlite.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version),
    sizeBytes: async () => {
      if (sqlite.filename === ":memory:" || sqlite.filename === "") return 0;
      return fileSize(sqlite.filename) + fileSize(`${sqlite.filename}-wal`);
    },
    optimize: async () =>
      outside(() => {
        sqlite.exec("PRAGMA optimize");
        return sqlite.query<Record<string, number>, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
      }),
    close: () => {
      prepared.clear();
      sqlite.close();
    },
  });
}

/**
 * Synchronous work on the SQLite connection itself, for the engine's own code (the FTS5 search
 * engine, the checkpointer, backups): run when the gate lets a statement of `db` through (inside
 * `db`'s transaction, or when none is open), so no await may split it.
 */
export async function onConnection<T>(db: Db, work: (sqlite: Database) => T): Promise<T> {
  const own = (db as unknown as { [SQLITE]?: { sqlite: Database; access: Access } })[SQLITE];
  if (!own) throw new Error("onConnection: not a SQLite database port");
  return own.access(() => work(own.sqlite));
}

/** The connection a SQLite port runs on, for start-up and shut-down code that no request races. */
export function sqliteOf(db: Db): Database {
  const own = (db as unknown as { [SQLITE]?: { sqlite: Database } })[SQLITE];
  if (!own) throw new Error("sqliteOf: not a SQLite database port");
  return own.sqlite;
}
