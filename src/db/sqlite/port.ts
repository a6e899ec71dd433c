// The database port (db/port.ts) on one bun:sqlite connection: statements through Bun's statement
// cache, asynchronous write transactions serialised behind a gate that every other statement on
// the connection waits at while one is open. Used by nothing yet: the stores move onto it together
// (see db/port.ts), after which the synchronous `writeTransaction` goes.
import type { Database } from "bun:sqlite";
import type { Binding, DatabasePort, Queries } from "../port";
import { migrate, schemaVersion, type Db } from "./connection";

type Params = readonly Binding[];

/**
 * One connection is shared by every request, and an `await` inside a transaction lets other
 * requests' continuations run before COMMIT: without the gate they would read its uncommitted rows,
 * or fail opening a transaction inside it. The gate is a queue of transactions; a statement outside
 * one runs at once when the queue is empty (the common case: no waiting, no extra tick) and
 * otherwise after the queue has drained.
 */
function createGate() {
  let tail: Promise<void> = Promise.resolve();
  let queued = 0;
  return {
    /** True while a transaction runs or waits: statements outside it must wait. */
    busy: () => queued > 0,
    /** Resolves when no transaction runs or waits. */
    idle: async () => {
      while (queued > 0) await tail;
    },
    /** Runs `work` after every transaction queued before it. */
    async exclusive<T>(work: () => Promise<T>): Promise<T> {
      const before = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      queued++;
      try {
        await before;
        return await work();
      } finally {
        queued--;
        release();
      }
    },
  };
}

/** The statements themselves: synchronous calls into SQLite, answered as settled Promises by the callers. */
function runner(sqlite: Database) {
  return {
    all: <R>(sql: string, params: Params = []) => sqlite.query<R, Binding[]>(sql).all(...(params as Binding[])),
    get: <R>(sql: string, params: Params = []) => sqlite.query<R, Binding[]>(sql).get(...(params as Binding[])) ?? null,
    run: (sql: string, params: Params = []) => ({ changes: sqlite.query(sql).run(...(params as Binding[])).changes }),
  };
}

export function createSqlitePort(db: Db): DatabasePort {
  const sqlite = db.$client;
  const gate = createGate();
  const statements = runner(sqlite);

  /** Outside a transaction: at once when nothing is queued, else once the queue has drained. */
  async function outside<T>(statement: () => T): Promise<T> {
    if (gate.busy()) await gate.idle();
    return statement();
  }

  return {
    dialect: "sqlite",
    all: (sql, params) => outside(() => statements.all(sql, params)),
    get: (sql, params) => outside(() => statements.get(sql, params)),
    run: (sql, params) => outside(() => statements.run(sql, params)),

    write<T>(work: (tx: Queries) => Promise<T>): Promise<T> {
      return gate.exclusive(async () => {
        // A transaction object kept past its end would run statements outside any transaction.
        let open = true;
        const ended = () => {
          if (!open) throw new Error("This transaction has ended: its statements can no longer run.");
        };
        const tx: Queries = {
          all: async (sql, params) => (ended(), statements.all(sql, params)),
          get: async (sql, params) => (ended(), statements.get(sql, params)),
          run: async (sql, params) => (ended(), statements.run(sql, params)),
        };
        // IMMEDIATE takes the write lock up front (see writeTransaction in connection.ts).
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          const result = await work(tx);
          sqlite.exec("COMMIT");
          return result;
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw error;
        } finally {
          open = false;
        }
      });
    },

    migrate: (now) => gate.exclusive(async () => migrate(db, now)),
    schemaVersion: () => outside(() => schemaVersion(db)),
    changeCounter: () => outside(() => statements.get<{ data_version: number }>("PRAGMA data_version")!.data_version),
    close: () => sqlite.close(),
  };
}
