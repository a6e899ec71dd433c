// One schema, two dialects: SQLite migrated by its migrations and PostgreSQL by its own hold the same
// tables, with the same columns (name, nullability, the type the mapping in db/postgres/schema.ts
// gives), and the same indexes. Each engine's own search tables (full-text) are the only others.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import postgres from "postgres";
import { allTables } from "../../src/db/postgres/schema";
import { openDatabase } from "../../src/db/sqlite/connection";
import { sqliteOf } from "../../src/db/sqlite/port";
import { freshPostgresDatabase, type TestDatabase } from "../helpers/postgres";

let pgDb: TestDatabase;
let pg: postgres.Sql;
const lite = sqliteOf(openDatabase(":memory:", 0));

beforeAll(async () => {
  pgDb = await freshPostgresDatabase();
  pg = postgres(pgDb.url, { onnotice: () => {} });
});

afterAll(async () => {
  await pg.end();
  await pgDb.drop();
  lite.close();
});

/** Tables that belong to one engine's machinery, not to the description: migrations' bookkeeping and the search engines' own tables. */
const ENGINE_OWN = /^(schema_migrations|sqlite_sequence)$|_fts($|_)|_search($|_)/;

/** SQLite's declared type -> the PostgreSQL type the mapping gives it (a JSON text column is told apart by the description). */
function expectedPgType(table: string, column: string, sqliteType: string): string {
  const described = getTableConfig(allTables().find((t) => getTableConfig(t).name === table)!).columns.find((c) => c.name === column)!;
  if (described.columnType === "SQLiteTextJson") return "json";
  if (described.columnType === "SQLiteBoolean") return "integer";
  return { INTEGER: "bigint", TEXT: "text", REAL: "double precision", BLOB: "bytea" }[sqliteType.toUpperCase()] ?? `unmapped ${sqliteType}`;
}

test("both engines, migrated, hold the same tables with the same columns", async () => {
  const liteTables = (lite.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name).filter((n) => !ENGINE_OWN.test(n));
  const pgTables = (await pg<{ name: string }[]>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`)
    .map((r) => r.name)
    .filter((n) => !ENGINE_OWN.test(n));
  expect(pgTables.sort()).toEqual(liteTables.sort());
  expect(liteTables.sort()).toEqual(
    allTables()
      .map((t) => getTableConfig(t).name)
      .sort(),
  );

  for (const table of liteTables) {
    const liteColumns = (
      lite.query(`SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info('${table}')`).all() as { name: string; type: string; nn: number; pk: number }[]
    ).map((c) => ({
      name: c.name,
      type: expectedPgType(table, c.name, c.type),
      // SQLite lets a lone primary-key column be NULL unless declared NOT NULL; PostgreSQL never does: both are keys.
      notNull: c.nn === 1 || c.pk > 0,
    }));
    const pgColumns = (
      await pg<{ name: string; type: string; nullable: string }[]>`
        SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`
    ).map((c) => ({ name: c.name, type: c.type, notNull: c.nullable === "NO" }));
    // By name: SQLite adds a later column at the end, the description (and so PostgreSQL's baseline) where it belongs.
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect({ table, columns: pgColumns.sort(byName) }).toEqual({ table, columns: liteColumns.sort(byName) });
  }
});

test("both engines hold the same indexes (by name) on those tables", async () => {
  const liteIndexes = (
    lite.query("SELECT name, tbl_name AS t FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'").all() as { name: string; t: string }[]
  )
    .filter((r) => !ENGINE_OWN.test(r.t))
    .map((r) => `${r.t}.${r.name}`);
  const pgIndexes = (await pg<{ name: string; t: string }[]>`SELECT indexname AS name, tablename AS t FROM pg_indexes WHERE schemaname = 'public'`)
    .filter((r) => !ENGINE_OWN.test(r.t) && !r.name.endsWith("_pkey"))
    .map((r) => `${r.t}.${r.name}`);
  expect(pgIndexes.sort()).toEqual(liteIndexes.sort());
});

test("text sorts bytewise on both engines, whatever the database's locale", async () => {
  const words = ["b", "B", "a", "É", "e", "Z", "_x", "ä"];
  const liteOrder = (lite.query(`SELECT value FROM json_each(?) ORDER BY value`).all(JSON.stringify(words)) as { value: string }[]).map((r) => r.value);
  await pg.unsafe("INSERT INTO stats_state (key, value) SELECT w, w FROM unnest($1::text[]) AS w", [words]);
  const pgOrder = (await pg<{ key: string }[]>`SELECT key FROM stats_state ORDER BY key`).map((r) => r.key);
  expect(pgOrder).toEqual(liteOrder);
});
