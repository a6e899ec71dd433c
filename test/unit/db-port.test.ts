// The database port on SQLite (db/sqlite/port.ts): statements, asynchronous write transactions,
// and the gate that keeps everyone else off the shared connection while one is open.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { changesOf, type DatabasePort } from "../../src/db/port";
import { openDatabase } from "../../src/db/sqlite/connection";
import { migrations } from "../../src/db/sqlite/migrations/manifest";

const freshPort = (): DatabasePort => openDatabase(":memory:");

async function withNotes(): Promise<DatabasePort> {
  const port = freshPort();
  await port.statements.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  return port;
}

/** A promise the test settles by hand, to hold a transaction open across other requests' turns. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const texts = (port: DatabasePort) => port.statements.all<{ text: string }>("SELECT text FROM notes ORDER BY id").then((rows) => rows.map((r) => r.text));

describe("statements", () => {
  test("all, get and run bind their parameters; get answers null for no row; run counts the changes", async () => {
    const port = await withNotes();
    expect(await port.statements.run("INSERT INTO notes (text) VALUES (?), (?)", ["a", "b"])).toEqual({ changes: 2 });
    expect(await texts(port)).toEqual(["a", "b"]);
    expect(await port.statements.get<{ text: string }>("SELECT text FROM notes WHERE id = ?", [2])).toEqual({ text: "b" });
    expect(await port.statements.get("SELECT text FROM notes WHERE id = ?", [9])).toBeNull();
    expect(await port.statements.run("UPDATE notes SET text = ? WHERE text = ?", ["c", "nothing"])).toEqual({ changes: 0 });
  });

  test("more distinct statements than are kept prepared still answer, the first again after it was let go", async () => {
    const port = await withNotes();
    await port.statements.run("INSERT INTO notes (text) VALUES (?)", ["a"]);
    const sums = [];
    for (let n = 0; n < 600; n++) sums.push((await port.statements.get<{ n: number }>(`SELECT ${n} + id AS n FROM notes WHERE text = ?`, ["a"]))!.n);
    expect(sums).toEqual(Array.from({ length: 600 }, (_, n) => n + 1));
    expect(await port.statements.get("SELECT 0 + id AS n FROM notes WHERE text = ?", ["a"])).toEqual({ n: 1 });
  });

  test("closing the port closes the file: its write-ahead log is checkpointed and removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-port-close-"));
    try {
      const path = join(dir, "cairn.db");
      const port = openDatabase(path);
      await port.statements.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
      await port.statements.run("INSERT INTO notes (text) VALUES (?)", ["kept"]);
      expect(await port.statements.get("SELECT text FROM notes WHERE id = ?", [1])).toEqual({ text: "kept" });
      expect(existsSync(`${path}-wal`)).toBe(true);
      port.close();
      expect(existsSync(`${path}-wal`)).toBe(false);
      const again = openDatabase(path);
      expect(await again.statements.get("SELECT text FROM notes WHERE id = ?", [1])).toEqual({ text: "kept" });
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("migrate applies every migration once and schemaVersion counts them", async () => {
    const port = freshPort();
    expect(await port.migrate(1)).toEqual(migrations.map((m) => m.id));
    expect(await port.migrate(2)).toEqual([]);
    expect(await port.schemaVersion()).toBe(migrations.length);
  });
});

describe("write transactions", () => {
  test("commit what the work wrote and answer its result", async () => {
    const port = await withNotes();
    const result = await port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["kept"]);
      return (await tx.statements.get<{ n: number }>("SELECT count(*) AS n FROM notes"))!.n;
    });
    expect(result).toBe(1);
    expect(await texts(port)).toEqual(["kept"]);
  });

  test("a throw rolls every write of the work back and reaches the caller", async () => {
    const port = await withNotes();
    const failed = port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["lost"]);
      throw new Error("refused");
    });
    await expect(failed).rejects.toThrow("refused");
    expect(await texts(port)).toEqual([]);
  });

  test("a statement from outside waits while a transaction is open, and never sees its uncommitted rows", async () => {
    const port = await withNotes();
    const hold = deferred();
    const written = deferred();
    const writing = port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["draft"]);
      written.resolve();
      await hold.promise; // other requests get their turns here
      await tx.statements.run("UPDATE notes SET text = ?", ["final"]);
    });
    await written.promise;
    let seen: string[] | null = null;
    const reading = texts(port).then((t) => (seen = t));
    // Let every queued turn run: the read must still be waiting.
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toBeNull();
    hold.resolve();
    await writing;
    await reading;
    expect(seen!).toEqual(["final"]);
  });

  test("a rolled-back transaction's rows are never seen by a statement that waited for it", async () => {
    const port = await withNotes();
    const hold = deferred();
    const written = deferred();
    const writing = port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["phantom"]);
      written.resolve();
      await hold.promise;
      throw new Error("changed its mind");
    });
    await written.promise;
    const reading = texts(port);
    hold.resolve();
    await expect(writing).rejects.toThrow("changed its mind");
    expect(await reading).toEqual([]);
  });

  test("two transactions started together run one after the other, each whole", async () => {
    const port = await withNotes();
    const order: string[] = [];
    const one = port.write(async (tx) => {
      order.push("one begins");
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["one"]);
      await new Promise((r) => setTimeout(r, 0));
      order.push("one ends");
    });
    const two = port.write(async (tx) => {
      order.push("two begins");
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["two"]);
      order.push("two ends");
    });
    await Promise.all([one, two]);
    expect(order).toEqual(["one begins", "one ends", "two begins", "two ends"]);
    expect(await texts(port)).toEqual(["one", "two"]);
  });

  test("a transaction kept past its end refuses its statements", async () => {
    const port = await withNotes();
    let kept: Parameters<Parameters<DatabasePort["write"]>[0]>[0] | null = null;
    await port.write(async (tx) => {
      kept = tx;
    });
    await expect(kept!.statements.run("INSERT INTO notes (text) VALUES (?)", ["late"])).rejects.toThrow("This transaction has ended");
    expect(await texts(port)).toEqual([]);
  });

  test("the change counter moves when another connection commits, not for this one's own writes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-port-"));
    const path = join(dir, "cairn.db");
    const port = openDatabase(path);
    const other = openDatabase(path);
    try {
      await port.statements.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
      const before = await port.changeCounter();
      await port.write((tx) => tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["own"]));
      expect(await port.changeCounter()).toBe(before);
      await other.statements.run("INSERT INTO notes (text) VALUES (?)", ["theirs"]);
      expect(await port.changeCounter()).not.toBe(before);
    } finally {
      port.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const notes = sqliteTable("notes", { id: integer("id").primaryKey(), text: text("text").notNull() });

describe("the query builder through the port", () => {
  test("selects, inserts with returning, counts changes, and answers undefined for a missing row", async () => {
    const port = await withNotes();
    expect(await port.insert(notes).values({ text: "a" }).returning().get()).toEqual({ id: 1, text: "a" });
    await port
      .insert(notes)
      .values([{ text: "b" }, { text: "c" }])
      .run();
    expect(await port.select({ text: notes.text }).from(notes).orderBy(desc(notes.id)).all()).toEqual([{ text: "c" }, { text: "b" }, { text: "a" }]);
    expect(await port.select().from(notes).where(eq(notes.id, 9)).get()).toBeUndefined();
    expect(changesOf(await port.update(notes).set({ text: "x" }).where(eq(notes.text, "b")).run())).toBe(1);
    expect(changesOf(await port.delete(notes).where(eq(notes.text, "nothing")).run())).toBe(0);
  });

  test("a builder statement from outside waits for an open transaction like a fixed one", async () => {
    const port = await withNotes();
    const hold = deferred();
    const written = deferred();
    const writing = port.write(async (tx) => {
      await tx.insert(notes).values({ text: "uncommitted" }).run();
      written.resolve();
      await hold.promise;
      throw new Error("rolled back");
    });
    await written.promise;
    const reading = port.select().from(notes).all();
    hold.resolve();
    await expect(writing).rejects.toThrow("rolled back");
    expect(await reading).toEqual([]);
  });
});

describe("statements inside a transaction's own flow", () => {
  test("a statement on the outer database made inside write joins the transaction instead of waiting behind it", async () => {
    const port = await withNotes();
    // A hook handed the services' database, not the transaction: it must neither deadlock nor escape the rollback.
    const hook = async () => {
      await port.statements.run("INSERT INTO notes (text) VALUES (?)", ["from the hook"]);
      return texts(port);
    };
    const seenInside = await port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["from tx"]);
      return hook();
    });
    expect(seenInside).toEqual(["from tx", "from the hook"]);
    const failed = port.write(async () => {
      await hook();
      throw new Error("undone");
    });
    await expect(failed).rejects.toThrow("undone");
    expect(await texts(port)).toEqual(["from tx", "from the hook"]);
  });

  test("a write inside a write is a savepoint: its throw undoes only its own rows", async () => {
    const port = await withNotes();
    await port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["outer"]);
      await expect(
        port.write(async (inner) => {
          await inner.statements.run("INSERT INTO notes (text) VALUES (?)", ["inner"]);
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      await tx.write(async (inner) => inner.statements.run("INSERT INTO notes (text) VALUES (?)", ["second inner"]));
    });
    expect(await texts(port)).toEqual(["outer", "second inner"]);
  });

  test("a request's statement outside the flow still waits while the transaction awaits", async () => {
    const port = await withNotes();
    const hold = deferred();
    const written = deferred();
    const writing = port.write(async (tx) => {
      await tx.statements.run("INSERT INTO notes (text) VALUES (?)", ["pending"]);
      written.resolve();
      await hold.promise;
    });
    await written.promise;
    // Started outside the transaction's flow (another request): must not join it.
    let seen: string[] | null = null;
    const other = texts(port).then((t) => (seen = t));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toBeNull();
    hold.resolve();
    await Promise.all([writing, other]);
    expect(seen!).toEqual(["pending"]);
  });
});
