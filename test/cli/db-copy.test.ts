// `cairn db copy`: a data directory's database copied into an empty PostgreSQL database or SQLite
// file, with a progress line per table, checked by row counts and checksums, refused into a
// database that holds data, and the other way (PostgreSQL to SQLite).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { checksumTables, copyDatabase, CopyMismatch, CopyRefused, verifyCopy } from "../../src/db/copy/copy";
import { copyPlan } from "../../src/db/copy/plan";
import { createPostgresPort } from "../../src/db/postgres/port";
import { postgresCopyEnd } from "../../src/db/postgres/copy-end";
import { openDatabase } from "../../src/db/sqlite/connection";
import { sqliteCopyEnd } from "../../src/db/sqlite/copy-end";
import { createTestApp, type TestApp } from "../helpers/app";
import { runCairn, seedRecords } from "../helpers/backup";
import { COMMUNITY_BODY } from "../helpers/communities";
import { emptyPostgresDatabase, freshPostgresDatabase, type TestDatabase } from "../helpers/postgres";
import { createDraft } from "../helpers/records";

let root = "";
let app: TestApp;
const databases: TestDatabase[] = [];
const rows = (path: string, table: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-db-copy-"));
  // Made on SQLite whichever engine the suite runs on: the copy's source is the data directory's file.
  app = await createTestApp({ DATABASE_URL: "" });
  await seedRecords(app, 3);
  await createDraft(app);
  expect((await app.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("copy-lab") })).status).toBe(201);
  // A deleted user's key stays used: the target's sequence must continue past it, not reuse it.
  const gone = await app.services.users.createUser(systemActor, { email: "gone@example.org", username: "gone", password: "gone-password-1" });
  await app.services.deps.db.statements.run("DELETE FROM users WHERE id = ?", [gone.id]);
  // Statistics' keys of two records: a plain rowid alias (no AUTOINCREMENT), whose PostgreSQL sequence must continue too.
  await app.services.deps.db.statements.run("INSERT INTO stats_keys (value) VALUES ('viewed-1'), ('viewed-2')");
}, 60_000);

afterAll(async () => {
  await app?.close();
  for (const d of databases) await d.drop();
  rmSync(root, { recursive: true, force: true });
});

const source = () => join(app.dataDir, "cairn.db");

describe("cairn db copy", () => {
  test("SQLite -> SQLite: a line per table, verified, the target's search index rebuilt", async () => {
    const target = join(root, "sqlite-target");
    const res = await runCairn(["db", "copy", "--data", app.dataDir, "--to", `sqlite:${target}`], { clock: app.clock });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`copying sqlite:${source()} to sqlite:${join(target, "cairn.db")}`);
    expect(res.stdout).toContain("  users: 3/3 rows\n");
    expect(res.stdout).toContain("  records: 3/3 rows\n");
    expect(res.stdout).toContain("  drafts: 1/1 rows\n");
    expect(res.stdout).toContain("  communities: 1/1 rows\n");
    expect(res.stdout).toMatch(/verified: \d+ tables, \d+ rows, the same row count and checksum on both sides/);
    expect(res.stdout).toContain("rebuilt the search indexes: 3 records,");
    const copied = join(target, "cairn.db");
    expect(rows(copied, "record_index")).toBe(4); // 3 records and the draft
    expect(rows(copied, "vocabulary_entries")).toBe(rows(source(), "vocabulary_entries"));
    // The FTS5 index was filled by the SQLite engine: a full-text match finds the seeded titles.
    const db = new Database(copied, { readonly: true });
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM record_fts WHERE record_fts MATCH 'seeded'").get()!.n).toBe(3);
    expect(db.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'users'").get()!.seq).toBe(4);
    db.close();
  }, 60_000);

  test("SQLite -> PostgreSQL: an empty database migrated, filled, verified, its search indexes built", async () => {
    const database = await emptyPostgresDatabase();
    databases.push(database);
    const res = await runCairn(["db", "copy", "--data", app.dataDir, "--to", database.url], { clock: app.clock });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^copying sqlite:\S+ to postgres:\/\/\S+\n/);
    expect(res.stdout).toContain("  users: 3/3 rows\n");
    expect(res.stdout).toContain("  records: 3/3 rows\n");
    expect(res.stdout).toContain("rebuilt the search indexes: 3 records,");
    expect(await checksumTables(postgresCopyEnd(database.url))).toEqual(await checksumTables(sqliteCopyEnd(source())));
    const port = createPostgresPort(database.url);
    expect(await port.statements.get<{ n: number }>("SELECT count(*) AS n FROM record_index")).toEqual({ n: 4 });
    // The planner's statistics made for every copied table, not left to autovacuum's next round.
    const unanalyzed = await port.statements.all<{ table: string }>(
      "SELECT relname AS \"table\" FROM pg_stat_user_tables WHERE last_analyze IS NULL AND last_autoanalyze IS NULL AND relname IN ('records', 'users', 'vocabulary_entries', 'record_parents')",
    );
    expect(unanalyzed).toEqual([]);
    // The full-text index's pending list merged (a search would read it through sequentially): nothing left to merge.
    expect(await port.statements.get("SELECT gin_clean_pending_list('record_fts_doc'::regclass) AS pages")).toEqual({ pages: 0 });
    port.close();
  }, 60_000);

  test("refuses a SQLite target that holds data, and the source itself (exit 2, nothing written)", async () => {
    const target = join(root, "sqlite-target");
    const before = rows(join(target, "cairn.db"), "users");
    const again = await runCairn(["db", "copy", "--data", app.dataDir, "--to", `sqlite:${target}`], { clock: app.clock });
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toMatch(/^cairn: the target sqlite:\S+ is not empty \(\w+(, \w+)*(, \.\.\.)? hold rows\): copy only into an empty database$/);
    expect(again.stdout).not.toContain("rows");
    expect(rows(join(target, "cairn.db"), "users")).toBe(before);
    const self = await runCairn(["db", "copy", "--data", app.dataDir, "--to", `sqlite:${app.dataDir}`], { clock: app.clock });
    expect(self.code).toBe(2);
    expect(self.stderr.trim()).toBe(`cairn: the target sqlite:${source()} is the source database`);
  }, 60_000);

  test("a target only migrated (a copy that failed before) counts as empty", async () => {
    const target = join(root, "migrated");
    mkdirSync(target);
    openDatabase(join(target, "cairn.db"), 0).close();
    const res = await runCairn(["db", "copy", "--data", app.dataDir, "--to", `sqlite:${target}`], { clock: app.clock });
    expect(res.code).toBe(0);
    expect(rows(join(target, "cairn.db"), "records")).toBe(3);
  }, 60_000);

  test("refuses a PostgreSQL database that holds data (exit 2), before migrating or writing anything", async () => {
    const database = await freshPostgresDatabase();
    databases.push(database);
    const port = createPostgresPort(database.url);
    await port.statements.run("INSERT INTO stats_state (key, value) VALUES ('marker', '1')");
    const res = await runCairn(["db", "copy", "--data", app.dataDir, "--to", database.url], { clock: app.clock });
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toMatch(/^cairn: the target postgres:\/\/\S+ is not empty \(stats_state hold rows\): copy only into an empty database$/);
    expect(await port.statements.get<{ n: number }>("SELECT count(*) AS n FROM users")).toEqual({ n: 0 });
    port.close();
  }, 60_000);

  test("wrong arguments exit 2 with one line", async () => {
    const none = await runCairn(["db", "copy", "--data", app.dataDir]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe("cairn: db copy needs --to postgres://… or --to sqlite:PATH (see cairn db --help)");
    const bad = await runCairn(["db", "copy", "--data", app.dataDir, "--to", "mysql://x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("cairn: --to takes postgres://user:password@host:5432/database or sqlite:PATH");
    const sub = await runCairn(["db", "move", "--data", app.dataDir]);
    expect(sub.code).toBe(2);
    expect(sub.stderr.trim()).toBe("cairn: unknown db command 'move' (try cairn db --help)");
  }, 60_000);

  test("PostgreSQL -> SQLite: a PostgreSQL data directory's database back into a SQLite file", async () => {
    // The PostgreSQL source, filled by the copy itself (a server on PostgreSQL would have made it).
    const database = await emptyPostgresDatabase();
    databases.push(database);
    const copied = await copyDatabase(sqliteCopyEnd(source()), postgresCopyEnd(database.url), { now: app.clock.now() });
    await verifyCopy(postgresCopyEnd(database.url), copied.tables);
    const target = join(root, "from-postgres");
    const res = await runCairn(["db", "copy", "--data", join(root, "pg-data"), "--config", writeConfig(database.url), "--to", `sqlite:${target}`], { clock: app.clock });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`to sqlite:${join(target, "cairn.db")}`);
    expect(res.stdout).toContain("  records: 3/3 rows\n");
    expect(res.stdout).toContain("rebuilt the search indexes: 3 records,");
    // The same rows as the SQLite original, table by table.
    expect(await checksumTables(sqliteCopyEnd(join(target, "cairn.db")))).toEqual(await checksumTables(sqliteCopyEnd(source())));
  }, 60_000);
});

function writeConfig(url: string): string {
  const path = join(root, `cairn-${databases.length}.toml`);
  writeFileSync(path, `DATABASE_URL = "${url}"\n`);
  return path;
}

describe("the copy's checks", () => {
  test("SQLite -> PostgreSQL: every table equal; the sequences continue past the source's", async () => {
    const database = await emptyPostgresDatabase();
    databases.push(database);
    const progress: string[] = [];
    const result = await copyDatabase(sqliteCopyEnd(source()), postgresCopyEnd(database.url), {
      now: app.clock.now(),
      readRows: 2, // batches cross row boundaries
      onProgress: (p) => progress.push(`${p.table} ${p.done}/${p.total}`),
    });
    expect(result.tables.map((t) => t.table)).toEqual(copyPlan().map((p) => p.name));
    expect(progress).toContain("users 0/3");
    expect(progress).toContain("users 2/3");
    expect(progress).toContain("users 3/3");
    // Parents first: users before the records and tokens that name them.
    const order = result.tables.map((t) => t.table);
    expect(order.indexOf("users")).toBeLessThan(order.indexOf("records"));
    expect(order.indexOf("record_parents")).toBeLessThan(order.indexOf("record_communities"));
    expect(await verifyCopy(postgresCopyEnd(database.url), result.tables)).toEqual(result.tables);
    const port = createPostgresPort(database.url);
    // The deleted user's id 4 is not handed out again.
    const next = await port.statements.get<{ id: number }>(
      "INSERT INTO users (email, username, password_hash, created, updated) VALUES ('new@example.org', 'new', 'x', 0, 0) RETURNING id",
    );
    expect(next).toEqual({ id: 5 });
    // A record viewed for the first time after the copy gets the next statistics key, not a copied one's.
    const key = await port.statements.get<{ key: number }>("INSERT INTO stats_keys (value) VALUES ('viewed-after-copy') RETURNING key");
    expect(key).toEqual({ key: 3 });
    port.close();
  }, 60_000);

  test("refuses a target at another schema level (a newer Cairn's): the tables would not match", async () => {
    const path = join(root, "newer", "cairn.db");
    mkdirSync(join(root, "newer"));
    const port = openDatabase(path, 0);
    const level = await port.schemaVersion();
    port.close();
    const db = new Database(path);
    db.exec(`PRAGMA user_version = ${level + 1}`);
    db.close();
    const refused = await copyDatabase(sqliteCopyEnd(source()), sqliteCopyEnd(path), { now: app.clock.now() }).then(
      () => "copied",
      (error: Error) => `${error instanceof CopyRefused}: ${error.message}`,
    );
    expect(refused).toBe(
      `true: the source is at schema level ${level} and the target at ${level + 1}: both must be at this Cairn's level (a server of this Cairn started on the source migrates it)`,
    );
    expect(rows(path, "users")).toBe(0);
  }, 60_000);

  test("a target that differs from its source is named: a changed value, a missing row", async () => {
    const tampered = async (name: string, change: string) => {
      const end = sqliteCopyEnd(join(root, name, "cairn.db"));
      const result = await copyDatabase(sqliteCopyEnd(source()), end, { now: app.clock.now() });
      const db = new Database(join(root, name, "cairn.db"));
      db.exec(change);
      db.close();
      return verifyCopy(end, result.tables).then(
        () => "verified",
        (error: Error) => `${error instanceof CopyMismatch}: ${error.message}`,
      );
    };
    expect(await tampered("changed", "UPDATE communities SET metadata = json_set(metadata, '$.title', 'Changed')")).toMatch(
      /^true: the copy of communities differs from the source \(checksum [0-9a-f]{12}…, the source's [0-9a-f]{12}…\)$/,
    );
    expect(await tampered("missing", "DELETE FROM drafts")).toBe("true: the copy of drafts holds 0 rows, the source 1");
    // Key order and spacing inside JSON are not differences (jsonb rewrites both).
    const reversed =
      "(SELECT '{' || group_concat(json_quote(key) || ' : ' || value, ' , ') || '}' FROM (SELECT key, CASE type WHEN 'text' THEN json_quote(value) ELSE value END AS value FROM json_each(document) ORDER BY key DESC))";
    expect(await tampered("reordered", `UPDATE records SET document = ${reversed}`)).toBe("verified");
  }, 60_000);
});
