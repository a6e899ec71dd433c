// The embedded PostgreSQL migrations, applied at start as SQLite's are (db/sqlite/migrate.ts): the
// missing ones in one transaction, recorded in schema_migrations. An advisory lock lets several
// processes start at once: the first applies them, the others wait and find nothing to do.
import type postgres from "postgres";
import { migrations } from "./migrations/manifest";

/** Held while migrating (any fixed number, distinct from the write lock). */
const MIGRATION_LOCK = 0x6d696772;

export async function migrate(sql: postgres.Sql, now: number): Promise<string[]> {
  return sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.unsafe('CREATE TABLE IF NOT EXISTS schema_migrations (id text COLLATE "C" PRIMARY KEY, version integer NOT NULL, applied_at bigint NOT NULL)');
    const done = new Set((await tx.unsafe<{ id: string }[]>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const missing = migrations.filter((m) => !done.has(m.id));
    for (const m of missing) {
      await tx.unsafe(m.sql);
      await tx.unsafe("INSERT INTO schema_migrations (id, version, applied_at) VALUES ($1, $2, $3)", [m.id, m.version, now]);
    }
    return missing.map((m) => m.id);
  });
}

/**
 * The schema version, counted as SQLite counts it (the number of its migrations applied): the
 * baseline stands for every SQLite migration it was made from, so both engines agree.
 */
export async function schemaVersion(sql: postgres.Sql): Promise<number> {
  const rows = await sql.unsafe<{ version: number | null }[]>("SELECT max(version) AS version FROM schema_migrations");
  return rows[0]?.version ?? 0;
}
