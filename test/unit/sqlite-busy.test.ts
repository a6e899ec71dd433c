// Another process holding SQLite's write lock past the busy timeout (a worker of the same server,
// another server on the data directory, the CLI): a write answers 503 with Retry-After, which a
// client may retry, and nothing of it is written.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpError, httpErrorOf } from "../../src/core/errors";
import { openDatabase, openSqlite } from "../../src/db/sqlite/connection";

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
  // The server's connection waits 100 ms instead of 5 s, so the test does not wait long.
  const db = openDatabase(path, Date.UTC(2026, 0, 1), { writeWaitMs: 100 });
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

test("while a write waits for another process's lock, this process goes on: its timers run, and the write goes through once the lock is free", async () => {
  const path = join(dir, "waiting.db");
  const db = openDatabase(path, Date.UTC(2026, 0, 1));
  const other = openSqlite(path);
  other.exec("BEGIN IMMEDIATE");
  let write: Promise<unknown> | null = null;
  try {
    write = db.write((tx) => tx.statements.run("INSERT INTO stats_state (key, value) VALUES ('waited', '1')"));
    // SQLite's own busy handler would hold this thread until the lock came free (or 5 s passed):
    // the timer could not fire first.
    const first = await Promise.race([write.then(() => "the write"), Bun.sleep(30).then(() => "the timer")]);
    expect(first).toBe("the timer");
  } finally {
    other.exec("COMMIT");
    other.close();
  }
  await write;
  expect(await db.statements.all("SELECT key, value FROM stats_state WHERE key = 'waited'")).toEqual([{ key: "waited", value: "1" }]);
  db.close();
});
