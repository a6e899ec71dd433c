// Opens the SQLite database with the pragmas Cairn relies on, and applies embedded migrations.
import { Database } from "bun:sqlite";
import { closeSync, existsSync, openSync } from "node:fs";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrations } from "./migrations/manifest";
import * as tables from "../tables";

export type Db = BunSQLiteDatabase<typeof tables> & { $client: Database };

// bun:sqlite keeps only the 20 most recently used statements of db.query(); a request's path uses
// more than that, so most were compiled again on every call (a sixth of a publish's CPU). Room for
// every fixed statement and a margin of search SQL; a lookup scans the cache, so not far more
// (a full cache of 1,000 made each lookup 1.2 µs, of 256 0.5 µs).
Database.MAX_QUERY_CACHE_SIZE = 256;

export function openDatabase(path: string): Db {
  // Created owner-only before SQLite opens it: the -wal and -shm files take the database's mode.
  if (path !== ":memory:" && !existsSync(path)) closeSync(openSync(path, "a", 0o600));
  const sqlite = new Database(path, { create: true, strict: true });
  // WAL lets readers run beside the writer (and the CLI beside a running server).
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return drizzle({ client: sqlite, schema: tables }) as Db;
}

/**
 * Runs `work` in one write transaction and returns its result; a throw rolls everything back.
 * IMMEDIATE takes the write lock up front: a deferred transaction that reads first and writes
 * later fails with SQLITE_BUSY when another connection wrote in between, instead of waiting.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
  return db.$client.transaction(work).immediate();
}

/** Applies the embedded migrations that are missing, in one transaction; returns the ids applied. */
export function migrate(db: Db, now: number = Date.now()): string[] {
  const sqlite = db.$client;
  sqlite.exec("CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)");
  const done = new Set(
    sqlite
      .query<{ id: string }, []>("SELECT id FROM schema_migrations")
      .all()
      .map((r) => r.id),
  );
  const missing = migrations.filter((m) => !done.has(m.id));
  if (missing.length === 0) return [];
  writeTransaction(db, () => {
    for (const m of missing) {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) sqlite.exec(statement);
      }
      sqlite.query("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)").run(m.id, now);
    }
    // The schema version, readable by any SQLite tool.
    sqlite.exec(`PRAGMA user_version = ${done.size + missing.length}`);
  });
  return missing.map((m) => m.id);
}

/** Number of migrations applied (PRAGMA user_version). */
export function schemaVersion(db: Db): number {
  return db.$client.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
}

/** Refreshes the query planner's statistics and truncates the write-ahead log; returns the checkpoint's counts. */
export function optimizeDatabase(db: Db): Record<string, number> | null {
  db.$client.exec("PRAGMA optimize");
  return db.$client.query<Record<string, number>, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
}

/** Rows changed by a drizzle `.run()` (bun:sqlite reports them; drizzle's type says void). */
export const changesOf = (result: unknown): number => (result as { changes?: number } | undefined)?.changes ?? 0;

/** A read-only connection to a database another connection has opened (a reader worker's). */
export function openReader(path: string): Db {
  const sqlite = new Database(path, { readwrite: true, create: false, strict: true });
  sqlite.exec("PRAGMA query_only = 1");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return drizzle({ client: sqlite, schema: tables }) as Db;
}

/** Runs `work` with SQLite's page cache at `kib` KiB, restored afterwards (it is per connection): bulk writes whose B-trees outgrow the default 2 MB. */
export function withPageCache<T>(db: Db, kib: number, work: () => T): T {
  const previous = db.$client.query<{ cache_size: number }, []>("PRAGMA cache_size").get()!.cache_size;
  db.$client.exec(`PRAGMA cache_size = -${kib}`);
  try {
    return work();
  } finally {
    db.$client.exec(`PRAGMA cache_size = ${previous}`);
  }
}
