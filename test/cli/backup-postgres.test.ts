// Backups in PostgreSQL mode: `cairn backup` of a server on PostgreSQL writes the same format as on
// SQLite (the database copied inside one snapshot into the backup's cairn.db, plus the files);
// `cairn restore` with DATABASE_URL copies it into an empty PostgreSQL database, refuses one that
// holds data, and a PostgreSQL-made backup restores into SQLite too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checksumTables, copyDatabase } from "../../src/db/copy/copy";
import { postgresCopyEnd } from "../../src/db/postgres/copy-end";
import { createPostgresPort } from "../../src/db/postgres/port";
import { sqliteCopyEnd } from "../../src/db/sqlite/copy-end";
import { createTestApp, type TestApp } from "../helpers/app";
import { listing, readManifest, seedRecords, snapshotsIn } from "../helpers/backup";
import { cairn } from "../helpers/cli";
import { COMMUNITY_BODY } from "../helpers/communities";
import { emptyPostgresDatabase, type TestDatabase } from "../helpers/postgres";

let root = "";
let app: TestApp;
let source: TestDatabase;
let dest = "";
const databases: TestDatabase[] = [];

/** A configuration file naming `url` (the CLI tests run without the developer's CAIRN_* environment). */
function configFor(url: string): string {
  const path = join(root, `cairn-${databases.length}-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(path, `DATABASE_URL = "${url}"\n`);
  return path;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-backup-pg-"));
  app = await createTestApp({ DATABASE_URL: "" });
  await seedRecords(app, 3);
  expect((await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("pg-lab") })).status).toBe(201);
  // The PostgreSQL server's database: the SQLite app's, copied (its files stay in the app's data directory).
  source = await emptyPostgresDatabase();
  databases.push(source);
  await copyDatabase(sqliteCopyEnd(join(app.dataDir, "cairn.db")), postgresCopyEnd(source.url), { now: app.clock.now() });
  dest = join(root, "backups");
  const res = cairn(["backup", dest, "--data", app.dataDir, "--config", configFor(source.url)], {}, { clock: app.clock });
  expect(res.stderr).toBe("");
  expect(res.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await app?.close();
  for (const d of databases) await d.drop();
  rmSync(root, { recursive: true, force: true });
});

const snapshot = () => join(dest, snapshotsIn(dest)[0]!);

describe("cairn backup on PostgreSQL", () => {
  test("writes the SQLite-format backup: the database as of its snapshot, the files, a manifest saying the engine", async () => {
    const manifest = readManifest(snapshot());
    expect(manifest.engine).toBe("postgres");
    expect(manifest.counts).toMatchObject({ records: 3, drafts: 0, communities: 1, users: 3, objects: 3 });
    expect(readdirSync(snapshot()).sort()).toEqual(["cairn.db", "manifest.json"]);
    // Every table equal to the PostgreSQL database's (no upload was in progress, no job running).
    expect(await checksumTables(sqliteCopyEnd(join(snapshot(), "cairn.db")))).toEqual(await checksumTables(postgresCopyEnd(source.url)));
    const db = new Database(join(snapshot(), "cairn.db"), { readonly: true });
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "delete" });
    db.close();
    const verify = cairn(["backup", "--verify", dest]);
    expect(verify.stdout).toContain("all intact");
    expect(verify.code).toBe(0);
  });

  test("restores into an empty PostgreSQL database: every table equal, the files in the data directory", async () => {
    const target = await emptyPostgresDatabase();
    databases.push(target);
    const dir = join(root, "restored-pg");
    const res = cairn(["restore", dest, "--data", dir, "--config", configFor(target.url)]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("3 records, 0 drafts, 1 communities, 3 users, 3 stored files");
    expect(res.stdout).toContain("rebuilt the search indexes: 3 records,");
    // No cairn.db beside DATABASE_URL: the data directory holds the files, and a cairn.toml naming
    // the database restored into (a server started there later reads the restored data).
    expect(readdirSync(dir).sort()).toEqual(["cairn.toml", "files"]);
    expect(readFileSync(join(dir, "cairn.toml"), "utf8")).toBe(`DATABASE_URL = ${JSON.stringify(target.url)}\n`);
    expect(Object.keys(listing(join(dir, "files"))).length).toBe(3);
    expect(await checksumTables(postgresCopyEnd(target.url))).toEqual(await checksumTables(postgresCopyEnd(source.url)));
    const port = createPostgresPort(target.url);
    expect(await port.statements.get<{ n: number }>("SELECT count(*) AS n FROM record_index")).toEqual({ n: 3 });
    port.close();
  }, 120_000);

  test("refuses a PostgreSQL database that holds data (exit 2): nothing restored, no data directory made", async () => {
    const target = await emptyPostgresDatabase();
    databases.push(target);
    await copyDatabase(sqliteCopyEnd(join(app.dataDir, "cairn.db")), postgresCopyEnd(target.url), { now: app.clock.now() });
    const before = await checksumTables(postgresCopyEnd(target.url));
    const dir = join(root, "refused");
    const res = cairn(["restore", dest, "--data", dir, "--config", configFor(target.url)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^cairn: The database postgres:\/\/\S+ is not empty \(\w+(, \w+)*(, \.\.\.)? hold rows\): a backup is restored only into an empty database, never over live data\.\n$/,
    );
    expect(existsSync(dir)).toBe(false);
    expect(await checksumTables(postgresCopyEnd(target.url))).toEqual(before);
  }, 120_000);

  test("a PostgreSQL-made backup restores into SQLite, with the search indexes built", async () => {
    const dir = join(root, "restored-sqlite");
    const res = cairn(["restore", dest, "--data", dir]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("rebuilt the search indexes: 3 records,");
    const db = new Database(join(dir, "cairn.db"), { readonly: true });
    expect(db.query("SELECT count(*) AS n FROM record_fts WHERE record_fts MATCH 'seeded'").get()).toEqual({ n: 3 });
    expect(db.query("SELECT count(*) AS n FROM vocab_generic_fts WHERE vocab_generic_fts MATCH 'dataset'").get()).not.toEqual({ n: 0 });
    db.close();
  }, 120_000);
});
