// The embedded migrations on a SQLite connection: applied in one transaction, counted in PRAGMA user_version.
import type { Database } from "bun:sqlite";
import { migrations } from "./migrations/manifest";

/** Applies the embedded migrations that are missing, in one transaction; returns the ids applied. */
export function migrate(sqlite: Database, now: number = Date.now()): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)");
  const done = new Set(
    sqlite
      .query<{ id: string }, []>("SELECT id FROM schema_migrations")
      .all()
      .map((r) => r.id),
  );
  const missing = migrations.filter((m) => !done.has(m.id));
  if (missing.length === 0) return [];
  sqlite
    .transaction(() => {
      for (const m of missing) {
        for (const statement of m.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.exec(statement);
        }
        sqlite.query("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)").run(m.id, now);
      }
      // The schema version, readable by any SQLite tool.
      sqlite.exec(`PRAGMA user_version = ${done.size + missing.length}`);
    })
    .immediate();
  return missing.map((m) => m.id);
}

/** Number of migrations applied (PRAGMA user_version). */
export function schemaVersion(sqlite: Database): number {
  return sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
}
