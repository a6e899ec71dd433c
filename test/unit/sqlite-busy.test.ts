// Another process holding SQLite's write lock past the busy timeout (a worker of the same server,
// another server on the data directory, the CLI): a write answers 503 with Retry-After, which a
// client may retry, and nothing of it is written.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpError, httpErrorOf } from "../../src/core/errors";
import { openDatabase, openSqlite } from "../../src/db/sqlite/connection";
import { onConnection } from "../../src/db/sqlite/port";

const dir = mkdtempSync(join(tmpdir(), "cairn-busy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(work: () => Promise<unknown>): Promise<HttpError> {
  try {
    await work();
  } catch (error) {
    const http = httpErrorOf(error);
    if (http) return http;
    throw error;
  }
  throw new Error("the write went through");
}

test("a write meeting another process's write lock past the busy timeout is a 503, and writes nothing", async () => {
  const path = join(dir, "cairn.db");
  const db = openDatabase(path, Date.UTC(2026, 0, 1));
  // The server's connection waits 100 ms instead of 5 s, so the test does not wait long.
  await onConnection(db, (sqlite) => sqlite.exec("PRAGMA busy_timeout = 100"));
  const other = openSqlite(path);
  other.exec("BEGIN IMMEDIATE");
  try {
    const inTransaction = await refusal(() => db.write((tx) => tx.statements.run("INSERT INTO stats_state (key, value) VALUES ('a', '1')")));
    const alone = await refusal(() => db.statements.run("INSERT INTO stats_state (key, value) VALUES ('b', '1')"));
    for (const error of [inTransaction, alone]) {
      expect([error.status, error.message, error.headers]).toEqual([
        503,
        "The database is busy with other writes; nothing was changed. Try again shortly.",
        { "Retry-After": "2" },
      ]);
    }
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
  // Once the other process is done, the same writes go through, and only they are there.
  await db.write((tx) => tx.statements.run("INSERT INTO stats_state (key, value) VALUES ('a', '1')"));
  expect(await db.statements.all("SELECT key FROM stats_state WHERE key IN ('a', 'b')")).toEqual([{ key: "a" }]);
  db.close();
});
