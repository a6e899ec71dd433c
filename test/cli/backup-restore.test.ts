// `cairn restore`: only into an empty data directory, never a backup from a newer Cairn, never a
// damaged one; a backup from an older Cairn is migrated by the first start.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../../src/app";
import { loadConfig } from "../../src/config";
import { migrations } from "../../src/db/sqlite/migrations/manifest";
import { VERSION } from "../../src/version";
import { createTestApp, type TestApp } from "../helpers/app";
import { listing, readManifest, seedRecords, snapshotsIn } from "../helpers/backup";
import { cairn } from "../helpers/cli";
import { databaseEnv, dropDataDirDatabases, readRows, testEngine, writeDataDirConfig } from "../helpers/data-dir";

let root = "";
let app: TestApp;
let dest = "";
let snapshot = "";
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-restore-"));
  app = await createTestApp();
  await seedRecords(app, 3);
  dest = join(root, "backups");
  expect(cairn(["backup", dest, "--data", app.dataDir], {}, { clock: app.clock }).code).toBe(0);
  snapshot = join(dest, snapshotsIn(dest)[0]!);
});
afterAll(async () => {
  await app.close();
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

/** `cairn restore ARGS --data target` on the suite's engine (on PostgreSQL into a new empty database). */
const restore = async (args: string[], target: string) => cairn(["restore", ...args, "--data", target], await databaseEnv(target, { empty: true }));
/** What a restore puts at the top of a data directory beside files/: SQLite's database file, or on PostgreSQL the backed-up server's cairn.toml. */
const restoredConfigOrDatabase = () => (testEngine() === "sqlite" ? "cairn.db" : "cairn.toml");

const own = { level: migrations.length, last: migrations.at(-1)!.id };

describe("cairn restore", () => {
  test("restores the newest snapshot into a new directory, every checksum checked", async () => {
    const target = join(root, "fresh");
    const res = await restore([dest], target);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`restored ${snapshotsIn(dest)[0]} into ${target} in `);
    expect(res.stdout).toContain("every checksum matches");
    expect(res.stdout).toContain("3 records, 0 drafts, 0 communities, 3 users, 3 stored files");
    expect(readdirSync(target).sort()).toEqual([restoredConfigOrDatabase(), "files"]);
    await writeDataDirConfig(target);
    expect(await readRows(target, "SELECT count(*) AS n FROM records")).toEqual([{ n: 3 }]);
    expect(listing(join(target, "files"))).toEqual(prefixed(listing(join(app.dataDir, "files", "objects"))));
  });

  test("refuses a data directory that is not empty, and leaves it as it was", async () => {
    const target = join(root, "busy");
    mkdirSync(target);
    writeFileSync(join(target, "notes.txt"), "mine");
    const res = await restore([dest], target);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `cairn: ${target} is not empty (notes.txt): a backup is restored only into an empty data directory, never over live data. Give a new directory with --data.\n`,
    );
    expect(readdirSync(target)).toEqual(["notes.txt"]);
    const live = cairn(["restore", dest, "--data", app.dataDir]);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain(`cairn: ${app.dataDir} is not empty (`);
    expect(cairn(["restore", dest]).stderr).toBe("cairn: restore needs --data DIR: the new data directory\n");
  });

  test("refuses a backup from a newer Cairn, naming both versions", async () => {
    const manifestPath = join(snapshot, "manifest.json");
    const original = readFileSync(manifestPath, "utf8");
    const manifest = JSON.parse(original);
    manifest.cairnVersion = "9.0.0";
    manifest.migration = { level: own.level + 1, last: "9999_from_the_future", ids: [...manifest.migration.ids, "9999_from_the_future"] };
    writeFileSync(manifestPath, JSON.stringify(manifest));
    try {
      const target = join(root, "newer");
      const res = await restore([snapshot], target);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(
        `cairn: This backup was made by Cairn 9.0.0 at migration level ${own.level + 1} (9999_from_the_future); this Cairn ${VERSION} knows migrations up to level ${own.level} (${own.last}). Restore it with Cairn 9.0.0 or newer.\n`,
      );
      expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
    } finally {
      writeFileSync(manifestPath, original);
    }
  });

  test("refuses an archive whose database is from a newer Cairn before unpacking the rest", async () => {
    // An archive's database comes first: its migrations are read before any file is unpacked.
    const folder = join(root, "future");
    mkdirSync(folder);
    copyFileSync(join(snapshot, "cairn.db"), join(folder, "cairn.db"));
    const db = new Database(join(folder, "cairn.db"));
    db.query("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 0)").run();
    db.exec(`PRAGMA user_version = ${own.level + 1}`);
    db.close();
    const archive = join(root, "future.tar.gz");
    expect(Bun.spawnSync(["tar", "-czf", archive, "-C", folder, "cairn.db"]).exitCode).toBe(0);
    const target = join(root, "future-restored");
    const res = await restore([archive], target);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `cairn: This backup was made by a newer Cairn at migration level ${own.level + 1} (9999_from_the_future); this Cairn ${VERSION} knows migrations up to level ${own.level} (${own.last}). Restore it with a newer Cairn.\n`,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  test("refuses a damaged backup and leaves the target empty", async () => {
    const [id] = readManifest(snapshot).objects[1];
    const object = join(dest, "objects", id.slice(0, 2), id);
    const good = readFileSync(object);
    const bad = Buffer.from(good);
    bad[0] = bad[0]! ^ 0x20;
    writeFileSync(`${object}.bad`, bad);
    renameSync(object, `${object}.good`); // hard-linked to the live store: never written into
    renameSync(`${object}.bad`, object);
    try {
      const target = join(root, "damaged");
      const res = await restore([dest], target);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(new RegExp(`^cairn: object ${id} in the backup is damaged \\(MD5 [0-9a-f]{32}, the manifest says [0-9a-f]{32}\\); nothing was restored\\n$`));
      expect(readdirSync(target)).toEqual([]);
    } finally {
      renameSync(`${object}.good`, object);
    }
  });
});

/** Objects as listed under files/ (the restored store) from a listing of files/objects. */
function prefixed(objects: Record<string, string>) {
  return Object.fromEntries(Object.entries(objects).map(([k, v]) => [`objects/${k}`, v]));
}

describe("a backup from an older Cairn", () => {
  test("restores, and the first start applies the migrations it lacks", async () => {
    // A data directory as the previous migration level left it: every migration but the last,
    // applied as migrate() applies them. (No rows beyond what those migrations create: this proves
    // that the schema is carried forward, not how each table's data is.)
    const old = join(root, "old-data");
    mkdirSync(old);
    const db = new Database(join(old, "cairn.db"), { create: true });
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)");
    for (const m of migrations.slice(0, -1)) {
      for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
      db.query("INSERT INTO schema_migrations VALUES (?, 0)").run(m.id);
    }
    db.exec(`PRAGMA user_version = ${own.level - 1}`);
    db.close();
    const backups = join(root, "old-backups");
    const made = cairn(["backup", backups, "--data", old]);
    expect(made.code).toBe(0);
    expect(readManifest(join(backups, snapshotsIn(backups)[0]!)).migration).toEqual({
      level: own.level - 1,
      last: migrations.at(-2)!.id,
      ids: migrations.slice(0, -1).map((m) => m.id),
    });
    const target = join(root, "old-restored");
    const res = await restore([backups], target);
    expect(res.code).toBe(0);
    // SQLite's restored file stays at the backup's level until the first start; a restore into
    // PostgreSQL migrates the copy itself (backup/postgres/snapshot.ts): nothing is left to apply.
    if (testEngine() === "sqlite") {
      expect(res.stdout).toContain(`the backup is at migration level ${own.level - 1}; the first start (cairn serve --data ${target}) applies 1 newer migration(s)`);
    } else expect(res.stdout).not.toContain("newer migration(s)");
    await writeDataDirConfig(target);
    const services = createServices({ config: loadConfig({ flags: { DATA_DIR: target, HTTP: true }, env: {} }), log: () => {} });
    try {
      const { db } = services.deps;
      expect(await db.schemaVersion()).toBe(own.level);
      // SQLite's own record of it: the file's user_version and its migrations' table.
      if (testEngine() === "sqlite") {
        expect(await db.statements.get("PRAGMA user_version")).toEqual({ user_version: own.level });
        expect(await db.statements.get("SELECT id FROM schema_migrations ORDER BY id DESC LIMIT 1")).toEqual({ id: own.last });
      }
    } finally {
      await services.close();
    }
  });
});
