// The database port: what stores, services, jobs and the CLI may ask of a database engine, and so
// the one list of what a second engine (PostgreSQL) must provide. SQLite's implementation lives in
// src/db/sqlite/ (the driver, pragmas, the WAL checkpointer, the statement cache, the gate);
// record search has its own port in src/records/search/index.ts.
//
// Every call answers a Promise: the server engines' clients are asynchronous. Stores build their
// queries with drizzle's asynchronous query builder over the tables of src/db/tables (one schema),
// or run fixed SQL through `statements`, which an engine prepares once and caches by text.
//
// Besides this interface an engine provides, behind named functions of its own folder: a
// consistent snapshot for backups (SQLite: VACUUM INTO, backup/sqlite/snapshot.ts), housekeeping
// (SQLite: the WAL checkpointer and its optimize pragma, db/sqlite/), and a record search engine
// (records/search/index.ts, passing test/helpers/search-conformance.ts).
import type { SqliteRemoteDatabase, SqliteRemoteResult } from "drizzle-orm/sqlite-proxy";
import { HttpError } from "../core/errors";

/** How long a write waits for another process's write (SQLite's busy timeout, PostgreSQL's lock timeout) before it is refused. */
export const WRITE_WAIT_MS = 5000;

/**
 * A write that waited WRITE_WAIT_MS for other processes' writes (workers of one server, servers on
 * one database, the CLI): refused whole, and the client may send it again.
 */
export const databaseBusy = () => new HttpError(503, "The database is busy with other writes; nothing was changed. Try again shortly.", undefined, { "Retry-After": "2" });

/** Why the database could not be reached when Cairn started: said in one line, with no stack. */
export class DatabaseUnreachable extends Error {}

/** Values a statement binds. */
export type Binding = string | number | bigint | boolean | null | Uint8Array;

/** Fixed statements (`?` placeholders), prepared once and cached by their text. */
export interface Statements {
  /** Every row, as objects keyed by column name. */
  all<R>(sql: string, params?: readonly Binding[]): Promise<R[]>;
  /** The first row, or null. */
  get<R>(sql: string, params?: readonly Binding[]): Promise<R | null>;
  /** A write; how many rows it changed. */
  run(sql: string, params?: readonly Binding[]): Promise<{ changes: number }>;
}

/**
 * The database as a store sees it: outside a transaction, or inside one (the `tx` of `write`).
 * The query builder is drizzle's asynchronous one, run by awaiting it: `await db.select()…` answers
 * the rows, `await db.update()…` the write's result (the rows when given `.returning()`), and
 * `first(…)` the first row.
 */
export type Db = Omit<SqliteRemoteDatabase, "transaction" | "batch" | "all" | "get" | "run" | "values"> & {
  readonly statements: Statements;
  /** Which engine runs the statements, for the few whose SQL differs between them (drizzle keeps its own `dialect` on the builder). */
  readonly engine: "sqlite" | "postgres";
  /**
   * The same object for the port and every transaction of it: the key of a per-database cache of
   * values that never change once written (a transaction's `tx` is a new object each time).
   */
  readonly database: object;
  /**
   * One write transaction: BEGIN IMMEDIATE on SQLite, a transaction on a server engine. `work`
   * awaits nothing but the database (no network, no file I/O: side effects run after `write`
   * resolves), so the transaction stays short. A throw rolls back and reaches the caller.
   *
   * Inside `work`, `tx` is the transaction; so is every statement on the outer `db` made in the
   * same asynchronous flow (a hook handed the services' `db` joins the transaction rather than
   * waiting behind it), and a `write` inside it is a nested savepoint. So never share an in-flight
   * database Promise between requests (keep settled values instead): a transaction that awaits a
   * read another request started, still waiting for the connection, waits for itself.
   */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
};

/** A database engine as the application holds it. */
export type DatabasePort = Db & {
  /**
   * Resolves once the engine can answer (a server engine connected and migrated; SQLite at once).
   * Statements wait for it themselves; start-up awaits it to say in one line when it cannot.
   */
  ready(): Promise<void>;
  /** Applies the embedded migrations that are missing (this engine's dialect); the ids applied. */
  migrate(now: number): Promise<string[]>;
  /** How many migrations are applied. */
  schemaVersion(): Promise<number>;
  /**
   * A counter that moves when another process commits (SQLite: its data_version counter; a server
   * engine: a change sequence): in-process caches (the search column copy) know they are stale.
   */
  changeCounter(): Promise<number>;
  /** The bytes the database takes (SQLite: its file and write-ahead log; a server engine: its database's size). */
  sizeBytes(): Promise<number>;
  /**
   * Daily housekeeping, and after bulk writes (a copy, a restore): SQLite refreshes its planner's
   * statistics and truncates the write-ahead log (the checkpoint's counts); a server engine
   * refreshes its statistics and leaves the rest to its own autovacuum (null).
   */
  optimize(): Promise<Record<string, number> | null>;
  close(): void;
};

/** Rows changed by an awaited write builder without `.returning()` (typed so that an un-awaited one does not compile). */
export const changesOf = (result: SqliteRemoteResult): number => (result as { changes?: number }).changes ?? 0;

/** The first row of a query, or undefined (drizzle's `get`): a select given with `.limit(1)`, or a write with `.returning()`. */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}
