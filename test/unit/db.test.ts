// Database: embedded migrations applied once, in order, with the schema version recorded.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/sqlite/connection";
import { migrate, schemaVersion } from "../../src/db/sqlite/migrate";
import { sqliteOf } from "../../src/db/sqlite/port";
import { migrations } from "../../src/db/sqlite/migrations/manifest";

const dir = join(import.meta.dir, "..", "..", "src", "db", "sqlite", "migrations");

describe("migrations", () => {
  test("the manifest embeds every generated migration, in journal order", () => {
    const journal = JSON.parse(readFileSync(join(dir, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    expect(migrations.map((m) => m.id)).toEqual(journal.entries.map((e) => e.tag));
    expect(migrations.map((m) => m.id).sort()).toEqual(files);
    for (const m of migrations) expect(m.sql).toBe(readFileSync(join(dir, `${m.id}.sql`), "utf8"));
  });

  test("a new database gets every migration once; a second run applies none", async () => {
    const db = openDatabase(":memory:");
    const sqlite = sqliteOf(db);
    expect(migrate(sqlite, 1)).toEqual(migrations.map((m) => m.id));
    expect(schemaVersion(sqlite)).toBe(migrations.length);
    expect(migrate(sqlite, 2)).toEqual([]);
    const rows = await db.statements.all("SELECT id, applied_at FROM schema_migrations ORDER BY id");
    expect(rows).toEqual(migrations.map((m) => ({ id: m.id, applied_at: 1 })));
    const tables = (await db.statements.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(["users", "tokens", "groups", "group_members", "jobs", "job_schedules", "records"]));
  });

  test("the connection turns on WAL, foreign keys and a busy timeout", async () => {
    const path = join(tmpdir(), `cairn-db-${crypto.randomUUID()}.db`);
    const db = openDatabase(path);
    const pragma = async (name: string) => Object.values((await db.statements.get<object>(`PRAGMA ${name}`))!)[0];
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("foreign_keys")).toBe(1);
    expect(await pragma("busy_timeout")).toBe(5000);
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  });
});

describe("README", () => {
  test("the configuration table lists every key", async () => {
    const { CONFIG_KEYS } = await import("../../src/config");
    const readme = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
    const listed = [...readme.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(CONFIG_KEYS));
  });
});
