// Opens the SQLite database with the pragmas Cairn relies on (and its port, db/sqlite/port.ts); per-connection housekeeping.
import { Database } from "bun:sqlite";
import { closeSync, existsSync, openSync } from "node:fs";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as tables from "../tables";
import { migrate } from "./migrate";
import { WRITE_WAIT_MS, type DatabasePort, type Db } from "../port";
import { createSqlitePort, onConnection, type SqlitePortOptions } from "./port";

// bun:sqlite keeps only the 20 most recently used statements of db.query(); the SQLite engine's own
// code (the search index, its writes on a publish) uses more than that, so most were compiled
// again on every call (a sixth of a publish's CPU). Room for all of them and a margin of search SQL;
// a lookup scans the cache, so not far more (a full cache of 1,000 made each lookup 1.2 µs, of 256
// 0.5 µs). The port's fixed statements are kept apart, by text (port.ts).
Database.MAX_QUERY_CACHE_SIZE = 256;

/** Opens (creating) the database file with Cairn's pragmas: the raw connection, for start-up code and tools. */
export function openSqlite(path: string): Database {
  // Created owner-only before SQLite opens it: the -wal and -shm files take the database's mode.
  if (path !== ":memory:" && !existsSync(path)) closeSync(openSync(path, "a", 0o600));
  const sqlite = new Database(path, { create: true, strict: true });
  // First, so that the pragmas after it wait for a lock another connection holds instead of
  // failing at once (journal_mode needs one while a closing connection still has the file).
  sqlite.exec(`PRAGMA busy_timeout = ${WRITE_WAIT_MS}`);
  // WAL lets readers run beside the writer (and the CLI beside a running server).
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return sqlite;
}

/**
 * The database port on the file at `path`. With `migrateAt`, the missing migrations are applied
 * first, synchronously: at start-up nothing else uses the connection yet.
 */
export function openDatabase(path: string, migrateAt?: number, options?: SqlitePortOptions): DatabasePort {
  const sqlite = openSqlite(path);
  if (migrateAt !== undefined) migrate(sqlite, migrateAt);
  return createSqlitePort(sqlite, options);
}

/** A read-only connection to a database another connection has opened (a reader worker's). */
export function openReader(path: string): Database {
  const sqlite = new Database(path, { readwrite: true, create: false, strict: true });
  sqlite.exec("PRAGMA query_only = 1");
  sqlite.exec(`PRAGMA busy_timeout = ${WRITE_WAIT_MS}`);
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return sqlite;
}

/** Runs `work` with SQLite's page cache at `kib` KiB, restored afterwards (it is per connection): bulk writes whose B-trees outgrow the default 2 MB. */
export async function withPageCache<T>(db: Db, kib: number, work: () => Promise<T>): Promise<T> {
  // A server engine sizes its own caches: nothing to set.
  if (db.engine !== "sqlite") return work();
  const previous = await onConnection(db, (sqlite) => {
    const before = sqlite.query<{ cache_size: number }, []>("PRAGMA cache_size").get()!.cache_size;
    sqlite.exec(`PRAGMA cache_size = -${kib}`);
    return before;
  });
  try {
    return await work();
  } finally {
    await onConnection(db, (sqlite) => sqlite.exec(`PRAGMA cache_size = ${previous}`));
  }
}

/**
 * Drizzle's synchronous builder on the raw connection, for the SQLite engine's own code (the FTS5
 * search engine, its reader workers): reached from the port through `onSqlite`, so every call
 * still passes the gate once, at the boundary, and none of its per-row work awaits.
 */
export type SqliteDb = BunSQLiteDatabase<typeof tables> & { $client: Database };

const syncBuilders = new WeakMap<Database, SqliteDb>();

export function syncDb(sqlite: Database): SqliteDb {
  let db = syncBuilders.get(sqlite);
  if (!db) syncBuilders.set(sqlite, (db = drizzle({ client: sqlite, schema: tables }) as SqliteDb));
  return db;
}

/** Synchronous work on the SQLite engine's builder, run when the gate lets a statement of `db` through. */
export const onSqlite = <T>(db: Db, work: (sqlite: SqliteDb) => T): Promise<T> => onConnection(db, (sqlite) => work(syncDb(sqlite)));
