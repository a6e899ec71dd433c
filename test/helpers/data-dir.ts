// Data directories for the tests that run Cairn's processes on a folder of their own (the CLI, `serve`),
// on the engine the suite runs on: on its PostgreSQL run (helpers/postgres.ts) the folder's cairn.toml
// names a fresh database, as an installation's would; else SQLite's cairn.db appears there as usual.
// A folder the command itself must make (a first start, a restore's target) gets its database through
// the environment instead (`databaseEnv`). `readRows` (and `writeRows`) reach either engine, so a test
// checks what a command stored without knowing where it lives.
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../../src/config";
import { databasePathOf } from "../../src/db/open";
import type { Binding } from "../../src/db/port";
import { createPostgresPort } from "../../src/db/postgres/port";
import { emptyPostgresDatabase, freshPostgresDatabase, onPostgres, type TestDatabase } from "./postgres";

/** The databases made for data directories, by the directory's absolute path. */
const databases = new Map<string, TestDatabase>();

/** The engine the suite's data directories are on, for the few assertions that name it. */
export const testEngine = (): "sqlite" | "postgres" => (onPostgres() ? "postgres" : "sqlite");

async function databaseFor(dir: string, empty: boolean): Promise<TestDatabase> {
  const key = resolve(dir);
  let database = databases.get(key);
  if (!database) databases.set(key, (database = empty ? await emptyPostgresDatabase() : await freshPostgresDatabase()));
  return database;
}

/**
 * Makes `dir` (and its parents) a data directory on the suite's engine, before the first command
 * on it. Call `dropDataDirDatabases` after the tests (afterAll), beside removing the folders.
 */
export async function prepareDataDir(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (onPostgres()) await writeDataDirConfig(dir);
  return dir;
}

/**
 * For a command that must find `dir` missing or empty (a first start making the folder, `cairn
 * restore`): on the PostgreSQL run, DATABASE_URL naming a new database for it (`empty`: without
 * Cairn's schema, as a restore wants it), as a hosting platform sets it; {} on SQLite. Once the
 * command has made the folder, `writeDataDirConfig(dir)` names that database in its cairn.toml.
 */
export async function databaseEnv(dir: string, { empty = false } = {}): Promise<Record<string, string>> {
  return onPostgres() ? { DATABASE_URL: (await databaseFor(dir, empty)).url } : {};
}

/**
 * On the PostgreSQL run, `dir`'s cairn.toml names its database (`databaseEnv`'s, else a fresh one),
 * so that what runs there next uses it: after a restore too, whose cairn.toml is the backed-up
 * server's and names that server's database. Nothing on SQLite.
 */
export async function writeDataDirConfig(dir: string): Promise<void> {
  if (!onPostgres()) return;
  const { url } = await databaseFor(dir, false);
  writeFileSync(join(dir, "cairn.toml"), `DATABASE_URL = ${JSON.stringify(url)}\n`, { mode: 0o600 });
}

/** Drops the databases made for data directories (none on SQLite). */
export async function dropDataDirDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  for (const database of all) await database.drop();
}

/** Fixed statements with `?` placeholders on a data directory's database. */
interface Connection {
  all<T>(sql: string, params: Binding[]): Promise<T[]>;
  run(sql: string, params: Binding[]): Promise<{ changes: number }>;
  close(): void;
}

/**
 * The database `dir`'s configuration names: its cairn.toml's DATABASE_URL, else its cairn.db, which
 * must exist (nothing is created or migrated here; `readOnly`: SQLite's query_only).
 */
function connect(dir: string, readOnly: boolean): Connection {
  const config = loadConfig({ flags: { DATA_DIR: dir }, env: {} });
  if (config.DATABASE_URL) {
    const port = createPostgresPort(config.DATABASE_URL, { max: 1 });
    return { all: (sql, params) => port.statements.all(sql, params), run: (sql, params) => port.statements.run(sql, params), close: () => port.close() };
  }
  const sqlite = new Database(databasePathOf(config), { readwrite: true, create: false, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  if (readOnly) sqlite.exec("PRAGMA query_only = 1");
  return {
    all: async <T>(sql: string, params: Binding[]) => sqlite.query(sql).all(...params) as T[],
    run: async (sql, params) => ({ changes: sqlite.query(sql).run(...params).changes }),
    close: () => sqlite.close(),
  };
}

/** Rows read from a data directory's database, whichever engine holds it (read-only). */
export async function readRows<T = Record<string, unknown>>(dir: string, sql: string, params: Binding[] = []): Promise<T[]> {
  const db = connect(dir, true);
  try {
    return await db.all<T>(sql, params);
  } finally {
    db.close();
  }
}

/**
 * One write into a data directory's database, whichever engine holds it: for a test that sets up
 * what a crashed or older process left (a row no command writes that way).
 */
export async function writeRows(dir: string, sql: string, params: Binding[] = []): Promise<{ changes: number }> {
  const db = connect(dir, false);
  try {
    return await db.run(sql, params);
  } finally {
    db.close();
  }
}
