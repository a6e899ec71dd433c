// The database port: what stores, services, jobs and the CLI may ask of a database engine, and so
// the one list of what a second engine (PostgreSQL) must provide. SQLite's implementation lives in
// src/db/sqlite/ (the driver, pragmas, the WAL checkpointer, the statement cache); record search
// has its own port in src/records/search/index.ts.
//
// Where the code stands (issue 30): SQLite implements this contract (db/sqlite/port.ts), but the
// stores still take drizzle's synchronous SQLite database (`Db`) and its synchronous transactions.
// They move onto the port in one step for the whole call graph: on one SQLite connection an
// asynchronous write transaction is only safe once every access to that connection goes through
// the port (see `write`).
//
// Besides this interface an engine provides, behind named functions of its own folder: a
// consistent snapshot for backups (SQLite: VACUUM INTO, backup/sqlite/snapshot.ts), housekeeping
// (SQLite: the WAL checkpointer and its optimize pragma, db/sqlite/), and a record search engine
// (records/search/index.ts, passing test/helpers/search-conformance.ts).

/** Values a statement binds. */
export type Binding = string | number | bigint | boolean | null | Uint8Array;

/** Running statements: the database outside a transaction, or one transaction. */
export interface Queries {
  /** Every row of a statement (`?` placeholders). Statements are prepared once and cached by their text. */
  all<R>(sql: string, params?: readonly Binding[]): Promise<R[]>;
  /** The first row, or null. */
  get<R>(sql: string, params?: readonly Binding[]): Promise<R | null>;
  /** A write; how many rows it changed. */
  run(sql: string, params?: readonly Binding[]): Promise<{ changes: number }>;
}

/** A database engine as the application uses it. */
export interface DatabasePort extends Queries {
  readonly dialect: "sqlite" | "postgres";
  /**
   * One write transaction: BEGIN IMMEDIATE on SQLite, a transaction on a
   * server engine. `work` awaits nothing but `tx` (no network, no file I/O: side effects run
   * after it resolves), so the transaction stays short. A throw rolls back. On SQLite, where the
   * one connection is shared, write transactions are serialised and other statements wait while
   * one is open, so nobody reads its uncommitted rows.
   */
  write<T>(work: (tx: Queries) => Promise<T>): Promise<T>;

  /** Applies the embedded migrations that are missing (this engine's dialect); the ids applied. */
  migrate(now: number): Promise<string[]>;
  /** How many migrations are applied. */
  schemaVersion(): Promise<number>;
  /**
   * A counter that moves when another process commits (SQLite: its data_version counter; a server
   * engine: a change sequence): in-process caches (the search column copy) know they are stale.
   */
  changeCounter(): Promise<number>;
  close(): void;
}
