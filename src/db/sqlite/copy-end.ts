// A SQLite database file as one side of a copy between engines (db/copy/engine.ts).
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { CopyEnd, SnapshotReader } from "../copy/engine";
import type { Binding } from "../port";
import { openDatabase } from "./connection";

/**
 * A read transaction on a connection of its own: in WAL mode it sees the database as of its first
 * read, whatever a server writes meanwhile, and blocks no writer.
 */
function openSnapshot(path: string): SnapshotReader {
  const sqlite = new Database(path, { readonly: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("BEGIN");
  // The snapshot starts at the first read, not at BEGIN.
  const names = new Set(
    sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name),
  );
  return {
    values: async (sql: string, params: readonly Binding[] = []) => sqlite.query(sql).values(...(params as never[])) as unknown[][],
    tables: async () => names,
    level: async () => sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0,
    sequence: async (table) => {
      if (!names.has("sqlite_sequence")) return 0;
      const row = sqlite.query<{ seq: number }, [string]>("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table);
      return row?.seq ?? 0;
    },
    close: async () => {
      sqlite.exec("COMMIT");
      sqlite.close();
    },
  };
}

export function sqliteCopyEnd(path: string): CopyEnd {
  return {
    engine: "sqlite",
    describe: `sqlite:${resolve(path)}`,
    exists: () => existsSync(path),
    snapshot: async () => openSnapshot(path),
    open: (now) => {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      return openDatabase(path, now);
    },
    // SQLite keeps the highest key an AUTOINCREMENT column handed out in sqlite_sequence, raised by
    // the copied rows themselves; deleted rows' keys above them are carried over here.
    async continueSequence(tx, table, _column, last) {
      // A rowid alias without AUTOINCREMENT takes the largest key + 1 by itself: only AUTOINCREMENT keeps a sequence.
      if (!(await tx.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? AND sql LIKE '%AUTOINCREMENT%'", [table]))) return;
      const raised = await tx.statements.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", [last, table]);
      if (raised.changes === 0 && last > 0) await tx.statements.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [table, last]);
    },
  };
}
