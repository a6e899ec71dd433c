// Which engine holds the database: PostgreSQL when DATABASE_URL names one, else SQLite's file in
// the data directory (the embedded default).
import { join } from "node:path";
import type { DatabasePort } from "./port";
import { createPostgresPort } from "./postgres/port";
import { openDatabase } from "./sqlite/connection";

export interface DatabaseConfig {
  DATA_DIR: string;
  DATABASE_URL: string;
}

/** The SQLite database file of a data directory (the checkpointer of `serve` watches its write-ahead log). */
export const databasePathOf = (config: Pick<DatabaseConfig, "DATA_DIR">) => join(config.DATA_DIR, "cairn.db");

/**
 * The configured database, migrated at `now`: SQLite's synchronously as it opens, a server
 * engine's before its first statement (`ready()` says when, or why it cannot).
 */
export function openConfiguredDatabase(config: DatabaseConfig, now: number): DatabasePort {
  if (config.DATABASE_URL) return createPostgresPort(config.DATABASE_URL, { migrateAt: now });
  return openDatabase(databasePathOf(config), now);
}
