// What the copy needs of each engine: a read-only view of one consistent snapshot, an emptiness
// look before anything is written, and the sequences of AUTOINCREMENT keys. Each engine provides
// them in its own folder (db/sqlite/copy-end.ts, db/postgres/copy-end.ts).
import type { Binding, DatabasePort, Db } from "../port";

export interface SnapshotReader {
  /** Rows as arrays of column values (as the engine's port answers them), all read in the same snapshot; `?` placeholders. */
  values(sql: string, params?: readonly Binding[]): Promise<unknown[][]>;
  /** The tables that exist. */
  tables(): Promise<Set<string>>;
  /** The schema version, counted alike on both engines (DatabasePort.schemaVersion). */
  level(): Promise<number>;
  /** The last key an AUTOINCREMENT column's sequence handed out (deleted rows' keys included), or 0. */
  sequence(table: string, column: string): Promise<number>;
  /** Ends the snapshot's transaction and its connection. */
  close(): Promise<void>;
}

/** One side of a copy: a SQLite file or a PostgreSQL database. */
export interface CopyEnd {
  engine: "sqlite" | "postgres";
  /** Where it is, for messages (no password). */
  describe: string;
  /** Whether the database exists yet (a SQLite file not made yet is an empty target). */
  exists(): boolean;
  /** A read-only snapshot: SQLite's one read transaction, PostgreSQL's REPEATABLE READ READ ONLY. */
  snapshot(): Promise<SnapshotReader>;
  /** The database port, migrated at `now` by this engine's migrations. */
  open(now: number): DatabasePort;
  /** Inside the copy's write transaction: the next key of `table.column` is above `last`. */
  continueSequence(tx: Db, table: string, column: string, last: number): Promise<void>;
}
