// Database: embedded migrations applied once, in order, with the schema version recorded.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, openDatabase, schemaVersion } from "../../src/db/sqlite/connection";
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

  test("a new database gets every migration once; a second run applies none", () => {
    const db = openDatabase(":memory:");
    expect(migrate(db, 1)).toEqual(migrations.map((m) => m.id));
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(migrate(db, 2)).toEqual([]);
    const rows = db.$client.query("SELECT id, applied_at FROM schema_migrations ORDER BY id").all();
    expect(rows).toEqual(migrations.map((m) => ({ id: m.id, applied_at: 1 })));
    const tables = db.$client
      .query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r: any) => r.name);
    expect(tables).toEqual(expect.arrayContaining(["users", "tokens", "groups", "group_members", "jobs", "job_schedules", "records"]));
  });

  test("the connection turns on WAL, foreign keys and a busy timeout", () => {
    const path = join(tmpdir(), `cairn-db-${crypto.randomUUID()}.db`);
    const db = openDatabase(path);
    const pragma = (name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    db.$client.close();
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
