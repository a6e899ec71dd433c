// src/db/sqlite/checkpointer: WAL checkpoints on a worker thread keep the log short while the writer never
// checkpoints itself; a worker that fails hands checkpoints back to the writer's connection.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer } from "../../src/db/sqlite/checkpointer";
import { openSqlite } from "../../src/db/sqlite/connection";

const dir = mkdtempSync(join(tmpdir(), "cairn-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = (db: Database) => (db.query("PRAGMA wal_autocheckpoint").values() as number[][])[0]![0];

function writeRows(db: Database, count: number) {
  const insert = db.query("INSERT INTO t (a) VALUES (?)");
  for (let i = 0; i < count; i++) db.transaction(() => insert.run("x".repeat(3000)))();
}

/** A database with one table and the checkpointer running on it. */
function started(name: string) {
  const path = join(dir, name);
  const db = openSqlite(path);
  db.exec("CREATE TABLE t (a TEXT)");
  return { path, db, checkpointer: startCheckpointer(db, path, () => {}) };
}

/** Another connection in a read transaction: its snapshot keeps the log from being copied past it. */
function pinningReader(path: string) {
  const reader = new Database(path);
  reader.exec("BEGIN");
  reader.query("SELECT count(*) FROM t").get();
  return reader;
}

describe("background checkpoints", () => {
  test("the worker copies the log into the database and the log starts again", async () => {
    const { path, db, checkpointer } = started("a.db");
    expect(autocheckpoint(db)).toBe(0); // the writer no longer checkpoints inside its commits
    writeRows(db, 3000); // ~3,000 pages: without a checkpoint the log only grows
    const grown = statSync(`${path}-wal`).size;
    await checkpointer.checkpointNow();
    const first = checkpointer.stats();
    expect(first.checkpoints).toBeGreaterThanOrEqual(1);
    expect(first.framesCopied).toBeGreaterThanOrEqual(3000);
    expect(first.fallenBack).toBe(false);
    // A complete checkpoint lets the next commits write from the start of the log again.
    writeRows(db, 100);
    expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(grown);
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().walFrames).toBeLessThan(500);
    expect((db.query("SELECT count(*) FROM t").values() as number[][])[0]![0]).toBe(3100);
    await checkpointer.stop();
    expect(autocheckpoint(db)).toBe(1000);
    // The worker closed its connection: nothing else holds the log, so it can be emptied at once.
    expect(db.query("PRAGMA wal_checkpoint(TRUNCATE)").values()[0]).toEqual([0, 0, 0]);
    expect(statSync(`${path}-wal`).size).toBe(0);
    db.close();
  });

  test("a reader that pins the log does not turn checkpoints into a busy loop", async () => {
    const { path, db, checkpointer } = started("c.db");
    const reader = pinningReader(path); // a snapshot from before the writes below
    writeRows(db, 1000); // ~3,000 frames: a long log, yet short of a RESTART
    await checkpointer.checkpointNow();
    await Bun.sleep(300);
    // Only the frames from before the reader's snapshot could be copied; once a checkpoint gets
    // nowhere, the next one waits for the regular tick (a busy loop would have run hundreds).
    const pinned = checkpointer.stats();
    expect(pinned.walFrames).toBeGreaterThanOrEqual(2048);
    expect(pinned.framesCopied).toBeLessThan(10);
    expect(pinned.checkpoints).toBeGreaterThanOrEqual(1);
    expect(pinned.checkpoints).toBeLessThanOrEqual(3);
    reader.exec("COMMIT");
    reader.close();
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().framesCopied).toBeGreaterThanOrEqual(2048);
    await checkpointer.stop();
    db.close();
  });

  test("a long log behind a pinning reader is not restarted (writers would wait for it)", async () => {
    const { path, db, checkpointer } = started("d.db");
    const reader = pinningReader(path);
    writeRows(db, 3000); // past the restart length
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().walFrames).toBeGreaterThanOrEqual(8192);
    expect(checkpointer.stats().restarts).toBe(0);
    writeRows(db, 10); // the writer goes on
    reader.exec("COMMIT");
    reader.close();
    await checkpointer.checkpointNow();
    // Once nothing pins the log, the checkpoint completes and rewinds it.
    expect(checkpointer.stats().restarts).toBe(1);
    writeRows(db, 10);
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().walFrames).toBeLessThan(100);
    await checkpointer.stop();
    db.close();
  });

  test("a worker that cannot open the database hands checkpoints back", async () => {
    const path = join(dir, "b.db");
    const db = openSqlite(path);
    const logged: string[] = [];
    const checkpointer = startCheckpointer(db, join(dir, "missing", "nowhere.db"), (m) => logged.push(m));
    await checkpointer.checkpointNow();
    for (let i = 0; i < 50 && !checkpointer.stats().fallenBack; i++) await Bun.sleep(20);
    expect(checkpointer.stats().fallenBack).toBe(true);
    expect(autocheckpoint(db)).toBe(1000);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toStartWith("database: background checkpoints stopped (");
    await checkpointer.stop();
    db.close();
  });
});

describe("the worker starts on first need", () => {
  test("a database nobody writes to after the start gets no worker; the first write starts it and it checkpoints", async () => {
    const { path, db, checkpointer } = started("lazy.db");
    checkpointer.poll();
    expect(checkpointer.stats()).toMatchObject({ workerStarted: false, checkpoints: 0 });
    writeRows(db, 50);
    checkpointer.poll();
    expect(checkpointer.stats().workerStarted).toBe(true);
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().framesCopied).toBeGreaterThanOrEqual(50);
    await checkpointer.stop();
    expect(statSync(path).size).toBeGreaterThan(50 * 3000);
    db.close();
  });

  test("a long log left by an earlier run is checkpointed before this run writes anything", async () => {
    const path = join(dir, "leftover.db");
    const first = openSqlite(path);
    first.exec("CREATE TABLE t (a TEXT)");
    first.exec("PRAGMA wal_autocheckpoint = 0");
    writeRows(first, 1600); // ~6 MB of log, left behind by a connection that never checkpoints
    const db = openSqlite(path);
    const checkpointer = startCheckpointer(db, path, () => {});
    checkpointer.poll();
    expect(checkpointer.stats().workerStarted).toBe(true);
    await checkpointer.checkpointNow();
    expect(checkpointer.stats().framesCopied).toBeGreaterThanOrEqual(1600);
    await checkpointer.stop();
    db.close();
    first.close();
  });
});
