// The database port on PostgreSQL (src/db/postgres/port.ts) against Debian's own server, started by
// the test: the stores' SQL with SQLite's placeholders, values typed as SQLite answers them, write
// transactions one at a time across processes, savepoints, the transaction joined by its own flow,
// a database that goes away answering 503 and coming back by itself, and one line at start when
// it cannot be reached.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { HttpError } from "../../src/core/errors";
import { numberedPlaceholders } from "../../src/db/postgres/placeholders";
import { createPostgresPort, describeUrl } from "../../src/db/postgres/port";
import { DatabaseUnreachable, type DatabasePort } from "../../src/db/port";
import { startPostgresCluster, type PostgresCluster } from "../helpers/postgres-cluster";

describe("placeholders", () => {
  test("`?` are numbered in order, `?N` kept as `$N`; quoted text, names and comments untouched", () => {
    expect(numberedPlaceholders("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")).toBe("SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)");
    expect(numberedPlaceholders("UPDATE t SET a = ?1, b = ?2 WHERE c <= ?2")).toBe("UPDATE t SET a = $1, b = $2 WHERE c <= $2");
    expect(numberedPlaceholders(`SELECT '?', "a?b", 'it''s ?' FROM t WHERE x = ? -- why?\nAND y = ?`)).toBe(`SELECT '?', "a?b", 'it''s ?' FROM t WHERE x = $1 -- why?\nAND y = $2`);
  });

  test("an upsert's conflict target names bare columns", () => {
    expect(numberedPlaceholders('insert into "t" ("a", "b") values (?, ?) on conflict ("t"."a", "t"."b") do update set "b" = ?')).toBe(
      'insert into "t" ("a", "b") values ($1, $2) on conflict ("a", "b") do update set "b" = $3',
    );
  });

  test("bare camelCase names keep their case (quoted); keywords, snake_case names, numbers and quoted text do not change", () => {
    expect(numberedPlaceholders("SELECT parent_id AS parentId, count(*) AS n FROM t2 GROUP BY parentId ORDER BY parentId DESC LIMIT 10")).toBe(
      'SELECT parent_id AS "parentId", count(*) AS n FROM t2 GROUP BY "parentId" ORDER BY "parentId" DESC LIMIT 10',
    );
    expect(numberedPlaceholders(`SELECT 'recordId' AS "recordId", x1y FROM t WHERE a = ?`)).toBe(`SELECT 'recordId' AS "recordId", x1y FROM t WHERE a = $1`);
  });
});

let cluster: PostgresCluster;
let db: DatabasePort;
let other: DatabasePort;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  db = createPostgresPort(cluster.url, { migrateAt: 1000 });
  await db.ready();
  // A second port on the same database: another process's.
  other = createPostgresPort(cluster.url);
  await db.statements.run("CREATE TABLE t (id bigint PRIMARY KEY, name text, doc json, flag integer)");
});

afterAll(() => {
  db.close();
  other.close();
  cluster.stop();
});

describe("the port on PostgreSQL", () => {
  test("migrates at start: the schema version counts as SQLite's does", async () => {
    const { migrations } = await import("../../src/db/sqlite/migrations/manifest");
    expect(await db.schemaVersion()).toBe(migrations.length);
    expect(await db.migrate(2000)).toEqual([]);
  });

  test("a camelCase alias comes back as written, as on SQLite", async () => {
    expect(await db.statements.get("SELECT 1 AS oneValue, 2 AS two_values")).toEqual({ oneValue: 1, two_values: 2 });
  });

  test("values come back as SQLite gives them: bigint and sums as numbers, JSON as its text, booleans bound as 0/1", async () => {
    await db.statements.run("INSERT INTO t (id, name, doc, flag) VALUES (?, ?, ?, ?)", [1_700_000_000_000, "a", JSON.stringify({ b: [1, 2] }), true]);
    const row = await db.statements.get<{ id: number; doc: string; flag: number; total: number }>(
      "SELECT id, doc, flag, (SELECT sum(id) FROM t) AS total FROM t WHERE id = ?",
      [1_700_000_000_000],
    );
    // JSON comes back as the text written, as SQLite's does (json, not jsonb, which respaces and reorders).
    expect(row).toEqual({ id: 1_700_000_000_000, doc: '{"b":[1,2]}', flag: 1, total: 1_700_000_000_000 });
    expect(JSON.parse(row!.doc)).toEqual({ b: [1, 2] });
    expect(await db.statements.get("SELECT * FROM t WHERE id = ?", [42])).toBeNull();
    await db.statements.run("DELETE FROM t");
  });

  test("text holding a NUL character, which PostgreSQL cannot hold, is the client's 400, not a 500", async () => {
    const error = await db.statements.get("SELECT * FROM t WHERE name = ?", ["a\u0000b"]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    // JSON text that spells the character as an escape is stored as written (json, not jsonb).
    await db.statements.run("INSERT INTO t (id, name, doc) VALUES (?, ?, ?)", [77, "x", '{"title":"a\\u0000b"}']);
    expect(JSON.parse((await db.statements.get<{ doc: string }>("SELECT doc FROM t WHERE id = 77"))!.doc)).toEqual({ title: "a\u0000b" });
    await db.statements.run("DELETE FROM t WHERE id = 77");
  });

  test("a write commits as a whole, or rolls back as a whole on a throw", async () => {
    await db.write(async (tx) => {
      await tx.statements.run("INSERT INTO t (id, name) VALUES (?, ?)", [1, "kept"]);
    });
    await expect(
      db.write(async (tx) => {
        await tx.statements.run("INSERT INTO t (id, name) VALUES (?, ?)", [2, "lost"]);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await db.statements.all("SELECT id, name FROM t ORDER BY id")).toEqual([{ id: 1, name: "kept" }]);
  });

  test("inside a write, the outer db joins the transaction; other flows see only what is committed", async () => {
    let seenInside: unknown;
    let seenOutside: unknown;
    await db.write(async (tx) => {
      await tx.statements.run("UPDATE t SET name = ? WHERE id = ?", ["changed", 1]);
      seenInside = (await db.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))?.name;
      seenOutside = (await other.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))?.name;
    });
    expect(seenInside).toBe("changed");
    expect(seenOutside).toBe("kept");
    expect((await other.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))?.name).toBe("changed");
  });

  test("a write inside a write is a savepoint: its throw undoes only its own writes", async () => {
    await db.write(async (tx) => {
      await tx.statements.run("INSERT INTO t (id, name) VALUES (?, ?)", [3, "outer"]);
      await expect(
        tx.write(async (inner) => {
          await inner.statements.run("INSERT INTO t (id, name) VALUES (?, ?)", [4, "inner"]);
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
    });
    expect((await db.statements.all<{ id: number }>("SELECT id FROM t ORDER BY id")).map((r) => r.id)).toEqual([1, 3]);
  });

  test("a transaction kept past its end refuses to run statements", async () => {
    let kept: Parameters<Parameters<DatabasePort["write"]>[0]>[0] | undefined;
    await db.write(async (tx) => {
      kept = tx;
    });
    await expect(kept!.statements.run("DELETE FROM t")).rejects.toThrow("This transaction has ended");
    expect((await db.statements.all("SELECT id FROM t")).length).toBe(2);
  });

  test("writers of two processes run one after another, as on SQLite", async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = db.write(async (tx) => {
      order.push("first begins");
      await tx.statements.run("UPDATE t SET name = ? WHERE id = 1", ["first"]);
      firstStarted();
      await firstHolds;
      order.push("first commits");
    });
    await started;
    const second = other.write(async (tx) => {
      order.push("second begins");
      const name = (await tx.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))!.name;
      await tx.statements.run("UPDATE t SET name = ? WHERE id = 1", [`${name} then second`]);
    });
    // The second waits for the first's lock: it has not begun after the first had time to let it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(["first begins"]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first begins", "first commits", "second begins"]);
    expect((await db.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))!.name).toBe("first then second");
  });

  test("a write that waits for another process's past the wait is a 503 with Retry-After, and writes nothing", async () => {
    const impatient = createPostgresPort(cluster.url, { max: 2, writeWaitMs: 150 });
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = db.write(async (tx) => {
      await tx.statements.run("UPDATE t SET name = ? WHERE id = 1", ["held"]);
      firstStarted();
      await firstHolds;
    });
    await started;
    try {
      const refused = await impatient
        .write((tx) => tx.statements.run("UPDATE t SET name = ? WHERE id = 1", ["impatient"]))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(HttpError);
      expect([(refused as HttpError).status, (refused as HttpError).message, (refused as HttpError).headers]).toEqual([
        503,
        "The database is busy with other writes; nothing was changed. Try again shortly.",
        { "Retry-After": "2" },
      ]);
    } finally {
      releaseFirst();
      await first;
    }
    expect((await db.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))!.name).toBe("held");
    // Once the other write is done, the same write goes through.
    await impatient.write((tx) => tx.statements.run("UPDATE t SET name = ? WHERE id = 1", ["impatient"]));
    expect((await db.statements.get<{ name: string }>("SELECT name FROM t WHERE id = 1"))!.name).toBe("impatient");
    impatient.close();
  });

  test("drizzle's builder runs on it: inserts naming an INTEGER PRIMARY KEY with NULL get the next value", async () => {
    const { jobsTable } = await import("../../src/db/tables");
    const rows = await db.insert(jobsTable).values({ name: "a", runAt: 1, created: 1, updated: 1 }).returning();
    const again = await db.insert(jobsTable).values({ name: "b", runAt: 1, created: 1, updated: 1 }).returning();
    expect(again[0]!.id).toBe(rows[0]!.id + 1);
    expect(rows[0]!.payload).toEqual({});
  });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe("a database that is away", () => {
  test("at start: one line naming the database without its password", async () => {
    const port = await freePort();
    const away = createPostgresPort(`postgres://cairn:s3cret@127.0.0.1:${port}/cairn`, { migrateAt: 0 });
    const error = await away.ready().then(
      () => null,
      (e: unknown) => e,
    );
    away.close();
    expect(error).toBeInstanceOf(DatabaseUnreachable);
    expect((error as Error).message).toStartWith(`cannot reach the database postgres://cairn@127.0.0.1:${port}/cairn: `);
    expect((error as Error).message).not.toContain("s3cret");
    expect((error as Error).message).not.toContain("\n");
    expect(describeUrl("postgres://u:p@h:5/d?sslmode=require")).toBe("postgres://u@h:5/d");
  });

  test("while running: 503 with Retry-After, then answers again by itself when it is back", async () => {
    expect((await db.statements.get<{ n: number }>("SELECT count(*) AS n FROM t"))!.n).toBe(2);
    cluster.halt();
    try {
      const error = await db.statements.get("SELECT count(*) AS n FROM t").then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(503);
      expect((error as HttpError).headers["Retry-After"]).toBe("5");
      const failedWrite = await db
        .write(async (tx) => {
          await tx.statements.run("INSERT INTO t (id, name) VALUES (?, ?)", [9, "never"]);
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect((failedWrite as HttpError).status).toBe(503);
    } finally {
      cluster.resume();
    }
    expect((await db.statements.get<{ n: number }>("SELECT count(*) AS n FROM t"))!.n).toBe(2);
  });
});
