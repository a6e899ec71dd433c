// A queue of write transactions in one process.
//
// SQLite (db/sqlite/port.ts): one connection is shared by every request, and an `await` inside a
// transaction lets other requests' continuations run before COMMIT: without the gate they would
// read its uncommitted rows, or fail opening a transaction inside it. A statement outside a
// transaction runs at once when the queue is empty (the common case: no waiting, no extra tick) and
// otherwise after the queue has drained.
//
// PostgreSQL (db/postgres/port.ts): only the transaction at the head of the queue holds a pooled
// connection and waits for the database's write lock; the others wait here, holding nothing.

/** A queue of transactions: `exclusive` runs one after another; `busy`/`idle` tell statements outside them when to run. */
export function createGate() {
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
